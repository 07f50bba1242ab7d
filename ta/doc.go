// Package ta reads threshold automata in the .ta format of ByMC (skel,
// thresholdAutomaton, threshAuto headers) and TACO (ta header), checks them
// (undeclared names, location vectors of the wrong length, rules between
// unknown locations) and instantiates them for fixed parameter values as a
// counter system behind the state.Model interface, so that the explicit
// engines can cross-check the parameterized ones.
//
// The grammar is the one ByMC implements (src/ta.mly), not its slightly wrong
// documentation: "define X == e;", "assumptions", "unchanged(x, y);",
// comments only /* */, "->" left-associative and binding loosest.
package ta
