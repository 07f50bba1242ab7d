// error: 3:6: x redeclared \(previous declaration as variable at .*:2:6\)
byte x;
byte x;
