// pan: 62 states (spin -a -o1 -o2 -o3 last_nrpr.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// _last is part of the state when a model reads it.
byte x;
active [2] proctype p() {
	x = _last;
	x++;
	assert(_nr_pr <= 2)
}
