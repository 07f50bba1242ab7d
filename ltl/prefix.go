package ltl

import (
	"context"
	"encoding/binary"

	"ftmc/explore"
	"ftmc/state"
	"ftmc/trace"
)

// sinks marks the accepting states of a that accept whatever follows: an
// edge guarded by true leads back to the state itself. It reports whether
// every accepting state is such a sink. Then a has an accepting run from a
// product state exactly when a product state with a sink is reachable (the
// model can always go on, if only by repeating a final state), so the
// violations of the property are its bad prefixes, and a breadth-first
// search finds the shortest. The negations of safety properties
// ([] p, [](p -> [] q), p U q with its violations) translate so; never
// claims that run to their end do too.
func sinks(a *Automaton) ([]bool, bool) {
	sink := make([]bool, len(a.States))
	for i, s := range a.States {
		if !s.Accepting {
			continue
		}
		for _, e := range s.Edges {
			if !e.Else && e.Guard == (Cube{}) && e.To == i {
				sink[i] = true
			}
		}
		if !sink[i] {
			return nil, false
		}
	}
	return sink, true
}

// checkPrefix searches the product of m and a breadth-first for a state
// from which a moves into a sink (see sinks), with explore's search: the
// product is itself a state.Model whose vectors are the model's followed by
// the automaton state, and such a move is a failing transition of it. The
// counterexample is the shortest bad prefix, ending in the state that makes
// it bad. Under weak fairness the verdict is the same
// (every prefix extends to a weakly fair run: one that keeps going round a
// bottom strongly connected component of the model's graph), as with
// Spin, which reports a claim that reaches its end whatever -f says.
func checkPrefix(ctx context.Context, m state.Model, a *Automaton, sink []bool, atoms []Predicate, opts Options) (trace.Result, trace.Stats, error) {
	p := &productModel{m: m, a: a, sink: sink, atoms: atoms, failures: opts.Failures, fault: opts.Fault}
	p.excl, _ = m.(Exclusive)
	eo := opts.limits()
	eo.Order, eo.Property, eo.MaxDepth, eo.ExpectedStates = explore.BreadthFirst, opts.Property, opts.MaxDepth, opts.ExpectedStates
	eo.Progress, eo.ProgressInterval = opts.Progress, opts.ProgressInterval
	if eo.Property == "" {
		eo.Property = "ltl"
	}
	r, st, err := explore.Run(ctx, p, eo)
	if c := r.Counterexample; c != nil {
		prefixCounterexample(c, r.Kind == state.KindAcceptCycle)
	}
	return r, st, err
}

// prefixCounterexample rewords explore's counterexample of a product
// search: the steps that are the product's, not the model's, are dropped
// (the automaton's move into a sink; a proposition that fails, whose
// message goes to the last step; the repetition of a final state, which
// then repeats for ever).
func prefixCounterexample(c *trace.Counterexample, bad bool) {
	steps := c.Steps[:0]
	ended := false
	for _, s := range c.Steps {
		switch s.Pid {
		case stutterPid:
			ended = true
			continue
		case acceptPid:
			continue
		case propositionPid:
			if len(steps) > 0 {
				steps[len(steps)-1].Note = s.Note
			}
			continue
		}
		if bad {
			s.Note = ""
		}
		s.Num = len(steps) + 1
		steps = append(steps, s)
	}
	c.Steps = steps
	if !bad {
		return
	}
	c.Message = "bad prefix: every run that begins with these steps violates the property"
	if ended {
		c.Message = "bad prefix: the run ends here, and its final state repeating forever violates the property"
		c.LoopStart = len(c.Steps)
	}
}

// stutterPid marks, in a step of a product counterexample, the repetition
// of a final model state; acceptPid the automaton's move into a sink;
// propositionPid a proposition that cannot be evaluated.
const (
	stutterPid     = -2
	acceptPid      = -3
	propositionPid = -4
)

// productModel is the synchronous product of a model and an automaton as a
// state.Model, for explore's searches. It follows search.expand: the
// automaton reads each model state before the model leaves it, a final
// model state repeats, and the automaton stays put inside an atomic
// sequence.
type productModel struct {
	m     state.Model
	a     *Automaton
	sink  []bool
	atoms []Predicate
	excl  Exclusive

	failures bool // Options.Failures
	fault    func() string

	out   state.Sink
	claim []int
	vec   []byte
	n     int // successors of the model in the current expansion
}

func (p *productModel) Name() string { return p.m.Name() }

func (p *productModel) split(v []byte) ([]byte, int) {
	n := len(v) - 2
	return v[:n], int(binary.LittleEndian.Uint16(v[n:]))
}

func (p *productModel) join(model []byte, q int) []byte {
	p.vec = append(p.vec[:0], model...)
	p.vec = binary.LittleEndian.AppendUint16(p.vec, uint16(q))
	return p.vec
}

func (p *productModel) Initial(emit func([]byte)) error {
	return p.m.Initial(func(v []byte) { emit(p.join(v, p.a.Init)) })
}

func (p *productModel) Next(v []byte, out state.Sink) {
	model, q := p.split(v)
	r := read(p.atoms, p.fault, model)
	claim := func() bool {
		var fault string
		if p.claim, fault = p.a.next(q, r, p.claim[:0]); fault != "" {
			out.Fail(propositionTrans, state.KindRuntime, fault)
			return false
		}
		for _, q2 := range p.claim {
			if p.sink[q2] {
				// Whatever the model does next (if only repeat its
				// final state), the automaton accepts from here on.
				out.Fail(acceptTrans, state.KindAcceptCycle, "the property's automaton accepts whatever follows")
				return false
			}
		}
		return len(p.claim) > 0 // else the claim blocks: no run goes on from here
	}
	excl := p.excl != nil && p.excl.Exclusive(model)
	if excl {
		p.claim = append(p.claim[:0], q)
	} else if !claim() {
		return
	}
	p.out, p.n = out, 0
	p.m.Next(model, p)
	p.out = nil
	if p.n > 0 {
		return
	}
	if excl && !claim() {
		// Atomicity is lost, and the claim, which moves after all,
		// blocks or fails.
		return
	}
	for _, q2 := range p.claim {
		out.Succ(stutter, p.join(model, q2))
	}
}

// Succ forwards a successor of the model once per move of the automaton.
func (p *productModel) Succ(t state.Trans, v []byte) {
	p.n++
	for _, q2 := range p.claim {
		p.out.Succ(t, p.join(v, q2))
	}
}

// Fail: a failing transition has no successor in the product; it is a
// violation with Options.Failures, else the safety search reports it.
func (p *productModel) Fail(t state.Trans, kind, msg string) {
	if p.failures {
		p.n++
		p.out.Fail(t, kind, msg)
	}
}

// propositionTrans is the failing "step" of a state whose propositions
// cannot be evaluated; acceptTrans the automaton's move into a sink.
var (
	propositionTrans = state.Trans{Proc: -1, ID: -1, Aux: -2}
	acceptTrans      = state.Trans{Proc: -1, ID: -1, Aux: -3}
)

// ValidEnd: a product state without successors is one where the claim
// blocks, which ends no violating run.
func (p *productModel) ValidEnd([]byte) bool { return true }

func (p *productModel) Explain(t state.Trans, from, to []byte) trace.Step {
	mf, _ := p.split(from)
	mt, _ := p.split(to)
	switch t {
	case propositionTrans:
		return trace.Step{Pid: propositionPid, Stmt: "(the property's propositions are evaluated)"}
	case acceptTrans:
		return trace.Step{Pid: acceptPid, Stmt: "(the property's automaton accepts)"}
	case stutter:
		return trace.Step{Pid: stutterPid, Stmt: "(the run has ended: its final state repeats)"}
	}
	step := p.m.Explain(t, mf, mt)
	if len(step.Changes) == 0 {
		step.Changes = trace.Diff(p.m.Decode(mf), p.m.Decode(mt))
	}
	return step
}

func (p *productModel) Processes(first, last []byte) []trace.Process {
	mf, _ := p.split(first)
	ml, _ := p.split(last)
	return state.Processes(p.m, mf, ml)
}

func (p *productModel) Decode(v []byte) []trace.Var {
	model, _ := p.split(v)
	return p.m.Decode(model)
}

func (p *productModel) Fork() state.Model {
	f := &productModel{m: p.m.Fork(), a: p.a, sink: p.sink, atoms: p.atoms, failures: p.failures, fault: p.fault}
	f.excl, _ = f.m.(Exclusive)
	return f
}
