package param

import (
	"fmt"
	"strings"

	"ftmc/smt"
	"ftmc/ta"
)

// item is one step of a schema prefix: a milestone (an atom turns true) or
// a cut point (a witness of the negated specification).
type item struct {
	atom int    // milestone atom, or -1
	cut  *wnode // cut point, or nil
	root bool   // the initial segment
}

func (it item) String() string {
	switch {
	case it.root:
		return "init"
	case it.cut != nil:
		return fmt.Sprintf("cut%d", it.cut.id)
	}
	return fmt.Sprintf("m%d", it.atom)
}

// frame is what a prefix of items determines: the context (atoms that are
// true), the G conditions in force, the witnesses still to place, and the
// SMT names of the segment's end state and skip flag.
type frame struct {
	flipped  []bool
	active   []*gcond
	frontier []*wnode
	end      stateNames
	skip     string
	depth    int
	// the rule variables of this frame: the milestone step, then the
	// accelerated segment in topological order
	deltas []flow
	accs   []flow
	item   item
	// incr marks the shared variables that a rule enabled in some context
	// of the prefix increments: only atoms over them can turn true next.
	incr []bool
	occ  []bool // locations that may hold processes so far
}

type flow struct {
	rule int
	name string
}

// problem is one disjunct of one specification, prepared for encoding.
type problem struct {
	m         *model
	lc        *lcase
	orig      *ta.File // the automaton as written (m's may be contracted)
	spec      string   // the specification lc is a disjunct of
	always    []bool   // atoms true in every configuration
	milestone []bool   // atoms whose turning true the schemas order
	flow      []bool   // atoms no context fixes: see markFlow
	initial   []bool   // atoms an initial configuration may satisfy (nil: unknown)
	initOcc   []bool   // locations an initial configuration may populate (nil: unknown)
	implies   [][]int  // implies[a]: atoms that must be true before a
	gconds    map[*wnode][]*gcond
	loopGs    []ta.Expr
	// loopEmpty[l]: conditions over shared variables of which the loop's
	// conditions ask one to hold while location l is non-empty there.
	loopEmpty map[int][]*bexpr
	stutters  []int
	// noRun and undecided: see noRuns; queries counts its queries.
	noRun, undecided string
	queries          int64
}

func (p *problem) declareState(st stateNames) []string {
	var cmds []string
	for l := 0; l < p.m.nloc; l++ {
		cmds = append(cmds, smt.DeclareConst(st.k(l), "Int"))
	}
	for v := 0; v < p.m.nsh; v++ {
		cmds = append(cmds, smt.DeclareConst(st.x(v), "Int"))
	}
	return cmds
}

// base declares the parameters and assumptions (level 0 of every solver).
func (p *problem) base() ([]string, error) {
	var cmds []string
	for i := range p.m.f.Params {
		cmds = append(cmds, smt.DeclareConst(paramName(i), "Int"), "(assert (>= "+paramName(i)+" 0))")
	}
	for _, a := range p.m.f.Assumptions {
		t, err := exprTerm(a, "")
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, "(assert "+t+")")
	}
	return cmds, nil
}

func assertAll(cmds []string, ts ...string) []string {
	for _, t := range ts {
		if t != "true" {
			cmds = append(cmds, "(assert "+t+")")
		}
	}
	return cmds
}

// rootFrame encodes the initial configuration and the first segment.
func (p *problem) rootFrame() (*frame, []string, error) {
	t0 := stateNames("t0")
	cmds := p.declareState(t0)
	for l := 0; l < p.m.nloc; l++ {
		cmds = assertAll(cmds, smt.App(">=", t0.k(l), "0"))
	}
	for v := 0; v < p.m.nsh; v++ {
		cmds = assertAll(cmds, smt.App(">=", t0.x(v), "0"))
	}
	for _, e := range p.m.f.Inits {
		t, err := exprTerm(e, t0)
		if err != nil {
			return nil, nil, err
		}
		cmds = assertAll(cmds, t)
	}
	for _, e := range p.lc.root.props {
		t, err := exprTerm(e, t0)
		if err != nil {
			return nil, nil, err
		}
		cmds = assertAll(cmds, t)
	}
	fr := &frame{flipped: append([]bool(nil), p.always...), frontier: p.lc.root.kids, depth: 0, item: item{atom: -1, root: true}}
	fr.active = append(fr.active, p.gconds[p.lc.root]...)
	for _, g := range fr.active {
		t, err := exprTerm(g.expr, t0)
		if err != nil {
			return nil, nil, err
		}
		cmds = assertAll(cmds, t)
	}
	fr.incr, fr.occ = p.incrIn(nil, p.initOcc, fr.flipped)
	seg, err := p.segment(fr, t0, 0)
	if err != nil {
		return nil, nil, err
	}
	return fr, append(cmds, seg...), nil
}

// child encodes it after the prefix ending in parent.
func (p *problem) child(parent *frame, it item) (*frame, []string, error) {
	d := parent.depth + 1
	fr := &frame{depth: d, flipped: parent.flipped, active: parent.active, frontier: parent.frontier, item: it}
	var cmds []string
	start := parent.end
	if it.cut != nil {
		// A witness: its conditions hold where the previous segment ended.
		for _, e := range it.cut.props {
			t, err := exprTerm(e, start)
			if err != nil {
				return nil, nil, err
			}
			cmds = assertAll(cmds, t)
		}
		fr.frontier = nil
		for _, w := range parent.frontier {
			if w != it.cut {
				fr.frontier = append(fr.frontier, w)
			}
		}
		fr.frontier = append(fr.frontier, it.cut.kids...)
		if gs := p.gconds[it.cut]; len(gs) > 0 {
			fr.active = append(append([]*gcond(nil), parent.active...), gs...)
			for _, g := range gs {
				t, err := exprTerm(g.expr, start)
				if err != nil {
					return nil, nil, err
				}
				cmds = assertAll(cmds, t)
			}
		}
	} else {
		// A milestone: at most one rule fires, enabled in the old context,
		// and afterwards the atom holds.
		t := stateNames(fmt.Sprintf("t%d", d))
		var sum []string
		fw := p.newFlows()
		for i, r := range p.m.rules {
			if r.stutter {
				continue
			}
			v, res := p.evalCtx(r.guard, parent.flipped, start)
			if v == 'f' {
				continue
			}
			dv := fmt.Sprintf("d%d_%d", d, i)
			cmds = append(cmds, smt.DeclareConst(dv, "Int"))
			cmds = assertAll(cmds, smt.App(">=", dv, "0"), smt.App("<=", dv, "1"), smt.App("<=", dv, start.k(r.src)))
			if v == 'r' {
				cmds = assertAll(cmds, smt.Or(smt.App("=", dv, "0"), res))
			}
			sum = append(sum, dv)
			fr.deltas = append(fr.deltas, flow{i, dv})
			fw.add(r, dv)
		}
		total := smt.Sum(sum...)
		cmds = assertAll(cmds, smt.App("<=", total, "1"), smt.App("=>", parent.skip, smt.App("=", total, "0")))
		cmds = append(cmds, p.effect(start, t, fw.in, fw.out, fw.incs)...)
		cmds = assertAll(cmds, p.m.atomTerm(it.atom, t))
		for _, g := range fr.active {
			gt, err := exprTerm(g.expr, t)
			if err != nil {
				return nil, nil, err
			}
			cmds = assertAll(cmds, gt)
		}
		fl := append([]bool(nil), parent.flipped...)
		fl[it.atom] = true
		fr.flipped = fl
		start = t
	}
	fr.incr, fr.occ = p.incrIn(parent.incr, parent.occ, fr.flipped)
	seg, err := p.segment(fr, start, d)
	if err != nil {
		return nil, nil, err
	}
	return fr, append(cmds, seg...), nil
}

// incrIn adds to prev the shared variables incremented by rules that may
// fire in the context flipped: their guards do not fail there and their
// source may hold processes (occ, closed under those rules here).
func (p *problem) incrIn(prev, occ, flipped []bool) ([]bool, []bool) {
	out := make([]bool, p.m.nsh)
	copy(out, prev)
	o := make([]bool, p.m.nloc)
	if occ == nil {
		for l := range o {
			o[l] = true
		}
	} else {
		copy(o, occ)
	}
	fire := func(r *rule) {
		if v, _ := p.evalCtx(r.guard, flipped, ""); v == 'f' || !o[r.src] {
			return
		}
		o[r.dst] = true
		for x, c := range r.inc {
			if c > 0 {
				out[x] = true
			}
		}
	}
	for _, i := range p.m.order { // topological: sources before targets
		fire(p.m.rules[i])
	}
	for _, r := range p.m.rules {
		if r.src == r.dst {
			fire(r)
		}
	}
	return out, o
}

// mayTurnTrue reports whether atom a can be the next milestone after fr:
// it may hold initially, or a rule enabled so far increments one of its
// variables.
func (p *problem) mayTurnTrue(fr *frame, a int) bool {
	if p.initial == nil || p.initial[a] {
		return true
	}
	for v := range p.m.atoms[a].shared.Coef {
		if fr.incr[v.Index] {
			return true
		}
	}
	return false
}

// flows gathers the multiplicities of the rules of one step or segment:
// the processes that enter and leave each location, and what each shared
// variable gains.
type flows struct{ in, out, incs [][]string }

func (p *problem) newFlows() *flows {
	return &flows{in: make([][]string, p.m.nloc), out: make([][]string, p.m.nloc), incs: make([][]string, p.m.nsh)}
}

// add counts rule r fired n times (a term).
func (f *flows) add(r *rule, n string) {
	if r.src != r.dst {
		f.out[r.src] = append(f.out[r.src], n)
		f.in[r.dst] = append(f.in[r.dst], n)
	}
	for v, c := range r.inc {
		if c != 0 {
			f.incs[v] = append(f.incs[v], smt.Times(c, n))
		}
	}
}

// selfLoopHasProcess says that self-loop r, fired n times in a segment
// that starts in start, has a process in its location: one there at the
// start or moved in by a rule added before it. The loop is placed after
// the rules into its location and before those out of it.
func (f *flows) selfLoopHasProcess(start stateNames, r *rule, n string) string {
	have := smt.Sum(append([]string{start.k(r.src)}, f.in[r.src]...)...)
	return smt.Or(smt.App("=", n, "0"), smt.App(">=", have, "1"))
}

// segmentEnd defines end from start and the flows of an accelerated
// segment (effect), with every location a rule leaves non-negative at the
// end: the rules fire in an order that keeps the counters so.
func (p *problem) segmentEnd(start, end stateNames, f *flows) []string {
	cmds := p.effect(start, end, f.in, f.out, f.incs)
	for l := 0; l < p.m.nloc; l++ {
		if len(f.out[l]) > 0 {
			cmds = assertAll(cmds, smt.App(">=", end.k(l), "0"))
		}
	}
	return cmds
}

// effect defines the state to from the state from and the flows, as
// macros (define-fun) rather than fresh constants with equalities: the
// solver then has only the flows and the initial state as variables.
func (p *problem) effect(from, to stateNames, in, out, incs [][]string) []string {
	var cmds []string
	def := func(name, rhs string) {
		cmds = append(cmds, "(define-fun "+name+" () Int "+rhs+")")
	}
	for l := 0; l < p.m.nloc; l++ {
		rhs := from.k(l)
		if len(in[l]) > 0 || len(out[l]) > 0 {
			rhs = smt.App("-", smt.Sum(append([]string{from.k(l)}, in[l]...)...), smt.Sum(out[l]...))
		}
		def(to.k(l), rhs)
	}
	for v := 0; v < p.m.nsh; v++ {
		rhs := from.x(v)
		if len(incs[v]) > 0 {
			rhs = smt.Sum(append([]string{from.x(v)}, incs[v]...)...)
		}
		def(to.x(v), rhs)
	}
	return cmds
}

// segment encodes the accelerated rules of the context fr.flipped from
// start to a new end state u<d>, with its skip flag.
func (p *problem) segment(fr *frame, start stateNames, d int) ([]string, error) {
	u := stateNames(fmt.Sprintf("u%d", d))
	skip := fmt.Sprintf("s%d", d)
	fr.end, fr.skip = u, skip
	cmds := []string{smt.DeclareConst(skip, "Bool")}
	// Rules forbidden by G conditions k_l == 0 in this context.
	forbid := map[int]string{} // location -> condition under which it may be non-empty ("" never)
	for _, g := range fr.active {
		for _, c := range g.clauses {
			if c.general || len(c.zero) != 1 {
				continue
			}
			v, res := p.evalCtx(c.ctx, fr.flipped, u)
			switch v {
			case 't':
				continue
			case 'f':
				forbid[c.zero[0]] = ""
			case 'r':
				if old, ok := forbid[c.zero[0]]; !ok || old != "" {
					if ok {
						res = smt.And(old, res)
					}
					forbid[c.zero[0]] = res
				}
			}
		}
	}
	fl := p.newFlows()
	var accs, post []string
	for _, i := range p.m.order {
		r := p.m.rules[i]
		v, res := p.evalCtx(r.guard, fr.flipped, u)
		if v == 'f' {
			continue
		}
		cond := []string{}
		never := false
		for _, l := range []int{r.src, r.dst} {
			if c, ok := forbid[l]; ok {
				if c == "" {
					never = true
				} else {
					cond = append(cond, c)
				}
			}
		}
		if never {
			continue
		}
		av := fmt.Sprintf("a%d_%d", d, i)
		cmds = append(cmds, smt.DeclareConst(av, "Int"))
		cmds = assertAll(cmds, smt.App(">=", av, "0"))
		if v == 'r' {
			cond = append(cond, res)
		}
		if len(cond) > 0 {
			// asked after u is defined: flow atoms read it
			post = assertAll(post, smt.Or(smt.App("=", av, "0"), smt.And(cond...)))
		}
		accs = append(accs, av)
		fr.accs = append(fr.accs, flow{i, av})
		if r.src == r.dst {
			cmds = assertAll(cmds, fl.selfLoopHasProcess(start, r, av))
		}
		fl.add(r, av)
	}
	cmds = append(append(cmds, p.segmentEnd(start, u, fl)...), post...)
	if len(accs) > 0 {
		zeros := make([]string, len(accs))
		for i, a := range accs {
			zeros[i] = smt.App("=", a, "0")
		}
		cmds = assertAll(cmds, smt.App("=>", skip, smt.And(zeros...)))
	}
	var exact []string
	for a, f := range fr.flipped {
		if !f && p.isMilestone(a) {
			exact = append(exact, smt.Not(p.m.atomTerm(a, u)))
		}
	}
	if len(exact) > 0 {
		cmds = assertAll(cmds, smt.App("=>", smt.Not(skip), smt.And(exact...)))
	}
	for _, g := range fr.active {
		t, err := exprTerm(g.expr, u)
		if err != nil {
			return nil, err
		}
		cmds = assertAll(cmds, t)
	}
	return cmds, nil
}

// loopCond says that the lasso can loop forever in the end state of fr: the
// F G conditions hold there and some self-loop rule is enabled.
//
// Where the prefix fixes the context (fr.flipped), the conditions are
// rendered in it: a threshold the context decides is replaced by its
// value. Fairness conditions read "threshold reached implies these
// locations empty" for every guard of the automaton, and in a context only
// the locations of the thresholds reached are left: cc_case1's 48 KB
// condition becomes a list of empty locations.
func (p *problem) loopCond(fr *frame) (string, error) {
	u := fr.end
	var parts []string
	for _, e := range p.loopGs {
		v, t, err := p.ctxTerm(e, false, fr.flipped, u)
		if err != nil {
			return "", err
		}
		if v == 'f' {
			return "false", nil
		}
		if v == 'r' {
			parts = append(parts, t)
		}
	}
	var en []string
	for _, i := range p.stutters {
		r := p.m.rules[i]
		var g string
		if fr.flipped == nil {
			g = p.m.bterm(r.guard, u)
		} else {
			v, res := p.evalCtx(r.guard, fr.flipped, u)
			if v == 'f' {
				continue
			}
			g = res
			if v == 't' {
				g = "true"
			}
		}
		en = append(en, smt.And(smt.App(">=", u.k(r.src), "1"), g))
	}
	parts = append(parts, smt.Or(en...))
	return smt.And(append(parts, p.loopSplit(fr)...)...), nil
}

// loopSplit returns conditions that follow from the G conditions in force
// and the loop's conditions together, in the end configuration of fr: a
// G condition that asks some location of X to be non-empty, with loop
// conditions "guard or k_l == 0" (a fairness condition: a process in l
// has no rule enabled), gives a case split over X, where each location l
// brings the guards that keep it: the disjunction of k_l >= 1 and those
// guards over l in X. The solver would find it only by combining the two,
// location by location: on a lasso schema of cc_case1's termination,
// where X has 69 locations and the fairness 30 conditions over 164, z3
// decides the query by itself in 1.6 s with it and in 27 s without.
func (p *problem) loopSplit(fr *frame) []string {
	if len(p.loopEmpty) == 0 || fr.flipped == nil {
		return nil
	}
	u := fr.end
	var out []string
	for _, g := range fr.active {
		for _, c := range g.clauses {
			if c.general || len(c.zero) > 0 || len(c.nonzero) == 0 {
				continue
			}
			v, res := p.evalCtx(c.ctx, fr.flipped, u)
			if v == 't' {
				continue
			}
			var or []string
			if v == 'r' {
				or = append(or, res)
			}
		locs:
			for _, l := range c.nonzero {
				and := []string{smt.App(">=", u.k(l), "1")}
				for _, b := range p.loopEmpty[l] {
					v, res := p.evalCtx(b, fr.flipped, u)
					switch v {
					case 'f':
						continue locs
					case 'r':
						and = append(and, res)
					}
				}
				or = append(or, smt.And(and...))
			}
			out = append(out, smt.Or(or...))
		}
	}
	return out
}

// ctxTerm renders the state condition e (negated when neg) over st like
// exprTerm, where the atoms in flipped are true and the other milestones
// false (nil: no context): it returns 't' or 'f' when the context decides
// e, else 'r' and the residual term. Comparisons of shared variables that
// are atoms of the model are evaluated by evalCtx; others are rendered as
// they are.
func (p *problem) ctxTerm(e ta.Expr, neg bool, flipped []bool, st stateNames) (byte, string, error) {
	residual := func() (byte, string, error) {
		t, err := exprTerm(e, st)
		if err != nil {
			return 0, "", err
		}
		if neg {
			t = smt.Not(t)
		}
		return 'r', t, nil
	}
	if flipped == nil {
		return residual()
	}
	switch x := e.(type) {
	case *ta.BoolLit:
		if x.Val != neg {
			return 't', "", nil
		}
		return 'f', "", nil
	case *ta.Unary:
		if x.Op == "!" {
			return p.ctxTerm(x.X, !neg, flipped, st)
		}
	case *ta.Binary:
		switch x.Op {
		case "&&", "||", "->":
			xneg, and := pushNeg(x.Op, neg)
			var rs []string
			for i, k := range []ta.Expr{x.X, x.Y} {
				kn := neg
				if i == 0 {
					kn = xneg
				}
				v, t, err := p.ctxTerm(k, kn, flipped, st)
				if err != nil {
					return 0, "", err
				}
				switch {
				case v == 'f' && and:
					return 'f', "", nil
				case v == 't' && !and:
					return 't', "", nil
				case v == 'r':
					rs = append(rs, t)
				}
			}
			switch {
			case len(rs) == 0 && and:
				return 't', "", nil
			case len(rs) == 0:
				return 'f', "", nil
			case and:
				return 'r', smt.And(rs...), nil
			}
			return 'r', smt.Or(rs...), nil
		case "<", "<=", ">", ">=", "==", "!=":
			if b, err := p.m.findCmp(x, neg); err == nil {
				v, t := p.evalCtx(b, flipped, st)
				return v, t, nil
			}
		}
	}
	return residual()
}

// exactness reports whether the engine's encoding of the G conditions is
// exact (then "holds" is a proof); otherwise only violations are trusted.
func (p *problem) inexact() string {
	if why := p.loopInexact(); why != "" {
		return why
	}
	for _, gs := range p.gconds {
		for _, g := range gs {
			for _, c := range g.clauses {
				if c.general {
					return fmt.Sprintf("the condition [](%s) is outside the fragment the engine decides exactly", g.expr)
				}
				if len(c.nonzero) > 0 && !p.closed(c.nonzero, p.zeroLocs(gs)) {
					names := make([]string, len(c.nonzero))
					for i, l := range c.nonzero {
						names[i] = p.m.f.Locations[l].Name
					}
					return fmt.Sprintf("the condition [](%s) needs some of %s non-empty, but rules lead into them from elsewhere", g.expr, strings.Join(names, ", "))
				}
			}
		}
	}
	return ""
}

// loopInexact reports why a lasso need not end in a configuration that
// stutters forever, or "".
func (p *problem) loopInexact() string {
	if p.lc.needLoop {
		for _, r := range p.m.rules {
			if r.src == r.dst && !r.stutter && !p.m.finitely(r) {
				return fmt.Sprintf("rule %s is a self-loop that increments shared variables, so infinite runs need not end in a fixed configuration", r.r.ID)
			}
		}
	}
	return ""
}

// closed reports whether no moving rule leads into the set X from outside,
// so that the number of processes in X never grows.
func (p *problem) closed(X []int, forbidden map[int]bool) bool {
	in := map[int]bool{}
	for _, l := range X {
		in[l] = true
	}
	for _, r := range p.m.rules {
		if !r.stutter && in[r.dst] && !in[r.src] && !forbidden[r.src] && !forbidden[r.dst] {
			return false
		}
	}
	return true
}

// zeroLocs are the locations that G conditions in force together with gs
// keep empty unconditionally (rules touching them never fire).
func (p *problem) zeroLocs(gs []*gcond) map[int]bool {
	z := map[int]bool{}
	all := append(append([]*gcond(nil), p.gconds[p.lc.root]...), gs...)
	for _, g := range all {
		for _, c := range g.clauses {
			if !c.general && len(c.zero) == 1 && c.ctx.op == 'f' {
				z[c.zero[0]] = true
			}
		}
	}
	return z
}

// isMilestone reports whether the schemas order atom a.
func (p *problem) isMilestone(a int) bool { return p.milestone == nil || p.milestone[a] }
