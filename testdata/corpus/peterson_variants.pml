// Peterson's mutual exclusion for two processes, and two classic mistakes:
// SWAP sets turn before raising the flag, which lets both processes into
// the critical section; NOTURN drops the turn test from the waiting
// condition, which lets both wait for each other forever.
// Exercises: bool arrays, active [N], _pid, blocking expression statements, goto, labels, assert, #if/#elif.
// ftmc: check
// expect: holds
// ftmc: check -D SWAP
// expect: violated (assertion)
// ftmc: check -D NOTURN
// expect: invalid end state

bool flag[2];
byte turn;
byte incrit;

active [2] proctype user() {
	byte other = 1 - _pid;
again:
#if defined(SWAP)
	turn = other;
	flag[_pid] = true;
#else
	flag[_pid] = true;
	turn = other;
#endif
#ifdef NOTURN
	!flag[other];
#else
	(!flag[other] || turn == _pid);
#endif
	incrit++;
	assert(incrit == 1);
	incrit--;
	flag[_pid] = false;
	goto again
}
