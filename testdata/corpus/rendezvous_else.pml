// else with a rendezvous send: the send is executable only while a
// receiver is waiting at its receive, otherwise the sender takes else and
// counts a missed handshake. (Spin translates it with a warning, "dubious
// use of 'else' combined with i/o".)
// Exercises: rendezvous chan, else with a rendezvous send, receive with a constant, end label, assert.
// ftmc: check
// expect: holds

chan c = [0] of { byte };
byte handed, missed;

active proctype offerer() {
	byte i;
	for (i : 1 .. 3) {
		if
		:: c!i -> handed++
		:: else -> missed++
		fi
	}
	assert(handed + missed == 3)
}

active proctype taker() {
	byte v;
end:
	do
	:: c?v -> assert(v >= 1 && v <= 3)
	:: c?0 -> assert(false)	/* nobody offers 0: this option never matches */
	od
}
