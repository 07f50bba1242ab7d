// error: 2:10: only a chan can be initialized with \[n\] of
byte b = [1] of { byte };
