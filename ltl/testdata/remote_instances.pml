// P:x without a pid while several processes run P names the one with the
// lowest pid, as Spin does (P[0]:i here, which is 1).
// ftmc: check --ltl first
// expect first: holds
// ftmc: check --ltl reaches
// expect reaches: holds
// ftmc: check --ltl second
// expect second: violated (acceptance cycle)

byte started; /* a global, so that the final state has a value to show */

active [2] proctype P() {
	byte i;
	i = _pid + 1;
	started++
}

ltl first { [] (P:i != 2) }
ltl reaches { <> (P:i == 1) }
ltl second { <> (P:i == 2) }
