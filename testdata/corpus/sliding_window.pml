// A go-back-N sliding window protocol over lossy channels: up to W
// unacknowledged messages, sequence numbers modulo M, cumulative
// acknowledgements, and retransmission of the whole window on timeout.
// The receiver checks that it delivers messages in order. Go-back-N needs
// M > W: with M == W a retransmitted old message can carry the sequence
// number the receiver waits for, and is delivered as a new one.
// Exercises: buffered chans, message loss via if/skip, timeout, nested do with else, %, byte arithmetic, end label.
// ftmc: check -D W=2 -D M=3
// expect: holds
// ftmc: check -D W=3 -D M=4
// expect: holds
// ftmc: check -D W=2 -D M=2
// expect: violated (assertion)

#define MAX 4

chan data = [W] of { byte, byte };	/* sequence number mod M, message number */
chan acks = [W] of { byte };	/* next sequence number the receiver wants, mod M */

active proctype sender() {
	byte base = 0, next = 0, a;
	do
	:: next < base + W && next < MAX ->
		if
		:: data!next % M, next
		:: skip	/* lost */
		fi;
		next++
	:: acks?a ->
		do
		:: base < next && base % M != a -> base++
		:: else -> break
		od
	:: timeout -> next = base	/* go back N */
	:: base == MAX -> break
	od
}

active proctype receiver() {
	byte s, n, want = 0;
end:
	do
	:: data?s, n ->
		if
		:: s == want % M ->
			assert(n == want);
			want++
		:: else -> skip
		fi;
		if
		:: acks!want % M
		:: skip	/* lost */
		fi
	od
}
