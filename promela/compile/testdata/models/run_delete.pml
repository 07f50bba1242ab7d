// pan: 563 states (spin -a -o1 -o2 -o3 run_delete.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Processes are removed only when they are the last one created; an
// earlier process that ends waits at its end state until then.
byte cnt;
proctype w(byte k) {
	cnt = cnt + k
}
proctype slow() {
	byte i;
	do
	:: i < 2 -> i++
	:: else -> break
	od
}
init {
	byte p;
	run slow();
	p = run w(2);
	run w(3);
	atomic { run w(1); run w(4) };
	_nr_pr == 1 -> assert(cnt == 10)
}
