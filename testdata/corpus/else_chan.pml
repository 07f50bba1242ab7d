// else beside channel operations: else is taken exactly when no receive or
// send option is executable, which gives a non-blocking receive and a
// non-blocking send that drops the message when the channel is full.
// (Spin translates it with a warning, "dubious use of 'else' combined
// with i/o".)
// Exercises: else with channel operations, buffered chan, full, len, do.
// ftmc: check
// expect: holds

chan c = [2] of { byte };
byte sent, dropped, got;

active proctype producer() {
	byte i;
	for (i : 1 .. 4) {
		if
		:: c!i -> sent++
		:: else -> dropped++
		fi
	}
	assert(sent + dropped == 4 && sent >= 2)
}

active proctype consumer() {
	byte v, idle;
	do
	:: c?v -> got++
	:: else -> idle++; if :: idle > 2 -> break :: else -> skip fi
	od;
	assert(got <= 4)
}
