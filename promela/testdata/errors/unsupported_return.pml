// error: 2:15: return \(inlines with a return value\) is not supported by ftmc
inline f(a) { return a + 1 }
active proctype P() { int x; f(x) }
