// A rendezvous send inside an atomic sequence: the handshake completes the
// sender's step and control passes with the message to the receiver, whose
// own atomic sequence continues without interleaving; the sender resumes
// afterwards. The observer therefore never sees the receiver half-done.
// Exercises: rendezvous inside atomic, atomic, rendezvous chan, assert.
// ftmc: check
// expect: holds

chan c = [0] of { byte };
byte x, y;

active proctype sender() {
	atomic {
		x = 1;
		c!5;
		x = 2
	}
}

active proctype receiver() {
	byte v;
	atomic {
		c?v;
		y = v;
		y = y + 1
	}
}

active proctype observer() {
	assert(y != 5)
}
