// error: 2:23: c_code is not supported by ftmc
active proctype P() { c_code { x++; } }
