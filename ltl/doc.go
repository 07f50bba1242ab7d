// Package ltl checks linear temporal logic properties of finite transition
// systems (state.Model), the way Spin does with a never claim.
//
// It has three layers:
//
//   - Formulas: Parse reads Spin's LTL syntax ([] <> U W V X ! && || -> <->,
//     the words always eventually until weakuntil stronguntil release implies
//     equivalent, true false) with the precedence of Spin's ltl blocks (->
//     and <-> loosest, then ||, &&, the until family, the unary operators;
//     binary operators associate to the left). Atomic propositions are the
//     model's own expressions (a name, or a parenthesised expression) and
//     stay text with a position, for the front end to compile.
//     Formula.String prints Spin syntax.
//   - Automata: Translate turns a formula into a Büchi automaton whose edges
//     are guarded by conjunctions of atoms. It rewrites the formula into
//     negation normal form with the simplifications of LTL2BA and Spot
//     (constant folding, F F a = F a, G(a V b) = G b, merging of untils and
//     releases with a common operand, pure eventualities and universals,
//     Somenzi and Bloem's syntactic implication), builds a transition-based
//     generalized Büchi automaton with a tableau in Couvreur's style (one
//     acceptance set per promise), degeneralises it with a counter local to
//     each strongly connected component, and reduces the result (dead and
//     unreachable states, merged edges, bisimulation). On the 54 formulas of
//     the size test its automata never have more states than `spin -f`'s
//     (191 against 242 in all); two have more edges (conjunctions of
//     []<> split into more cubes). A never
//     claim read by the front end is an Automaton too (package ltl/pml).
//   - Search: Check explores the synchronous product of a model and an
//     automaton with Spin's nested depth-first search, optionally restricted
//     to weakly fair runs (Spin's -f, by Spin's (k+2)-copy construction),
//     and CheckNonProgress looks for non-progress cycles (Spin's -l). Both
//     use explore.Store for the product states and return a verdict with a
//     lasso counterexample whose cycle starts at
//     trace.Counterexample.LoopStart. When every accepting state of the
//     automaton accepts whatever follows (a true self-loop: the negation of
//     a safety property), Check searches the product breadth-first with
//     explore's engine instead, and the counterexample is the shortest bad
//     prefix (LoopStart -1). With Options.Failures a failing assertion or
//     run-time error of the model is a violation too (as pan -a reports
//     it, and also where the automaton blocks, where Spin stops looking:
//     the search goes on with the model alone), and Options.Fault makes a proposition that cannot be evaluated
//     a run-time error in its state.
//
// The product follows Spin: the automaton reads each model state before the
// model leaves it, and a state without successors repeats for ever (so
// finite runs count). What a front end provides: a Predicate per atom, and
// optionally the Exclusive interface (states inside an atomic sequence,
// where the claim does not move), ProgressLabels (for -l) and, for
// partial-order reduction in the nested search, a state.Reducer whose
// safe steps the property cannot see (Options.Reducer, reduce.go; the
// breadth-first search of bad prefixes does not reduce). Package
// ltl/pml connects Promela models: ltl blocks, never claims, property
// names.
//
// Formula.Holds and Automaton.Accepts evaluate on ultimately periodic words
// (Lasso), which is how the tests check the translation semantically.
package ltl
