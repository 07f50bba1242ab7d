// A spawner that keeps creating workers while fewer than MAXP processes are
// alive; workers finish on their own, so new ones can start. The count of
// live processes never exceeds the limit.
// Exercises: _nr_pr as a guard, run, dynamic processes that terminate, timeout-free termination, end label.
// ftmc: check -D MAXP=3
// expect: holds
// ftmc: check -D MAXP=4
// expect: holds

byte started;

proctype worker() {
	assert(_nr_pr <= MAXP)
}

active proctype spawner() {
	do
	:: atomic { _nr_pr < MAXP && started < 5 -> run worker(); started++ }
	:: started == 5 -> break
	od
}
