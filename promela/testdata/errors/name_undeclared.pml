// error: 2:23: undeclared variable y
active proctype P() { y = 1 }
