// Creating more processes than a model checker can represent: Spin's
// verifier allows 255 and reports the 256th run as an error.
// Exercises: run in a loop past the process limit, end labels, run-time error.
// ftmc: check
// expect: violated (runtime error)

proctype sleeper() {
end:
	false
}

init {
	short i = 0;
	do
	:: i < 300 -> atomic { run sleeper(); i++ }
	:: else -> break
	od
}
