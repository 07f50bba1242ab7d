// error: 3:10: unterminated call of macro F
#define F(a) a
byte x = F(1;
