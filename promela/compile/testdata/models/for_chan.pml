// pan: 32 states (spin -a -o1 -o2 -o3 for_chan.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// for (m in c) runs over the messages of a channel (receiving each and
// sending it back), with a counter Spin adds to the process.
typedef M { byte a; bool b };
chan c = [3] of { M };
byte sum;
active proctype p() {
	M m;
	m.a = 1; c!m; m.a = 2; m.b = 1; c!m;
	for (m in c) {
		sum = sum + m.a
	}
	assert(sum == 3)
}
active proctype q() {
	M k;
	sum == 3 -> c?k
}
