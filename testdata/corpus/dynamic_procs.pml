// Processes created dynamically in a loop, each with its own arguments; run
// returns the new pid. A process that has terminated disappears only when
// it is the most recently created one, and its pid is then reused, so a
// child's pid is at most its sequence number.
// Exercises: run with arguments in a loop, _pid, _nr_pr, pid-valued run expression, pid reuse, more than a few dynamic processes.
// ftmc: check -D K=6
// expect: holds
// ftmc: check -D K=4
// expect: holds

byte done;
byte sum;

proctype child(byte n; byte parent) {
	assert(_pid >= 1 && _pid <= n && parent == 0);
	atomic { sum = sum + n; done++ }
}

init {
	byte i;
	pid last;
	for (i : 1 .. K) {
		last = run child(i, _pid);
		assert(last >= 1 && last <= i)
	}
	done == K;
	assert(sum == K * (K + 1) / 2);
	_nr_pr == 1;
	assert(_nr_pr == 1)
}
