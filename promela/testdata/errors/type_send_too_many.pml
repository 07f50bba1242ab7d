// error: 3:24: send on c: the channel carries 1 fields .*, found 2
chan c = [1] of { byte };
active proctype P() { c!1, 2 }
