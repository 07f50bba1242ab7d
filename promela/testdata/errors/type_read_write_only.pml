// error: 2:35: attempt to read the write-only variable _
active proctype P() { byte x; x = _ }
