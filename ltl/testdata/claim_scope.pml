// A run for one property also answers for the model's assertions, as
// Spin's pan -a -N does, but past where Spin looks: Spin reports a failing
// assertion only "within scope of the claim", while the claim can still
// move, and a claim that blocks ends its search. The negation of
// from1 blocks in the initial state (x is 0, so the premise is false), and
// the negation of [] true blocks at once too (Spin reports that one only
// because its claim for [] true waits a step). ftmc goes on with the model
// alone where the claim blocks, so a holds means that the property holds
// and that no assertion fails.
// ftmc: check --ltl always
// expect always: violated (assertion)
// ftmc: check --ltl from1
// spin-differs: holds
// expect from1: violated (assertion)
// ftmc: check --ltl reach
// expect reach: violated (acceptance cycle)

byte x;

active proctype P() {
	x = 1;
	x = 2;
	assert(x == 3)
}

ltl always { [] true }
ltl from1 { (x == 1) -> <> (x == 3) }
ltl reach { [] (x < 2) }
