package explore

import (
	"ftmc/state"
	"ftmc/trace"
)

// result is the verdict of a finished or stopped search.
func (s *search) result() trace.Result {
	r := trace.Result{Property: s.property()}
	switch {
	case s.viol != nil:
		r.Verdict = trace.Violated
		r.Kind = s.viol.kind
		r.Counterexample = buildCounterexample(s.m, s.viol, s.store.Get)
	default:
		r.Verdict, r.Reason = Undecided(s.stop, s.truncated, s.opts.MaxDepth, s.store.Len())
		if s.store.lossy != nil {
			s.lossyResult(&r)
		}
	}
	return r
}

func (s *search) complete() bool {
	return s.viol == nil && s.stop == "" && !s.truncated
}

func (s *search) stats() trace.Stats {
	st := s.watch.Stats(s.parents.bytes())
	st.Transitions, st.Matched, st.Expanded, st.Depth = s.transitions, s.matched, s.expanded, s.depth
	st.Complete = s.complete()
	if s.compressedAt > 0 {
		st.Extra = append(st.Extra, compressedFigure(s.compressedAt))
	}
	if s.opts.Lossy != Exact {
		// It may have missed states.
		st.Storage, st.Complete = s.opts.Lossy.String(), false
	}
	reductionStats(&st, s.opts, []*search{s}, func(s *search) *reducer { return s.reduce })
	return st
}

// compressedFigure is the statistic of a store that AutoCompress
// compressed when it held n states.
func compressedFigure(n int64) trace.Figure {
	return trace.Figure{Name: "states stored when the store turned compressed (memory)", Value: float64(n)}
}

// counterexample rebuilds the path of v: the transitions between consecutive
// states are found again by regenerating each state's successors and matching
// the next vector, which is cheaper than storing a transition per state.
func buildCounterexample(m state.Model, v *violation, get func(Index) []byte) *trace.Counterexample {
	c := &trace.Counterexample{Kind: v.kind, Message: v.msg, LoopStart: -1, Steps: []trace.Step{}}
	vecs := make([][]byte, len(v.path))
	for k, i := range v.path {
		vecs[k] = append([]byte(nil), get(i)...)
	}
	if len(vecs) == 0 {
		return c
	}
	c.Initial = m.Decode(vecs[0])
	for k := 1; k < len(vecs); k++ {
		from, to := vecs[k-1], vecs[k]
		t, ok := findTransition(m, from, to)
		step := explain(m, t, from, to)
		if !ok {
			step.Note = "(no transition of the model leads here again: its successor function is not deterministic)"
		}
		c.Steps = append(c.Steps, step)
	}
	last := vecs[len(vecs)-1]
	if v.failing {
		// The failing transition has no successor: it is explained as a
		// step from the last state to itself.
		step := explain(m, v.trans, last, last)
		step.Note = v.msg
		c.Steps = append(c.Steps, step)
	} else if v.kind != state.KindInvalidEnd && len(c.Steps) > 0 && c.Steps[len(c.Steps)-1].Note == "" {
		c.Steps[len(c.Steps)-1].Note = v.msg
	}
	for k := range c.Steps {
		c.Steps[k].Num = k + 1
	}
	c.Final = m.Decode(last)
	c.Processes = state.Processes(m, vecs[0], last)
	return c
}

func explain(m state.Model, t state.Trans, from, to []byte) trace.Step {
	step := m.Explain(t, from, to)
	if len(step.Changes) == 0 {
		step.Changes = trace.Diff(m.Decode(from), m.Decode(to))
	}
	return step
}

// findTransition returns the first transition of m from from to to.
func findTransition(m state.Model, from, to []byte) (state.Trans, bool) {
	f := &finder{want: to}
	m.Next(from, f)
	return f.t, f.found
}

type finder struct {
	want  []byte
	t     state.Trans
	found bool
}

func (f *finder) Succ(t state.Trans, v []byte) {
	if !f.found && string(v) == string(f.want) {
		f.t, f.found = t, true
	}
}

func (f *finder) Fail(state.Trans, string, string) {}
