// error: 3:10: macro MAX expects 2 arguments, found 1
#define MAX(a, b) ((a) > (b) -> (a) : (b))
byte x = MAX(1);
