// pan: 57 states (spin -a -o1 -o2 -o3 dstep_mix.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// d_step as one step: with choices, loops, at the end of a process, inside
// atomic and as the first step of an option.
byte x, y, z;
active proctype p() {
	d_step { x = 1; if :: y == 0 -> y = 2 :: y = 3 fi; do :: x < 5 -> x++ :: else -> break od };
	atomic { z++; d_step { z++; z++ }; z++ };
	if
	:: d_step { x > 3 -> x = 0; y = 1 }
	:: d_step { x > 10 -> x = 9 }
	:: else -> skip
	fi;
	d_step { y++; z = y }
}
active proctype q() {
	do
	:: z < 3 -> z++
	:: z >= 3 -> break
	od
}
