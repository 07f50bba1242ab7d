// A channel variable that was never initialised is a run-time error when
// it is used; here one of two processes forgets to create its channel.
// Exercises: run-time error (uninitialised channel), local chan, chan parameters.
// ftmc: check
// expect: violated (runtime error)

proctype user(chan c) {
	c!1
}

init {
	chan good = [1] of { byte };
	chan bad;
	run user(good);
	run user(bad)
}
