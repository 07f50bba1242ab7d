// Three dining philosophers who take the left fork first: they can
// deadlock, so "philosopher 0 eats infinitely often" fails even under weak
// fairness; with an asymmetric last philosopher they cannot, and fairness
// then makes each one eat.
// ftmc: check --ltl eats0 --fairness weak
// expect eats0: violated (acceptance cycle)
// ftmc: check --ltl eats0 --fairness weak -D ASYM
// expect eats0: violated (acceptance cycle)
// ftmc: check --ltl no_deadlock -D ASYM
// expect no_deadlock: holds

#define N 3
bool fork[N];
byte eating[N];

proctype phil(byte i) {
	byte l = i, r = (i + 1) % N;
#ifdef ASYM
	if
	:: i == N - 1 -> l = (i + 1) % N; r = i
	:: else
	fi;
#endif
	do
	:: atomic { !fork[l] -> fork[l] = true };
	   atomic { !fork[r] -> fork[r] = true };
	   eating[i] = 1;
eat:	   eating[i] = 0;
	   fork[r] = false;
	   fork[l] = false
	od
}

init {
	atomic { run phil(0); run phil(1); run phil(2) }
}

ltl eats0 { []<> (eating[0] == 1) }
ltl no_deadlock { []<> (eating[0] + eating[1] + eating[2] > 0) }
