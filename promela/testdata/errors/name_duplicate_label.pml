// error: 2:32: label L declared twice in P
active proctype P() { L: skip; L: skip }
