// Records and arrays: a typedef with an array field, an array of records,
// nested field access with computed indices, arrays of bits.
// Exercises: typedef, arrays, bit, byte, for (i : a .. b), assert.
// ftmc: check
// expect: holds

#define N 3

typedef Cell {
	byte val;
	bit dirty;
	short hist[2]
};

typedef Grid {
	Cell cells[N];
	byte count
};

Grid g;
bit seen[4];

active proctype writer() {
	byte i;
	for (i : 0 .. N - 1) {
		g.cells[i].val = i * 2 + 1;
		g.cells[i].hist[i % 2] = -i;
		g.cells[i].dirty = 1;
		g.count++;
		seen[i] = 1
	}
	assert(g.count == N);
	assert(g.cells[2].val == 5 && g.cells[2].hist[0] == -2 && g.cells[1].hist[1] == -1);
	assert(seen[3] == 0 && seen[0] + seen[1] + seen[2] == 3)
}

active proctype reader() {
	g.count == N;
	assert(g.cells[0].dirty && g.cells[1].val == 3)
}
