// error: 3:27: P is a proctype, not a variable
byte x;
active proctype P() { x = P }
