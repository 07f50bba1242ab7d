// A property given as a never claim (the negation of []<>(x == 0)
// written by hand, with else and an accept label).
// ftmc: check
// expect never_0: violated (acceptance cycle)
// ftmc: check -D GOOD
// expect never_0: holds

byte x;

active proctype P() {
	do
	:: x < 2 -> x++
#ifdef GOOD
	:: x == 2 -> x = 0
#else
	:: x == 2 -> x = 1
#endif
	od
}

never {
T0_init:
	do
	:: (x != 0) -> goto accept_S1
	:: else -> goto T0_init
	od;
accept_S1:
	do
	:: (x != 0) -> goto accept_S1
	od
}
