// Dining philosophers with forks as one-slot channels: when all pick up
// their left fork first the table can deadlock. With ORDERED the last
// philosopher picks up the right fork first, which breaks the cycle.
// Exercises: arrays of channels used as semaphores, active [N], _pid, invalid end state, end labels, #ifdef.
// ftmc: check -D N=3
// expect: invalid end state
// ftmc: check -D N=4
// expect: invalid end state
// ftmc: check -D N=3 -D ORDERED
// expect: holds

chan fork[N] = [1] of { bit };
byte eating;

active [N] proctype phil() {
	byte first = _pid, second = (_pid + 1) % N;
#ifdef ORDERED
	if
	:: _pid == N - 1 -> first = (_pid + 1) % N; second = _pid
	:: else -> skip
	fi;
#endif
	fork[_pid]!1;	/* lay down the left fork */
end:
	do
	:: fork[first]?1 ->
		fork[second]?1;
		eating++;
		assert(eating <= N / 2);
		eating--;
		fork[second]!1;
		fork[first]!1
	od
}
