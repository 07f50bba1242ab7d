// Package backreach proves safety of array-based systems for any number of
// processes by backward reachability, the algorithm of MCMT (Ghilardi and
// Ranise) and Cubicle (Conchon et al.).
//
// Sets of states are represented by cubes: ∃ distinct processes i1..in .
// a conjunction of literals over their array entries, the globals, their
// identifiers and constants. Starting from the unsafe cubes, the search
// computes pre-images under every transition until each new cube either
// meets the initial states (the system is unsafe, unless the run is an
// artefact of the approximation below) or is covered by the cubes already
// visited (a fixpoint: the system is safe).
//
// Literals are integer difference constraints (x - y <= c, x = c, x != y +
// c) over atoms (a[i], a global, the identifier of i); Booleans and
// enumerations are integers with bounds. Cube satisfiability, the safety
// check against the initial formula and the cheap fixpoint checks are
// decided locally (Bellman-Ford with case splits on disequalities); the
// fixpoint check against a disjunction of visited cubes, when syntactic
// matching under index renamings fails, goes to an SMT solver through
// package smt.
//
// Universal guards (MCMT's uguard, Cubicle's forall_other) are handled as
// MCMT and Cubicle do: in a pre-image, the guard ∀u ∉ params. U(u) is
// instantiated only for the processes of the cube. Processes outside the
// cube that would falsify U are thereby treated as if they had crashed (the
// "stopping failures" reading). The computed pre-image contains the exact
// one, so the backward-reachable set is over-approximated: a "holds"
// verdict is sound, while a run found backwards may be spurious. Every such
// run is therefore replayed forward on a concrete instance with as many
// processes as its cube has (at least one, and more when a value of the
// process sort must name a process outside the cube); only a run that
// replays is reported as a violation, otherwise the verdict is unknown. The same holds for
// nondeterministic assignments to unbounded sorts, whose pre-image drops
// the constraints on the chosen value.
//
// System axioms are assumed invariants: unit axioms on one array narrow its
// values, the others exclude every cube that entails their negation.
// Candidate invariants (MCMT's suggested_negated_invariant, Cubicle's
// invariant) are proved by adding them as extra roots of the same search: if
// one of them is reached from the initial states, it is dropped and the
// search starts again without it; if the search ends without reaching any
// root, every root — the property and the kept candidates — is unreachable.
package backreach
