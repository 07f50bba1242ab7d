// pan: 13 states (spin -a -o1 -o2 -o3 timeout_mix.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// timeout is true only when no other process can move; it may guard an
// atomic sequence and be combined with other conditions.
chan c = [1] of { byte };
byte x;
active proctype a() {
	do
	:: c?x -> x++
	:: timeout && x < 3 -> atomic { c!x; x = 0 }
	:: timeout && x >= 3 -> break
	od
}
active proctype b() {
	c!1;
	(x > 1) -> c!2
}
