// timeout is the escape from a system-wide deadlock: it becomes executable
// only when no other statement anywhere can move. Here a lost message
// would block the receiver forever; timeout lets it retransmit.
// Exercises: timeout, buffered chan, do with timeout option, goto, end label.
// ftmc: check
// expect: holds

chan c = [1] of { byte };
byte delivered;

active proctype sender() {
	byte n = 0;
	do
	:: n < 2 ->
		if
		:: c!n
		:: skip /* the message is lost */
		fi;
		n++
	:: n == 2 -> break
	od
}

active proctype receiver() {
	byte v;
	do
	:: c?v -> delivered++
	:: timeout -> break
	od;
	assert(delivered <= 2)
}
