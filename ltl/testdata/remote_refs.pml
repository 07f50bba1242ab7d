// Propositions that look into processes: P[pid]@label, P[pid]:var and
// len(chan). (Not _nr_pr: Spin counts its never claim as a process.)
// ftmc: check --ltl at_label
// expect at_label: violated (acceptance cycle)
// ftmc: check --ltl local_var
// expect local_var: holds
// ftmc: check --ltl queue
// expect queue: violated (acceptance cycle)
// ftmc: check --ltl procs
// expect procs: holds

chan c = [2] of { byte };

active proctype prod() {
	byte n;
	do
	:: c ! n -> n = (n + 1) % 3
	od
}

active proctype cons() {
	byte v;
	do
	:: c ? v ->
got:		skip
	od
}

ltl at_label { [] (cons[1]@got -> (len(c) <= 1)) }
ltl local_var { [] (prod[0]:n < 3) }
ltl queue { []<> (len(c) == 2) }
ltl procs { [] (prod[0]:n <= 2 && cons[1]:v <= 2) }
