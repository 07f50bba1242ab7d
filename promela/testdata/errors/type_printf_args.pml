// error: 3:23: printf format has 2 % directives but 1 arguments are given
byte x;
active proctype P() { printf("%d %d\n", x) }
