// error: 2:14: '#' is not followed by a parameter of macro S
#define S(a) # b
