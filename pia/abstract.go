package pia

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"ftmc/internal/graph"
	"ftmc/promela"
	"ftmc/smt"
	"ftmc/ta"
)

// Case is the threshold automaton of one order of the thresholds.
type Case struct {
	// Order is the thresholds in their order, e.g. "0 < 1 < T + 1 < N - T",
	// with the thresholds that are equal in this case after it, e.g.
	// "0 < 1 < N - T (T + 1 = N - 2 * T)".
	Order string
	// Text is the automaton in ByMC's .ta syntax, and TA the same parsed.
	Text []byte
	TA   *ta.File
	// Justice names the ltl blocks assumed for every specification.
	Justice []string
	// Decreases tells that a rule decreases a shared variable, which
	// only the counter abstraction with refinement checks.
	Decreases bool
	// Figures of the abstraction.
	Locations, Rules int
	Paths            int   // paths through a step, over all abstract local states
	Queries          int64 // SMT queries of the abstraction

	locate func(params, locals map[string]int64) ([]string, error)
}

// Locate names the locations of the automaton that stand for a process
// whose locals (by name) have the values locals, under the parameter
// values params: one location, or two for a state of a cycle that is
// also entered from outside it (its own, and the cycle's). None means
// the abstraction never reaches such a state.
func (c *Case) Locate(params, locals map[string]int64) ([]string, error) {
	return c.locate(params, locals)
}

// Result is the abstraction of a model.
type Result struct {
	Thresholds []string
	// ThresholdsFrom says where the thresholds came from: "the model's
	// guards", "--thresholds" or the #pragma that set them.
	ThresholdsFrom string
	Cases          []*Case
	Specs          []string // the specifications (ltl blocks that are not fairness)
}

// Decreases tells whether a rule of some case decreases a shared variable.
func (r *Result) Decreases() bool {
	for _, c := range r.Cases {
		if c.Decreases {
			return true
		}
	}
	return false
}

// locState is an abstract local state: the values of the control
// variables and the interval indices of the data variables, in the order
// of the process's locals.
type locState []int64

func (l locState) key() string {
	parts := make([]string, len(l))
	for i, v := range l {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ",")
}

type arule struct {
	src, dst int
	inc      []int64
	guards   []string
}

// Extract abstracts a ByMC model (one active proctype whose statements
// before its main loop initialise it, data variables compared with
// thresholds, shared variables that count messages) into threshold
// automata, one for each order of the thresholds that the assumptions
// leave open.
func Extract(ctx context.Context, prog *promela.Program, opts Options) (*Result, error) {
	x := &extractor{ctx: ctx, prog: prog, bounded: map[*promela.Symbol]bool{}, sharedInit: map[*promela.Symbol]int64{}, memo: map[string]smt.Status{}, cycles: opts.Cycles}
	if err := x.shape(); err != nil {
		return nil, err
	}
	var ths []lin
	from := "the model's guards"
	if len(opts.Thresholds) > 0 {
		var err error
		if ths, err = x.parseThresholds(opts.Thresholds, prog.Pos()); err != nil {
			return nil, err
		}
		from = "--thresholds"
	} else {
		ths = x.collectThresholds()
	}
	if len(opts.More) > 0 {
		more, err := x.parseThresholds(opts.More, opts.MorePos)
		if err != nil {
			return nil, err
		}
		for _, m := range more {
			if !slices.ContainsFunc(ths, func(t lin) bool { return t.key() == m.key() && t.k == m.k }) {
				ths = append(ths, m)
			}
		}
		from += " and " + opts.MoreFrom
	}
	for _, a := range prog.Assumes {
		t, err := x.smtCond(a.X)
		if err != nil {
			return nil, err
		}
		x.rcTerms = append(x.rcTerms, t)
		b, err := x.cond(a.X, nil, nil, false)
		if err != nil {
			return nil, err
		}
		if ds, ok := dnf(b, 2); ok && len(ds) == 1 {
			x.rcLin = append(x.rcLin, ds[0]...)
		}
	}
	for _, s := range x.shared {
		c, _ := ge(symLin(sharedSym(s)), constLin(x.sharedInit[s]))
		x.rcLin = append(x.rcLin, c)
	}
	s, err := smt.New(ctx, opts.Solver)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	x.solver = s
	for _, p := range x.params {
		s.Send(fmt.Sprintf("(declare-const %s Int)", smt.Sym(p.Name)))
	}
	for _, v := range x.shared {
		s.Send(fmt.Sprintf("(declare-const %s Int)", smt.Sym(sharedSym(v))))
		s.Assert(smt.App(">=", smt.Sym(sharedSym(v)), smt.Int(x.sharedInit[v])))
	}
	for _, v := range x.locals {
		if !x.bounded[v] {
			s.Send(fmt.Sprintf("(declare-const %s Int)", smt.Sym(localSym(v))))
		}
	}
	for _, t := range x.rcTerms {
		s.Assert(t)
	}
	if st, err := x.check(nil); err != nil {
		return nil, err
	} else if st == smt.Unsat {
		return nil, errorf(prog.Pos(), "the assumptions (resilience condition) have no solution: every property would hold vacuously")
	}
	orders, err := x.orders(ths)
	if err != nil {
		return nil, err
	}
	res := &Result{ThresholdsFrom: from}
	for _, t := range ths {
		res.Thresholds = append(res.Thresholds, x.linText(t))
	}
	res.Specs = Specs(prog)
	for _, ord := range orders {
		c, err := x.extractCase(ord)
		if err != nil {
			return nil, err
		}
		res.Cases = append(res.Cases, c)
	}
	return res, nil
}

// Specs are the names of the specifications of prog: its ltl blocks that
// are not fairness assumptions (isJustice).
func Specs(prog *promela.Program) []string {
	var names []string
	for _, d := range prog.LTL {
		if !isJustice(d) {
			names = append(names, d.FormulaName())
		}
	}
	return names
}

// isJustice tells the ltl blocks that ByMC assumes for every property:
// those named fairness (fairness, fairness2, ...).
func isJustice(d *promela.LTLDecl) bool {
	return strings.HasPrefix(d.FormulaName(), "fairness")
}

// ThresholdPragma finds the model's own choice of thresholds, written as
// ByMC reads it: #pragma option "piaDom.thresholds=0,1,N-T". The first
// such pragma in an enabled section counts.
func ThresholdPragma(prog *promela.Program) (list []string, pos promela.Pos, ok bool) {
	for _, p := range prog.Pragmas {
		t := strings.TrimSpace(p.Text)
		rest, ok := strings.CutPrefix(t, "option")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' {
			continue
		}
		k, v, ok := strings.Cut(rest[1:len(rest)-1], "=")
		if ok && strings.TrimSpace(k) == "piaDom.thresholds" {
			return strings.Split(strings.TrimSpace(v), ","), p.Pos, true
		}
	}
	return nil, promela.Pos{}, false
}

func (x *extractor) parseThresholds(list []string, pos promela.Pos) ([]lin, error) {
	out := []lin{constLin(0), constLin(1)}
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		l, err := x.parseLin(s)
		if err != nil {
			return nil, errorf(pos, "threshold %q: %v", s, err)
		}
		dup := false
		for _, o := range out {
			if o.key() == l.key() && o.k == l.k {
				dup = true
			}
		}
		if !dup {
			out = append(out, l)
		}
	}
	return out, nil
}

// check asks whether the assumptions and the terms are satisfiable.
func (x *extractor) check(terms []string) (smt.Status, error) {
	key := strings.Join(terms, "\x00")
	if st, ok := x.memo[key]; ok {
		return st, nil
	}
	x.queries++
	x.solver.Push()
	for _, t := range terms {
		x.solver.Assert(t)
	}
	st, err := x.solver.Check(x.ctx)
	x.solver.Pop(1)
	if err != nil {
		return st, err
	}
	if st == smt.Unknown {
		return st, fmt.Errorf("the solver could not decide a query of the abstraction: %s", x.solver.Reason())
	}
	x.memo[key] = st
	return st, nil
}

// valid tells whether the assumptions imply the term.
func (x *extractor) valid(extra []string, t string) (bool, error) {
	st, err := x.check(append(append([]string(nil), extra...), smt.Not(t)))
	return st == smt.Unsat, err
}

func (x *extractor) linSMT(l lin) string {
	var ts []string
	for _, v := range l.vars() {
		ts = append(ts, smt.Times(l.c[v], smt.Sym(v)))
	}
	if l.k != 0 || len(ts) == 0 {
		ts = append(ts, smt.Int(l.k))
	}
	return smt.Sum(ts...)
}

func (x *extractor) consSMT(c cons) string {
	if c.eq {
		return smt.App("=", x.linSMT(c.l), "0")
	}
	return smt.App(">=", x.linSMT(c.l), "0")
}

func (x *extractor) conjSMT(cs []cons) string {
	ts := make([]string, len(cs))
	for i, c := range cs {
		ts[i] = x.consSMT(c)
	}
	return smt.And(ts...)
}

// smtCond renders an assumption over the parameters.
func (x *extractor) smtCond(e promela.Expr) (string, error) { return x.paramCond(e, x.bfSMT) }

// paramCond renders an assumption over the parameters with render.
func (x *extractor) paramCond(e promela.Expr, render func(*bf) string) (string, error) {
	b, err := x.cond(e, nil, nil, false)
	if err != nil {
		return "", err
	}
	return render(b), nil
}

func (x *extractor) bfSMT(b *bf) string {
	return b.render(x.consSMT, smt.And, smt.Or)
}

// render writes a condition with leaf for its constraints and and/or for
// its conjunctions and disjunctions.
func (b *bf) render(leaf func(cons) string, and, or func(...string) string) string {
	switch b.op {
	case 't':
		return "true"
	case 'f':
		return "false"
	case 'c':
		return leaf(b.c)
	}
	ts := make([]string, len(b.kids))
	for i, k := range b.kids {
		ts[i] = k.render(leaf, and, or)
	}
	if b.op == '&' {
		return and(ts...)
	}
	return or(ts...)
}

// order is one total order of the thresholds with the assumptions that
// make it so.
type order struct {
	thr   []lin
	extra []cons
	text  string
	ties  []string // thresholds merged because they are equal in this case
}

func (x *extractor) le(a, b lin, extra []string) (bool, error) {
	c, err := ge(b, a)
	if err != nil {
		return false, err
	}
	return x.valid(extra, x.consSMT(c))
}

// maxOrders bounds the orders of the thresholds that are checked apart.
const maxOrders = 24

// orders sorts the thresholds under the assumptions; where the
// assumptions leave two of them unordered, each order is a case of its
// own.
func (x *extractor) orders(ths []lin) ([]order, error) {
	n := len(ths)
	le := make([][]bool, n)
	for i := range le {
		le[i] = make([]bool, n)
		for j := range le[i] {
			if i == j {
				le[i][j] = true
				continue
			}
			ok, err := x.le(ths[i], ths[j], nil)
			if err != nil {
				return nil, err
			}
			le[i][j] = ok
		}
	}
	// Merge thresholds that are always equal.
	var keep []int
	for i := 0; i < n; i++ {
		dup := false
		for _, j := range keep {
			if le[i][j] && le[j][i] {
				dup = true
			}
		}
		if !dup {
			keep = append(keep, i)
		}
	}
	var out []order
	var perm []int
	used := make([]bool, len(keep))
	var rec func() error
	rec = func() error {
		if len(out) > maxOrders {
			return nil
		}
		if len(perm) == len(keep) {
			o := order{}
			var terms []string
			for i, p := range perm {
				o.thr = append(o.thr, ths[keep[p]])
				if i > 0 {
					a, b := ths[keep[perm[i-1]]], ths[keep[p]]
					if !le[keep[perm[i-1]]][keep[p]] {
						c, _ := ge(b, a)
						o.extra = append(o.extra, c)
						terms = append(terms, x.consSMT(c))
					}
				}
			}
			if len(terms) > 0 {
				st, err := x.check(terms)
				if err != nil {
					return err
				}
				if st == smt.Unsat {
					return nil
				}
			}
			return x.splitTies(o, terms, 1, &out)
		}
		for i := range keep {
			if used[i] {
				continue
			}
			// i may come next only if no unused j must come before it.
			ok := true
			for j := range keep {
				if j != i && !used[j] && le[keep[j]][keep[i]] && !le[keep[i]][keep[j]] {
					ok = false
				}
			}
			if !ok {
				continue
			}
			used[i] = true
			perm = append(perm, i)
			if err := rec(); err != nil {
				return err
			}
			perm = perm[:len(perm)-1]
			used[i] = false
		}
		return nil
	}
	if err := rec(); err != nil {
		return nil, err
	}
	if len(out) > maxOrders {
		return nil, errorf(x.prog.Pos(), "the assumptions leave more than %d orders of the thresholds open; order them with assume(...) or give the thresholds (--thresholds)", maxOrders)
	}
	if len(out) == 0 {
		return nil, errorf(x.prog.Pos(), "no order of the thresholds is consistent with the assumptions")
	}
	return out, nil
}

// splitTies completes an order from position i on: where the assumptions
// let two neighbours be equal or not, each choice is a case of its own,
// so that in every case each interval is either empty for all parameter
// values or nonempty for all of them.
func (x *extractor) splitTies(o order, terms []string, i int, out *[]order) error {
	if len(*out) > maxOrders {
		return nil
	}
	if i >= len(o.thr) {
		parts := []string{x.linText(o.thr[0])}
		for _, t := range o.thr[1:] {
			parts = append(parts, "<", x.linText(t))
		}
		o.text = strings.Join(parts, " ")
		if len(o.ties) > 0 {
			o.text += " (" + strings.Join(o.ties, ", ") + ")"
		}
		o.ties = nil
		*out = append(*out, o)
		return nil
	}
	a, b := o.thr[i-1], o.thr[i]
	lt, _ := ge(b, a)
	lt.l, _ = lt.l.sub(constLin(1))
	strict, err := x.valid(terms, x.consSMT(lt))
	if err != nil {
		return err
	}
	if strict {
		return x.splitTies(o, terms, i+1, out)
	}
	// Either a < b, or a == b and b is dropped (the interval between
	// them is empty).
	eq, _ := eqc(a, b)
	for _, c := range []cons{lt, eq} {
		more := append(slices.Clip(terms), x.consSMT(c))
		st, err := x.check(more)
		if err != nil {
			return err
		}
		if st == smt.Unsat {
			continue
		}
		next, j := o, i+1
		next.extra = append(slices.Clip(o.extra), c)
		if c.eq {
			next.thr = append(slices.Clip(o.thr[:i]), o.thr[i+1:]...)
			next.ties = append(slices.Clip(o.ties), x.linText(a)+" = "+x.linText(b))
			j = i
		}
		if err := x.splitTies(next, more, j, out); err != nil {
			return err
		}
	}
	return nil
}

// interval constrains t to the j-th interval of the order.
func interval(t lin, j int, thr []lin) ([]cons, error) {
	lo, err := ge(t, thr[j])
	if err != nil {
		return nil, err
	}
	out := []cons{lo}
	if j+1 < len(thr) {
		up, err := thr[j+1].sub(constLin(1))
		if err != nil {
			return nil, err
		}
		hi, err := ge(up, t)
		if err != nil {
			return nil, err
		}
		out = append(out, hi)
	}
	return out, nil
}

// isFresh tells the symbols of values chosen during a step ("h<n>:x").
func isFresh(v string) bool { return strings.HasPrefix(v, "h") && strings.Contains(v, ":") }

func isLocalOrFresh(v string) bool { return strings.HasPrefix(v, "l:") || isFresh(v) }

func dropAll(string) bool { return true }

// feasible is a quick test over the rationals.
func feasible(cs []cons) bool {
	_, ok, err := project(cs, dropAll)
	return ok || err != nil
}

type caseBuilder struct {
	x      *extractor
	ord    order
	base   []cons   // assumptions (linear part), the order, shared >= init
	extra  []string // the order's assumptions for SMT
	locs   []locState
	index  map[string]int
	rules  map[string]*arule
	rorder []string
	queue  []int
	paths  int
	eqs    []lin            // the equations among the parameters in this case
	atoms  map[string][]lin // guard constraints seen, by shared part: their parameter parts
	// mayStop tells the abstract local states where a process may have no
	// step (then the justice of processes does not ask it to move).
	mayStop map[int]bool

	// After merge: the locations of the automaton, each a set of abstract
	// local states (a strongly connected set of them is one location),
	// and its rules.
	inits  []int
	group  []int // the location of each abstract local state entered from outside
	groups [][]int
	grules []*arule
	// onCycle tells, with Options.Cycles, the abstract local states on a
	// cycle of the automaton (other than a self-loop).
	onCycle []bool
}

// merge makes the automaton acyclic: abstract local states between which
// a process can move back and forth (a control variable that toggles)
// become one location. This is an existential abstraction of its own, so
// it stays sound; propositions are evaluated over all the states merged.
// With Options.Cycles every abstract local state stays a location.
func (b *caseBuilder) merge() {
	n := len(b.locs)
	comps := b.components()
	if b.x.cycles {
		b.group = make([]int, n)
		b.onCycle = make([]bool, n)
		for _, vs := range comps {
			for _, v := range vs {
				b.onCycle[v] = len(vs) > 1
			}
		}
		seen := map[string]*arule{}
		for v := range n {
			b.group[v] = v
			b.groups = append(b.groups, []int{v})
		}
		for _, k := range b.rorder {
			r := b.rules[k]
			b.addGroupRule(seen, r.src, r.dst, r)
		}
		return
	}
	comp := make([]int, n)
	for c, vs := range comps {
		for _, v := range vs {
			comp[v] = c
		}
	}
	// Entries of a cycle: its initial states and those entered from
	// outside. An entry keeps a location of its own (exact), and the
	// states reached by moving inside the cycle share one location.
	entry := make([]bool, n)
	for _, i := range b.inits {
		entry[i] = true
	}
	for _, k := range b.rorder {
		r := b.rules[k]
		if comp[r.src] != comp[r.dst] {
			entry[r.dst] = true
		}
	}
	ent := make([]int, n)
	mg := make([]int, n)
	for _, vs := range comps {
		if len(vs) == 1 {
			ent[vs[0]] = len(b.groups)
			mg[vs[0]] = -1
			b.groups = append(b.groups, vs)
			continue
		}
		for _, v := range vs {
			ent[v] = -1
			if entry[v] {
				ent[v] = len(b.groups)
				b.groups = append(b.groups, []int{v})
			}
		}
		m := len(b.groups)
		b.groups = append(b.groups, vs)
		for _, v := range vs {
			mg[v] = m
		}
	}
	b.group = ent
	seen := map[string]*arule{}
	type edge struct{ src, dst int }
	for _, k := range b.rorder {
		r := b.rules[k]
		var edges []edge
		inside := comp[r.src] == comp[r.dst] && mg[r.src] >= 0
		if e := ent[r.src]; e >= 0 {
			switch {
			case !inside:
				edges = append(edges, edge{e, ent[r.dst]})
			case r.src == r.dst:
				edges = append(edges, edge{e, e})
			default:
				edges = append(edges, edge{e, mg[r.src]})
			}
		}
		if m := mg[r.src]; m >= 0 {
			if inside {
				edges = append(edges, edge{m, m})
			} else {
				edges = append(edges, edge{m, ent[r.dst]})
			}
		}
		for _, e := range edges {
			b.addGroupRule(seen, e.src, e.dst, r)
		}
	}
}

// components returns the strongly connected sets of abstract local states
// (by the rules between different states), each sorted, in the order of
// their least state.
func (b *caseBuilder) components() [][]int {
	n := len(b.locs)
	succ := make([][]int, n)
	for _, k := range b.rorder {
		r := b.rules[k]
		if r.src != r.dst {
			succ[r.src] = append(succ[r.src], r.dst)
		}
	}
	// Listing the states in increasing order lists each component's
	// members sorted, and the components by their least state.
	comp := graph.SCC(n, succ)
	at := map[int]int{} // component -> its index in comps
	var comps [][]int
	for v, c := range comp {
		k, ok := at[c]
		if !ok {
			k = len(comps)
			at[c] = k
			comps = append(comps, nil)
		}
		comps[k] = append(comps[k], v)
	}
	return comps
}

func (b *caseBuilder) addGroupRule(seen map[string]*arule, src, dst int, r *arule) {
	{
		key := fmt.Sprint(src, dst, r.inc)
		g, ok := seen[key]
		if !ok {
			g = &arule{src: src, dst: dst, inc: r.inc}
			seen[key] = g
			b.grules = append(b.grules, g)
		}
		for _, h := range r.guards {
			dup := false
			for _, o := range g.guards {
				dup = dup || o == h || o == "true"
			}
			if dup {
				continue
			}
			if h == "true" {
				g.guards = []string{"true"}
			} else {
				g.guards = append(g.guards, h)
			}
		}
	}
}

func (x *extractor) extractCase(ord order) (*Case, error) {
	b := &caseBuilder{x: x, ord: ord, index: map[string]int{}, rules: map[string]*arule{}, mayStop: map[int]bool{}}
	b.base = append(append([]cons(nil), x.rcLin...), ord.extra...)
	b.eqs = paramEqs(b.base)
	for _, c := range ord.extra {
		b.extra = append(b.extra, x.consSMT(c))
	}
	inits, err := b.initial()
	if err != nil {
		return nil, err
	}
	b.inits = inits
	for len(b.queue) > 0 {
		l := b.queue[0]
		b.queue = b.queue[1:]
		if err := b.step(l); err != nil {
			return nil, err
		}
	}
	return b.build(inits)
}

func (b *caseBuilder) add(l locState) (int, error) {
	k := l.key()
	if i, ok := b.index[k]; ok {
		return i, nil
	}
	if len(b.locs) >= maxLocations {
		return 0, errorf(b.x.proc.Pos(), "more than %d abstract local states", maxLocations)
	}
	b.index[k] = len(b.locs)
	b.locs = append(b.locs, l)
	b.queue = append(b.queue, len(b.locs)-1)
	return len(b.locs) - 1, nil
}

// alphaConst is the interval of a constant, the same for all parameters.
func (b *caseBuilder) alphaConst(c int64, p promela.Pos, name string) (int64, error) {
	thr := b.ord.thr
	for j := len(thr) - 1; j >= 0; j-- {
		cs, err := interval(constLin(c), j, thr)
		if err != nil {
			return 0, err
		}
		ok, err := b.x.valid(b.extra, b.x.conjSMT(cs))
		if err != nil {
			return 0, err
		}
		if ok {
			return int64(j), nil
		}
	}
	return 0, errorf(p, "the value %d of %s does not lie in one interval between the thresholds for all parameters", c, name)
}

// initial runs the initialisation from the declared values.
func (b *caseBuilder) initial() ([]int, error) {
	x := b.x
	st := &sstate{env: map[*promela.Symbol]lin{}, inc: map[*promela.Symbol]int64{}}
	for _, d := range x.proc.Locals {
		v := constLin(0)
		if d.Init != nil {
			l, err := x.arith(d.Init, st, nil)
			if err != nil {
				return nil, err
			}
			if !l.isConst() {
				return nil, errorf(d.Init.Pos(), "the initial value of %s must be a constant", d.Name.Name)
			}
			v = l
		}
		st.env[d.Name.Sym] = v
	}
	var out []int
	seen := map[int]bool{}
	pos := x.proc.Pos()
	if len(x.init) > 0 {
		pos = x.init[0].Pos()
	}
	err := x.seq(x.init, st, func(s *sstate) error {
		for v, d := range s.inc {
			if d != 0 {
				return errorf(pos, "the initialisation changes shared variable %s: processes may only send in their main loop", v.Name)
			}
		}
		cs, ok := simplify(s.cs)
		if !ok {
			return nil
		}
		if len(cs) > 0 {
			// A choice that depends on the parameters: keep it only when
			// it is possible.
			st, err := b.sat(x.conjSMT(cs))
			if err != nil {
				return err
			}
			if st == smt.Unsat {
				return nil
			}
			ok, err := x.valid(b.extra, x.conjSMT(cs))
			if err != nil {
				return err
			}
			if !ok {
				return errorf(pos, "the initialisation makes a choice that depends on the parameters: outside the class")
			}
		}
		l := make(locState, len(x.locals))
		for i, v := range x.locals {
			val := s.env[v]
			if !val.isConst() {
				return errorf(pos, "the initialisation must give %s a constant value", v.Name)
			}
			if x.bounded[v] {
				l[i] = val.k
			} else {
				j, err := b.alphaConst(val.k, pos, v.Name)
				if err != nil {
					return err
				}
				l[i] = j
			}
		}
		i, err := b.add(l)
		if err != nil {
			return err
		}
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errorf(pos, "no initialisation of the process is possible")
	}
	return out, nil
}

// env gives the locals of an abstract local state: control variables their
// values, data variables a symbol within their interval.
func (b *caseBuilder) env(l locState) (map[*promela.Symbol]lin, []cons, error) {
	env := map[*promela.Symbol]lin{}
	var cs []cons
	for i, v := range b.x.locals {
		if b.x.bounded[v] {
			env[v] = constLin(l[i])
			continue
		}
		s := symLin(localSym(v))
		env[v] = s
		c, err := interval(s, int(l[i]), b.ord.thr)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, c...)
	}
	return env, cs, nil
}

func (b *caseBuilder) step(li int) error {
	x := b.x
	l := b.locs[li]
	env, cs, err := b.env(l)
	if err != nil {
		return err
	}
	st := &sstate{env: env, inc: map[*promela.Symbol]int64{}, cs: append(append([]cons(nil), b.base...), cs...)}
	// Whether some value of the data variables in their intervals leaves
	// the process without a step: the negation of every path's condition
	// (its choices projected away, exactly) is satisfiable.
	var enabled []string
	exact := true
	defer func() {
		if b.mayStop[li] {
			return
		}
		if !exact {
			b.mayStop[li] = true
			return
		}
		terms := append([]string{x.conjSMT(cs)}, b.extra...)
		for _, e := range enabled {
			terms = append(terms, smt.Not(e))
		}
		st, err := x.check(terms)
		b.mayStop[li] = err != nil || st != smt.Unsat
	}()
	return x.options(x.loop.Options, st, func(s *sstate) error {
		e, ok, ex, err := projectX(s.cs, isFresh)
		if err != nil || !ex {
			exact = false
		} else if ok {
			enabled = append(enabled, x.conjSMT(e))
		}
		b.paths++
		if b.paths > maxPaths {
			return errorf(x.loop.Do, "more than %d paths through the main loop's steps", maxPaths)
		}
		// The targets and the guard depend on the path condition only
		// through the locals' new values, the shared variables and the
		// parameters: project the other symbols away once for the path.
		inVal := map[string]bool{}
		for _, v := range x.locals {
			for w := range s.env[v].c {
				inVal[w] = true
			}
		}
		cs, ok, err := project(s.cs, func(w string) bool { return isLocalOrFresh(w) && !inVal[w] })
		if err != nil {
			cs, ok = s.cs, feasible(s.cs)
		}
		if !ok {
			return nil
		}
		return b.targets(li, s, 0, make(locState, len(x.locals)), cs)
	})
}

// targets enumerates the abstract local states after the step.
func (b *caseBuilder) targets(src int, s *sstate, i int, to locState, cs []cons) error {
	x := b.x
	if i == len(x.locals) {
		return b.emit(src, s, to, cs)
	}
	v := x.locals[i]
	val := s.env[v]
	if x.bounded[v] {
		if !val.isConst() {
			return errorf(x.loop.Do, "control variable %s has no constant value after a step", v.Name)
		}
		to[i] = val.k
		return b.targets(src, s, i+1, to, cs)
	}
	if len(val.c) == 1 && val.k == 0 && val.c[localSym(v)] == 1 {
		to[i] = b.locs[src][i]
		return b.targets(src, s, i+1, to, cs)
	}
	// Which intervals val can take depends on cs only through val's
	// symbols and the parameters: project the rest away once, not once
	// per interval.
	shadow, ok, err := project(cs, func(w string) bool { return strings.Contains(w, ":") && !val.has(w) })
	if err != nil {
		shadow, ok = cs, true
	}
	if !ok {
		return nil
	}
	for j := range b.ord.thr {
		ic, err := interval(val, j, b.ord.thr)
		if err != nil {
			return err
		}
		if !feasible(append(append([]cons(nil), shadow...), ic...)) {
			continue
		}
		next := append(append([]cons(nil), cs...), ic...)
		to[i] = int64(j)
		if err := b.targets(src, s, i+1, to, next); err != nil {
			return err
		}
	}
	return nil
}

// sat asks whether the assumptions, the order of the thresholds and term
// have a solution.
func (b *caseBuilder) sat(term string) (smt.Status, error) {
	return b.x.check(append(append([]string(nil), b.extra...), term))
}

// residual renders the constraints that the assumptions and the order of
// the thresholds do not imply, in .ta syntax.
func (b *caseBuilder) residual(g []cons) ([]string, error) {
	var parts []string
	for _, c := range g {
		ok, err := b.x.valid(b.extra, b.x.consSMT(c))
		if err != nil {
			return nil, err
		}
		if !ok {
			parts = append(parts, b.x.consText(c))
		}
	}
	return parts, nil
}

func (b *caseBuilder) emit(src int, s *sstate, to locState, cs []cons) error {
	x := b.x
	g, ok, err := project(cs, isLocalOrFresh)
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	if st, err := b.sat(x.conjSMT(g)); err != nil || st == smt.Unsat {
		return err
	}
	g, err = b.simplify(g)
	if err != nil {
		return err
	}
	var parts []string
	for _, c := range g {
		parts = append(parts, x.consText(c))
	}
	guard := "true"
	if len(parts) > 0 {
		guard = strings.Join(parts, " && ")
	}
	dst, err := b.add(append(locState(nil), to...))
	if err != nil {
		return err
	}
	inc := make([]int64, len(x.shared))
	for i, v := range x.shared {
		inc[i] = s.inc[v]
	}
	key := fmt.Sprint(src, dst, inc)
	r, ok := b.rules[key]
	if !ok {
		r = &arule{src: src, dst: dst, inc: inc}
		b.rules[key] = r
		b.rorder = append(b.rorder, key)
	}
	for _, h := range r.guards {
		if h == guard || h == "true" {
			return nil
		}
	}
	if guard == "true" {
		r.guards = []string{"true"}
	} else {
		r.guards = append(r.guards, guard)
	}
	return nil
}

// consText renders a constraint in .ta syntax: positive terms on the left.
func (x *extractor) consText(c cons) string {
	var left, right lin
	left.c, right.c = map[string]int64{}, map[string]int64{}
	for v, k := range c.l.c {
		if k > 0 {
			left.c[v] = k
		} else {
			right.c[v] = -k
		}
	}
	right.k = -c.l.k
	op := ">="
	if c.eq {
		op = "=="
	}
	return x.linText(left) + " " + op + " " + x.linText(right)
}

// taName is a symbol's name in the automaton.
func taName(v string) string {
	if i := strings.IndexByte(v, ':'); i >= 0 {
		return v[i+1:]
	}
	return v
}

func (x *extractor) linText(l lin) string {
	var b strings.Builder
	first := true
	vs := l.vars()
	// Shared variables and counters first, then parameters.
	sort.SliceStable(vs, func(i, j int) bool {
		pi, pj := strings.Contains(vs[i], ":"), strings.Contains(vs[j], ":")
		return pi && !pj
	})
	for _, v := range vs {
		c := l.c[v]
		switch {
		case first && c < 0:
			b.WriteString("-")
		case !first && c < 0:
			b.WriteString(" - ")
		case !first:
			b.WriteString(" + ")
		}
		if c < 0 {
			c = -c
		}
		if c != 1 {
			fmt.Fprintf(&b, "%d * ", c)
		}
		b.WriteString(taName(v))
		first = false
	}
	switch {
	case first:
		fmt.Fprint(&b, l.k)
	case l.k > 0:
		fmt.Fprintf(&b, " + %d", l.k)
	case l.k < 0:
		fmt.Fprintf(&b, " - %d", -l.k)
	}
	return b.String()
}
