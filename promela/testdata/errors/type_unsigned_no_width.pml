// error: 2:10: unsigned u needs a width
unsigned u;
