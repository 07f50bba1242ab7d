// error: 3:26: expected an expression, found '}'
chan c = [1] of { byte };
active proctype P() { c! }
