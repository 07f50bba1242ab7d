// Lamport's bakery algorithm with tickets bounded by MAXT: a process whose
// next ticket would exceed the bound gives up choosing and starts again.
// Mutual exclusion holds for every bound; with BROKEN the doorway (the
// choosing flags) is left out, and two processes can enter together.
// Exercises: arrays, for (i : a .. b), blocking expressions, goto, if with else, active [N], #ifndef.
// ftmc: check -D N=2 -D MAXT=3
// expect: holds
// ftmc: check -D N=2 -D MAXT=2
// expect: holds
// ftmc: check -D N=3 -D MAXT=2
// expect: holds
// expect: slow
// ftmc: check -D N=2 -D MAXT=3 -D BROKEN
// expect: violated (assertion)

bit choosing[N];
byte number[N];
byte crit;

active [N] proctype customer() {
	byte j, max;
again:
#ifndef BROKEN
	choosing[_pid] = 1;
#endif
	max = 0;
	for (j : 0 .. N - 1) {
		if
		:: number[j] > max -> max = number[j]
		:: else -> skip
		fi
	}
	if
	:: max >= MAXT -> choosing[_pid] = 0; goto again
	:: else -> number[_pid] = max + 1
	fi;
	choosing[_pid] = 0;
	for (j : 0 .. N - 1) {
		choosing[j] == 0;
		number[j] == 0 || number[j] > number[_pid] || number[j] == number[_pid] && j >= _pid
	}
	crit++;
	assert(crit == 1);
	crit--;
	number[_pid] = 0;
	goto again
}
