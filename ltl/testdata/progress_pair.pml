// Two processes, each with a progress label: a cycle where only one of
// them runs still passes progress; a cycle of the idle loop alone does
// not, but it is unfair to the other two, which are always enabled.
// ftmc: check --non-progress
// expect non-progress: violated (non-progress cycle)
// ftmc: check --non-progress --fairness weak
// expect non-progress: holds
// ftmc: check --non-progress -D NOIDLE
// expect non-progress: holds

byte a, b;

active proctype P() {
	do
	:: a < 2 -> a++
	:: a == 2 -> progress: a = 0
	od
}

active proctype Q() {
	do
	:: b < 2 -> b++
	:: b == 2 -> progress_q: b = 0
	od
}

#ifndef NOIDLE
active proctype idle() {
	bit t;
	do
	:: t = 1 - t
	od
}
#endif
