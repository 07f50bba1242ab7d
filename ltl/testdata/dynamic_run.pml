// init starts workers that finish.
// Every worker that starts finishes (the run ends and repeats its final
// state); under fairness the spinner cannot keep them from finishing.
// ftmc: check --ltl all_done
// expect all_done: violated (acceptance cycle)
// ftmc: check --ltl all_done --fairness weak
// expect all_done: holds
// ftmc: check --ltl bounded
// expect bounded: holds

byte done;

proctype worker(byte id) {
	done++
}

active proctype spinner() {
	bit t;
	do
	:: t = 1 - t
	od
}

init {
	byte i;
	do
	:: i < 3 -> run worker(i); i++
	:: else -> break
	od
}

ltl all_done { <> (done == 3) }
ltl bounded { [] (done <= 3) }
