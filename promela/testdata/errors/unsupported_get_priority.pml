// error: 2:32: get_priority is not supported by ftmc
active proctype P() { byte x = get_priority(_pid) }
