// A safety property as a never claim that runs to its closing brace when
// the bad state is reached: Spin reports that the claim ended.
// ftmc: check
// expect never_0: violated
// ftmc: check -D SAFE
// expect never_0: holds

byte x;

active proctype P() {
	do
	:: x < 3 -> x++
#ifndef SAFE
	:: x == 3 -> x = 5
#endif
	:: x == 3 -> x = 0
	od
}

never {
	do
	:: x == 5 -> break
	:: else
	od
}
