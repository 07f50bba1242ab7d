// A deadlock: two processes each wait for a message that the other sends
// only after receiving, so the system stops with neither at an end label.
// Exercises: rendezvous, invalid end state, buffered chan, mtype.
// ftmc: check
// expect: invalid end state

mtype = { token };
chan a = [1] of { mtype };
chan b = [1] of { mtype };

active proctype left() {
	a?token;
	b!token
}

active proctype right() {
	b?token;
	a!token
}
