// Package promela reads Promela models as Spin 6 does: a C preprocessor
// subset, a scanner, a parser that builds a syntax tree of plain structs
// with positions, and a resolver that binds every name to its declaration
// and checks types. It also reads ByMC's parametric extensions (symbolic
// parameters, assume, atomic propositions with all/some/card, havoc).
//
// The compiler (package promela/compile) works on the resolved Program
// that Load and Parse return.
package promela
