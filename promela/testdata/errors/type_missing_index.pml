// error: 3:27: missing array index for a
byte a[3], x;
active proctype P() { x = a }
