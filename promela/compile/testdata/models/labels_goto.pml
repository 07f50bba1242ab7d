// pan: 20 states (spin -a -o1 -o2 -o3 labels_goto.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Labels on compound statements, gotos into loops and out of them, end
// labels on a do, a label at the end of a sequence.
byte x;
active proctype p() {
	goto B;
A:	x++;
B:	if
	:: x < 3 -> goto A
	:: else
	fi;
end:	do
	:: x > 0 -> x--
	:: x == 0 -> goto C
	od;
C:	{ x = 5; D: x = 6 };
	if
	:: x == 6 -> goto D2
	:: x != 6
	fi;
D2:
}
