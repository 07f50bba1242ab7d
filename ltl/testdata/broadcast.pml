// Srikanth and Toueg's broadcast (the thesis's Alg. 2.1) as a counter
// model, for N = 4 processes, T = 1 tolerated and F = 1 actual Byzantine
// faults, written in plain Promela: each correct process may receive one
// more echo per step, up to the number sent plus F. The fairness block is
// the reliable-communication assumption, which ftmc adds to the other
// properties with --assume fairness; for Spin the same formulas are
// written out as *_fair blocks.
// ftmc: check --ltl relay
// expect relay: violated (acceptance cycle)
// ftmc: check --ltl relay --assume fairness
// spin: relay_fair
// expect relay: holds
// ftmc: check --ltl corr --assume fairness
// spin: corr_fair
// expect corr: holds
// ftmc: check --ltl unforg --assume fairness
// spin: unforg_fair
// expect unforg: holds
// ftmc: check --ltl relay --assume fairness -D T=0
// spin: relay_fair
// expect relay: violated (acceptance cycle)

#ifndef T
#define T 1
#endif
#define N 4
#define F 1
#define V0 0
#define V1 1
#define SE 2
#define AC 3

byte nsnt;
byte pc[N - F];
byte nrcvd[N - F];

#define ex_acc (pc[0] == AC || pc[1] == AC || pc[2] == AC)
#define all_acc (pc[0] == AC && pc[1] == AC && pc[2] == AC)
#define prec_init (P[0]@step && P[1]@step && P[2]@step)
#define prec_corr (pc[0] == V1 && pc[1] == V1 && pc[2] == V1)
#define prec_unforg (pc[0] == V0 && pc[1] == V0 && pc[2] == V0)
#define in_transit (nrcvd[0] < nsnt || nrcvd[1] < nsnt || nrcvd[2] < nsnt)

active [N - F] proctype P() {
	byte next;
	if
	:: pc[_pid] = V0
	:: pc[_pid] = V1
	fi;
step:
	do
	:: atomic {
		if
		:: nrcvd[_pid] < nsnt + F -> nrcvd[_pid]++
		:: skip
		fi;
		if
		:: nrcvd[_pid] >= N - T -> next = AC
		:: else ->
			if
			:: pc[_pid] == V1 || nrcvd[_pid] >= T + 1 -> next = SE
			:: else -> next = pc[_pid]
			fi
		fi;
		if
		:: next > pc[_pid] && (pc[_pid] == V0 || pc[_pid] == V1) && next >= SE -> nsnt++
		:: else
		fi;
		if
		:: next > pc[_pid] -> pc[_pid] = next
		:: else
		fi;
		next = 0
	   }
	od
}

ltl fairness { []<> !in_transit }
ltl relay { [] (ex_acc -> <> all_acc) }
ltl corr { [] ((prec_init && prec_corr) -> <> ex_acc) }
ltl unforg { [] ((prec_init && prec_unforg) -> [] !ex_acc) }
ltl relay_fair { ([]<> !in_transit) -> [] (ex_acc -> <> all_acc) }
ltl corr_fair { ([]<> !in_transit) -> [] ((prec_init && prec_corr) -> <> ex_acc) }
ltl unforg_fair { ([]<> !in_transit) -> [] ((prec_init && prec_unforg) -> [] !ex_acc) }
