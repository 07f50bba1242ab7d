package param

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"ftmc/explore"
	"ftmc/ltl"
	"ftmc/state"
	"ftmc/ta"
	"ftmc/trace"
)

// SafetyShape returns init and bad when the specification says
// init -> [](!bad) (its negation is: init holds initially and a bad
// configuration is reached), so that an explicit engine can check it on an
// instance as an invariant.
func SafetyShape(spec ta.Expr) (init, bad ta.Expr, ok bool) {
	lcs, err := specCases(spec)
	if err != nil || len(lcs) != 1 {
		return nil, nil, false
	}
	lc := lcs[0]
	if lc.needLoop || len(lc.root.kids) != 1 || len(lc.root.kids[0].kids) != 0 {
		return nil, nil, false
	}
	return conjExpr(lc.root.props), conjExpr(lc.root.kids[0].props), true
}

func conjExpr(es []ta.Expr) ta.Expr {
	if len(es) == 0 {
		return &ta.BoolLit{Val: true}
	}
	e := es[0]
	for _, x := range es[1:] {
		e = &ta.Binary{Pos: x.Position(), Op: "&&", X: e, Y: x}
	}
	return e
}

// Explicit checks one specification on the instance of f with the
// parameter values vals by a breadth-first search of the counter system
// with explore's engine: for reachability, a configuration where every
// witness of the negated specification has been seen; for liveness, a
// lasso whose loop stays in a configuration where a self-loop rule is
// enabled. It cross-checks Verify on small parameters. opts bounds the
// search (time from Since, memory, MaxStates, MaxDepth); ctx ends it too,
// with verdict unknown and the reason (explore.StopCause).
func Explicit(ctx context.Context, f *ta.File, specName string, vals map[string]int64, opts explore.Options) (SpecResult, trace.Stats) {
	return explicit(ctx, f, specName, vals, opts)
}

// explicit is Explicit.
func explicit(ctx context.Context, f *ta.File, specName string, vals map[string]int64, opts explore.Options) (SpecResult, trace.Stats) {
	start := time.Now()
	res := SpecResult{Result: trace.Result{Property: specName, Verdict: trace.Unknown}}
	var stats trace.Stats
	spec, ok := f.SpecByName(specName)
	if !ok {
		res.Reason = "no specification named " + specName
		return res, stats
	}
	lcs, err := specCases(spec.Formula)
	if err != nil {
		res.Reason = err.Error()
		return res, stats
	}
	in, err := ta.NewInstance(f, vals, ta.InstanceOptions{})
	if err != nil {
		res.Reason = err.Error()
		return res, stats
	}
	if why, err := in.NoRun(); why != "" || err != nil {
		res.Reason = why
		if err != nil {
			res.Reason = err.Error()
		}
		return res, stats
	}
	// An instance's configurations are explored as they come, cycles or
	// not; only the lasso cases follow the schema engine's stages.
	m, err := prepareCycles(f, true)
	if err != nil {
		res.Reason = err.Error()
		return res, stats
	}
	opts.Property = specName
	cycles := false // lassos that may go round the automaton's cycles
	for _, lc := range lcs {
		cycles = cycles || lc.needLoop && m.cycle != nil
	}
	deadline := opts.Deadline(start)
	verdict, complete := trace.Holds, true
	for _, lc := range lcs {
		r, st := explicitCase(ctx, in, m, lc, opts)
		stats.States += st.States
		stats.Transitions += st.Transitions
		stats.MemoryBytes = max(stats.MemoryBytes, st.MemoryBytes)
		complete = complete && st.Complete
		switch r.Verdict {
		case trace.Violated:
			res.Verdict, res.Kind, res.Counterexample = trace.Violated, r.Kind, r.Counterexample
			stats.Seconds = time.Since(start).Seconds()
			return res, stats
		case trace.Unknown:
			verdict, res.Reason = trace.Unknown, r.Reason
		}
		// A limit or an interrupt: the cases left are not started.
		if ctx.Err() != nil {
			verdict, res.Reason = trace.Unknown, fmt.Sprintf("%s after %d states", explore.StopCause(ctx), stats.States)
			break
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			verdict, res.Reason = trace.Unknown, fmt.Sprintf("time limit %v reached after %d states", opts.TimeLimit, stats.States)
			break
		}
	}
	if cycles && verdict == trace.Holds {
		// No lasso whose loop repeats a self-loop (searched first: a
		// breadth-first search finds those soonest). The lassos that go
		// round the automaton's cycles: the LTL search of the
		// instance's counter system finds every one.
		r, st := instanceLTL(ctx, in, spec.Formula, opts)
		stats.States += st.States
		stats.Transitions += st.Transitions
		stats.MemoryBytes = max(stats.MemoryBytes, st.MemoryBytes)
		complete = complete && st.Complete
		verdict, res.Reason = r.Verdict, r.Reason
		if r.Verdict == trace.Violated {
			res.Kind, res.Counterexample = r.Kind, r.Counterexample
		}
	}
	res.Verdict = verdict
	stats.Seconds = time.Since(start).Seconds()
	stats.Complete = verdict == trace.Holds && complete
	return res, stats
}

// instanceLTL checks the specification e on the instance in by the LTL
// search of its counter system for the negation (ltl.Check): a lasso,
// whether its loop repeats a self-loop or goes round the automaton's
// cycles, or a bad prefix. Only the infinite runs count (NoStutter), as
// for the schema engine: a configuration without an enabled rule ends
// its runs.
func instanceLTL(ctx context.Context, in *ta.Instance, e ta.Expr, opts explore.Options) (trace.Result, trace.Stats) {
	r := trace.Result{Property: opts.Property, Verdict: trace.Unknown}
	neg, atoms, err := negateLTL(e, func(e ta.Expr, neg bool) ltl.Predicate {
		return func(v []byte) bool { return in.Holds(e, v) != neg }
	})
	if err == nil && len(atoms) > ltl.MaxAtoms {
		err = fmt.Errorf("the specification has %d conditions; the LTL search takes at most %d", len(atoms), ltl.MaxAtoms)
	}
	var aut *ltl.Automaton
	if err == nil {
		aut, err = ltl.Translate(neg)
	}
	if err != nil {
		r.Reason = err.Error()
		return r, trace.Stats{}
	}
	preds := make([]ltl.Predicate, len(aut.Atoms))
	for i, name := range aut.Atoms {
		preds[i] = atoms[name]
	}
	g := &overflowGuard{Instance: in}
	lr, st, err := ltl.Check(ctx, g, aut, preds, ltl.Options{Property: opts.Property, NoStutter: true,
		TimeLimit: opts.TimeLimit, MemoryLimit: opts.MemoryLimit, MemoryLimitFrom: opts.MemoryLimitFrom, Since: opts.Since, MaxStates: opts.MaxStates})
	if err != nil {
		r.Reason = err.Error()
		return r, st
	}
	if lr.Counterexample != nil {
		lr.Counterexample.Params = in.Params()
	}
	if lr.Verdict == trace.Holds && g.fault != "" {
		// The runs past a counter's range were not searched.
		lr.Verdict, lr.Reason = trace.Unknown, fmt.Sprintf("the runs of the instance %s were searched as far as its counters go: %s", in.ParamString(), g.fault)
		st.Complete = false
	}
	return lr, st
}

// overflowGuard is an instance whose rules that would take a counter out
// of its range (ta.Instance's Fail) have no successor; fault says what
// the first such rule would have done.
type overflowGuard struct {
	*ta.Instance
	fault string
	sink  guardSink
}

func (g *overflowGuard) Next(s []byte, sink state.Sink) {
	g.sink.out, g.sink.g = sink, g
	g.Instance.Next(s, &g.sink)
}

type guardSink struct {
	out state.Sink
	g   *overflowGuard
}

func (s *guardSink) Succ(t state.Trans, v []byte) { s.out.Succ(t, v) }

func (s *guardSink) Fail(t state.Trans, kind, msg string) {
	if s.g.fault == "" {
		s.g.fault = msg
	}
}

// explicitCase searches the product of the instance with the stages of
// lc's chain of witnesses.
func explicitCase(ctx context.Context, in *ta.Instance, m *model, lc *lcase, opts explore.Options) (trace.Result, trace.Stats) {
	r := trace.Result{Property: opts.Property, Verdict: trace.Unknown}
	var chain []*wnode
	for n := lc.root; len(n.kids) > 0; n = n.kids[0] {
		if len(n.kids) > 1 {
			r.Reason = "the negated specification has witnesses that are not ordered; the explicit check handles chains only"
			return r, trace.Stats{}
		}
		chain = append(chain, n.kids[0])
	}
	p := &product{in: in, m: m, lc: lc, chain: chain, active: make([][]ta.Expr, len(chain)+1), stutter: stutterRules(m)}
	p.active[0] = lc.root.gs
	for i, w := range chain {
		p.active[i+1] = append(append([]ta.Expr(nil), p.active[i]...), w.gs...)
	}
	opts.Order = explore.BreadthFirst
	r, st, err := explore.Run(ctx, p, opts)
	switch {
	case p.initErr != nil:
		r.Verdict, r.Reason = trace.Unknown, p.initErr.Error()
	case err != nil && p.initial == 0:
		// No initial configuration meets the root's conditions: the
		// negated specification has no run.
		return trace.Result{Property: opts.Property, Verdict: trace.Holds}, trace.Stats{Complete: true}
	case err != nil:
		r.Verdict, r.Reason = trace.Unknown, err.Error()
	case r.Counterexample != nil:
		p.counterexample(r.Counterexample)
	}
	return r, st
}

// product is an instance's counter system with the stage of a chain of
// witnesses (how many have been seen) as a state.Model for explore: a
// vector is the configuration followed by the stage in two bytes. A
// configuration moves to the next stage when the next witness holds in it
// (a step that is not the automaton's, dropped from counterexamples); rule
// successors stay in the stage when its G conditions hold. The last stage
// is a violation (state.Checker) for reachability; for liveness a stutter
// rule enabled there, with the loop's G conditions, is the lasso's loop (a
// failing transition, so that it is the counterexample's last step).
type product struct {
	in      *ta.Instance
	m       *model
	lc      *lcase
	chain   []*wnode
	active  [][]ta.Expr // G conditions in force at each stage
	stutter []int

	initial int   // initial states emitted
	initErr error // the instance's error enumerating its initial states
	vec     []byte
	sink    stageSink
}

// advance is the Trans.ID of a move to the next stage, and advancePid the
// Pid of its step.
const (
	advance    = -1
	advancePid = -2
)

func (p *product) holdsAll(es []ta.Expr, cfg []byte) bool {
	for _, e := range es {
		if !p.in.Holds(e, cfg) {
			return false
		}
	}
	return true
}

func split(v []byte) ([]byte, int) {
	n := len(v) - 2
	return v[:n], int(binary.LittleEndian.Uint16(v[n:]))
}

func (p *product) join(cfg []byte, stage int) []byte {
	p.vec = append(p.vec[:0], cfg...)
	p.vec = binary.LittleEndian.AppendUint16(p.vec, uint16(stage))
	return p.vec
}

func (p *product) Name() string { return p.in.Name() }

func (p *product) Initial(emit func(s []byte)) error {
	p.initErr = p.in.Initial(func(s []byte) {
		if p.holdsAll(p.lc.root.props, s) && p.holdsAll(p.lc.root.gs, s) {
			p.initial++
			emit(p.join(s, 0))
		}
	})
	return p.initErr
}

func (p *product) Next(v []byte, sink state.Sink) {
	cfg, stage := split(v)
	if stage < len(p.chain) {
		w := p.chain[stage]
		if p.holdsAll(w.props, cfg) && p.holdsAll(w.gs, cfg) {
			sink.Succ(state.Trans{Proc: -1, ID: advance}, p.join(cfg, stage+1))
		}
	} else if p.lc.needLoop && p.holdsAll(p.lc.loopGs, cfg) {
		for _, ri := range p.stutter {
			r := p.m.rules[ri]
			if p.in.Value(cfg, ta.Var{Kind: ta.Local, Index: r.src}) >= 1 && p.in.Holds(r.r.Guard, cfg) {
				sink.Fail(state.Trans{Proc: -1, ID: int32(ri)}, state.KindAcceptCycle, "loop: repeats forever")
				return
			}
		}
	}
	p.sink.out, p.sink.p, p.sink.stage = sink, p, stage
	p.in.Next(cfg, &p.sink)
}

// Check reports the last stage of a reachability case.
func (p *product) Check(v []byte) (kind, msg string, bad bool) {
	if _, stage := split(v); stage == len(p.chain) && !p.lc.needLoop {
		return state.KindInvariant, "", true
	}
	return "", "", false
}

func (p *product) ValidEnd([]byte) bool { return true }

func (p *product) Explain(t state.Trans, from, to []byte) trace.Step {
	if t.ID == advance {
		return trace.Step{Pid: advancePid}
	}
	return p.m.f.Step(p.m.rules[t.ID].r, 0)
}

func (p *product) Decode(v []byte) []trace.Var {
	cfg, _ := split(v)
	return p.in.Decode(cfg)
}

func (p *product) Fork() state.Model {
	q := &product{in: p.in.Fork().(*ta.Instance), m: p.m, lc: p.lc, chain: p.chain, active: p.active, stutter: p.stutter}
	return q
}

// counterexample drops the stage advances from explore's counterexample
// and makes the loop step of a lasso its loop.
func (p *product) counterexample(c *trace.Counterexample) {
	steps := c.Steps[:0]
	for _, s := range c.Steps {
		if s.Pid == advancePid {
			continue
		}
		s.Num = len(steps) + 1
		steps = append(steps, s)
	}
	c.Steps, c.Params, c.Message = steps, p.in.Params(), ""
	if c.Kind == state.KindAcceptCycle {
		c.LoopStart = len(steps) - 1
	}
}

// stageSink passes on the rule successors that keep the stage's G
// conditions; a failing rule (a counter out of range) stops the search.
type stageSink struct {
	out   state.Sink
	p     *product
	stage int
}

func (s *stageSink) Succ(t state.Trans, v []byte) {
	if s.p.holdsAll(s.p.active[s.stage], v) {
		s.out.Succ(t, s.p.join(v, s.stage))
	}
}

func (s *stageSink) Fail(t state.Trans, kind, msg string) {
	s.out.Fail(t, state.KindLimitReached, msg)
}

func stutterRules(m *model) []int {
	var out []int
	for i, r := range m.rules {
		if r.stutter {
			out = append(out, i)
		}
	}
	return out
}
