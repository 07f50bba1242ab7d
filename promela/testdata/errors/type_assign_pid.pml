// error: 2:23: cannot assign to _pid
active proctype P() { _pid = 1 }
