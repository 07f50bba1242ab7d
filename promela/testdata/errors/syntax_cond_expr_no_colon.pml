// error: 3:38: expected ':' in the conditional expression
byte x;
active proctype P() { x = (x > 0 -> 1) }
