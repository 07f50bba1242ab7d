// error: 3:23: atomic proposition p can only be used in ltl formulas
atomic p = (1 == 1);
active proctype P() { p -> skip }
