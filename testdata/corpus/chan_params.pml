// Channels as values: an array of channels, channels passed to processes as
// parameters, and a channel sent inside a message so that the receiver
// answers on it.
// Exercises: arrays of channels, chan parameters, chan in messages, run with arguments, init, _nr_pr.
// ftmc: check
// expect: holds

#define W 2

chan jobs = [W] of { byte, chan };
chan answers[W] = [1] of { byte };

proctype worker(chan in; byte id) {
	byte n;
	chan back;
end:
	do
	:: in?n, back -> back!n * n + id
	od
}

proctype client(chan mine; byte k) {
	byte r;
	jobs!k, mine;
	mine?r;
	assert(r == k * k || r == k * k + 1)
}

init {
	atomic {
		run worker(jobs, 0);
		run worker(jobs, 1);
		run client(answers[0], 2);
		run client(answers[1], 3)
	};
	assert(_nr_pr >= 3)
}
