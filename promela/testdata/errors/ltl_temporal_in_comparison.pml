// error: 3:9: temporal operator \[\] inside an expression
byte x;
ltl p { [] x == 1 }
