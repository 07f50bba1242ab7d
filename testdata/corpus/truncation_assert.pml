// An assertion that fails only because an assignment to a byte truncates:
// 200 + 100 stored in a byte is 44, so the guard x > 250 is never true and
// the sum falls below its operands.
// Exercises: byte overflow on assignment, assert, do/break.
// ftmc: check
// expect: violated (assertion)

byte x, y;

active proctype p() {
	do
	:: x < 200 -> x = x + 50
	:: y < 100 -> y = y + 25
	:: x >= 200 && y >= 100 -> break
	od;
	x = x + y;
	assert(x >= y)
}
