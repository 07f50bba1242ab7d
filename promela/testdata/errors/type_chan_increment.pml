// error: 3:24: arithmetic on channel c
chan c = [1] of { byte };
active proctype P() { c++ }
