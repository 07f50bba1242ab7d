// Package explore is ftmc's explicit-state engine: breadth-first and
// depth-first search over any state.Model, with a compact state store, limits
// (time, memory, depth, cancellation) that end a search with verdict unknown,
// and counterexamples rebuilt from parent indices.
//
// The store (Store) is exported so that other explicit engines (the nested
// depth-first search for LTL) keep their visited states the same way: byte
// vectors in an append-only arena, addressed by dense 32-bit indices, found
// through an open-addressing hash table of indices and hash tags. With
// Options.Compress the store keeps them tree-compressed instead (tree.go):
// a state is a pair of node numbers, its vector rebuilt on demand.
//
// The breadth-first search runs on several goroutines when Options.Workers
// asks for it (parallel.go): each worker owns the states whose hash falls to
// it, and levels end at a barrier, so the parallel search finds the same
// states and counterexamples as short as the sequential one. Each worker
// may compress its own store, and the workers reduce with the ample sets
// of the sequential search, the successors' owners answering the cycle
// proviso.
//
// The search loop allocates nothing per state: successors are copied into a
// reused batch, their table slots read together (so that the memory system
// overlaps the cache misses), then inserted in order.
package explore
