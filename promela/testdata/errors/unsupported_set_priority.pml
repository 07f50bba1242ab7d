// error: 2:23: set_priority is not supported by ftmc
active proctype P() { set_priority(_pid, 2) }
