// An assertion inside a d_step fails in the middle of the indivisible
// step; a second process can only observe the states before and after it.
// Exercises: d_step with a loop, assert inside d_step, active [N].
// ftmc: check
// expect: violated (assertion)

byte total;

active proctype adder() {
	byte i;
	d_step {
		i = 0;
		do
		:: i < 10 -> total = total + i; i++; assert(total != 21)
		:: else -> break
		od
	}
}

active proctype observer() {
	assert(total == 0 || total == 45)
}
