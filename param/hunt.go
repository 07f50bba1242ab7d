package param

import (
	"context"
	"sort"
	"time"

	"ftmc/explore"
	"ftmc/ta"
	"ftmc/trace"
)

// A search of the schemas that has not ended within huntDelay gets a
// companion: explicit checks (Explicit) of the instances with the smallest
// parameters that satisfy the assumptions, smallest sum first. A violation
// there is a counterexample for those parameters, replayed by
// construction, and ends the search; the hunter never proves anything.
// Violations of fault-tolerant algorithms mostly show on the smallest
// instances: n-rabc-cr.ta's decide_or_flip at N = 4, T = 1 (2 s), where
// the schemas took 53 s.
//
// Before the delay, the hunter takes a quick look at the huntQuick smallest
// instances, each cut at huntQuickStates: a violation of n-rabc.ta's
// validity0 shows at N = 4, T = 1, F = 1 in 347 states, where the schemas
// take most of a second. An instance the quick look explored completely
// is not checked again.
const (
	huntQuick       = 2
	huntQuickStates = 20_000
	huntDelay       = 2 * time.Second
	huntBound       = 4         // the largest parameter value tried
	huntInstances   = 8         // instances tried
	huntStates      = 1_000_000 // states per instance
	huntParams      = 6         // at most (huntBound+1)^6 valuations are enumerated
)

type hunter struct {
	cancel context.CancelFunc
	done   chan struct{}
	found  *SpecResult
}

// startHunter starts the hunt for a violation of specName on f; cancel
// ends the search it runs beside when it finds one.
func startHunter(ctx context.Context, cancel context.CancelFunc, f *ta.File, specName string) *hunter {
	h := &hunter{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(h.done)
		if freeParams(f) > huntParams {
			return
		}
		insts := smallestParams(f, huntBound, huntInstances)
		// check explores instance k with at most max states; it reports
		// whether the hunt is over (a violation, or the search ended).
		done := make([]bool, len(insts))
		check := func(k int, max int64) bool {
			r, st := Explicit(ctx, f, specName, insts[k], explore.Options{MaxStates: max})
			if r.Verdict == trace.Violated {
				h.found = &r
				cancel()
				return true
			}
			done[k] = st.Complete
			return ctx.Err() != nil
		}
		for k := range min(huntQuick, len(insts)) {
			if check(k, huntQuickStates) {
				return
			}
		}
		select {
		case <-time.After(huntDelay):
		case <-ctx.Done():
			return
		}
		for k := range insts {
			if !done[k] && check(k, huntStates) {
				return
			}
		}
	}()
	return h
}

// stop ends the hunt, and with it the search's context, and returns the
// hunt's violation, if it found one.
func (h *hunter) stop() *SpecResult {
	h.cancel()
	<-h.done
	return h.found
}

// huntedCEGAR is verifyCEGAR with a hunter beside it (unless opts says
// no): the counter abstraction of a large automaton may take long to reach
// a lasso that a small instance shows at once.
func huntedCEGAR(ctx context.Context, f *ta.File, spec *ta.Spec, opts Options, res SpecResult) SpecResult {
	if opts.NoHunt || opts.Overapprox {
		return verifyCEGAR(ctx, f, spec, opts, res)
	}
	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	hunt := startHunter(ctx, cancel, f, spec.Name)
	r := verifyCEGAR(ctx, f, spec, opts, res)
	found := hunt.stop()
	if r.Verdict == trace.Unknown && found != nil && outer.Err() == nil {
		r.Verdict, r.Kind, r.Counterexample, r.Reason = trace.Violated, found.Kind, found.Counterexample, ""
	}
	return r
}

// freeParams counts f's parameters that are not quotients (instances
// compute those).
func freeParams(f *ta.File) int {
	n := 0
	for _, d := range f.Params {
		if d.Quotient == nil {
			n++
		}
	}
	return n
}

// smallestParams lists up to max valuations of f's parameters (the
// quotients aside) that satisfy the assumptions, every value at most
// bound, smallest sum first.
func smallestParams(f *ta.File, bound int64, max int) []map[string]int64 {
	var names []string
	for _, d := range f.Params {
		if d.Quotient == nil {
			names = append(names, d.Name)
		}
	}
	type cand struct {
		vals map[string]int64
		sum  int64
	}
	var all []cand
	vals := make([]int64, len(names))
	var rec func(i int, sum int64)
	rec = func(i int, sum int64) {
		if i == len(names) {
			m := make(map[string]int64, len(names))
			for j, n := range names {
				m[n] = vals[j]
			}
			if _, err := ta.NewInstance(f, m, ta.InstanceOptions{}); err == nil {
				all = append(all, cand{m, sum})
			}
			return
		}
		for v := int64(0); v <= bound; v++ {
			vals[i] = v
			rec(i+1, sum+v)
		}
	}
	rec(0, 0)
	sort.SliceStable(all, func(i, j int) bool { return all[i].sum < all[j].sum })
	var out []map[string]int64
	for _, c := range all {
		if len(out) == max {
			break
		}
		out = append(out, c.vals)
	}
	return out
}
