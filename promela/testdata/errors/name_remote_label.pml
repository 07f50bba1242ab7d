// error: 4:20: proctype P has no label done
byte x;
active proctype P() { x = 1 }
never { do :: P[0]@done -> break :: else od }
