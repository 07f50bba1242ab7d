// Mutual exclusion with an atomic test-and-set: the test of the lock and
// its setting are one indivisible step, so at most one process is ever in
// its critical section.
// Exercises: atomic, active [N], _pid, do, assert, end label.
// ftmc: check -D N=3
// expect: holds
// ftmc: check -D N=2
// expect: holds

bit lock;
byte incrit;

active [N] proctype user() {
	byte rounds;
	do
	:: rounds < 2 ->
		atomic { lock == 0 -> lock = 1 };
		incrit++;
		assert(incrit == 1);
		incrit--;
		lock = 0;
		rounds++
	:: else -> break
	od
}
