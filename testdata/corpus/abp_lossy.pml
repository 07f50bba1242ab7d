// The alternating bit protocol over channels that lose messages: the
// sender retransmits on timeout until the matching acknowledgement
// arrives; the receiver delivers each message exactly once and in order.
// With BUG the sender never flips its bit, so the receiver takes every new
// message for a retransmission and messages are lost.
// Exercises: mtype, buffered chan, receive with constants and eval(), timeout, if/else, do, atomic, end labels, #ifdef.
// ftmc: check
// expect: holds
// ftmc: check -D BUG
// expect: violated (assertion)

#define MAX 3

mtype = { msg, ack };
byte delivered;

chan toR = [1] of { mtype, byte, bit };
chan toS = [1] of { mtype, bit };

active proctype sender() {
	byte next = 0;
	bit seq = 0;
	do
	:: next < MAX ->
		if
		:: toR!msg, next, seq
		:: skip	/* lost */
		fi;
		if
		:: toS?ack, eval(seq) ->
			next++;
#ifndef BUG
			seq = 1 - seq
#else
			skip
#endif
		:: toS?ack, eval(1 - seq) -> skip	/* stale */
		:: timeout -> skip
		fi
	:: next == MAX -> break
	od;
	/* every message was acknowledged, so every message was delivered */
	assert(delivered == MAX)
}

active proctype receiver() {
	byte v;
	bit b, want = 0;
end:
	do
	:: toR?msg, v, b ->
		if
		:: b == want ->
			assert(v == delivered);
			delivered++;
			want = 1 - want
		:: else -> skip	/* duplicate */
		fi;
		if
		:: toS!ack, b
		:: skip	/* lost */
		fi
	od
}
