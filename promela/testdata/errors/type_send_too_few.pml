// error: 3:24: send on c: the channel carries 2 fields .*, found 1
chan c = [1] of { byte, byte };
active proctype P() { c!1 }
