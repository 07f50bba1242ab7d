// error: 2:23: foo is not an inline declared before this call
active proctype P() { foo(1) }
