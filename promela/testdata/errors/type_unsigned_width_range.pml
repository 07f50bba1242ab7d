// error: 2:14: the width of u must be between 1 and 32, found 40
unsigned u : 40;
