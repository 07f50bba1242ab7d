// error: 2:23: c_expr is not supported by ftmc
active proctype P() { c_expr { 1 } -> skip }
