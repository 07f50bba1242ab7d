// error: 3:27: integer constant too large
int x;
active proctype P() { x = 99999999999999999999 }
