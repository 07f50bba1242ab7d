/* A go-back-N sliding window protocol over channels that lose messages: the
   sender keeps up to W unacknowledged frames (sequence numbers modulo M =
   W + 1) and may go back and resend from the oldest at any time; the
   receiver accepts frames in order and acknowledges cumulatively. Each frame
   carries a payload, its number in the whole transfer modulo P; the receiver
   checks that it accepts the frames once each, in order.

   Benchmark sizes (spin -o1 -o2 -o3, -DSAFETY -DNOREDUCE):
     -DW=3 -DC=2    422,275 states, 44-byte vectors in Spin
     -DW=4 -DC=3  5,311,088 states, 44-byte vectors in Spin

   expect: holds
*/
#ifndef W
#define W 3
#endif
#ifndef C
#define C 2
#endif
#define M (W + 1)
#define P (2 * M)

chan data = [C] of { byte, byte };
chan ack = [C] of { byte };

active proctype sender() {
	byte base, next, a;
	byte pbase; /* the payload of frame base */
	do
	:: (next + M - base) % M < W ->
		data ! next, (pbase + (next + M - base) % M) % P;
		next = (next + 1) % M
	:: ack ? a ->
		if
		:: a != base && (a + M - base) % M <= (next + M - base) % M ->
			pbase = (pbase + (a + M - base) % M) % P;
			base = a
		:: else -> skip
		fi
	:: next != base -> next = base /* go back */
	od
}

active proctype receiver() {
	byte expect, seq, v, got;
	do
	:: data ? seq, v ->
		if
		:: seq == expect ->
			assert(v == got);
			got = (got + 1) % P;
			expect = (expect + 1) % M
		:: else -> skip
		fi;
		ack ! expect
	od
}

active proctype medium() { /* loses messages */
	do
	:: data ? _, _
	:: ack ? _
	od
}
