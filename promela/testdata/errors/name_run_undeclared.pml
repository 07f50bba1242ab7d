// error: 2:12: run of undeclared proctype Q
init { run Q() }
