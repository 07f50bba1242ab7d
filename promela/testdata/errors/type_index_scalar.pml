// error: 3:24: x is not an array
byte x;
active proctype P() { x[1] = 2 }
