// Selection and repetition with else, break out of nested loops, goto
// forwards and backwards, labels on statements, and skip.
// Exercises: if/do with else, break, goto, labels, skip, nested do, conditional expression.
// ftmc: check
// expect: holds

byte i, j, hits, rounds;

active proctype p() {
	do
	:: i < 3 ->
		j = 0;
		do
		:: j == i -> break
		:: else -> j++; hits++
		od;
		i++
	:: else -> break
	od;
	assert(hits == 3);
again:
	rounds++;
	if
	:: rounds < 3 -> goto again
	:: else -> skip
	fi;
	assert(rounds == 3);
	if
	:: hits > 100 -> goto fail
	:: hits <= 100 -> goto ok
	fi;
fail:
	assert(false);
ok:
	i = (hits > 2 -> 10 : 20);
	assert(i == 10);
	skip
}
