// error: 3:1: expected a declaration, proctype, init, never, ltl, typedef or inline, found 'x'
byte x;
x = 1;
