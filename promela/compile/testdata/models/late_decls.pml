// pan: 19 states (spin -a -o1 -o2 -o3 late_decls.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Declarations after the first statement are steps that set the variable
// (arrays: their first element).
active proctype p() {
	byte x = 1;
	x++;
	byte y = x;
	do
	:: y < 4 -> y++; byte z[2]; z[0] = 7; z[1]++; int k; k = z[1]
	:: else -> break
	od
}
