// error: 3:23: x is not a channel \(it is byte\)
byte x;
active proctype P() { x!1 }
