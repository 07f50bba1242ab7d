// error: 3:1: x is a variable, not a type
byte x;
x y;
