// error: 2:10: only an unsigned variable can have a width
byte b : 3;
