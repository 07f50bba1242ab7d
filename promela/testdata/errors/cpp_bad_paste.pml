// error: 3:10: pasting "\+" and "-" in macro J does not give a valid token
#define J(a, b) a ## b
byte x = J(+, -);
