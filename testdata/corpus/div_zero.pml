// Division by zero, reached on one of two branches. Spin has no defined
// behaviour for it: both its simulator and its verifier die of the C
// arithmetic exception. ftmc reports it as a run-time error.
// Exercises: run-time error (division by zero), if, byte.
// spin-verdict: differs because Spin's verifier crashes (SIGFPE) instead of reporting division by zero
// ftmc: check
// expect: violated (runtime error)

byte x, y;

active proctype p() {
	if
	:: y = 2
	:: y = 0
	fi;
	x = 10 / y;
	assert(x == 5)
}
