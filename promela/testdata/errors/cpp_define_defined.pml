// error: 2:9: "defined" cannot be used as a macro name
#define defined 1
