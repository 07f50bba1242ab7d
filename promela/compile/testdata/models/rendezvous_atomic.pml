// pan: 58 states (spin -a -o1 -o2 -o3 rendezvous_atomic.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Rendezvous and atomicity: a sender inside atomic loses control to a
// receiver outside; a receiver inside atomic takes it; an offer nobody
// takes inside atomic blocks the sequence; else beside a rendezvous send.
chan c = [0] of { byte };
chan d = [0] of { byte };
byte x, y, z;
active proctype s() {
	atomic { x = 1; c!1; x = 2; d!2; x = 3 };
	atomic {
		if
		:: c!3 -> y = 1
		:: else -> y = 2
		fi;
		y++
	}
}
active proctype r1() {
	byte v;
	c?v; z = z + v;
end:	do
	:: atomic { c?v -> z = z + v; z++ }
	od
}
active proctype r2() {
	byte v;
	atomic { d?v; z = z + v; z++ }
}
active proctype other() {
end:	x == 1 -> y = 5
}
