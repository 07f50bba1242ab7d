// Bounded non-deterministic choice with select, and the two forms of for:
// over a range and over the indices of an array.
// Exercises: select (i : a .. b), for (i : a .. b), for (i in arr), arrays, short.
// ftmc: check
// expect: holds

short vals[5];
byte pick;
int total;

active proctype p() {
	byte i;
	select (pick : 2 .. 6);
	assert(pick >= 2 && pick <= 6);
	for (i : 0 .. 4) {
		vals[i] = i * pick
	}
	for (i in vals) {
		total = total + vals[i]
	}
	assert(total == 10 * pick);
	total = 0;
	for (i : pick .. 1) {	/* the bounds are values, so the range may be empty */
		total++
	}
	assert(total == 0)
}
