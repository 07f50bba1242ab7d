// error: 3:34: empty\(c\) can only be combined with && and \|\|
chan c = [1] of { byte };
active proctype P() { int x; x = empty(c) + 1 }
