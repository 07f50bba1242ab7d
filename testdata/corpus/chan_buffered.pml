// A bounded buffer between a producer and a consumer, watched through the
// channel predicates; a full buffer is observed atomically, so no receive
// can slip in between the test and the assertion.
// Exercises: buffered chan, len, empty, nempty, full, nfull, atomic guard, do/od, end label.
// ftmc: check -D SIZE=2
// expect: holds
// ftmc: check -D SIZE=3
// expect: holds

chan buf = [SIZE] of { byte };

active proctype producer() {
	byte i = 0;
	do
	:: i < 5 && nfull(buf) -> buf!i; i++
	:: atomic { i < 5 && full(buf) -> assert(len(buf) == SIZE) }
	:: i == 5 -> break
	od
}

active proctype consumer() {
	byte want = 0, v;
end:
	do
	:: nempty(buf) ->
		assert(len(buf) > 0);
		buf?v;
		assert(v == want);
		want++
	:: empty(buf) && want == 5 -> break
	od;
	assert(empty(buf) && nfull(buf) && len(buf) == 0)
}
