// error: 2:8: expected a macro name after #define
#define
