// A three-stage pipeline over buffered channels, each end claimed by the
// only process that uses it (xs: the only sender, xr: the only receiver).
// The claims let partial-order reduction treat the sends and receives as
// local steps. The consumer checks that the values arrive in order; with
// BUG the middle stage swaps two of them.
// Exercises: xr, xs, buffered chan, do/break, assert.
// ftmc: check
// expect: holds
// ftmc: check -D BUG
// expect: violated (assertion)
// ftmc: check -D M=6
// expect: holds

#ifndef M
#define M 4
#endif

chan c = [2] of { byte };
chan d = [2] of { byte };

active proctype producer() {
	xs c;
	byte i;
	do
	:: i < M -> c!i; i++
	:: i == M -> break
	od
}

active proctype middle() {
	xr c;
	xs d;
	byte v, k;
	do
	:: k < M -> c?v;
#ifdef BUG
		if
		:: v == 1 -> v = 2
		:: v == 2 -> v = 1
		:: else -> skip
		fi;
#endif
		d!v; k++
	:: k == M -> break
	od
}

active proctype consumer() {
	xr d;
	byte w, n;
	do
	:: n < M -> d?w; assert(w == n); n++
	:: n == M -> break
	od
}
