// Processes with a provided clause may only move while their condition
// holds: two steppers take turns strictly, driven by a shared turn
// variable. The clause guards every step, including the last one to the
// end of the body, so without RELEASE the stepper whose turn it is not
// can never terminate. (Spin allows globals and _pid in a provided clause,
// neither parameters nor locals.)
// Exercises: proctype with parameters and provided, active [N], run with arguments, _pid, init, atomic, #ifdef.
// ftmc: check
// expect: invalid end state
// ftmc: check -D RELEASE
// expect: holds

#define DONE 2

byte turn = 0;
byte count[2];

active [2] proctype stepper() provided (turn == _pid || turn == DONE) {
	byte i;
	for (i : 1 .. 3) {
		assert(turn == _pid);
		atomic { count[_pid]++; turn = 1 - _pid }
	}
}

proctype watcher(byte total) provided (count[0] + count[1] == 6) {
	assert(count[0] + count[1] == total && count[0] == 3);
#ifdef RELEASE
	turn = DONE
#endif
}

init {
	run watcher(6);
	run watcher(6)
}
