// pan: 4070 states (spin -a -o1 -o2 -o3 else_nested.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// else belongs to the state it is in: in a nested if that is the first
// step of an option, else is tried after the inner options only.
byte x, y;
active proctype p() {
	do
	:: if
	   :: x == 0 -> x = 1
	   :: else -> y++
	   fi
	:: x == 1 -> x = 2
	:: false -> x = 77
	:: skip; skip; skip; printf("hi\n"); skip -> y = y + 2
	:: y > 4 -> break
	od
}
