// error: 2:6: _pid is a predefined name
byte _pid;
