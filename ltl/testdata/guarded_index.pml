// A proposition that cannot be evaluated where the claim's move does not
// depend on it is no error: Spin's claim evaluates [](k < 3 -> a[k] == 0)
// as one expression and reads a[k] only when k < 3. Where the move does
// depend on it, it is a run-time error (failures.pml).
// ftmc: check --ltl guarded
// expect guarded: holds
// ftmc: check --ltl guarded_or
// expect guarded_or: holds
// ftmc: check --ltl guarded_live --fairness weak
// expect guarded_live: holds
// ftmc: check --ltl unguarded
// expect unguarded: violated (runtime error)

byte a[3];
byte k;

active proctype P() {
	k = 4;
	k = 1;
	a[k] = 0
}

ltl guarded { [] (k < 3 -> a[k] == 0) }
ltl guarded_or { [] (k >= 3 || a[k] == 0) }
ltl guarded_live { [] (k < 3 -> <> (a[k] == 0)) }
ltl unguarded { [] (a[k] == 0) }
