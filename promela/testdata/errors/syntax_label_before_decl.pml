// error: 2:26: a declaration cannot follow a label
active proctype P() { L: byte x; skip }
