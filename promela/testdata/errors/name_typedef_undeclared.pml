// error: 2:1: undeclared type Msg
Msg m;
