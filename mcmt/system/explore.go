package system

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"ftmc/explore"
	"ftmc/state"
	"ftmc/trace"
)

// A breadth-first search of an instance with explore's engine, for the
// bounded cross-check of parameterized verdicts: it also checks that the
// system axioms (which backward reachability assumes) hold on the instance.

// ExploreResult is the outcome of Explore.
type ExploreResult struct {
	States, Transitions int64
	Complete            bool   // the whole state space was explored
	Reason              string // why not complete
	// Unsafe is a shortest run to a state that satisfies an unsafe
	// formula, or nil.
	Unsafe *trace.Counterexample
	// Axiom is the index of a system axiom that some reachable state
	// violates (-1 if none), and AxiomRun a shortest run to such a state.
	Axiom    int
	AxiomRun *trace.Counterexample
	// Stats are the search's figures, as far as it went.
	Stats trace.Stats
}

// ExploreOptions bound and observe a search.
type ExploreOptions struct {
	MaxStates int64 // 0: no limit
	// OnState, when set, sees every reachable state once, when the search
	// stores it (valid during the call only); not an unsafe state, where
	// the search stops.
	OnState func(s []byte)
	// Search holds the other limits of the search (time, memory); its
	// Order, MaxStates and Visit are Explore's. The run's context bounds
	// it too.
	Search explore.Options
}

// Explore searches the instance breadth first. It stops at the first
// unsafe state; states that break an axiom are recorded and explored
// further. A successor whose values do not fit the instance's bytes ends
// the search incomplete, with the reason; another failure of a transition
// is an error.
func Explore(ctx context.Context, in *Instance, opts ExploreOptions) (*ExploreResult, error) {
	res := &ExploreResult{Axiom: -1}
	m := &searchModel{Instance: in}
	eo := opts.Search
	eo.Order, eo.MaxStates = explore.BreadthFirst, opts.MaxStates
	eo.Visit = func(s []byte, cex func(kind, msg string) *trace.Counterexample) {
		if opts.OnState != nil {
			opts.OnState(s)
		}
		if res.Axiom >= 0 {
			return
		}
		if a := in.BrokenAxiom(s); a >= 0 {
			res.Axiom = a
			res.AxiomRun = in.counterexample(cex(state.KindInvariant, fmt.Sprintf("system axiom %d is false here", a+1)))
		}
	}
	r, st, err := explore.Run(ctx, m, eo)
	switch {
	case m.err != nil:
		return nil, m.err
	case err != nil && m.initErr == nil && m.initial == 0:
		// No initial state: nothing to explore, and that is complete.
		res.Complete = true
		return res, nil
	case err != nil:
		return nil, err
	}
	res.States, res.Transitions, res.Complete, res.Stats = st.States, st.Transitions, st.Complete, st
	switch r.Verdict {
	case trace.Violated:
		res.Unsafe = in.counterexample(r.Counterexample)
		res.Reason = "stopped at an unsafe state"
	case trace.Unknown:
		res.Reason = r.Reason
	}
	return res, nil
}

// counterexample completes a counterexample of explore's as the bounded
// check reports it: the number of processes among its parameters, and its
// message said once (not again as the last step's note).
func (in *Instance) counterexample(c *trace.Counterexample) *trace.Counterexample {
	c.Params = map[string]int64{"processes": int64(in.C.N)}
	if n := len(c.Steps); n > 0 && c.Steps[n-1].Note == c.Message {
		c.Steps[n-1].Note = ""
	}
	return c
}

// searchModel is the instance as Explore searches it: a successor out of
// the byte range stops the search (state.KindLimitReached), another failing
// transition stops it with an error.
type searchModel struct {
	*Instance
	initial int   // initial states emitted
	initErr error // the instance's error enumerating its initial states
	err     error // the failure that stopped the search, or a bad initial state
	sink    failSink
}

func (m *searchModel) Initial(emit func(s []byte)) error {
	size := m.C.Size
	m.initErr = m.Instance.Initial(func(s []byte) {
		if m.err != nil {
			return
		}
		if len(s) != size {
			m.err = fmt.Errorf("state vector of %d bytes, want %d", len(s), size)
			return
		}
		m.initial++
		emit(s)
	})
	return m.initErr
}

func (m *searchModel) Next(s []byte, sink state.Sink) {
	m.sink.Sink, m.sink.m = sink, m
	m.Instance.Next(s, &m.sink)
}

func (m *searchModel) Fork() state.Model {
	return &searchModel{Instance: m.Instance.Fork().(*Instance)}
}

type failSink struct {
	state.Sink
	m *searchModel
}

func (f *failSink) Fail(t state.Trans, kind, msg string) {
	if strings.HasSuffix(msg, outOfRange) {
		// An unbounded counter, say: the search cannot go on, and what
		// it has seen is no verdict.
		f.Sink.Fail(t, state.KindLimitReached, msg+" (ftmc keeps values in a byte): the instance is not explored to the end")
		return
	}
	if f.m.err == nil {
		f.m.err = errors.New(kind + ": " + msg)
	}
	f.Sink.Fail(t, state.KindLimitReached, msg)
}

// Bounded checks the property of sys on its instance with n processes by
// Explore: the verdict (unknown, with the reason, when the search is cut
// short by opts or ctx, or when the instance has no initial state), the
// search's figures, and a warning when a system axiom is false on the
// instance. An error says that the instance cannot be built or explored.
func Bounded(ctx context.Context, sys *System, n int, opts ExploreOptions) (trace.Result, trace.Stats, []string, error) {
	r := trace.Result{Property: sys.Property}
	in, err := NewInstance(sys, n)
	if err != nil {
		return r, trace.Stats{}, nil, err
	}
	res, err := Explore(ctx, in, opts)
	if err != nil {
		return r, trace.Stats{}, nil, err
	}
	switch {
	case res.Unsafe != nil:
		r.Verdict, r.Kind, r.Counterexample = trace.Violated, res.Unsafe.Kind, res.Unsafe
	case res.Complete && res.States == 0:
		// No run to check: holds would be vacuous and say nothing.
		r.Verdict, r.Reason = trace.Unknown, fmt.Sprintf("the instance with %s has no initial state: no assignment satisfies the initial formula, so nothing was checked", Processes(int64(n)))
	case res.Complete:
		r.Verdict = trace.Holds
	default:
		r.Verdict, r.Reason = trace.Unknown, res.Reason
		if opts.MaxStates > 0 && res.States > opts.MaxStates && res.Stats.Expanded == 0 {
			r.Reason = fmt.Sprintf("%s: the instance has %d initial states", res.Reason, res.States)
		}
	}
	var warnings []string
	if res.Axiom >= 0 {
		warnings = append(warnings, fmt.Sprintf("system axiom %d (%s) is false on %s: the parameterized proof assumes it",
			res.Axiom+1, strings.Join(strings.Fields(sys.Axioms[res.Axiom].Name), " "), Processes(int64(n))))
	}
	return r, res.Stats, warnings, nil
}

// Processes is "1 process", "3 processes".
func Processes(n int64) string {
	if n == 1 {
		return "1 process"
	}
	return fmt.Sprintf("%d processes", n)
}
