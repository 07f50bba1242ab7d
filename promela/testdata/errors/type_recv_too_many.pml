// error: 3:32: receive on c: the channel carries 1 fields .*, found 2
chan c = [1] of { byte };
active proctype P() { byte x; c?x, x }
