// A search for one property also reports a failing assertion, as pan -a
// -N does, and a proposition that cannot be evaluated (an array index out
// of bounds) is a run-time error, as in Spin, whether negated or not. Both
// for a safety property (breadth-first, bad prefixes) and a liveness one
// (nested depth-first search), with and without weak fairness.
// ftmc: check --ltl nev5
// expect nev5: violated (assertion)
// ftmc: check --ltl ev5
// expect ev5: violated (assertion)
// ftmc: check --ltl ev5 --fairness weak
// expect ev5: violated (assertion)
// ftmc: check --ltl oob
// expect oob: violated (runtime error)
// ftmc: check --ltl oobn
// expect oobn: violated (runtime error)
// ftmc: check --ltl oobl --fairness weak
// expect oobl: violated (runtime error)

byte x;
byte a[3];
byte k;

active proctype P() {
	x = 1;
	k = 4;
	assert(x == 2);
	x = 5
}

ltl nev5 { [] (x != 5) }
ltl ev5 { <> (x == 5) }
ltl oob { [] (a[k] == 0) }
ltl oobn { [] !(a[k] != 0) }
ltl oobl { []<> (a[k] == 0) }
