// A receive as the escape of an unless: the worker computes until an abort
// message arrives, and the abort takes effect at the next step boundary.
// Exercises: unless with a receive as escape, buffered chan, mtype, do, goto.
// ftmc: check
// expect: holds

mtype = { abort };
chan ctl = [1] of { mtype };
byte work;
bit aborted;

active proctype worker() {
	{
		do
		:: work < 4 -> work++
		:: work == 4 -> goto finished
		od
	} unless {
		ctl?abort -> aborted = 1
	};
	assert(aborted && work <= 4);
finished:
	skip
}

active proctype controller() {
	if
	:: ctl!abort
	:: skip
	fi
}
