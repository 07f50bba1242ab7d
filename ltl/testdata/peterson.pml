// Peterson's mutual exclusion: safety as an LTL invariant, and liveness
// (each process that wants to enter eventually does), which needs weak
// fairness: without it the scheduler may never let the waiting process run.
// ftmc: check --ltl mutex
// expect mutex: holds
// ftmc: check --ltl live0
// expect live0: violated (acceptance cycle)
// ftmc: check --ltl live0 --fairness weak
// expect live0: holds
// ftmc: check --ltl inf0 --fairness weak
// expect inf0: holds

bool flag[2];
byte turn;
byte incrit;

active [2] proctype user() {
	byte other = 1 - _pid;
	do
	:: flag[_pid] = true;
	   turn = other;
	   (!flag[other] || turn == _pid);
	   incrit++;
cs:	   incrit--;
	   flag[_pid] = false
	od
}

ltl mutex { [] (incrit <= 1) }
ltl live0 { [] (flag[0] -> <> user[0]@cs) }
ltl inf0 { []<> user[0]@cs }
