// Package compile turns a resolved Promela program into a state space: a
// packed state vector and, per proctype, an automaton of guarded
// transitions, behind the state.Model interface that the explicit engines
// search.
//
// The automaton is Spin's, state for state: each basic statement is a
// state and a transition; if and do are states whose transitions are the
// first statements of their options; goto, break and the joins after if,
// do and unless are followed until a statement is reached; atomic, d_step,
// unless, else, timeout, rendezvous and process creation and deletion
// behave as in Spin's verifier (pan) with -o1 -o2 -o3 (no data-flow
// optimisation, no statement merging). A search of the model therefore
// stores exactly the states pan stores with `spin -a -o1 -o2 -o3` and
// `cc -DSAFETY -DNOREDUCE`: states inside an atomic sequence and the
// intermediate state of a rendezvous handshake are not successors of their
// own; a step of the model is everything a process does from one stored
// state to the next.
//
// The state vector holds, in order, the global variables, then one segment
// per process and per channel in the order they were created (a process's
// local channels follow it). A process segment is its proctype's tag, its
// program counter and its locals; a channel segment is its type's tag, its
// length and its slots. Values are stored at the width of their type
// (bit and bool in a byte, short in two, int in four); assignments truncate
// as Spin's C code does. Variables declared hidden live in a prefix of the
// working vector that is not part of the state.
//
// Statements are compiled once into closures over offsets in the vector;
// computing successors allocates nothing in the steady state. An atomic
// sequence runs in place while its process has a single executable
// transition, and is copied only where it branches.
//
// Where ftmc deliberately differs from pan:
//
//   - A division by zero is a run-time error; pan dies of the C arithmetic
//     exception.
//   - printf and printm do not evaluate their arguments (pan evaluates them
//     and may report an index out of bounds there).
//   - A remote reference P[i]:x to a process of another proctype is a
//     run-time error (pan reads whatever bytes are there); to a process that
//     has ended and is gone it reads 0, as pan does.
//   - An atomic sequence that runs 100000 steps without leaving its block
//     (or a d_step a million) is reported as a run-time error; pan runs into
//     its depth limit.
//   - ByMC's havoc(x) and assume(e), which pan does not know: havoc tries
//     every value of x (for int and short, those the bounds of the assume
//     that follows allow), and a false assume inside an atomic sequence
//     discards the run instead of blocking it.
package compile
