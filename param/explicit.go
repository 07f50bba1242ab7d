package param

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"ftmc/explore"
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
// parameter values vals by exhaustive search of the counter system: for
// reachability, a configuration where every witness of the negated
// specification has been seen; for liveness, a lasso whose loop stays in a
// configuration where a self-loop rule is enabled. It cross-checks Verify
// on small parameters. limit bounds the number of product states (0: none);
// ctx ends the search with verdict unknown, saying why (explore.StopCause).
func Explicit(ctx context.Context, f *ta.File, specName string, vals map[string]int64, limit int) (SpecResult, trace.Stats) {
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
	m, err := prepare(f)
	if err != nil {
		res.Reason = err.Error()
		return res, stats
	}
	verdict := trace.Holds
	for _, lc := range lcs {
		out, st := explicitCase(ctx, in, m, lc, limit)
		stats.States += st.States
		stats.Transitions += st.Transitions
		switch out.verdict {
		case trace.Violated:
			res.Verdict, res.Counterexample = trace.Violated, out.cex
			res.Kind = out.cex.Kind
			stats.Seconds = time.Since(start).Seconds()
			return res, stats
		case trace.Unknown:
			verdict, res.Reason = trace.Unknown, out.reason
		}
		if ctx.Err() != nil {
			// A limit or an interrupt: the cases left are not started.
			verdict, res.Reason = trace.Unknown, fmt.Sprintf("%s after %d states", explore.StopCause(ctx), stats.States)
			break
		}
	}
	res.Verdict = verdict
	stats.Seconds = time.Since(start).Seconds()
	stats.Complete = verdict == trace.Holds
	return res, stats
}

type pnode struct {
	cfg    string
	stage  int
	parent int
	rule   int32 // rule from the parent, -1 for a stage advance or start
}

type succSink struct {
	out   []state.Trans
	vecs  [][]byte
	fails []string
}

func (s *succSink) Succ(t state.Trans, v []byte) {
	s.out = append(s.out, t)
	s.vecs = append(s.vecs, append([]byte(nil), v...))
}
func (s *succSink) Fail(t state.Trans, kind, msg string) { s.fails = append(s.fails, msg) }

func explicitCase(ctx context.Context, in *ta.Instance, m *model, lc *lcase, limit int) (caseOutcome, trace.Stats) {
	var st trace.Stats
	var chain []*wnode
	for n := lc.root; len(n.kids) > 0; n = n.kids[0] {
		if len(n.kids) > 1 {
			return caseOutcome{verdict: trace.Unknown, reason: "the negated specification has witnesses that are not ordered; the explicit check handles chains only"}, st
		}
		chain = append(chain, n.kids[0])
	}
	holdsAll := func(es []ta.Expr, s []byte) bool {
		for _, e := range es {
			if !in.Holds(e, s) {
				return false
			}
		}
		return true
	}
	active := make([][]ta.Expr, len(chain)+1)
	active[0] = lc.root.gs
	for i, w := range chain {
		active[i+1] = append(append([]ta.Expr(nil), active[i]...), w.gs...)
	}
	var nodes []pnode
	seen := map[string]bool{}
	var queue []int
	add := func(cfg []byte, stage, parent int, rule int32) {
		key := string(cfg) + "|" + strconv.Itoa(stage)
		if seen[key] {
			return
		}
		seen[key] = true
		nodes = append(nodes, pnode{cfg: string(cfg), stage: stage, parent: parent, rule: rule})
		queue = append(queue, len(nodes)-1)
	}
	err := in.Initial(func(s []byte) {
		if holdsAll(lc.root.props, s) && holdsAll(lc.root.gs, s) {
			add(s, 0, -1, -1)
		}
	})
	if err != nil {
		return caseOutcome{verdict: trace.Unknown, reason: err.Error()}, st
	}
	sink := &succSink{}
	for len(queue) > 0 {
		if ctx.Err() != nil {
			return caseOutcome{verdict: trace.Unknown, reason: explore.StopCause(ctx)}, st
		}
		if limit > 0 && len(nodes) > limit {
			return caseOutcome{verdict: trace.Unknown, reason: fmt.Sprintf("state limit %d reached", limit)}, st
		}
		i := queue[0]
		queue = queue[1:]
		n := nodes[i]
		cfg := []byte(n.cfg)
		st.States++
		if n.stage < len(chain) {
			w := chain[n.stage]
			if holdsAll(w.props, cfg) && holdsAll(w.gs, cfg) {
				add(cfg, n.stage+1, i, -1)
			}
		} else if !lc.needLoop {
			return caseOutcome{verdict: trace.Violated, cex: explicitCex(in, m, nodes, i, -1)}, st
		} else if holdsAll(lc.loopGs, cfg) {
			for _, ri := range stutterRules(m) {
				r := m.rules[ri]
				if in.Value(cfg, ta.Var{Kind: ta.Local, Index: r.src}) >= 1 && in.Holds(r.r.Guard, cfg) {
					return caseOutcome{verdict: trace.Violated, cex: explicitCex(in, m, nodes, i, ri)}, st
				}
			}
		}
		sink.out, sink.vecs, sink.fails = sink.out[:0], sink.vecs[:0], sink.fails[:0]
		in.Next(cfg, sink)
		if len(sink.fails) > 0 {
			return caseOutcome{verdict: trace.Unknown, reason: sink.fails[0]}, st
		}
		for j, t := range sink.out {
			st.Transitions++
			if holdsAll(active[n.stage], sink.vecs[j]) {
				add(sink.vecs[j], n.stage, i, t.ID)
			}
		}
	}
	return caseOutcome{verdict: trace.Holds}, st
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

func explicitCex(in *ta.Instance, m *model, nodes []pnode, last int, loopRule int) *trace.Counterexample {
	var path []int
	for i := last; i >= 0; i = nodes[i].parent {
		path = append(path, i)
	}
	c := &trace.Counterexample{Params: in.Params(), LoopStart: -1, Kind: state.KindInvariant}
	first := nodes[path[len(path)-1]]
	c.Initial = in.Decode([]byte(first.cfg))
	prev := c.Initial
	for k := len(path) - 2; k >= 0; k-- {
		n := nodes[path[k]]
		if n.rule < 0 {
			continue
		}
		r := m.rules[n.rule].r
		cur := in.Decode([]byte(n.cfg))
		st := m.f.Step(r, 0)
		st.Num, st.Changes = len(c.Steps)+1, trace.Diff(prev, cur)
		c.Steps = append(c.Steps, st)
		prev = cur
	}
	if loopRule >= 0 {
		r := m.rules[loopRule].r
		c.LoopStart = len(c.Steps)
		c.Kind = state.KindAcceptCycle
		st := m.f.Step(r, 0)
		st.Num, st.Note = len(c.Steps)+1, "loop: repeats forever"
		c.Steps = append(c.Steps, st)
	}
	c.Final = prev
	return c
}
