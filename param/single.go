package param

import (
	"context"
	"fmt"

	"ftmc/smt"
)

// The single query: a reachability disjunct (no lasso, no G conditions) is
// encoded as one bounded run of accelerated segments whose contexts are
// left to the solver, instead of one query per order of the milestones.
//
// Completeness. Every schema the tree search would check (an initial
// accelerated segment, then per item either a milestone step, where at most
// one rule fires, followed by an accelerated segment, or a cut point
// followed by an accelerated segment) is an instance of the layout below:
// an accelerated segment acc_0, then K blocks of a step (one rule at most)
// and an accelerated segment acc_j, with K the number of milestone atoms
// that are not always true plus the number of witnesses. A cut point maps
// to a block with an empty step, so every witness sits at the end of some
// acc_j. A schema's segment fires its rules in topological order in a
// fixed context, and the layout asks each guard only where the rule fires:
// the positive literals (atoms that only turn true) before its first
// firing in the segment, the negative ones (atoms that must still be
// false, which only turn false) before its last one. Both hold in the
// schema's context, so every run a schema describes satisfies the query,
// and an unsat answer refutes every schema of the disjunct.
//
// Soundness. Positive literals true before the first firing stay true at
// every later firing of the segment (shared variables only grow), negative
// literals true before the last firing were true before every earlier one,
// and a guard is a positive Boolean combination of its literals: every
// firing of a model of the query is enabled, so a model is a run. A sat
// answer is not turned into a counterexample here, though: the tree search
// then runs and finds, replays and reports it as before.

// singleApplies reports whether the single query decides the disjunct:
// the engine's encoding is exact for it (inexact), and every clause of its
// G conditions is one whose truth inside a segment follows from the
// configurations the query names (gclauseKind).
func (p *problem) singleApplies() bool {
	if p.inexact() != "" {
		return false
	}
	for _, gs := range p.gconds {
		for _, g := range gs {
			for _, c := range g.clauses {
				if gclauseKind(c) == 0 {
					return false
				}
			}
		}
	}
	return true
}

// gclauseKind classifies a clause of a G condition for the single query,
// which asks the condition at the ends of the segments and steps (and at
// the start of the run). Shared variables and the set of processes in a
// closed set of locations change monotonically inside a segment, so:
//
//	'e': the clause is false somewhere inside a segment only if it is
//	     false at the segment's end: literals over shared variables that
//	     only turn false (x < c) or none, and k_l != 0 over locations no
//	     rule enters from outside (inexact checks that), whose count only
//	     drops;
//	's': the clause is false somewhere only if it is false at the
//	     segment's start: literals that only turn true, nothing else;
//	'z': one literal k_l == 0 or'ed with literals that only turn true:
//	     besides the segment ends, every rule into l asks the literals
//	     where it fires (k_l turns non-zero only there);
//	0:   none of these: the single query does not apply.
func gclauseKind(c gclause) byte {
	if c.general {
		return 0
	}
	switch {
	case len(c.zero) == 0 && polarity(c.ctx, false):
		return 'e'
	case len(c.zero) == 0 && len(c.nonzero) == 0 && polarity(c.ctx, true):
		return 's'
	case len(c.zero) == 1 && len(c.nonzero) == 0 && polarity(c.ctx, true):
		return 'z'
	}
	return 0
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
				if gclauseKind(c) == 'z' {
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
	in := make([][]string, m.nloc)
	out := make([][]string, m.nloc)
	incs := make([][]string, m.nsh)
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
		if r.src != r.dst {
			out[r.src] = append(out[r.src], dv)
			in[r.dst] = append(in[r.dst], dv)
		}
		for v, c := range r.inc {
			if c != 0 {
				incs[v] = append(incs[v], smt.Times(c, dv))
			}
		}
	}
	if len(sum) > 0 {
		cmds = assertAll(cmds, smt.App("<=", smt.Sum(sum...), "1"))
	}
	return append(cmds, p.effect(start, end, in, out, incs)...)
}

// singleAcc encodes an accelerated segment from start to end: the rules in
// topological order, each with a multiplicity, its positive literals asked
// before its first firing and its negative literals before its last.
func (p *problem) singleAcc(j int, start, end stateNames, zs []zeroRule, placed func(*wnode, int, bool) string) []string {
	m := p.m
	var cmds []string
	in := make([][]string, m.nloc)
	out := make([][]string, m.nloc)
	incs := make([][]string, m.nsh)
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
			// A self-loop that increments: after the rules into its
			// location, before those out of it, and it needs a process.
			have := smt.Sum(append([]string{start.k(r.src)}, in[r.src]...)...)
			cmds = assertAll(cmds, smt.Or(smt.App("=", av, "0"), smt.App(">=", have, "1")))
		} else {
			out[r.src] = append(out[r.src], av)
			in[r.dst] = append(in[r.dst], av)
		}
		for v, c := range r.inc {
			if c != 0 {
				incs[v] = append(incs[v], smt.Times(c, av))
				name := fmt.Sprintf("y%d_%d_%d", j, n, v)
				cmds = append(cmds, "(define-fun "+name+" () Int "+smt.Sum(cur[v], smt.Times(c, av))+")")
				cur[v] = name
			}
		}
	}
	cmds = append(cmds, p.effect(start, end, in, out, incs)...)
	for l := 0; l < m.nloc; l++ {
		if len(out[l]) > 0 {
			cmds = assertAll(cmds, smt.App(">=", end.k(l), "0"))
		}
	}
	return cmds
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

// singleCheck runs the single query of p: unsat means no run of the
// disjunct exists. Any other answer leaves the question to the tree search.
func singleCheck(ctx context.Context, p *problem, opts Options, st *stats) (bool, error) {
	base, err := p.base()
	if err != nil {
		return false, err
	}
	q, err := p.singleQuery()
	if err != nil {
		return false, err
	}
	s, err := smt.New(ctx, opts.Solver)
	if err != nil {
		return false, err
	}
	defer s.Close()
	s.Send(base...)
	s.Send(q...)
	res, err := s.Check(ctx)
	st.mu.Lock()
	st.queries++
	st.single++
	st.mu.Unlock()
	if err != nil {
		return false, err
	}
	return res == smt.Unsat, nil
}
