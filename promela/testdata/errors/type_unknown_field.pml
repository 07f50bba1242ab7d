// error: 4:25: s has no field g \(type T\)
typedef T { byte f };
T s;
active proctype P() { s.g = 1 }
