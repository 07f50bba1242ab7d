// error: 3:23: label L has the name of a variable \(declared at .*:2:6\)
byte L;
active proctype P() { L: skip }
