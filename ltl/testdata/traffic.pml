// A traffic light over an mtype: the colours cycle in order.
// ftmc: check --ltl cycle
// expect cycle: holds
// ftmc: check --ltl red_then_green
// expect red_then_green: holds
// ftmc: check --ltl yellow_then_red
// expect yellow_then_red: holds
// ftmc: check --ltl never_red -D BROKEN
// expect never_red: holds
// ftmc: check --ltl never_red
// expect never_red: violated (acceptance cycle)

mtype = { red, green, yellow };
mtype light = red;

active proctype ctl() {
	do
	:: light == red -> light = green
	:: light == green -> light = yellow
#ifndef BROKEN
	:: light == yellow -> light = red
#else
	:: light == yellow -> light = green
#endif
	od
}

ltl cycle { []<> (light == green) }
ltl red_then_green { [] ((light == red) -> ((light == red) U (light == green))) }
ltl yellow_then_red { [] ((light == yellow) -> ((light == yellow) W (light == red))) }
ltl never_red { <>[] (light != red) }
