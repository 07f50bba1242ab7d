// error: 3:23: inline calls nested too deeply
byte x;
inline loop(v) { v++; loop(v) }
active proctype P() { loop(x) }
