// error: 3:23: all is not an inline declared before this call
byte x;
active proctype P() { all(x == 1) }
