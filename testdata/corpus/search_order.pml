// Two different violations at different depths: an assertion at the end of
// a long loop on one branch, a deadlock one step down the other. Spin's
// depth-first search meets the assertion first, a breadth-first search the
// deadlock; both are violations, so the run's verdict says only violated.
// Exercises: violations of different kinds in one model, if with blocking options, do, assert, invalid end state.
// ftmc: check
// expect: violated

byte x;

active proctype p() {
	if
	:: x = 1;
		do
		:: x < 20 -> x++
		:: x >= 20 -> break
		od;
		assert(x < 20)
	:: skip;
		x == 99	/* never true: the process is stuck here */
	fi
}
