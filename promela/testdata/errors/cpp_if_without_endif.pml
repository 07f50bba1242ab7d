// error: 2:1: #if without #endif
#ifdef X
byte x;
