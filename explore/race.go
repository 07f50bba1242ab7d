//go:build race

package explore

// raceEnabled says that the race detector is on. It does not see the
// atomic operations on memory outside the Go heap, so the lock-free
// store's table, whose slots publish the states, lives in the heap then.
const raceEnabled = true
