// error: 3:29: some\(\.\.\.\) inside all\(\.\.\.\)
active proctype P() { byte pc }
atomic p = all(P:pc == 0 && some(P:pc == 1));
