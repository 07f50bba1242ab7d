// Inline definitions are expanded at their call sites with their arguments
// substituted, including nested inlines and inlines that declare nothing but
// use the caller's locals.
// Exercises: inline with parameters, nested inline, inline in a loop, arrays.
// ftmc: check
// expect: holds

byte a[4];

inline swap(x, y) {
	byte tmp;
	tmp = x;
	x = y;
	y = tmp
}

inline order(i, j) {
	if
	:: a[i] > a[j] -> swap(a[i], a[j])
	:: else -> skip
	fi
}

inline sort4() {
	order(0, 1); order(2, 3);
	order(0, 2); order(1, 3);
	order(1, 2)
}

active proctype sorter() {
	byte k;
	a[0] = 4; a[1] = 1; a[2] = 3; a[3] = 2;
	sort4();
	for (k : 0 .. 2) {
		assert(a[k] <= a[k + 1])
	}
	assert(a[0] == 1 && a[3] == 4)
}
