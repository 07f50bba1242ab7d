// Valid end states: servers that wait forever at a label starting with
// "end" do not make a deadlock, whichever suffix the label has, and a
// process that runs to its closing brace is always at a valid end.
// Exercises: end labels (end, end_wait, endloop), rendezvous, do without exit, valid end states.
// ftmc: check
// expect: holds

chan ping = [0] of { bit };
chan pong = [0] of { bit };

active proctype server() {
end:
	do
	:: ping?1 -> pong!1
	od
}

active proctype idler() {
end_wait:
	ping?0
}

active proctype looper() {
	byte n;
endloop:
	do
	:: n < 2 -> n++
	:: ping?0 -> n = 0
	od
}

active proctype client() {
	ping!1;
	pong?1
}
