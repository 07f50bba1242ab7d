// Polling a channel without consuming (?[ ]) and copy receive (?< >), which
// reads the first message into variables but leaves it in the channel.
// Exercises: polling ?[..], random poll ??[..], copy receive ?<..>, receive with constants, if with else.
// ftmc: check
// expect: holds

mtype = { req, data };
chan c = [3] of { mtype, byte };

active proctype p() {
	mtype m;
	byte v;
	c!req, 1;
	c!data, 9;
	assert(c?[req, 1]);
	assert(!c?[data, 9]);
	assert(c??[data, 9]);
	c?<m, v>;
	assert(m == req && v == 1 && len(c) == 2);
	if
	:: c?[data, _] -> assert(false)
	:: else -> c?req, v
	fi;
	c?<m, v>;
	assert(m == data && v == 9);
	c?[data, 9] -> c?_, _;
	assert(empty(c))
}
