// pan: 27 states (spin -a -o1 -o2 -o3 chan_ops.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Buffered channel operations: sorted send, random receive, copy receive,
// polls, eval, len/full/empty, structures in messages, and a local
// channel deleted with its process.
typedef M { byte a; short b };
chan q = [3] of { byte, M };
byte r, s;
proctype loc() {
	chan l = [2] of { bit };
	l!1; l!0; l?r; l?<s>
}
active proctype p() {
	M m;
	m.a = 2; m.b = -3;
	q!!5, m; q!!1, m; m.b = 300; q!!5, m;
	full(q) -> q??5, m;
	q?[1, m] -> q??<eval(r + 1), m>;
	q?r, m;
	assert(len(q) == 1); nempty(q) && nfull(q);
	run loc();
	q?_, m
}
