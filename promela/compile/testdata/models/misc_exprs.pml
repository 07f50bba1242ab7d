// pan: 17 states (spin -a -o1 -o2 -o3 misc_exprs.pml; cc -DSAFETY -DNOREDUCE pan.c; ./pan -m1000000)
// Conditional expressions, enabled(), remote variables, printm, named
// mtypes, arrays of channels, channels as arguments, typedef initializers.
mtype = { ping, pong };
mtype:dir = { left, right };
typedef T { byte a = 3; mtype:dir d = right };
chan cs[2] = [1] of { mtype, byte };
T t[2];
mtype:dir where;
proctype echo(chan in, out; byte k) {
	mtype m; byte v;
	in?m, v;
	printm(m);
	out!((m == ping) -> pong : ping), v + k
}
init {
	mtype m; byte v;
	atomic { run echo(cs[0], cs[1], t[1].a); where = t[0].d; assert(echo[1]:k == 3) };
	cs[0]!ping, 1;
	enabled(1) || _nr_pr == 1;
	cs[1]?m, v;
	assert(m == pong && v == 4 && where == right)
}
