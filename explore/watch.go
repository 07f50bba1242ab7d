package explore

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"ftmc/trace"
)

// Watch is what a sequential search that keeps its states in a Store
// checks between steps: its context, its time limit and its memory limit.
// The memory it counts is the Go runtime's and the store's hash table
// (mapped outside the Go heap); it keeps the peak and gives the store
// what is left of the limit, so that the store refuses to grow past it.
// The explicit search and the nested depth-first search of package ltl
// share it, so that their limits and reasons are one.
type Watch struct {
	ctx     context.Context
	store   stored
	opts    Options // TimeLimit, MemoryLimit, MemoryLimitFrom
	start   time.Time
	end     time.Time // the deadline; zero for none
	sampler MemorySampler
	memory  int64
	peak    int64
	// soft is the runtime's soft memory limit the watch set (the limit
	// less the table, which is not Go memory), 0 for none; oldSoft is
	// the one Close puts back.
	soft, oldSoft int64
}

// NewWatch watches a search on store that starts now, by ctx and the
// limits of o: TimeLimit (counted from Since), MemoryLimit and
// MemoryLimitFrom. Under a memory limit the runtime's soft limit is set
// to what the store's table leaves of it, as a Budget does, so that the
// collector works harder before garbage alone reaches the limit: the
// old halves of the search's growing slices, which would otherwise stay
// until the next collection, took a nested depth-first search 25% past a
// limit of 50 MB. Close puts the soft limit back.
func NewWatch(ctx context.Context, store *Store, o Options) *Watch {
	return newWatch(ctx, store, o)
}

func newWatch(ctx context.Context, store stored, o Options) *Watch {
	w := &Watch{ctx: ctx, store: store, opts: o, start: time.Now()}
	w.end = o.Deadline(w.start)
	if o.MemoryLimit > 0 {
		w.oldSoft = debug.SetMemoryLimit(-1)
	}
	w.Sample()
	return w
}

// Close ends the watch: the runtime's soft memory limit is the one before
// NewWatch again.
func (w *Watch) Close() {
	if w.soft > 0 {
		debug.SetMemoryLimit(w.oldSoft)
		w.soft = 0
	}
}

// Start is when the search started.
func (w *Watch) Start() time.Time { return w.start }

// Stop says why the search must stop at now, "" when it may go on: its
// context is done (StopCause), its time is spent or its memory limit is
// reached, "... after 123 states". The memory is sampled at every call,
// which costs well under a microsecond: the nested depth-first search's
// stacks grow outside the store, and between samples 50 ms apart they
// went 60% past a limit of 50 MB.
func (w *Watch) Stop(now time.Time) string {
	if w.ctx.Err() != nil {
		return fmt.Sprintf("%s after %d states", StopCause(w.ctx), w.store.Len())
	}
	if !w.end.IsZero() && now.After(w.end) {
		return fmt.Sprintf("time limit %v reached after %d states", w.opts.TimeLimit, w.store.Len())
	}
	if w.Sample(); w.opts.MemoryLimit > 0 && w.memory > w.opts.MemoryLimit {
		return memoryReason(w.opts, int64(w.store.Len()))
	}
	return ""
}

// Sample measures the memory now, and gives the store what is left of the
// limit.
func (w *Watch) Sample() {
	table := w.store.tableBytes()
	w.memory = w.sampler.RuntimeBytes() + table
	w.peak = max(w.peak, w.memory)
	if w.opts.MemoryLimit > 0 {
		other := max(0, w.memory-w.store.Bytes())
		w.store.SetLimit(max(1, w.opts.MemoryLimit-other))
		// The table changes seldom (it doubles): so does the soft limit.
		if soft := max(1, w.opts.MemoryLimit-table); soft != w.soft {
			w.soft = soft
			debug.SetMemoryLimit(soft)
		}
	}
}

// Room reports whether the memory last sampled and extra bytes more stay
// within the memory limit (always, without one): a search asks before it
// grows a large structure of its own beside the store.
func (w *Watch) Room(extra int64) bool {
	return w.opts.MemoryLimit <= 0 || w.memory+extra <= w.opts.MemoryLimit
}

// Memory is the memory last sampled.
func (w *Watch) Memory() int64 { return w.memory }

// Full is why a search whose store refused a state stops: the memory limit
// when there is one and the store is not at MaxStates.
func (w *Watch) Full() string {
	if w.opts.MemoryLimit > 0 && w.store.Len() < MaxStates {
		return memoryReason(w.opts, int64(w.store.Len()))
	}
	return fmt.Sprintf("state store full after %d states", w.store.Len())
}

// Stats are the figures of the search now that it has ended: the states,
// time and memory peak, the store's vectors and bytes (with extra, what
// the search keeps per state beside the store), and the rates. The search
// adds its transitions, matches, depth and whether it is complete.
func (w *Watch) Stats(extra int64) trace.Stats {
	w.Sample()
	n := int64(w.store.Len())
	st := trace.Stats{
		States:      n,
		Seconds:     time.Since(w.start).Seconds(),
		MemoryBytes: w.peak,
		VectorBytes: w.store.MaxVector(),
		StoreBytes:  w.store.Bytes() + extra,
	}
	if n > 0 {
		st.BytesPerState = float64(st.StoreBytes) / float64(n)
	}
	if st.Seconds > 0 {
		st.StatesPerSec = float64(n) / st.Seconds
	}
	return st
}

// Undecided is the verdict of a search that found no violation: holds when
// it explored everything, else unknown with why it stopped (stop, "" when
// it did not), or that MaxDepth cut it short (truncated).
func Undecided(stop string, truncated bool, maxDepth, states int) (trace.Verdict, string) {
	switch {
	case stop != "":
		return trace.Unknown, stop
	case truncated:
		return trace.Unknown, fmt.Sprintf("depth limit %d reached after %d states: deeper states were not explored", maxDepth, states)
	}
	return trace.Holds, ""
}
