/*
 * The alternating bit protocol: a sender transmits messages to a receiver
 * over a channel that may lose messages, and the receiver acknowledges
 * over another lossy channel. Each message carries one bit, which
 * alternates from message to message; it lets the receiver tell a new
 * message from a retransmission of the previous one.
 *
 * Loss is modelled by a choice: a message is either sent or dropped. When
 * nothing else can happen (the message or its acknowledgement was lost),
 * the sender's timeout becomes executable and it sends again.
 *
 * The receiver asserts that it delivers messages in order, and the sender
 * asserts at the end that every message was delivered:
 *
 *   ftmc check examples/promela/abp.pml
 *   ftmc check examples/promela/abp.pml -D MAX=5
 *
 * ftmc: check
 * expect: holds
 * ftmc: check -D MAX=4
 * expect: holds
 */

#ifndef MAX
#define MAX 3	/* messages to transfer */
#endif

mtype = { msg, ack };

chan toReceiver = [1] of { mtype, byte, bit };	/* message number, bit */
chan toSender = [1] of { mtype, bit };
byte delivered;	/* messages the receiver has delivered */

active proctype sender()
{
	byte next = 0;	/* the message being transferred */
	bit b = 0;

	do
	:: next < MAX ->
		if
		:: toReceiver!msg, next, b
		:: skip	/* the message is lost */
		fi;
		if
		:: toSender?ack, eval(b) ->	/* matches only an ack with bit b */
			next++;
			b = 1 - b
		:: toSender?ack, eval(1 - b)	/* a late ack: ignore it */
		:: timeout	/* nothing can move: send again */
		fi
	:: next == MAX -> break
	od;
	assert(delivered == MAX)
}

active proctype receiver()
{
	byte n;
	bit b, want = 0;

end:	/* waiting for the next message is a valid end */
	do
	:: toReceiver?msg, n, b ->
		if
		:: b == want ->	/* a new message */
			assert(n == delivered);
			delivered++;
			want = 1 - want
		:: else	/* a retransmission: acknowledge it again */
		fi;
		if
		:: toSender!ack, b
		:: skip	/* the ack is lost */
		fi
	od
}
