// error: 4:31: all\(\.\.\.\) refers to processes of P and of Q
active proctype P() { byte pc }
active proctype Q() { byte pc }
atomic bad = all(P:pc == 0 && Q:pc == 0);
