// pan: 33 states (spin -a -o1 -o2 -o3 atomic_nested.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Nested atomic blocks are one atomic sequence; an atomic ending in an if
// leaves through a join step; a goto out of an atomic ends it.
byte x, y;
active [2] proctype p() {
	atomic {
		x++;
		atomic { y++; x++ };
		if
		:: x > 2 -> y = 0
		:: else -> y++
		fi
	};
	atomic { x = x + 1; goto out; y = 7 };
out:	atomic { y == 0 || y > 0; L: x--; if :: x > 0 -> goto L :: else fi }
}
