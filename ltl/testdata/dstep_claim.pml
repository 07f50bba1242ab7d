// d_step sequences are single steps for the claim too.
// ftmc: check --ltl bounded
// expect bounded: holds
// ftmc: check --ltl reaches
// expect reaches: holds
// ftmc: check --ltl sees_odd
// expect sees_odd: violated (acceptance cycle)

byte x;

active proctype A() {
	do
	:: d_step { x = x + 1; x = x + 1; x = x % 6 }
	od
}

ltl bounded { [] (x < 6) }
ltl reaches { []<> (x == 4) }
ltl sees_odd { <> (x % 2 == 1) }
