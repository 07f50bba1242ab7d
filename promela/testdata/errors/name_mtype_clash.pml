// error: 3:6: a redeclared \(previous declaration as mtype constant
mtype = { a, b };
byte a;
