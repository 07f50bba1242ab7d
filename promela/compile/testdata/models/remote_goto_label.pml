// pan: 34 states (spin -a -o1 -o2 -o3 remote_goto_label.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// A label on a goto that another process refers to (P[0]@L) becomes a
// state of its own: Spin puts a skip in front of the goto.
byte x;
active proctype P() {
L:	goto M;
M:	x++;
	if :: x < 3 -> goto L :: else fi
}
active proctype Q() {
	do
	:: P[0]@L -> x = x
	:: P[0]@M -> skip
	:: x >= 3 -> break
	od
}
