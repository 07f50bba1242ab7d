// error: 2:32: _priority is not supported by ftmc
active proctype P() { byte x = _priority }
