// Non-progress cycles: a sender that may take back its message for ever
// without the receiver making progress. Weak fairness does not help: the
// receiver is enabled only while the message is in the channel, not
// continuously.
// ftmc: check --non-progress
// expect non-progress: violated (non-progress cycle)
// ftmc: check --non-progress --fairness weak
// expect non-progress: violated (non-progress cycle)
// ftmc: check --non-progress -D NOPROG
// expect non-progress: violated (non-progress cycle)

chan c = [1] of { byte };
byte got;

active proctype sender() {
	do
	:: c ! 1
	:: c ? _    /* take it back: a lossy retransmission */
	od
}

active proctype receiver() {
	do
	:: c ? _ ->
#ifndef NOPROG
progress:
#endif
		got = (got + 1) % 2
	od
}
