// error: 2:7: division by zero in #if expression
#if 1 / 0
#endif
