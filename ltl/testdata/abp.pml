// The alternating bit protocol over channels that may lose messages (a
// demon process steals them). Every message is eventually delivered only
// if the demon does not steal for ever: weak fairness alone does not stop
// it, since it is a process like the others.
// ftmc: check --ltl inorder
// expect inorder: holds
// ftmc: check --ltl progress_rcv --fairness weak
// expect progress_rcv: violated (acceptance cycle)
// ftmc: check --ltl progress_rcv --fairness weak -D NOLOSS
// expect progress_rcv: holds

mtype = { msg, ack };
chan toR = [1] of { mtype, bit };
chan toS = [1] of { mtype, bit };
byte delivered;
bit expect_seq;
bool ooo;

active proctype Sender() {
	bit seq;
	do
	:: toR ! msg, seq ->
		if
		:: toS ? ack, eval(seq) -> seq = 1 - seq
		:: timeout
		fi
	od
}

active proctype Receiver() {
	bit b;
	do
	:: toR ? msg, b ->
		if
		:: b == expect_seq -> delivered = (delivered + 1) % 4; expect_seq = 1 - expect_seq
		:: else
		fi;
		toS ! ack, b
	od
}

#ifndef NOLOSS
active proctype Demon() {
	do
	:: toR ? _, _
	:: toS ? _, _
	od
}
#endif

ltl inorder { [] !ooo }
ltl progress_rcv { []<> (delivered == 0) && []<> (delivered == 1) }
