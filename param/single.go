package param

import (
	"context"
	"fmt"
	"time"

	"ftmc/explore"
	"ftmc/smt"
	"ftmc/trace"
)

// The single query: a disjunct of the negated specification is encoded as
// one bounded run of accelerated segments whose contexts are left to the
// solver, instead of one query per order of the milestones. Unsat proves
// that the disjunct has no run; any other answer leaves the disjunct to the
// tree search, which finds, replays and reports a counterexample as before
// (a model of the query need not be one: G conditions are asked at the
// segment ends only).
//
// Layout: an accelerated segment acc_0 from the initial configuration,
// then K blocks of a step (at most one rule fires) and an accelerated
// segment acc_j, where K counts the milestone atoms that are not always
// true and the witnesses below the root. An accelerated segment fires the
// moving rules in topological order, each with a multiplicity, and asks a
// guard's positive literals before the rule's first firing in the segment
// and its negative literals before its last one. Witnesses sit at the ends
// of acc segments, not before their parents'; the G conditions in force are
// asked at the start and at the end of every step and segment; a lasso
// loops in the last configuration (loopCond).
//
// Completeness (every run of the disjunct gives a model). Cut the run
// where a milestone atom changes (by one transition: a step) and at its
// witnesses (the last configuration where a witness is needed: a block
// with an empty step). The atoms change at most once each (shared
// variables only grow), so there are at most K cuts. Between two cuts
// every atom keeps its value; the transitions of such a piece, reordered
// into the topological order of their rules, still reach the piece's last
// configuration (the automaton is acyclic apart from self-loops; a
// self-loop that increments fires after the rules into its location), and
// every intermediate configuration has its shared variables between those
// of the piece's ends, so every milestone atom has the piece's value
// there; a flow atom (markFlow) is asked positively only, where its rule
// first fires, after every increment of its variables in the piece, so
// it holds there if it held where the rule fired in the run: the guards of
// the reordered piece hold where the query asks them. The cut
// configurations are configurations of the run, so the witnesses' and the
// G conditions hold there, and a lasso's last configuration (the one its
// self-loops repeat) is the run's. A clause k_l == 0 || ctx (zeroClause)
// also asks ctx where a rule into l fires: in the run that rule fired in
// the same piece, so with the same atom values, after the clause came in
// force exactly when its piece lies after the witness that brings it.
//
// The query drops no run, so it can only answer sat where a schema of the
// tree search would find a counterexample, or spuriously (then the tree
// search decides); unsat refutes the disjunct.

// singleApplies reports whether the single query decides the disjunct:
// not for a lasso that need not end in a configuration that stutters.
func (p *problem) singleApplies() bool {
	return p.loopInexact() == ""
}

// zeroClause reports whether c is k_l == 0 or'ed with literals that only
// turn true. Such a literal, once true, stays so; k_l turns non-zero only
// where a rule into l fires, and in the run the schemas reorder it fires
// in the same context: the query asks the literals there too.
func zeroClause(c gclause) bool {
	return !c.general && len(c.zero) == 1 && len(c.nonzero) == 0 && polarity(c.ctx, true)
}

// polarity reports whether every atom literal of b has polarity pos.
func polarity(b *bexpr, pos bool) bool {
	switch b.op {
	case 'l':
		return b.pos == pos
	case 'a', 'o':
		for _, k := range b.kids {
			if !polarity(k, pos) {
				return false
			}
		}
	}
	return true
}

// singleBlocks is K of the layout: the milestone atoms that can turn true
// plus the witnesses below the root.
func (p *problem) singleBlocks() int {
	k := 0
	for a := range p.m.atoms {
		if p.isMilestone(a) && !p.always[a] {
			k++
		}
	}
	var walk func(n *wnode)
	walk = func(n *wnode) {
		for _, c := range n.kids {
			k++
			walk(c)
		}
	}
	walk(p.lc.root)
	return k
}

// zeroRule is a clause k_l == 0 || ctx of a G condition of node (the
// root: in force from the start; another witness: after it is placed).
type zeroRule struct {
	loc  int
	ctx  *bexpr
	node *wnode
}

// singleQuery encodes the disjunct as one query (see above).
func (p *problem) singleQuery() ([]string, error) {
	m := p.m
	k := p.singleBlocks()
	t0 := stateNames("t0")
	cmds := p.declareState(t0)
	for l := 0; l < m.nloc; l++ {
		cmds = assertAll(cmds, smt.App(">=", t0.k(l), "0"))
	}
	for v := 0; v < m.nsh; v++ {
		cmds = assertAll(cmds, smt.App(">=", t0.x(v), "0"))
	}
	for _, e := range append(m.f.Inits[:len(m.f.Inits):len(m.f.Inits)], p.lc.root.props...) {
		t, err := exprTerm(e, t0)
		if err != nil {
			return nil, err
		}
		cmds = assertAll(cmds, t)
	}
	var nodes []*wnode
	parent := map[*wnode]*wnode{}
	var walk func(n *wnode)
	walk = func(n *wnode) {
		for _, c := range n.kids {
			nodes = append(nodes, c)
			if n != p.lc.root {
				parent[c] = n
			}
			walk(c)
		}
	}
	walk(p.lc.root)
	at := func(n *wnode, j int) string { return fmt.Sprintf("w%d_%d", n.id, j) }
	for _, n := range nodes {
		for j := 0; j <= k; j++ {
			cmds = append(cmds, smt.DeclareConst(at(n, j), "Bool"))
		}
	}
	// placed says that n's witness is at the end of acc_i for some i < j
	// (i <= j with upto).
	placed := func(n *wnode, j int, upto bool) string {
		if n == p.lc.root {
			return "true"
		}
		var ws []string
		for i := 0; i < j || upto && i == j; i++ {
			ws = append(ws, at(n, i))
		}
		return smt.Or(ws...)
	}
	var zeros []zeroRule
	for n, gs := range p.gconds {
		for _, g := range gs {
			for _, c := range g.clauses {
				if zeroClause(c) {
					zeros = append(zeros, zeroRule{loc: c.zero[0], ctx: c.ctx, node: n})
				}
			}
		}
	}
	// gAt asks the G conditions in force at the state st: those of the
	// witnesses placed by then (see placed).
	gAt := func(st stateNames, j int, upto bool) error {
		for n, gs := range p.gconds {
			for _, g := range gs {
				t, err := exprTerm(g.expr, st)
				if err != nil {
					return err
				}
				cmds = assertAll(cmds, smt.App("=>", placed(n, j, upto), t))
			}
		}
		return nil
	}
	if err := gAt(t0, 0, false); err != nil {
		return nil, err
	}
	ends := make([]stateNames, k+1)
	for j := 0; j <= k; j++ {
		start := t0
		if j > 0 {
			start = stateNames(fmt.Sprintf("t%d", j))
			cmds = append(cmds, p.singleStep(j, ends[j-1], start, zeros, placed)...)
			if err := gAt(start, j, false); err != nil {
				return nil, err
			}
		}
		ends[j] = stateNames(fmt.Sprintf("u%d", j))
		cmds = append(cmds, p.singleAcc(j, start, ends[j], zeros, placed)...)
		if err := gAt(ends[j], j, true); err != nil {
			return nil, err
		}
	}
	// Witnesses: each at the end of some acc_j, not before its parent's.
	for _, n := range nodes {
		var some []string
		for j := 0; j <= k; j++ {
			w := at(n, j)
			some = append(some, w)
			var conds []string
			for _, e := range n.props {
				t, err := exprTerm(e, ends[j])
				if err != nil {
					return nil, err
				}
				conds = append(conds, t)
			}
			if q := parent[n]; q != nil {
				conds = append(conds, placed(q, j, true))
			}
			if len(conds) > 0 {
				cmds = assertAll(cmds, smt.App("=>", w, smt.And(conds...)))
			}
		}
		cmds = assertAll(cmds, smt.Or(some...))
	}
	if p.lc.needLoop {
		// The lasso repeats the last configuration.
		t, err := p.loopCond(&frame{end: ends[k]})
		if err != nil {
			return nil, err
		}
		cmds = assertAll(cmds, t)
	}
	return cmds, nil
}

// zeroCond is what the clauses zs ask of a rule into loc that fires in
// block j with the shared variables xs: their literals, where in force.
func zeroCond(m *model, zs []zeroRule, r *rule, j int, xs []string, placed func(*wnode, int, bool) string) []string {
	var out []string
	if r.src == r.dst {
		return nil
	}
	for _, z := range zs {
		if z.loc == r.dst {
			out = append(out, smt.Or(smt.Not(placed(z.node, j, false)), m.btermAt(z.ctx, xs, xs)))
		}
	}
	return out
}

// singleStep encodes a milestone step from start to end: at most one rule
// fires, enabled at start.
func (p *problem) singleStep(j int, start, end stateNames, zs []zeroRule, placed func(*wnode, int, bool) string) []string {
	m := p.m
	var cmds, sum []string
	fl := p.newFlows()
	xs := make([]string, m.nsh)
	for v := range xs {
		xs[v] = start.x(v)
	}
	for _, i := range m.order {
		r := m.rules[i]
		if r.guard.op == 'f' {
			continue
		}
		dv := fmt.Sprintf("d%d_%d", j, i)
		cmds = append(cmds, smt.DeclareConst(dv, "Int"))
		cmds = assertAll(cmds, smt.App(">=", dv, "0"), smt.App("<=", dv, "1"), smt.App("<=", dv, start.k(r.src)))
		conds := zeroCond(m, zs, r, j, xs, placed)
		if g := m.bterm(r.guard, start); g != "true" {
			conds = append(conds, g)
		}
		if len(conds) > 0 {
			cmds = assertAll(cmds, smt.Or(smt.App("=", dv, "0"), smt.And(conds...)))
		}
		sum = append(sum, dv)
		fl.add(r, dv)
	}
	if len(sum) > 0 {
		cmds = assertAll(cmds, smt.App("<=", smt.Sum(sum...), "1"))
	}
	return append(cmds, p.effect(start, end, fl.in, fl.out, fl.incs)...)
}

// singleAcc encodes an accelerated segment from start to end: the rules in
// topological order, each with a multiplicity, its positive literals asked
// before its first firing and its negative literals before its last.
func (p *problem) singleAcc(j int, start, end stateNames, zs []zeroRule, placed func(*wnode, int, bool) string) []string {
	m := p.m
	var cmds []string
	fl := p.newFlows()
	// cur names the shared variables before the next rule.
	cur := make([]string, m.nsh)
	for v := range cur {
		cur[v] = start.x(v)
	}
	for n, i := range m.order {
		r := m.rules[i]
		if r.guard.op == 'f' {
			continue
		}
		av := fmt.Sprintf("a%d_%d", j, i)
		cmds = append(cmds, smt.DeclareConst(av, "Int"))
		cmds = assertAll(cmds, smt.App(">=", av, "0"))
		last := cur
		grows := false
		for _, c := range r.inc {
			grows = grows || c != 0
		}
		if grows {
			last = make([]string, m.nsh)
			for v, c := range r.inc {
				last[v] = cur[v]
				if c != 0 {
					last[v] = smt.Sum(cur[v], smt.Times(c, smt.App("-", av, "1")))
				}
			}
		}
		conds := zeroCond(m, zs, r, j, cur, placed)
		if g := m.btermAt(r.guard, cur, last); g != "true" {
			conds = append(conds, g)
		}
		if len(conds) > 0 {
			cmds = assertAll(cmds, smt.Or(smt.App("=", av, "0"), smt.And(conds...)))
		}
		if r.src == r.dst {
			cmds = assertAll(cmds, fl.selfLoopHasProcess(start, r, av))
		}
		fl.add(r, av)
		for v, c := range r.inc {
			if c != 0 {
				name := fmt.Sprintf("y%d_%d_%d", j, n, v)
				cmds = append(cmds, "(define-fun "+name+" () Int "+smt.Sum(cur[v], smt.Times(c, av))+")")
				cur[v] = name
			}
		}
	}
	return append(cmds, p.segmentEnd(start, end, fl)...)
}

// btermAt renders b with its positive literals over the shared variables
// pos and its negative ones over neg.
func (m *model) btermAt(b *bexpr, pos, neg []string) string {
	switch b.op {
	case 'l':
		xs := neg
		if b.pos {
			xs = pos
		}
		at := m.atoms[b.atom]
		var ts []string
		for _, v := range at.shared.Vars() {
			ts = append(ts, smt.Times(at.shared.Coef[v], xs[v.Index]))
		}
		if len(ts) == 0 {
			ts = append(ts, "0")
		}
		t := smt.App(">=", smt.Sum(ts...), linTerm(at.bound, ""))
		if b.pos {
			return t
		}
		return smt.Not(t)
	case 'a', 'o':
		ts := make([]string, len(b.kids))
		for i, k := range b.kids {
			ts[i] = m.btermAt(k, pos, neg)
		}
		if b.op == 'a' {
			return smt.And(ts...)
		}
		return smt.Or(ts...)
	}
	return m.bterm(b, "")
}

// singleCrossLimit bounds the second solver's confirmation of the single
// query, and singleLimit (cvc5) or singleRLimit (z3) the first solver's
// answer: a query that takes longer leaves the disjunct to the tree
// search, whose queries are small (z3 took more than seven minutes on one
// single query of the command's tests, whose tree search takes seconds).
// z3's bound counts its work, about 30 s of it here (z3 4.8.12 counts
// about 1.1e8 a second): a bound on the clock gave up under load on
// queries it answers when idle (random19's n-kset decide_or_flip, 12 s
// idle), and left them to a tree search of minutes.
const (
	singleCrossLimit = 10 * time.Second
	singleLimit      = 30 * time.Second
	singleRLimit     = 3_300_000_000
)

// singleCheck runs the single query of p. Unsat means that the disjunct
// has no run; on sat, the model's run is replayed on its instance and, if
// it violates the property there, returned as the counterexample (with the
// parameters made small first, for a readable and quick replay). Any other
// outcome leaves the disjunct to the tree search.
func singleCheck(ctx context.Context, p *problem, opts Options, st *stats) (bool, *trace.Counterexample, error) {
	base, err := p.base()
	if err != nil {
		return false, nil, err
	}
	q, err := p.singleQuery()
	if err != nil {
		return false, nil, err
	}
	so := opts.Solver
	switch {
	case so.Name != "cvc5":
		if so.RLimit == 0 || so.RLimit > singleRLimit {
			so.RLimit = singleRLimit
		}
	case so.Timeout == 0 || so.Timeout > singleLimit:
		so.Timeout = singleLimit
	}
	if cc := so.CrossCheck; cc != nil && (cc.Timeout == 0 || cc.Timeout > singleCrossLimit) {
		// A second solver that does not confirm in time leaves the
		// disjunct to the tree search, whose queries it confirms one by
		// one (cvc5 takes minutes on some single queries that z3 answers
		// in a second).
		c := *cc
		c.Timeout = singleCrossLimit
		so.CrossCheck = &c
	}
	s, err := smt.New(ctx, so)
	if err != nil {
		return false, nil, err
	}
	defer s.Close()
	s.Send(base...)
	s.Send(q...)
	check := func(ctx context.Context, assume ...string) (smt.Status, error) {
		t0 := time.Now()
		res, err := s.Check(ctx, assume...)
		st.answered(t0)
		return res, err
	}
	st.mu.Lock()
	st.single++
	st.mu.Unlock()
	res, err := check(ctx)
	if err != nil || res != smt.Sat {
		return res == smt.Unsat, nil, err
	}
	m := p.m
	var ps []string
	for i := range m.f.Params {
		ps = append(ps, paramName(i))
	}
	names := append([]string(nil), ps...)
	t0 := stateNames("t0")
	for l := 0; l < m.nloc; l++ {
		names = append(names, t0.k(l))
	}
	for v := 0; v < m.nsh; v++ {
		names = append(names, t0.x(v))
	}
	var flows []flow
	for j := 0; j <= p.singleBlocks(); j++ {
		for _, kind := range []string{"d", "a"} {
			if j == 0 && kind == "d" {
				continue
			}
			for _, i := range m.order {
				if m.rules[i].guard.op != 'f' {
					flows = append(flows, flow{i, fmt.Sprintf("%s%d_%d", kind, j, i)})
				}
			}
		}
	}
	for _, f := range flows {
		names = append(names, f.name)
	}
	// The model's run, replayed on its instance: a counterexample or nil.
	var params map[string]int64 // the last model's parameters, by name
	replay := func() (*trace.Counterexample, error) {
		vals, err := s.Values(ctx, names...)
		if err != nil {
			return nil, err
		}
		val := map[string]int64{}
		for i, n := range names {
			x, ok := vals[i].Int64()
			if !ok {
				return nil, fmt.Errorf("solver gave a non-integer value for %s", n)
			}
			val[n] = x
		}
		params = map[string]int64{}
		for i, d := range m.f.Params {
			if d.Quotient == nil {
				params[d.Name] = val[paramName(i)]
			}
		}
		var sched schedule
		for _, f := range flows {
			if n := val[f.name]; n > 0 {
				sched = append(sched, firing{rule: f.rule, times: n})
			}
		}
		cex, _, err := p.runCex(val, sched, p.lc.needLoop)
		return cex, err
	}
	// The query asks the G conditions at the segments' ends only, so a
	// model may be no run; the first model is tried too when the one with
	// small parameters is not a counterexample.
	first, err := replay()
	if err != nil || len(ps) == 0 {
		return false, first, err
	}
	// A counterexample whose parameters are small already is kept: each
	// of the bisection's queries is the whole query again.
	if first != nil && paramSum(params) <= smallSum {
		return false, first, nil
	}
	if err := shrinkSum(ctx, s, len(ps), "small", nil, check); err != nil {
		return false, first, nil
	}
	if cex, err := replay(); err == nil && cex != nil {
		return false, cex, nil
	}
	if first != nil {
		return false, first, nil
	}
	// Neither is a run. The small parameters may still have one that the
	// model does not show: an explicit check of that instance (of the
	// automaton as written, so not where the contraction over-
	// approximates), within a small budget. A violation there is a
	// counterexample for those parameters.
	if p.orig != nil && !opts.Overapprox {
		if cex := p.instanceCex(ctx, params); cex != nil {
			return false, cex, nil
		}
	}
	// Else a few other models, of growing sums, before the tree search
	// decides.
	sum := smt.Sum(ps...)
	for k, bound := range []int64{8, 32, 128} {
		lit := fmt.Sprintf("other%d", k)
		s.Send(smt.DeclareConst(lit, "Bool"), "(assert (=> "+lit+" (<= "+sum+" "+smt.Int(bound)+")))")
		if res, err := check(ctx, lit); err != nil || res != smt.Sat {
			continue
		}
		if cex, err := replay(); err == nil && cex != nil {
			return false, cex, nil
		}
	}
	return false, nil, nil
}

// smallSum is the sum of parameters up to which the single query's
// counterexample is not shrunk.
const smallSum = 16

// paramSum is the sum of the parameter values vals.
func paramSum(vals map[string]int64) int64 {
	var n int64
	for _, v := range vals {
		n += v
	}
	return n
}

// singleInstance bounds the explicit check of the single query's
// parameters.
const (
	singleInstance     = 200_000
	singleInstanceTime = 2 * time.Second
)

// instanceCex checks p's specification on the instance with the
// parameters vals by Explicit, within singleInstance states and
// singleInstanceTime, and returns its counterexample if the instance
// violates it.
func (p *problem) instanceCex(ctx context.Context, vals map[string]int64) *trace.Counterexample {
	if vals == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, singleInstanceTime)
	defer cancel()
	r, _ := Explicit(ctx, p.orig, p.spec, vals, explore.Options{MaxStates: singleInstance})
	if r.Verdict == trace.Violated {
		return r.Counterexample
	}
	return nil
}
