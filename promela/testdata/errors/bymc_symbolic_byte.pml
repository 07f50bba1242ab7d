// error: 2:10: symbolic parameters must be int, found byte
symbolic byte N;
