// error: 4:23: inline inc expects 1 arguments, found 2
byte x;
inline inc(v) { v++ }
active proctype P() { inc(x, x) }
