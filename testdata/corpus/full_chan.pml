// A send to a full buffered channel blocks: with nobody draining the
// channel the sender gets stuck, which is a deadlock; with DRAIN a
// consumer empties it and every process ends.
// Exercises: blocking send on a full channel, buffered chan, invalid end state, #ifdef, end label.
// ftmc: check
// expect: invalid end state
// ftmc: check -D DRAIN
// expect: holds

chan c = [2] of { byte };

active proctype filler() {
	byte i;
	for (i : 1 .. 3) {
		c!i
	}
}

#ifdef DRAIN
active proctype drainer() {
	byte v;
end:
	do
	:: c?v -> assert(v >= 1 && v <= 3)
	od
}
#endif
