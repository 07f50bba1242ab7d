// error: 3:23: cannot assign to mtype constant a
mtype = { a, b };
active proctype P() { a = 1 }
