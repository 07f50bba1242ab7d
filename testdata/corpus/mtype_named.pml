// Message types: the anonymous mtype, two named mtypes, printm and printf,
// mtype values in messages and in comparisons.
// Exercises: mtype, mtype:name, printf, printm, buffered chan, if/else.
// ftmc: check
// expect: holds

mtype = { ack, nak, err };
mtype:fruit = { apple, pear, plum };
mtype:color = { red, green };

chan q = [2] of { mtype, mtype:fruit };

mtype last = nak;
mtype:fruit picked;
mtype:color shade = green;

active proctype producer() {
	q!ack, pear;
	q!err, plum;
	printm(ack);
	printf("sent two messages, shade %e\n", shade)
}

active proctype consumer() {
	mtype m;
	mtype:fruit f;
	q?m, f;
	assert(m == ack && f == pear);
	q?m, f;
	if
	:: m == err -> last = m; picked = f
	:: else -> assert(false)
	fi;
	assert(last == err && picked == plum && shade != red)
}
