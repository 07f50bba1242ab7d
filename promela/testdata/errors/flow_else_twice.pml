// error: 2:45: else used twice in one if
active proctype P() { if :: else -> skip :: else -> skip fi }
