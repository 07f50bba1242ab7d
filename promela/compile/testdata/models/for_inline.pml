// pan: 543 states (spin -a -o1 -o2 -o3 for_inline.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// for loops with break, inline calls with labels inside, select with
// variable bounds and inside an inline.
byte a[4], i, lo = 1, s;
inline pick(v, h) {
	select (v : lo .. h);
	v++
}
active proctype p() {
	for (i : 0 .. 3) {
		a[i] = i;
		if :: i == 2 -> break :: else fi
	}
	pick(s, 3);
	for (i in a) { s = s + a[i] }
	select (i : 1 .. 40)
}
