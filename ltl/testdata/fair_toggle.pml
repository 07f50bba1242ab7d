// Process A toggles y for ever; B is always enabled until it sets f. Weak
// fairness forces B to move; without fairness A may run alone.
// ftmc: check --ltl eventually_f
// expect eventually_f: violated (acceptance cycle)
// ftmc: check --ltl eventually_f --fairness weak
// expect eventually_f: holds
// ftmc: check --ltl y_stable --fairness weak
// expect y_stable: violated (acceptance cycle)

bit y;
bool f;

active proctype A() {
	do
	:: y = 1 - y
	od
}

active proctype B() {
	f = true
}

ltl eventually_f { <> f }
ltl y_stable { <>[] (y == 1) }
