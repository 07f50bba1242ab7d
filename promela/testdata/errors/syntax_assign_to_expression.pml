// error: 3:23: cannot assign to x \+ 1: expected a variable
byte x;
active proctype P() { x + 1 = 2 }
