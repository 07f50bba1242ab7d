// error: 3:27: expected ';' or '}', found '\+'
chan c = [1] of { byte }; byte x;
active proctype P() { c?x + 1 }
