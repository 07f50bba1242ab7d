// Variables declared hidden are left out of the state vector, so states
// that differ only in them are the same state; a scratch variable used
// only inside an atomic sequence is the intended use.
// Exercises: hidden, local variables, atomic, do, assert.
// ftmc: check
// expect: holds

hidden byte scratch;
byte a, b;

active [2] proctype p() {
	byte k;
	do
	:: k < 3 ->
		atomic {
			scratch = a;
			a = b;
			b = scratch;
			scratch = k
		};
		k++
	:: else -> break
	od;
	assert(a == 0 && b == 0)
}
