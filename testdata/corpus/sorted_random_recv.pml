// Sorted send keeps a channel ordered; random receive takes the first
// matching message from anywhere in the buffer; receive with constants and
// eval() only matches messages with those field values.
// Exercises: sorted send !!, random receive ??, receive with constants, eval(), _ as a write-only field.
// ftmc: check
// expect: holds

chan c = [4] of { byte, byte };
byte want = 7;

active proctype p() {
	byte a, b;
	c!!5, 50;
	c!!2, 20;
	c!!7, 70;
	c!!3, 30;
	c?a, b;
	assert(a == 2 && b == 20);
	c??eval(want), b;
	assert(b == 70);
	c??5, _;
	assert(len(c) == 1);
	c?3, b;
	assert(b == 30 && empty(c))
}

active proctype q() {
	chan d = [3] of { byte };
	byte x;
	d!3; d!1; d!2;
	if
	:: d??2 -> d??x; assert(x == 3)
	:: d?x -> assert(x == 3)
	fi;
	d?x;
	assert(x == 1)
}
