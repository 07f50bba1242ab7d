// error: 4:27: incomplete structure reference s
typedef T { byte f };
T s; byte x;
active proctype P() { x = s }
