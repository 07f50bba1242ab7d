package procmem

import "sync/atomic"

var spawned atomic.Bool

// Spawning records that this process starts a child process (a solver,
// Spin's tools, a check of a sweep), so that memory watches count the
// memory of its children from then on.
func Spawning() { spawned.Store(true) }

// Spawned reports whether this process has started a child process: until
// it has, it has no children whose memory to read.
func Spawned() bool { return spawned.Load() }
