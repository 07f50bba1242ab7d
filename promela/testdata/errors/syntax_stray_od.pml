// error: 2:23: expected a statement, found keyword 'od'
active proctype P() { od }
