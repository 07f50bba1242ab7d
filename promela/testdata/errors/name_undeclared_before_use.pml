// error: 2:23: undeclared variable g
active proctype P() { g = 1 }
int g;
