// pan: 77 states (spin -a -o1 -o2 -o3 rendezvous_many.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Rendezvous with several possible receivers, receivers in atomic
// sequences, a sender in an atomic sequence, and channels in messages.
chan req = [0] of { chan, byte };
chan r1 = [0] of { byte };
chan r2 = [0] of { byte };
byte got;
active proctype server() {
	chan back; byte v;
end:	do
	:: req?back, v -> back!v + 1
	:: atomic { req?back, v -> back!v + 2 }
	od
}
active proctype c1() {
	byte a;
	atomic { req!r1, 1; r1?a };
	got = got + a
}
active proctype c2() {
	byte a;
	req!r2, 5 -> r2?a;
	got = got + a
}
