// Package explore is ftmc's explicit-state engine: breadth-first and
// depth-first search over any state.Model, with a compact state store, limits
// (time, memory, depth, cancellation) that end a search with verdict unknown,
// and counterexamples rebuilt from parent indices.
//
// The store (Store) is exported so that other explicit engines (the nested
// depth-first search for LTL) keep their visited states the same way: byte
// vectors in an append-only arena, addressed by dense 32-bit indices, found
// through an open-addressing hash table of indices and hash tags.
package explore
