// error: 3:33: expected '\)', found ';'
byte x;
active proctype P() { x = (1 + 2; }
