// Remote references to a process that has ended: Spin removes it and reads
// its cleared memory, so P:i is 0 from then on (with or without the pid),
// and P[0]@L is false. Two ways of saying the same bound agree.
// ftmc: check --ltl le
// expect le: holds
// ftmc: check --ltl notgt
// expect notgt: holds
// ftmc: check --ltl settles3
// expect settles3: violated (acceptance cycle)
// ftmc: check --ltl settles0
// expect settles0: holds
// ftmc: check --ltl settles0pid
// expect settles0pid: holds
// ftmc: check --ltl atend
// expect atend: violated (acceptance cycle)

active proctype P() {
	byte i;
	do
	:: i < 3 -> i++
	:: else -> break
	od;
last:	skip
}

byte done; /* a global, so that the final state has a value to show */

active proctype Q() { done = 1 }

ltl le { [] (P:i <= 3) }
ltl notgt { [] !(P:i > 3) }
ltl settles3 { <>[] (P:i == 3) }
ltl settles0 { <>[] (P:i == 0) }
ltl settles0pid { <>[] (P[0]:i == 0) }
ltl atend { <>[] P[0]@last }
