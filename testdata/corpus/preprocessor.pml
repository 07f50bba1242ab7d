// The C preprocessor subset Promela models use: object-like and
// function-like macros (with nested expansion), #undef, conditionals with
// integer expressions and defined(), #include (twice, guarded), and macros
// set on the command line.
// Exercises: #define, #undef, #ifdef, #ifndef, #if, #elif, #else, #endif, defined(), #include, -D.
// ftmc: check
// expect: holds
// ftmc: check -D VARIANT=2
// expect: holds
// ftmc: check -D VARIANT=3 -D STRICT
// expect: violated (assertion)

#include "include/protocol.h"
#include "include/protocol.h"

#ifndef VARIANT
#define VARIANT 1
#endif

#define SQUARE(x) ((x) * (x))
#define TWICE(f, x) f(f(x))
#define TEMP 7
#undef TEMP

#if VARIANT == 1
#define START 0
#elif VARIANT == 2 && !defined(STRICT)
#define START 1
#else
#define START 2
#endif

#ifdef TEMP
#error TEMP was undefined above
#endif

byte v = START;
byte rounds;

active proctype p() {
	assert(TWICE(SQUARE, 2) == 16);
	do
	:: rounds < 4 -> INC(v); rounds++
	:: else -> break
	od;
#if defined(STRICT) && VARIANT > 2
	assert(v != START)	/* four increments modulo four return to START */
#else
	assert(BOTH(v == (START + 4) % (MAXV + 1), rounds == 4))
#endif
}
