// The one known difference from Spin. The process blocks at once, so the
// only run is the initial state repeated for ever: every process is
// blocked, so the run is weakly fair, and it violates the property (which
// is false). Spin's pan -a -f misses this acceptance cycle when its claim
// has to move between an accepting and a non-accepting state while the
// model stutters: it applies its fairness rules only after program steps,
// not after stutter steps, so its verdict depends on the shape of the
// claim (with a claim that stays in its accepting state, as for <>(x == 1),
// it finds the cycle). ftmc reports the cycle.
// ftmc: check --ltl never_true
// expect never_true: violated (acceptance cycle)
// ftmc: check --ltl never_true --fairness weak
// spin-differs: holds
// expect never_true: violated (acceptance cycle)
// ftmc: check --ltl one --fairness weak
// expect one: violated (acceptance cycle)

byte x, y, z;

active proctype P() {
	do
	:: x == 2 -> x = 2
	od
}

ltl never_true { <>(((y > 0) V (z == 2)) && ((x == 0) && (x == 1))) }
ltl one { <> (x == 1) }
