// pan: 165 states (spin -a -o1 -o2 -o3 dproc_hidden.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// D_proctype, hidden and show variables, xr/xs, arrays indexed by
// expressions, division and modulo.
hidden byte tmp;
show byte seen;
chan c = [2] of { byte };
D_proctype producer() {
	xs c;
	byte i;
	do
	:: i < 5 -> tmp = i * 3 % 4; c!tmp / 2; i++
	:: else -> break
	od
}
active proctype consumer() {
	xr c;
	byte v, h[3];
end:	do
	:: c?v -> h[v % 3]++; seen = v
	od
}
init { run producer() }
