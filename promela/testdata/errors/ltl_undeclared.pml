// error: 2:12: undeclared variable ready
ltl p { [](ready -> <>done) }
