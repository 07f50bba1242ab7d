// error: 3:23: full\(c\) cannot be negated \(use nfull\)
chan c = [1] of { byte };
active proctype P() { !full(c) -> skip }
