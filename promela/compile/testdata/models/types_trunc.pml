// pan: 15 states (spin -a -o1 -o2 -o3 types_trunc.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Values are truncated to their type on assignment; arithmetic is done in
// 32-bit ints.
byte b; short s; int i; bit t; bool u; unsigned n : 3;
active proctype p() {
	b = 255; b++;
	s = 32767; s++;
	i = 2147483647; i++;
	t = 3; u = 2;
	n = 9;
	b = -1;
	s = 70000;
	i = 3 << 33;
	assert(b == 255 && s == 4464 && t == 1 && u == 0 && n == 1)
}
