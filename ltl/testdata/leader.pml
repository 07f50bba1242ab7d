// Chang and Roberts's leader election on a unidirectional ring of three:
// eventually exactly one leader, for ever; never two. Every process
// blocks or ends, so no run can starve one, with or without fairness.
// ftmc: check --ltl elected
// expect elected: holds
// ftmc: check --ltl elected --fairness weak
// expect elected: holds
// ftmc: check --ltl unique
// expect unique: holds

#define N 3
chan ring[N] = [N] of { byte };
byte nleaders;

proctype node(chan in, out; byte id) {
	byte m;
	out ! id;
	do
	:: in ? m ->
		if
		:: m > id -> out ! m
		:: m == id -> nleaders++; break
		:: else
		fi
	od
}

init {
	atomic {
		run node(ring[0], ring[1], 2);
		run node(ring[1], ring[2], 3);
		run node(ring[2], ring[0], 1)
	}
}

ltl elected { <>[] (nleaders == 1) }
ltl unique { [] (nleaders <= 1) }
