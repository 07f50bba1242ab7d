// error: 3:29: expected ';' or '}', found 'y'
byte x, y;
active proctype P() { x = 1 y = 2 }
