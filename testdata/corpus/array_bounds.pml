// Indexing past the end of an array is a run-time error, found here after
// a few rounds of a loop whose bound is off by one. Spin reports it as a
// failed assertion about the index.
// Exercises: run-time error (array index out of bounds), arrays, do with else.
// ftmc: check
// expect: violated (runtime error)

#define LEN 4

byte a[LEN];
byte i;

active proctype fill() {
	do
	:: i <= LEN -> a[i] = i; i++
	:: else -> break
	od
}
