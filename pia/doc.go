// Package pia verifies ByMC's Parametric Promela for all parameter values,
// by the parametric interval abstraction (PIA) of the thesis in the seeds
// (A. Gmeiner, née John, TU Wien 2015, ch. 4) followed by the extraction
// of a threshold automaton, as ByMC 2.x does for .pml input; package param
// then proves or refutes each specification with the schema technique.
//
// The model is one active proctype. The statements before its main loop
// initialise a process; each option of the loop is one atomic step.
// Locals assigned only constants and other such locals are control
// variables and stay exact; the other locals (message counters) are data
// variables, abstracted into the intervals between the thresholds: the
// parameter expressions they are compared with, plus 0 and 1. The
// thresholds are ordered with the SMT solver under the assumptions (the
// resilience condition); where the assumptions leave an order open, each
// order is a case of its own.
//
// Each step is executed symbolically from every reachable abstract local
// state (control values, data intervals): the paths through it are
// conjunctions of linear constraints over the parameters, the shared
// variables before the step and the data variables before and after it.
// For every interval of the data variables after the step, the data
// variables are eliminated (Fourier–Motzkin; exact for unit coefficients,
// an over-approximation otherwise) and what remains is the rule's guard
// over the shared variables and parameters: the existential abstraction,
// sound for every parameter value. Shared variables change by
// constants. Abstract local states between which a process can move back
// and forth become one location (after an exact copy of each entry), so
// that the automaton is acyclic, as the schema technique needs; with
// Options.Cycles, for the counter abstraction with refinement, each stays
// a location and the automaton has the model's cycles.
//
// Atomic propositions (all, some, card) become conditions on the
// location counters. A proposition the abstraction does not decide
// exactly is under-approximated where it occurs positively in a
// specification and over-approximated where it occurs negatively, so that
// every concrete violation maps to an abstract one. The ltl blocks named
// fairness... are assumed for every specification, as ByMC does.
package pia
