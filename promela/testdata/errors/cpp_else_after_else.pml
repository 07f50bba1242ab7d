// error: 5:1: #else after #else
#ifdef X
#else
byte x;
#else
#endif
