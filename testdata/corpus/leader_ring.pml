// Leader election in a unidirectional ring (Chang and Roberts): each node
// sends its identifier clockwise, forwards larger ones and drops smaller
// ones; the node that gets its own identifier back is the leader and
// announces itself around the ring. Exactly one leader is elected, the one
// with the largest identifier, and every node learns it.
// Exercises: arrays of channels, chan parameters, run with arguments, init, atomic, mtype, receive, if/else, _nr_pr.
// ftmc: check -D N=3
// expect: holds
// ftmc: check -D N=5
// expect: holds

mtype = { candidate, elected };

chan ring[N] = [N] of { mtype, byte };
byte leaders;
byte known[N];

proctype node(byte me; byte id; chan in, out) {
	byte v;
	out!candidate, id;
end:
	do
	:: in?candidate, v ->
		if
		:: v > id -> out!candidate, v
		:: v == id ->
			leaders++;
			assert(leaders == 1 && id == N);
			out!elected, id
		:: else -> skip
		fi
	:: in?elected, v ->
		known[me] = v;
		if
		:: v != id -> out!elected, v
		:: else -> skip
		fi;
		break
	od
}

init {
	byte k;
	atomic {
		for (k : 0 .. N - 1) {
			run node(k, N - k, ring[k], ring[(k + 1) % N])
		}
	}
	_nr_pr == 1;
	for (k : 0 .. N - 1) {
		assert(known[k] == N)
	}
}
