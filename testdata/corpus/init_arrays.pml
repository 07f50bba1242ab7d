// Declarations with initial values: whole arrays set from one value, mtype
// arrays, locals initialised from parameters and globals, a channel local
// to a process, and arrays of records inside messages' values.
// Exercises: array initialisers, mtype arrays, local declarations with initialisers, local chan, typedef, run with arguments.
// ftmc: check
// expect: holds

mtype = { idle, busy };

typedef Pair { byte fst; byte snd = 2 };

byte fives[3] = 5;
mtype states[2] = idle;
Pair pairs[2];
int base = -4;

proctype worker(byte n; mtype st) {
	byte doubled = n * 2;
	int shifted = base + n;
	chan mine = [1] of { byte, mtype };
	mine!doubled, st;
	mine?doubled, st;
	assert(doubled == n * 2 && st == busy && shifted == n - 4);
	states[n - 1] = st
}

init {
	assert(fives[0] + fives[1] + fives[2] == 15);
	assert(states[0] == idle && states[1] == idle);
	assert(pairs[1].snd == 2 && pairs[0].fst == 0);
	run worker(1, busy);
	run worker(2, busy);
	_nr_pr == 1;
	assert(states[0] == busy && states[1] == busy)
}
