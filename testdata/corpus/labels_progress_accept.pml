// Labels with the progress and accept prefixes are ordinary labels for a
// safety search: they name states for non-progress and acceptance cycle
// checks, which this run does not ask for. goto may target them.
// Exercises: progress labels, accept labels, end labels, goto, do, timeout-free cycles.
// ftmc: check
// expect: holds

byte x;

active proctype cycler() {
progress_inc:
	do
	:: x < 3 -> x++
	:: x == 3 -> goto accept_reset
	od;
accept_reset:
	x = 0;
	goto progress_inc
}

active proctype observer() {
end_watch:
progress:
	do
	:: x > 3 -> assert(false)
	od
}
