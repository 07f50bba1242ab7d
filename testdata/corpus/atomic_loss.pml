// An atomic sequence that blocks part-way loses its atomicity: another
// process runs while it waits, and the invariant that the atomic block was
// meant to protect is observed broken.
// Exercises: atomic blocking mid-way (loss of atomicity), buffered chan, assert.
// ftmc: check
// expect: violated (assertion)

chan go = [1] of { bit };
byte a, b;

active proctype updater() {
	atomic {
		a++;
		go?1;	/* blocks until the helper has sent: atomicity is lost here */
		b++
	}
}

active proctype helper() {
	go!1
}

active proctype checker() {
	assert(a == b)
}
