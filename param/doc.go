// Package param verifies threshold automata for all parameter values that
// satisfy the resilience condition, with the schema technique of Konnov,
// Lazić, Veith and Widder (CAV'15/FMSD'17 for reachability, POPL'17 for the
// LTL(F,G) fragment with lasso-shaped counterexamples).
//
// Shared variables only grow, so every threshold guard changes its truth
// value at most once along a run. Between two such changes (milestones) the
// rules whose guards hold can be reordered into the topological order of the
// automaton's locations and fired once each with a multiplicity
// (acceleration). A schema fixes the order of the milestones and of the cut
// points where subformulas of the negated specification are witnessed; it is
// one linear-integer query. Instead of enumerating all orders up front (which
// blows up on automata with many guards), the engine walks the tree of schema
// prefixes depth first with an incremental solver: a prefix that no run
// follows is refuted once and its whole subtree is pruned, and guards that
// imply each other fix their relative order. Subtrees are spread over
// parallel workers, each with its own solver process.
//
// Before the tree, each disjunct is asked as one query in which the solver
// chooses the contexts of a bounded run long enough for every schema
// (single.go): unsat refutes the disjunct, a model that replays is its
// counterexample, and only the rest goes to the tree.
//
// Every violation is replayed rule by rule on the concrete instance before it
// is reported, and a search that was cut short answers unknown.
package param
