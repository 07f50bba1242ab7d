// Integer types and what assignment does to values that do not fit: byte,
// short and unsigned fields wrap around, bit and bool keep the lowest bit,
// int is 32-bit two's complement.
// Exercises: bit, bool, byte, short, int, unsigned x : N, overflow and truncation on assignment.
// ftmc: check
// expect: holds

bit b;
bool t;
byte by;
short sh;
int in;
unsigned u : 3;
unsigned w : 5 = 31;

active proctype p() {
	by = 255;
	by = by + 1;
	assert(by == 0);
	by = 0;
	by--;
	assert(by == 255);
	by = 300;
	assert(by == 44);
	sh = 32767;
	sh++;
	assert(sh == -32768);
	sh = 70000;
	assert(sh == 4464);
	u = 7;
	u++;
	assert(u == 0);
	u = 13;
	assert(u == 5);
	w++;
	assert(w == 0);
	b = 2;
	assert(b == 0);
	b = 3;
	assert(b == 1);
	t = 5 > 3;
	assert(t);
	in = 2147483647;
	in = in + 1;
	assert(in == -2147483647 - 1);
	in = -7 / 2;
	assert(in == -3 && -7 % 2 == -1)
}
