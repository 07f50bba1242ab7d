// error: 3:1: #error N must be defined
#ifndef N
#error N must be defined
#endif
