// error: 2:41: y redeclared in P
active proctype P() { byte y; skip; int y }
