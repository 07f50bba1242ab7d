// error: 3:27: expected an expression, found ';'
byte x;
active proctype P() { x = ; }
