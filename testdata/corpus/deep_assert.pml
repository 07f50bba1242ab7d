// An assertion violation more than ten thousand steps from the initial
// state: a verifier with a small depth bound misses it (Spin's default
// bound is 10000 steps), an exhaustive search finds it.
// Exercises: assertion violation deep in the state space, short, do, bit.
// ftmc: check
// expect: violated (assertion)
// ftmc: check -D LIMIT=5000
// expect: holds

#ifndef LIMIT
#define LIMIT 12000
#endif

short n;
bit phase;

active proctype counter() {
	do
	:: n < LIMIT -> n++
	:: n == LIMIT -> break
	od;
	assert(n < 10000)
}

active proctype toggler() {
end:
	do
	:: phase = 1 - phase
	od
}
