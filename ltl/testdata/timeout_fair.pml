// A process whose only way on is timeout: it can move only when no other
// process can, so while its partner spins it is blocked, and weak
// fairness does not help; once the partner stops, the timeout fires.
// ftmc: check --ltl recovers
// expect recovers: violated (acceptance cycle)
// ftmc: check --ltl recovers --fairness weak
// expect recovers: violated (acceptance cycle)
// ftmc: check --ltl recovers --fairness weak -D STOPS
// expect recovers: holds

bool recovered;
byte k;

active proctype watchdog() {
	timeout -> recovered = true
}

active proctype worker() {
	do
#ifdef STOPS
	:: k < 3 -> k++
	:: k == 3 -> break
#else
	:: k = (k + 1) % 3
#endif
	od
}

ltl recovers { <> recovered }
