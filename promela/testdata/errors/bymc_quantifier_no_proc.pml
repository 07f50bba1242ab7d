// error: 3:12: some\(\.\.\.\) must refer to a process
byte x;
atomic p = some(x == 1);
