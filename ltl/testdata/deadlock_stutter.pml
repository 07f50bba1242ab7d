// Two processes take two locks in opposite orders and may deadlock. The
// deadlocked state repeats for ever, so "each eventually finishes" fails.
// ftmc: check --ltl finish
// expect finish: violated (acceptance cycle)
// ftmc: check --ltl finish --fairness weak
// expect finish: violated (acceptance cycle)
// ftmc: check --ltl safe
// expect safe: holds

bool a, b;
byte fin;

active proctype P() {
	atomic { !a -> a = true };
	atomic { !b -> b = true };
	b = false; a = false;
	fin++
}

active proctype Q() {
	atomic { !b -> b = true };
	atomic { !a -> a = true };
	a = false; b = false;
	fin++
}

ltl finish { <> (fin == 2) }
ltl safe { [] (fin <= 2) }
