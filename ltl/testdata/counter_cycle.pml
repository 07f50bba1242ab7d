// One process counts modulo 4: recurrence and persistence properties.
// ftmc: check --ltl recur
// expect recur: holds
// ftmc: check --ltl persist
// expect persist: violated (acceptance cycle)
// ftmc: check --ltl order
// expect order: holds
// ftmc: check --ltl wrong
// expect wrong: violated (acceptance cycle)

byte x;

active proctype count() {
	do
	:: x = (x + 1) % 4
	od
}

ltl recur { []<> (x == 3) }
ltl persist { <>[] (x != 0) }
ltl order { [] ((x == 1) -> ((x == 1) U (x == 2))) }
ltl wrong { [] ((x == 1) -> ((x == 1) U (x == 3))) }
