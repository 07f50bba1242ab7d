package explore

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"
)

// LimitReached is the cause with which a Budget cancels a run's context: it
// says which limit was reached, with the figure ("time limit 5s reached",
// "memory limit 1 GB reached"), in the words of a search that stops at its
// own limit, so that the reason is the same whichever sees it first.
// StopCause gives its text.
type LimitReached struct{ Msg string }

func (l *LimitReached) Error() string { return l.Msg }

// LimitCause is the limit that cancelled ctx, or nil when ctx is live or was
// cancelled for another reason (an interrupt).
func LimitCause(ctx context.Context) *LimitReached {
	var l *LimitReached
	if ctx.Err() != nil && errors.As(context.Cause(ctx), &l) {
		return l
	}
	return nil
}

// Budget is what a whole run may spend, whatever its engine: the time from
// Since (--time; a deadline computed once, so that each property has what
// is left) and the memory the run holds (--memory): the Go runtime's and,
// on Linux, the resident memory of its child processes, the solvers of the
// SMT-based engines. Zero is no limit.
type Budget struct {
	Time  time.Duration
	Since time.Time // when Time started to run; the call of Bound when zero
	// Memory is in bytes; MemoryFrom says where a default limit comes
	// from ("85% of physical memory"), "" when the user gave it.
	Memory     int64
	MemoryFrom string
}

// Deadline is when the budget's time runs out, counted from start when
// Since is not set; zero for no limit.
func (b Budget) Deadline(start time.Time) time.Time {
	return Options{TimeLimit: b.Time, Since: b.Since}.Deadline(start)
}

// Search returns the options that bound one search by the budget: its
// time, and its memory, which the search also watches itself (its state
// store's table lies outside the Go heap, where Bound's watch does not see
// it).
func (b Budget) Search() Options {
	return Options{TimeLimit: b.Time, Since: b.Since, MemoryLimit: b.Memory, MemoryLimitFrom: b.MemoryFrom}
}

// Bound returns parent bounded by the budget: cancelled with a
// *LimitReached cause at the deadline, or when the memory the Go runtime
// holds (as MemorySampler reads it, every memoryEvery) and the resident
// memory of the child processes (the solvers) reach Memory together.
// stop ends the watch and releases the context. While the memory is
// watched the runtime's soft limit is set to the same figure, so that the
// collector works harder before garbage alone reaches the limit.
func (b Budget) Bound(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancelTime := parent, context.CancelFunc(func() {})
	if d := b.Deadline(time.Now()); !d.IsZero() {
		ctx, cancelTime = context.WithDeadlineCause(parent, d, &LimitReached{fmt.Sprintf("time limit %v reached", b.Time)})
	}
	if b.Memory <= 0 {
		return ctx, cancelTime
	}
	ctx, unwatch := watchMemory(ctx, b.Memory, b.MemoryFrom)
	return ctx, func() { unwatch(); cancelTime() }
}

type memoryLimitKey struct{}

// MemoryRoom is what the memory limit of ctx (set by Budget.Bound) leaves
// beside ftmc's memory and its solvers' now; ok is false without a limit.
// A caller that would start another solver asks it first: a solver's
// first pages arrive faster than the watch samples them.
func MemoryRoom(ctx context.Context) (room int64, ok bool) {
	limit, ok := ctx.Value(memoryLimitKey{}).(int64)
	if !ok {
		return 0, false
	}
	var sampler MemorySampler
	return limit - sampler.RuntimeBytes() - childrenBytes(), true
}

// watchMemory is Bound's watch of the memory.
func watchMemory(parent context.Context, limit int64, from string) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ctx = context.WithValue(ctx, memoryLimitKey{}, limit)
	old := debug.SetMemoryLimit(limit)
	var sampler MemorySampler
	soft := limit
	reached := func() bool {
		own, kids := sampler.RuntimeBytes(), childrenBytes()
		m := own + kids
		// The solvers' pages count against the limit, so the collector
		// keeps Go's memory within what they leave: with the whole limit
		// as its target, garbage grew beside a solver's 24 MB to 30% past
		// a limit of 50 MB between two samples.
		if s := max(limit/4, limit-kids); s != soft {
			soft = s
			debug.SetMemoryLimit(s)
		}
		if m >= limit {
			why := memoryReached(limit, from)
			if kids > 0 {
				why += fmt.Sprintf(" (%s in use, %s of it in solver processes)", FormatBytes(m), FormatBytes(kids))
			}
			cancel(&LimitReached{why})
		}
		return m >= limit
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	if reached() {
		close(finished)
	} else {
		go func() {
			defer close(finished)
			tick := time.NewTicker(memoryEvery)
			defer tick.Stop()
			for !reached() {
				select {
				case <-done:
					return
				case <-ctx.Done():
					return
				case <-tick.C:
				}
			}
		}()
	}
	return ctx, func() {
		close(done)
		<-finished
		cancel(nil)
		debug.SetMemoryLimit(old)
	}
}
