// error: 3:8: inline f redeclared
inline f() { skip }
inline f() { skip }
