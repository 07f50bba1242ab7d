// error: 2:9: expected a number or '\(' in #if expression, found '\)'
#if 1 + )
#endif
