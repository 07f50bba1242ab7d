// A test-and-set lock without fairness between the contenders: a process
// may be overtaken for ever even under weak fairness (it is enabled only
// intermittently, when the lock is free), so its liveness fails both ways.
// ftmc: check --ltl mutex
// expect mutex: holds
// ftmc: check --ltl live1
// expect live1: violated (acceptance cycle)
// ftmc: check --ltl live1 --fairness weak
// expect live1: violated (acceptance cycle)

bool lock;
byte cnt;
bool want[2];

active [2] proctype P() {
	do
	:: want[_pid] = true;
	   atomic { !lock -> lock = true };
	   cnt++;
crit:	   cnt--;
	   want[_pid] = false;
	   lock = false
	od
}

ltl mutex { [] (cnt < 2) }
ltl live1 { [] (want[1] -> <> P[1]@crit) }
