// error: 3:14: a structure \(t\) cannot be a proctype parameter
typedef T { byte f };
proctype P(T t) { skip }
