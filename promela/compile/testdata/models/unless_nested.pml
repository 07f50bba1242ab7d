// pan: 59 states (spin -a -o1 -o2 -o3 unless_nested.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Nested unless: the outer escape has priority; escapes apply to every
// state inside, including those of a do loop and an atomic block.
byte x, y, stop;
active proctype p() {
	{
		{
			do
			:: x < 4 -> x++
			:: atomic { x == 2 -> y++; x++ }
			od
		} unless { y > 0 -> y = 10 }
	} unless { stop == 1 -> x = 99 };
	x = 0
}
active proctype q() {
	stop = 1
}
