// pan: 7 states (spin -a -o1 -o2 -o3 provided_pc.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// provided clauses, remote references and pc_value.
byte turn;
proctype A() provided (turn == 0) {
L:	turn = 1;
	goto L
}
proctype B() provided (turn == 1) {
M:	turn = 0;
	goto M
}
init {
	atomic { run A(); run B() };
	do
	:: A[1]@L -> assert(pc_value(1) == 1)
	:: B[2]@M && turn == 1 -> break
	od
}
