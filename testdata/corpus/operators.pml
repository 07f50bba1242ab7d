// C operators with Spin's precedence and associativity, each checked
// against a value computed by hand; the conditional expression
// (c -> a : b) nests and mixes with arithmetic.
// Exercises: arithmetic, bitwise, shift, logical, comparison operators, unary minus, ~, !, conditional expression, short, int.
// ftmc: check
// expect: holds

int r;
short s = -5;
byte b = 6;

active proctype p() {
	assert(2 + 3 * 4 == 14);
	assert((2 + 3) * 4 == 20);
	assert(20 - 6 - 4 == 10);
	assert(100 / 10 / 5 == 2);
	assert(17 % 5 * 2 == 4);
	assert(1 << 2 + 1 == 8);
	assert(256 >> 2 >> 1 == 32);
	assert((6 & 3 | 8) == 10);
	assert((6 ^ 3 & 1) == 7);
	assert((5 | 2 ^ 1) == 7);
	assert(3 < 4 == 1);
	assert(1 + 1 == 2 && 3 > 2 || 0);
	assert(!0 && !(1 > 2));
	assert(0 || 1 && 0 || 1);
	assert(~0 == -1 && ~5 == -6);
	assert(-s == 5 && - -s == -5);
	assert(-7 / 2 == -3 && -7 % 3 == -1);
	assert(b * b > 30 && b * b < 40);
	r = (b > 5 -> 100 : 200) + 1;
	assert(r == 101);
	r = (b < 5 -> 1 : (s < 0 -> 2 : 3));
	assert(r == 2);
	r = (s != -5 -> 1 : 2) * (b == 6 -> 10 : 20);
	assert(r == 20);
	r = 1 << 30;
	r = r * 2;
	assert(r < 0);
	assert(b >= 6 && b <= 6 && b != 7);
	assert((b & 1) == 0 && (b & 2) == 2);
	b++;
	b = b - -1;
	assert(b == 8)
}
