// B waits for a message that never comes, so it is blocked and weak
// fairness asks nothing of it; C is enabled until it runs, so fairness
// makes it run.
// ftmc: check --ltl c_runs
// expect c_runs: violated (acceptance cycle)
// ftmc: check --ltl c_runs --fairness weak
// expect c_runs: holds
// ftmc: check --ltl b_runs --fairness weak
// expect b_runs: violated (acceptance cycle)

chan q = [1] of { byte };
byte x;
bool bdone, cdone;

active proctype A() {
	do
	:: x = (x + 1) % 3
	od
}

active proctype B() {
	byte m;
	q ? m;
	bdone = true
}

active proctype C() {
	cdone = true
}

ltl c_runs { <> cdone }
ltl b_runs { <> bdone }
