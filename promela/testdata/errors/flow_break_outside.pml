// error: 2:23: break outside a do or for loop
active proctype P() { break }
