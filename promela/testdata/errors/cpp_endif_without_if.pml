// error: 3:1: #endif without #if
byte x;
#endif
