// The never claim does not move inside an atomic sequence, so states in
// the middle of one are invisible to the property; when the sequence
// blocks half-way, atomicity is lost and the claim sees the state.
// ftmc: check --ltl zero
// expect zero: holds
// ftmc: check --ltl zero -D BLOCK
// expect zero: violated (acceptance cycle)

byte x;
bool go;

active proctype A() {
	do
	:: atomic {
		x = 1;
#ifdef BLOCK
		go;
#endif
		x = 0
	   }
	od
}

active proctype B() {
	do
	:: go = !go
	od
}

ltl zero { [] (x == 0) }
