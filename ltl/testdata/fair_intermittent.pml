// B can move only while y is 1; A toggles y. B is enabled infinitely often
// but not continuously, so weak fairness does not force it to move (strong
// fairness would).
// ftmc: check --ltl eventually_f
// expect eventually_f: violated (acceptance cycle)
// ftmc: check --ltl eventually_f --fairness weak
// expect eventually_f: violated (acceptance cycle)

bit y;
bool f;

active proctype A() {
	do
	:: y = 1 - y
	od
}

active proctype B() {
	y == 1;
	f = true
}

ltl eventually_f { <> f }
