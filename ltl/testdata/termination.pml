// Runs that end count as the final state repeated for ever (Spin's
// stutter): the process terminates, so <> done holds, and [] !done fails
// on the repeated final state.
// ftmc: check --ltl ends
// expect ends: holds
// ftmc: check --ltl never_done
// expect never_done: violated (acceptance cycle)
// ftmc: check --ltl stays
// expect stays: holds

byte x;
bool done;

active proctype P() {
	x = 1;
	x = 2;
	done = true
}

ltl ends { <> done }
ltl never_done { [] !done }
ltl stays { <>[] (done && x == 2) }
