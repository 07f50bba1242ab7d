// Package ltl checks linear temporal logic properties of finite transition
// systems (state.Model), the way Spin does with a never claim.
//
// It has three layers:
//
//   - Formulas: Parse reads Spin's LTL syntax ([] <> U W V X ! && || -> <->,
//     the words always eventually until weakuntil stronguntil release implies
//     equivalent true false); atomic propositions are the model's own
//     expressions (identifiers, or parenthesised Promela expressions) and stay
//     text with a position, for the front end to compile. Formula.String
//     prints Spin syntax.
//   - Automata: Translate turns a formula into a Büchi automaton whose
//     transitions are guarded by conjunctions of atoms. It rewrites the
//     formula (negation normal form and the simplifications of LTL2BA and
//     Spot), builds a transition-based generalized Büchi automaton with a
//     tableau in Couvreur's style, degeneralises it, and reduces the result
//     (dead and unreachable states, bisimulation). A never claim read by the
//     front end is an Automaton too.
//   - Search: Check explores the synchronous product of a model and an
//     automaton with Spin's nested depth-first search, optionally under weak
//     process fairness (Spin's -f) or looking for non-progress cycles (Spin's
//     -l), and returns a verdict with a lasso counterexample.
//
// Formula.Holds and Automaton.Accepts evaluate on ultimately periodic words
// (Lasso), which is how the tests check the translation semantically.
package ltl
