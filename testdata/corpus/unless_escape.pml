// unless: the main sequence runs until its escape condition becomes
// executable, at which point the escape takes over at once, wherever the
// main sequence is. Escapes nest; the outer one has priority.
// Exercises: unless, nested unless, do, atomic, assert.
// ftmc: check
// expect: holds

byte stop, count, reason;

active proctype worker() {
	{
		{
			do
			:: count < 5 -> count++
			:: count >= 5 -> count = 0
			od
		} unless {
			stop == 2 -> reason = 2
		}
	} unless {
		stop == 1 -> reason = 1
	};
	assert(reason == stop)
}

active proctype stopper() {
	if
	:: stop = 1
	:: stop = 2
	fi
}
