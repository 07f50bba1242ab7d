// error: 3:8: the length of array a must be a constant, found n
byte n = 3;
byte a[n];
