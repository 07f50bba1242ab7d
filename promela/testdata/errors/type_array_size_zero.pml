// error: 2:8: the length of array a must be at least 1, found 0
byte a[0];
