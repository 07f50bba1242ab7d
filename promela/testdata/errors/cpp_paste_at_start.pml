// error: 2:11: '##' cannot begin a macro body
#define P ## x
