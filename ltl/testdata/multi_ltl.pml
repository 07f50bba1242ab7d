// Several properties in one model, two of them unnamed (Spin calls those
// ltl_0, ltl_1, ... counting the unnamed blocks only).
// ftmc: check
// expect ltl_0: holds
// expect named: violated (acceptance cycle)
// expect ltl_1: violated (acceptance cycle)
// expect: violated

byte x;

active proctype P() {
	do
	:: x < 2 -> x++
	:: x == 2 -> x = 0
	od
}

ltl { [] (x <= 2) }
ltl named { <>[] (x == 2) }
ltl { [] (x == 0 -> (x == 0 U x == 2)) }
