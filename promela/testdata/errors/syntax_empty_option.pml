// error: 2:29: expected a statement, found keyword 'od'
active proctype P() { do :: od }
