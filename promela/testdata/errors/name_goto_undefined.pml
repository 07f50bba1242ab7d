// error: 2:28: undefined label nowhere in P
active proctype P() { goto nowhere }
