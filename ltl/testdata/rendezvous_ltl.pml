// Rendezvous channels: a request and its grant happen in one step each;
// every request is eventually granted, under fairness.
// ftmc: check --ltl granted
// expect granted: violated (acceptance cycle)
// ftmc: check --ltl granted --fairness weak
// expect granted: holds
// ftmc: check --ltl alternate
// expect alternate: holds

chan req = [0] of { byte };
chan grant = [0] of { byte };
bool waiting;
byte grants;

active proctype client() {
	do
	:: waiting = true;
	   req ! 1;
	   grant ? _;
	   waiting = false
	od
}

active proctype server() {
	do
	:: req ? _ -> grant ! 1; grants = (grants + 1) % 2
	od
}

active proctype noise() {
	bit b;
	do
	:: b = 1 - b
	od
}

ltl granted { [] (waiting -> <> !waiting) }
ltl alternate { [] (grants <= 1) }
