// error: 3:34: invalid use of channel c in an expression
chan c = [1] of { byte };
active proctype P() { int x; x = c + 1 }
