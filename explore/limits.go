package explore

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"time"
)

// ErrInterrupted and ErrTerminated are the causes with which the command
// line cancels a run's context on SIGINT and SIGTERM (context.Cause).
var (
	ErrInterrupted = errors.New("interrupted")
	ErrTerminated  = errors.New("terminated")
)

// Deadline is when a search that starts at start must stop: TimeLimit
// after Since, or after start when Since is not set; zero for no limit.
func (o Options) Deadline(start time.Time) time.Time {
	if o.TimeLimit <= 0 {
		return time.Time{}
	}
	if !o.Since.IsZero() {
		start = o.Since
	}
	return start.Add(o.TimeLimit)
}

// StopCause says why ctx is done, in the words of a verdict's reason:
// "interrupted", "terminated", "deadline reached", or the cause's own text.
// It is "" while ctx is live.
func StopCause(ctx context.Context) string {
	if ctx.Err() == nil {
		return ""
	}
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, ErrTerminated):
		return "terminated"
	case errors.Is(cause, ErrInterrupted), errors.Is(cause, context.Canceled):
		return "interrupted"
	case errors.Is(cause, context.DeadlineExceeded):
		return "deadline reached"
	}
	return cause.Error()
}

// memoryEvery is how often a Budget and the parallel search, which watch
// memory from a goroutine of their own, sample the runtime's memory
// figures.
const memoryEvery = 50 * time.Millisecond

// MemorySampler reads how much memory the Go runtime holds from the system,
// without allocating after its first use. A Store's hash table is mapped
// outside the Go heap and is added by the caller.
type MemorySampler struct {
	samples []metrics.Sample
}

// RuntimeBytes is the memory the Go runtime holds, less what it has released.
func (m *MemorySampler) RuntimeBytes() int64 {
	if m.samples == nil {
		m.samples = []metrics.Sample{
			{Name: "/memory/classes/total:bytes"},
			{Name: "/memory/classes/heap/released:bytes"},
		}
	}
	metrics.Read(m.samples)
	var v [2]int64
	for k, smp := range m.samples {
		if smp.Value.Kind() == metrics.KindUint64 {
			v[k] = int64(smp.Value.Uint64())
		}
	}
	return v[0] - v[1]
}

// stopFull ends a search whose store cannot take another state.
func (s *search) stopFull() {
	if s.stop == "" {
		s.stop = s.watch.Full()
	}
}

// memoryReason is why a search that reached its memory limit stopped:
// "memory limit 2 GB (85% of physical memory) reached after 123 states",
// as a Budget that cancels the search's context says it.
func memoryReason(o Options, states int64) string {
	return fmt.Sprintf("%s after %d states", memoryReached(o.MemoryLimit, o.MemoryLimitFrom), states)
}

// memoryReached says that a memory limit of limit bytes is reached, with
// where a default limit comes from (from; "" for --memory): "memory limit
// 2 GB (85% of physical memory) reached".
func memoryReached(limit int64, from string) string {
	l := "memory limit " + FormatBytes(limit)
	if from != "" {
		l += " (" + from + ")"
	}
	return l + " reached"
}

// report calls the progress callback.
func (s *search) report(now time.Time) {
	n := int64(s.store.Len())
	dt := now.Sub(s.lastReport).Seconds()
	p := Progress{
		States:      n,
		Matched:     s.matched,
		Transitions: s.transitions,
		Depth:       s.depth,
		MemoryBytes: s.watch.Memory(),
		Elapsed:     now.Sub(s.watch.Start()),
	}
	if dt > 0 {
		p.StatesPerSec = float64(n-s.lastStates) / dt
	}
	if s.opts.Order == DepthFirst {
		p.Queue = int64(len(s.dfsNew))
	} else {
		p.Queue = n - int64(s.next)
	}
	s.lastReport, s.lastStates = now, n
	s.opts.Progress(p)
}

// FormatBytes writes a byte count as Spin's users read it: 1.5 GB, 300 MB.
func FormatBytes(b int64) string {
	const unit = 1000
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	f, u := float64(b), "kMGTP"
	k := -1
	for f >= unit && k < len(u)-1 {
		f /= unit
		k++
	}
	return fmt.Sprintf("%.3g %cB", f, u[k])
}
