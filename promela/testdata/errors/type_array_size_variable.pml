// error: 3:8: the length of array a must be a constant, found n
byte n;
byte a[n];
