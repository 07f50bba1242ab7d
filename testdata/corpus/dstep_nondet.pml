// Inside d_step, Spin resolves non-determinism by taking the first
// executable option, so only one outcome is possible; the same selection
// in an atomic sequence branches. (The d_step starts with a plain
// statement: Spin guards a d_step that starts with a selection by one of
// the options' conditions, a quirk this corpus does not depend on.)
// Exercises: d_step with non-determinism, d_step with a loop, atomic with non-determinism, -D, #if.
// ftmc: check -D MODE=0
// expect: holds
// ftmc: check -D MODE=1
// expect: violated (assertion)

byte x, sum;

active proctype p() {
#if MODE == 0
	d_step {
		sum = 0;
		if
		:: x > 5 -> x = 9
		:: x = 1
		:: x = 2
		fi;
		do
		:: sum < 10 -> sum = sum + x
		:: sum >= 10 -> break
		:: sum = 100
		od
	};
#else
	atomic {
		if
		:: x = 1
		:: x = 2
		fi;
		do
		:: sum < 10 -> sum = sum + x
		:: sum >= 10 -> break
		od
	};
#endif
	assert(x == 1 && sum == 10)
}
