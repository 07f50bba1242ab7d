// error: 4:20: proctype P has no local variable y
active proctype P() { byte z = 1 }
byte x;
never { do :: P[0]:y == 1 -> break :: else od }
