// error: 3:1: expected '}' at the end of the ltl formula, found end of file
ltl p { []true
