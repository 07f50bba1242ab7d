// pan: 32 states (spin -a -o1 -o2 -o3 atomic_block.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// An atomic sequence that blocks in the middle loses atomicity and regains
// it when it can continue; rendezvous inside atomic passes control.
chan c = [0] of { byte };
chan d = [1] of { byte };
byte n;
active proctype a() {
	atomic { n++; d?_; n++; c!n; n++ }
}
active proctype b() {
	byte v;
	atomic { d!1; c?v; n = n + v; n++ }
}
active proctype w() {
	n > 0 -> n = n * 2
}
