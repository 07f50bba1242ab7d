package param

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"ftmc/explore"
	"ftmc/ltl"
	"ftmc/smt"
	"ftmc/state"
	"ftmc/ta"
	"ftmc/trace"
)

// The thesis's own method (Gmeiner, TU Wien 2015, ch. 4-5, in the seeds):
// a counter abstraction checked by explicit search and refined where its
// counterexample has no concrete counterpart (CEGAR).
//
//   - A location's counter is abstracted to the interval of the parametric
//     interval domain it lies in: the borders are 1 and the numbers of
//     processes the inits start with (n - f); a process more or less
//     leads to the intervals the solver allows (the thesis's abstract inc
//     and dec). The state equation of the refinement (below) ties the
//     counters to the shared variables, so they need no more borders.
//   - The shared variables are abstracted as for automata with resets
//     (abstract.go): to the truth values of the threshold atoms of the
//     guards and of the specification, which by the thesis's Proposition
//     13 is the same as their intervals.
//   - Every specification is checked by ftmc's LTL search on the product
//     with the Büchi automaton of its negation, each proposition replaced
//     by what the abstract state allows (may be true where it occurs
//     positively in the negation, may be false where negatively). When
//     the automaton has no cycles but self-loops, every infinite run of an
//     instance ends in a configuration that stays for ever; so does every
//     abstract counterexample.
//   - A counterexample is checked state by state and step by step against
//     the counting invariant of the counter system (the state equation:
//     every reachable configuration is the initial one plus the effects
//     of some numbers of firings of each rule, which gives both the
//     thesis's sum of the counters and its tx_inv without a user's hint).
//     An abstract state without a concrete configuration that satisfies
//     it, or a step without a concrete step between two such
//     configurations, is removed with everything the solver's unsat core
//     says shares the reason (Definition 29 and Theorem 30, uniformly
//     spurious transitions), and the search runs again.
//   - A counterexample that survives is a candidate: the explicit search
//     of an instance must confirm it (for a safety specification, the
//     instance whose parameters the solver picks for the path first; then
//     the smallest instances); otherwise the verdict is unknown with the
//     abstract counterexample.

// cegarMaxRefinements bounds the refinement loop.
const cegarMaxRefinements = 500

// cegarMaxThresholds bounds the counter thresholds (a byte holds them).
const cegarMaxThresholds = 8

// staysVar names the flag of a run that stays in its configuration.
const staysVar = "(stays for ever)"

// absCond is a condition of the specification that the negation reads
// (negated when neg), with the abstract states where the refinement
// found that no concrete configuration satisfies it.
type absCond struct {
	e       ta.Expr
	neg     bool
	refuted []absPattern
}

// refuted reports whether condition ci was refuted in v.
func (a *absModel) refuted(ci int, v []byte) bool { return matchAny(a.conds[ci].refuted, v) }

// absPattern is a set of abstract states: those whose bytes at pos are
// val.
type absPattern struct {
	pos []int
	val []byte
}

func (p absPattern) match(v []byte) bool {
	for i, at := range p.pos {
		if v[at] != p.val[i] {
			return false
		}
	}
	return true
}

// matchAny reports whether v is in one of ps.
func matchAny(ps []absPattern, v []byte) bool {
	return slices.ContainsFunc(ps, func(p absPattern) bool { return p.match(v) })
}

// absTransBlock is a set of abstract steps of one rule: those from a
// state of pre to a state of post.
type absTransBlock struct {
	pre, post absPattern
}

func (a *absModel) blockedState(v []byte) bool { return matchAny(a.blockedStates, v) }

// blocked reports whether the step by rule ri from v to w was removed.
func (a *absModel) blocked(ri int, v, w []byte) bool {
	if a.blockedState(w) {
		return true
	}
	return ri < len(a.blockedTrans) && slices.ContainsFunc(a.blockedTrans[ri], func(b absTransBlock) bool { return b.pre.match(v) && b.post.match(w) })
}

// initPos is the position in the vector of the initial value of the
// location initLocs[j].
func (a *absModel) initPos(j int) int { return a.nloc + len(a.groups) + j }

// maskTerms returns ts with the terms whose bit in mask is 0 negated: the
// abstract value mask over the conditions ts.
func maskTerms(ts []string, mask uint32) []string {
	out := make([]string, len(ts))
	for b, t := range ts {
		if mask>>uint(b)&1 == 0 {
			t = smt.Not(t)
		}
		out[b] = t
	}
	return out
}

// canStay reports whether a self-loop rule may fire in v, so that a run
// of an instance may stay in its configuration for ever.
func (a *absModel) canStay(v []byte) bool {
	for _, ar := range a.rules {
		if r := ar.r; r.src == r.dst && v[r.src]&1 == 1 {
			if t, _ := a.may(r.guard, v); t {
				return true
			}
		}
	}
	return false
}

// counterPattern says over st that location l's counter lies in the
// interval of mask.
func (a *absModel) counterPattern(l int, mask byte, st stateNames) []string {
	ts := make([]string, len(a.cth))
	for b, th := range a.cth {
		ts[b] = smt.App(">=", st.k(l), linTerm(th, st))
	}
	return maskTerms(ts, uint32(mask))
}

// groupPattern says over st that the atoms of group g have the truth
// values mask.
func (a *absModel) groupPattern(g int, mask uint32, st stateNames) []string {
	return maskTerms(a.groupTerms(g, st), mask)
}

// counters computes which counter masks exist and where a process more
// or less leads; without thresholds beyond 1, a counter is zero or not.
func (a *absModel) counters(sat func(...string) (bool, error)) error {
	if len(a.cth) <= 1 {
		a.cth = []ta.Lin{{Const: 1}}
		a.cmasks = []byte{0, 1}
		a.cinc = map[byte][]byte{0: {1}, 1: {1}}
		a.cdec = map[byte][]byte{1: {0, 1}}
		a.ctext = map[byte]string{0: "0", 1: ">= 1"}
		return nil
	}
	x, y := stateNames("x"), stateNames("y")
	a.cinc, a.cdec, a.ctext = map[byte][]byte{}, map[byte][]byte{}, map[byte]string{}
	for mask := 0; mask < 1<<len(a.cth); mask++ {
		ok, err := sat(a.counterPattern(0, byte(mask), x)...)
		if err != nil {
			return err
		}
		if ok {
			a.cmasks = append(a.cmasks, byte(mask))
			a.ctext[byte(mask)] = a.intervalText(byte(mask))
		}
	}
	for _, from := range a.cmasks {
		for _, to := range a.cmasks {
			pre := a.counterPattern(0, from, x)
			for _, dt := range []struct {
				d   int64
				tab map[byte][]byte
			}{{1, a.cinc}, {-1, a.cdec}} {
				d, tab := dt.d, dt.tab
				ts := append(append(slices.Clone(pre), a.counterPattern(0, to, y)...), smt.App("=", y.k(0), smt.Sum(x.k(0), smt.Int(d))))
				ok, err := sat(ts...)
				if err != nil {
					return err
				}
				if ok {
					tab[from] = append(tab[from], to)
				}
			}
		}
	}
	return nil
}

// intervalText describes the counter values of mask, e.g. ">= T + 1, < N - T".
func (a *absModel) intervalText(mask byte) string {
	if mask&1 == 0 {
		return "0"
	}
	var parts []string
	for b, th := range a.cth {
		if mask>>uint(b)&1 == 1 {
			parts = append(parts, ">= "+th.Format(a.f))
		} else {
			parts = append(parts, "< "+th.Format(a.f))
		}
	}
	return strings.Join(parts, ", ")
}

// counterThresholds returns 1 and the sums the inits give a set of
// locations (n - f), as linear expressions. The state equation of the
// refinement ties the counters to the shared variables, whose threshold
// atoms the abstraction keeps, so the counters need no more.
func counterThresholds(m *model) []ta.Lin {
	ths := []ta.Lin{{Const: 1}}
	add := func(l ta.Lin) {
		if len(l.Coef) == 0 && l.Const <= 1 {
			return
		}
		for _, t := range ths {
			if t.Key() == l.Key() {
				return
			}
		}
		if len(ths) < cegarMaxThresholds {
			ths = append(ths, l)
		}
	}
	for _, e := range m.f.Inits {
		if b, ok := e.(*ta.Binary); ok && b.Op == "==" {
			if d, err := cmpLin(b); err == nil && len(d.Only(ta.Local).Coef) > 0 && len(d.Only(ta.Shared).Coef) == 0 {
				rest := d.Add(d.Only(ta.Local).Scale(-1)).Scale(-1)
				add(rest)
			}
		}
	}
	return ths
}

// CEGARStats describe a run of the counter abstraction with refinement.
type CEGARStats struct {
	Refinements   int
	Thresholds    []string // the counter thresholds
	CounterValues int      // the abstract values of a counter
	Invariants    int      // bounds on the shared variables proved by induction
}

// verifyCEGAR checks spec on the counter abstraction with refinement.
func verifyCEGAR(ctx context.Context, f *ta.File, spec *ta.Spec, opts Options, res SpecResult) (out SpecResult) {
	defer func() {
		// A stop of the run says so, whichever step it cut.
		if out.Verdict == trace.Unknown && ctx.Err() != nil && !strings.HasPrefix(out.Reason, explore.StopCause(ctx)) {
			out.Reason = explore.StopCause(ctx) + " while the counter abstraction with refinement ran"
		}
	}()
	if ctx.Err() != nil {
		res.Reason = explore.StopCause(ctx) + " before the counter abstraction was built"
		return res
	}
	m, err := prepareCycles(f, true)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	a, err := newAbsModel(m, spec, spec.Formula)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	init, bad, safety := SafetyShape(spec.Formula)
	if safety {
		a.bad = bad
	}
	// Without cycles but self-loops, and without a self-loop that resets,
	// the abstract state of every infinite run ends constant.
	a.freeze = !safety && m.cycle == nil && !slices.ContainsFunc(m.rules, func(r *rule) bool { return r.src == r.dst && r.reset != nil })
	a.trackInit = true
	a.premises = staticPremises(spec.Formula, true)
	a.cth = counterThresholds(m)
	s, err := smt.New(ctx, opts.Solver)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	defer s.Close()
	t0 := time.Now()
	queries, err := a.build(ctx, s, &ta.BoolLit{Val: true})
	res.Queries += queries
	res.Atoms = len(m.atoms)
	cs := &CEGARStats{CounterValues: len(a.cmasks)}
	for _, th := range a.cth {
		cs.Thresholds = append(cs.Thresholds, th.Format(a.f))
	}
	res.CEGAR = cs
	res.Abstract = &AbstractStats{Predicates: len(m.atoms)}
	res.SolverSeconds += time.Since(t0).Seconds()
	if err != nil {
		res.Reason = err.Error()
		if ctx.Err() != nil {
			res.Reason = explore.StopCause(ctx) + " while the counter abstraction was built"
		}
		return res
	}
	q, err := a.checkDecrements(ctx, s)
	res.Queries += q
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	neg, atoms, err := a.negation(spec.Formula)
	if err != nil {
		res.Reason = fmt.Sprintf("%s:%s: %v", f.Path, spec.Pos, err)
		return res
	}
	aut, err := ltl.Translate(neg)
	if err != nil {
		res.Reason = fmt.Sprintf("%s:%s: %v", f.Path, spec.Pos, err)
		return res
	}
	preds := make([]ltl.Predicate, len(aut.Atoms))
	for i, name := range aut.Atoms {
		preds[i] = atoms[name]
	}
	inv := &invariant{a: a, s: s}
	if err := inv.declare(); err != nil {
		res.Reason = err.Error()
		return res
	}
	t1 := time.Now()
	n, q, err := inv.inductive(ctx)
	res.SolverSeconds += time.Since(t1).Seconds()
	res.Queries += q
	cs.Invariants = n
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	for {
		if len(a.init) == 0 {
			res.Verdict = trace.Holds
			return res
		}
		r, st, err := ltl.Check(ctx, a, aut, preds, ltl.Options{Property: spec.Name, NoStutter: true})
		res.Abstract.States, res.Abstract.Transitions, res.Abstract.MemoryBytes = st.States, st.Transitions, st.MemoryBytes
		if searched(&res, r, st, err) {
			return res
		}
		if cs.Refinements == cegarMaxRefinements {
			res.Reason = fmt.Sprintf("the counter abstraction still has a counterexample after %d refinements", cegarMaxRefinements)
			return res
		}
		path, err := a.pathStates(r.Counterexample)
		if err != nil {
			res.Reason = err.Error()
			return res
		}
		t2 := time.Now()
		n, q, err := inv.refine(ctx, path, r.Counterexample)
		res.SolverSeconds += time.Since(t2).Seconds()
		res.Queries += q
		if err != nil {
			res.Reason = err.Error()
			if ctx.Err() != nil {
				res.Reason = explore.StopCause(ctx) + " while the counterexample of the counter abstraction was checked"
			}
			return res
		}
		if n == 0 {
			return a.candidate(ctx, s, init, opts, r.Counterexample, st, res)
		}
		cs.Refinements++
		// The initial states removed stay removed.
		a.init = slices.DeleteFunc(a.init, a.blockedState)
	}
}

// candidate settles a counterexample that survived the refinement: a
// violation that an instance confirms, else unknown.
func (a *absModel) candidate(ctx context.Context, s smt.Solver, init ta.Expr, opts Options, c *trace.Counterexample, st trace.Stats, res SpecResult) SpecResult {
	var path []string
	for _, s := range c.Steps {
		if s.Rule != "" {
			path = append(path, s.Rule)
		}
	}
	why := fmt.Sprintf("the counter abstraction (%d abstract states, %d refinements) has a counterexample that no refinement removes, by %s", st.States, res.CEGAR.Refinements, strings.Join(path, ", "))
	if c.LoopStart >= 0 {
		why += " and then stays"
	}
	return a.settle(ctx, s, init, opts, c, why, res)
}

// negation returns the negation of the specification in negation normal
// form, each maximal condition without temporal operators replaced by an
// atom that may hold in an abstract state (its negation where it occurs
// negatively), and, when runs stay at the end (freeze), with <>stays.
func (a *absModel) negation(e ta.Expr) (*ltl.Formula, map[string]ltl.Predicate, error) {
	f, atoms, err := negateLTL(e, func(e ta.Expr, neg bool) ltl.Predicate {
		a.conds = append(a.conds, absCond{e: e, neg: neg})
		ci := len(a.conds) - 1
		return func(v []byte) bool {
			t, f := a.mayExpr(e, v)
			if neg {
				t = f
			}
			return t && !a.refuted(ci, v)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	if a.freeze {
		atoms["stays"] = func(v []byte) bool { return v[len(v)-1] == 1 }
		f = ltl.And(f, ltl.Eventually(ltl.Atom("stays")))
	}
	if len(atoms) > ltl.MaxAtoms {
		return nil, nil, fmt.Errorf("the specification has %d conditions; the counter abstraction takes at most %d", len(atoms), ltl.MaxAtoms)
	}
	return f, atoms, nil
}

// negateLTL returns the negation of the specification e in negation normal
// form, each maximal condition without temporal operators replaced by an
// atom, whose predicate atom gives (for the condition negated when neg).
func negateLTL(e ta.Expr, atom func(e ta.Expr, neg bool) ltl.Predicate) (*ltl.Formula, map[string]ltl.Predicate, error) {
	atoms := map[string]ltl.Predicate{}
	names := map[string]string{}
	var conv func(e ta.Expr, neg bool) (*ltl.Formula, error)
	conv = func(e ta.Expr, neg bool) (*ltl.Formula, error) {
		if !temporal(e) {
			if b, ok := e.(*ta.BoolLit); ok {
				if b.Val != neg {
					return ltl.True(), nil
				}
				return ltl.False(), nil
			}
			key := fmt.Sprint(neg, " ", e.String())
			name, ok := names[key]
			if !ok {
				name = fmt.Sprintf("p%d", len(names))
				names[key] = name
				atoms[name] = atom(e, neg)
			}
			return ltl.Atom(name), nil
		}
		switch e := e.(type) {
		case *ta.Unary:
			switch e.Op {
			case "!":
				return conv(e.X, !neg)
			case "[]", "<>":
				x, err := conv(e.X, neg)
				if err != nil {
					return nil, err
				}
				if (e.Op == "[]") != neg {
					return ltl.Always(x), nil
				}
				return ltl.Eventually(x), nil
			}
		case *ta.Binary:
			xneg := neg
			if e.Op == "->" {
				xneg = !neg
			}
			x, err := conv(e.X, xneg)
			if err != nil {
				return nil, err
			}
			y, err := conv(e.Y, neg)
			if err != nil {
				return nil, err
			}
			and := e.Op == "&&"
			if e.Op == "->" || e.Op == "||" {
				and = false
			}
			if and != neg {
				return ltl.And(x, y), nil
			}
			return ltl.Or(x, y), nil
		}
		return nil, fmt.Errorf("%s: %s is not a formula the counter abstraction reads", e.Position(), e)
	}
	f, err := conv(e, true)
	if err != nil {
		return nil, nil, err
	}
	return f, atoms, nil
}

// temporal reports whether e has a temporal operator.
func temporal(e ta.Expr) bool {
	switch e := e.(type) {
	case *ta.Unary:
		return e.Op == "[]" || e.Op == "<>" || temporal(e.X)
	case *ta.Binary:
		return temporal(e.X) || temporal(e.Y)
	}
	return false
}

// pathStates returns the abstract states of a counterexample, from its
// initial state and the changes of its steps.
func (a *absModel) pathStates(c *trace.Counterexample) ([][]byte, error) {
	locs := map[string]int{}
	for l := range a.nloc {
		locs[a.f.Locations[l].Name] = l
	}
	byText := map[string]byte{}
	for _, mask := range a.cmasks {
		byText[a.ctext[mask]] = mask
	}
	type bit struct {
		g int
		b uint
	}
	atomBits := map[string]bit{}
	for g, gr := range a.groups {
		for b, ai := range gr.atoms {
			atomBits[a.m.atoms[ai].text] = bit{g, uint(b)}
		}
	}
	initAt := map[string]int{}
	for j, l := range a.initLocs {
		initAt[initVar(a.f.Locations[l].Name)] = a.initPos(j)
	}
	v := make([]byte, a.initPos(len(a.initLocs)))
	if a.freeze {
		v = append(v, 0)
	}
	bits := make([]uint32, len(a.groups))
	apply := func(vars []trace.Var) error {
		defer func() {
			for g, gr := range a.groups {
				if i := slices.Index(gr.masks, bits[g]); i >= 0 {
					v[a.nloc+g] = byte(i)
				}
			}
		}()
		for _, x := range vars {
			if l, ok := locs[x.Name]; ok {
				mask, ok := byText[x.Value]
				if !ok {
					return fmt.Errorf("the counterexample gives %s the value %q", x.Name, x.Value)
				}
				v[l] = mask
			} else if b, ok := atomBits[x.Name]; ok {
				if x.Value == "true" {
					bits[b.g] |= 1 << b.b
				} else {
					bits[b.g] &^= 1 << b.b
				}
			} else if at, ok := initAt[x.Name]; ok {
				mask, ok := byText[x.Value]
				if !ok {
					return fmt.Errorf("the counterexample gives %s the value %q", x.Name, x.Value)
				}
				v[at] = mask
			} else if x.Name == staysVar && a.freeze {
				v[len(v)-1] = 0
				if x.Value == "yes" {
					v[len(v)-1] = 1
				}
			}
		}
		return nil
	}
	if err := apply(c.Initial); err != nil {
		return nil, err
	}
	states := [][]byte{slices.Clone(v)}
	for _, st := range c.Steps {
		if err := apply(st.Changes); err != nil {
			return nil, err
		}
		states = append(states, slices.Clone(v))
	}
	return states, nil
}

// invariant is the state equation of the counter system, over the
// solver's constants: the initial configuration i (the inits), the
// number of firings c<r> of each rule, and the configuration u they lead
// to; a shared variable that a rule resets is only non-negative.
type invariant struct {
	a *absModel
	s smt.Solver
}

func (inv *invariant) declare() error {
	s, m := inv.s, inv.a.m
	i, u := stateNames("i"), stateNames("u")
	for _, st := range []stateNames{i, u, "w"} {
		for l := range m.nloc {
			s.Send(smt.DeclareConst(st.k(l), "Int"))
		}
		for v := range m.nsh {
			s.Send(smt.DeclareConst(st.x(v), "Int"))
		}
	}
	for l := range m.nloc {
		s.Assert(smt.App(">=", i.k(l), "0"))
	}
	for v := range m.nsh {
		s.Assert(smt.App(">=", i.x(v), "0"))
	}
	for _, e := range m.f.Inits {
		t, err := exprTerm(e, i)
		if err != nil {
			return fmt.Errorf("%s:%v", m.f.Path, err)
		}
		s.Assert(t)
	}
	reset := make([]bool, m.nsh)
	in, out := make([][]string, m.nloc), make([][]string, m.nloc)
	incs := make([][]string, m.nsh)
	for ri, r := range m.rules {
		c := fmt.Sprintf("c%d", ri)
		s.Send(smt.DeclareConst(c, "Int"))
		s.Assert(smt.App(">=", c, "0"))
		if r.src != r.dst {
			out[r.src] = append(out[r.src], c)
			in[r.dst] = append(in[r.dst], c)
		}
		for v := range m.nsh {
			if r.reset != nil && r.reset[v] {
				reset[v] = true
			} else if r.inc[v] != 0 {
				incs[v] = append(incs[v], smt.Times(r.inc[v], c))
			}
		}
	}
	for l := range m.nloc {
		rhs := smt.Sum(append([]string{i.k(l)}, in[l]...)...)
		if len(out[l]) > 0 {
			rhs = smt.App("-", rhs, smt.Sum(out[l]...))
		}
		s.Assert(smt.App("=", u.k(l), rhs))
		s.Assert(smt.App(">=", u.k(l), "0"))
	}
	for v := range m.nsh {
		s.Assert(smt.App(">=", u.x(v), "0"))
		if !reset[v] {
			s.Assert(smt.App("=", u.x(v), smt.Sum(append([]string{i.x(v)}, incs[v]...)...)))
		}
	}
	return nil
}

// components names the conditions that say an abstract state over st:
// one per location and one per group of atoms, with the vector position
// each stands for.
func (inv *invariant) components(v []byte, st stateNames, prefix string) (names, terms []string, pos []int) {
	a := inv.a
	for l := range a.nloc {
		names = append(names, fmt.Sprintf("%s%d", prefix, l))
		terms = append(terms, smt.And(a.counterPattern(l, v[l], st)...))
		pos = append(pos, l)
	}
	for g := range a.groups {
		names = append(names, fmt.Sprintf("%s%d", prefix, a.nloc+g))
		terms = append(terms, smt.And(a.groupPattern(g, a.groups[g].masks[v[a.nloc+g]], st)...))
		pos = append(pos, a.nloc+g)
	}
	// The initial values the vector keeps constrain the initial
	// configuration of the state equation (the same for both states of a
	// step).
	for j, l := range a.initLocs {
		at := a.initPos(j)
		names = append(names, fmt.Sprintf("%s%d", prefix, at))
		terms = append(terms, smt.And(a.counterPattern(l, v[at], "i")...))
		pos = append(pos, at)
	}
	return names, terms, pos
}

// refine checks the states and steps of a counterexample against the
// invariant and removes those without a concrete counterpart. It returns
// how many patterns it removed and the queries asked.
func (inv *invariant) refine(ctx context.Context, path [][]byte, c *trace.Counterexample) (int, int64, error) {
	a, s := inv.a, inv.s
	var queries int64
	// ask checks the terms extra with the conditions named names, and
	// returns the names of an unsat core.
	ask := func(extra, names, terms []string) (smt.Status, []string, error) {
		queries++
		s.Push()
		defer s.Pop(1)
		for _, t := range extra {
			s.Assert(t)
		}
		for i, n := range names {
			s.Send(smt.DeclareConst(n, "Bool"))
			s.Assert(smt.App("=>", n, terms[i]))
		}
		st, err := s.Check(ctx, names...)
		if err != nil || st != smt.Unsat {
			return st, nil, err
		}
		core, err := s.UnsatCore(ctx)
		return st, core, err
	}
	pattern := func(v []byte, names []string, pos []int, core []string) absPattern {
		var p absPattern
		for i, n := range names {
			if slices.Contains(core, n) {
				p.pos = append(p.pos, pos[i])
				p.val = append(p.val, v[pos[i]])
			}
		}
		return p
	}
	added := 0
	seen := map[string]bool{}
	for _, v := range path {
		if seen[string(v)] || a.blockedState(v) {
			continue
		}
		seen[string(v)] = true
		names, terms, pos := inv.components(v, "u", "a")
		st, core, err := ask(nil, names, terms)
		if err != nil {
			return added, queries, err
		}
		if st == smt.Unsat {
			a.blockedStates = append(a.blockedStates, pattern(v, names, pos, core))
			added++
		}
	}
	if added > 0 {
		return added, queries, nil
	}
	m := a.m
	u, w := stateNames("u"), stateNames("w")
	for i, step := range c.Steps {
		if step.Rule == "" {
			continue
		}
		ri := slices.IndexFunc(a.rules, func(ar absRule) bool { return ar.r.r.Name() == step.Rule })
		if ri < 0 {
			return added, queries, fmt.Errorf("no rule named %s", step.Rule)
		}
		v, x := path[i], path[i+1]
		if a.blocked(ri, v, x) {
			continue
		}
		r := a.rules[ri].r
		pn, pt, pp := inv.components(v, u, "a")
		qn, qt, qp := inv.components(x, w, "b")
		st, core, err := ask(m.stepTerms(r, u, w), append(slices.Clone(pn), qn...), append(slices.Clone(pt), qt...))
		if err != nil {
			return added, queries, err
		}
		if st == smt.Unsat {
			if a.blockedTrans == nil {
				a.blockedTrans = make([][]absTransBlock, len(a.rules))
			}
			a.blockedTrans[ri] = append(a.blockedTrans[ri], absTransBlock{pre: pattern(v, pn, pp, core), post: pattern(x, qn, qp, core)})
			added++
		}
	}
	if added > 0 {
		return added, queries, nil
	}
	// The conditions of the specification that the counterexample's
	// states satisfy, each asked of the concrete configurations the state
	// stands for (the thesis's unjust states, Definition 31, for every
	// condition, not only the justice ones).
	seen = map[string]bool{}
	for _, v := range path {
		if seen[string(v)] {
			continue
		}
		seen[string(v)] = true
		names, terms, pos := inv.components(v, u, "a")
		for ci, c := range a.conds {
			if t, f := a.mayExpr(c.e, v); !(c.neg && f || !c.neg && t) || a.refuted(ci, v) {
				continue
			}
			t, err := exprTerm(c.e, u)
			if err != nil {
				return added, queries, err
			}
			if c.neg {
				t = smt.Not(t)
			}
			st, core, err := ask([]string{t}, names, terms)
			if err != nil {
				return added, queries, err
			}
			if st == smt.Unsat {
				a.conds[ci].refuted = append(a.conds[ci].refuted, pattern(v, names, pos, core))
				added++
			}
		}
	}
	return added, queries, nil
}

var _ state.Model = (*absModel)(nil)

// truth says whether atom ai holds in v.
func (a *absModel) truth(v []byte, ai int) bool {
	g := a.atomG[ai]
	return a.groups[g].masks[v[a.nloc+g]]>>a.atomB[ai]&1 == 1
}

// groupTerms renders the atoms of group g over st.
func (a *absModel) groupTerms(g int, st stateNames) []string {
	var ts []string
	for _, ai := range a.groups[g].atoms {
		ts = append(ts, a.m.atomTerm(ai, st))
	}
	return ts
}

// allTruths enumerates the truth values of terms that the solver allows
// together (bit i: terms[i]), one model at a time; nil when the solver
// does not answer sat or unsat, or there are more than absMaxMasks.
func allTruths(ctx context.Context, s smt.Solver, terms []string) ([]uint32, int64, error) {
	s.Push()
	defer s.Pop(1)
	names := make([]string, len(terms))
	for i, t := range terms {
		names[i] = fmt.Sprintf("truth%d", i)
		s.Send(smt.DeclareConst(names[i], "Bool"))
		s.Assert(smt.App("=", names[i], t))
	}
	var masks []uint32
	var queries int64
	for {
		queries++
		st, err := s.Check(ctx)
		if err != nil {
			return nil, queries, err
		}
		if st == smt.Unsat {
			slices.Sort(masks)
			return masks, queries, nil
		}
		if st != smt.Sat || len(masks) == absMaxMasks {
			return nil, queries, nil
		}
		vals, err := s.Values(ctx, names...)
		if err != nil {
			return nil, queries, err
		}
		var mask uint32
		lits := make([]string, len(names))
		for i, v := range vals {
			lits[i] = smt.Not(names[i])
			if v.Raw == "true" {
				mask |= 1 << uint(i)
				lits[i] = names[i]
			}
		}
		masks = append(masks, mask)
		s.Assert(smt.Not(smt.And(lits...)))
	}
}

// initVar names the initial value of a location's counter.
func initVar(loc string) string { return "(initially) " + loc }

// staticPremises returns the conditions over the parameters alone that
// the negation of e (of e itself, when neg is false) asserts at its top
// level: a counterexample's parameters satisfy them.
func staticPremises(e ta.Expr, neg bool) []ta.Expr {
	switch x := e.(type) {
	case *ta.Unary:
		if x.Op == "!" {
			return staticPremises(x.X, !neg)
		}
	case *ta.Binary:
		switch {
		case x.Op == "->" && neg:
			return append(staticPremises(x.X, false), staticPremises(x.Y, true)...)
		case x.Op == "&&" && !neg, x.Op == "||" && neg:
			return append(staticPremises(x.X, neg), staticPremises(x.Y, neg)...)
		}
	}
	if temporal(e) || !onlyParams(e) {
		return nil
	}
	if neg {
		return []ta.Expr{&ta.Unary{Op: "!", X: e}}
	}
	return []ta.Expr{e}
}

// onlyParams reports whether e names parameters only.
func onlyParams(e ta.Expr) bool {
	switch x := e.(type) {
	case *ta.Ident:
		return x.Kind == ta.Param
	case *ta.Unary:
		return onlyParams(x.X)
	case *ta.Binary:
		return onlyParams(x.X) && onlyParams(x.Y)
	}
	return true
}

// checkDecrements asks, for every rule that decreases a shared variable,
// whether its guard keeps the variable non-negative: an instance would
// fail there (ta.Instance: out of range) where the abstraction, whose
// variables are non-negative, has no step.
func (a *absModel) checkDecrements(ctx context.Context, s smt.Solver) (int64, error) {
	m := a.m
	x := stateNames("x")
	var queries int64
	for _, r := range m.rules {
		for v, c := range r.inc {
			if c >= 0 {
				continue
			}
			queries++
			s.Push()
			s.Assert(m.bterm(r.guard, x))
			s.Assert(smt.App("<", x.x(v), smt.Int(-c)))
			st, err := s.Check(ctx)
			s.Pop(1)
			if err != nil {
				return queries, err
			}
			if st != smt.Unsat {
				return queries, fmt.Errorf("%s:%s: rule %s decreases %s by %d, but its guard does not keep %s >= %d", m.f.Path, r.r.Pos, r.r.ID, m.f.Shared[v].Name, -c, m.f.Shared[v].Name, -c)
			}
		}
	}
	return queries, nil
}

// cegarMaxInductionQueries bounds the queries that look for inductive
// bounds on the shared variables.
const cegarMaxInductionQueries = 2000

// inductive proves by induction which bounds on the shared variables hold
// in every reachable configuration, and adds them to the invariant: for
// each threshold atom lhs >= bound, the candidates lhs <= bound and
// lhs <= bound - 1 (a guard lhs < bound on every rule that increases lhs
// makes the first one inductive: at most Fc processes crash). The
// candidates that the initial configurations or a rule's step from a
// configuration satisfying all of them and the state equation can break
// are dropped until none is (Houdini); what remains is inductive relative
// to the state equation, an invariant itself. It returns how many.
func (inv *invariant) inductive(ctx context.Context) (int, int64, error) {
	s, m := inv.s, inv.a.m
	i, u, w := stateNames("i"), stateNames("u"), stateNames("w")
	type cand struct {
		lhs, bound ta.Lin
		name       string
	}
	var cands []cand
	for _, at := range m.atoms {
		for _, d := range []int64{0, -1} {
			cands = append(cands, cand{lhs: at.shared, bound: at.bound.Add(ta.Lin{Const: d}), name: fmt.Sprintf("ind%d", len(cands))})
		}
	}
	term := func(c cand, st stateNames) string {
		return smt.App("<=", linTerm(c.lhs, st), linTerm(c.bound, st))
	}
	var queries int64
	// drop asks whether the terms (besides the solver's assertions) allow
	// some candidate to fail at st, and drops those that fail in the
	// solver's model, until none can.
	drop := func(terms []string, st stateNames) error {
		for len(cands) > 0 {
			if queries >= cegarMaxInductionQueries {
				cands = nil
				return nil
			}
			queries++
			s.Push()
			for _, t := range terms {
				s.Assert(t)
			}
			var all, names []string
			for _, c := range cands {
				s.Send(smt.DeclareConst(c.name, "Bool"))
				s.Assert(smt.App("=", c.name, term(c, st)))
				all = append(all, c.name)
				names = append(names, c.name)
			}
			s.Assert(smt.Not(smt.And(all...)))
			st, err := s.Check(ctx)
			if err != nil || st == smt.Unsat {
				s.Pop(1)
				return err
			}
			if st != smt.Sat {
				s.Pop(1)
				cands = nil // no answer: prove nothing
				return nil
			}
			vals, err := s.Values(ctx, names...)
			s.Pop(1)
			if err != nil {
				return err
			}
			kept := cands[:0]
			for j, c := range cands {
				if vals[j].Raw == "true" {
					kept = append(kept, c)
				}
			}
			if len(kept) == len(cands) {
				cands = nil // a model that breaks none: give up
				return nil
			}
			cands = kept
		}
		return nil
	}
	for changed := true; changed && len(cands) > 0; {
		before := len(cands)
		if err := drop(nil, i); err != nil {
			return 0, queries, err
		}
		for _, r := range m.rules {
			if len(cands) == 0 {
				break
			}
			hyp := m.stepTerms(r, u, w)
			for _, c := range cands {
				hyp = append(hyp, term(c, u))
			}
			if err := drop(hyp, w); err != nil {
				return 0, queries, err
			}
		}
		changed = len(cands) != before
	}
	for _, c := range cands {
		s.Assert(term(c, u))
	}
	return len(cands), queries, nil
}

// stepTerms says over from and to that one process fires r: its guard
// holds, its source is not empty, the counters and shared variables
// change as it says, and none becomes negative.
func (m *model) stepTerms(r *rule, from, to stateNames) []string {
	ts := []string{m.bterm(r.guard, from), smt.App(">=", from.k(r.src), "1")}
	for l := range m.nloc {
		d := int64(0)
		if r.src != r.dst && l == r.src {
			d = -1
		} else if r.src != r.dst && l == r.dst {
			d = 1
		}
		ts = append(ts, smt.App("=", to.k(l), smt.Sum(from.k(l), smt.Int(d))))
	}
	for x := range m.nsh {
		if r.reset != nil && r.reset[x] {
			ts = append(ts, smt.App("=", to.x(x), "0"))
		} else {
			ts = append(ts, smt.App("=", to.x(x), smt.Sum(from.x(x), smt.Int(r.inc[x]))))
		}
		ts = append(ts, smt.App(">=", to.x(x), "0"))
	}
	return ts
}

// newAbsModel starts the counter abstraction of m for spec, with the
// comparisons of shared variables in e as atoms of its own.
func newAbsModel(m *model, spec *ta.Spec, e ta.Expr) (*absModel, error) {
	a := &absModel{f: m.f, m: m, badCmp: map[*ta.Binary]*bexpr{}, nloc: m.nloc}
	if err := a.compileBad(e); err != nil {
		return nil, fmt.Errorf("%s:%s: %v", m.f.Path, spec.Pos, err)
	}
	return a, nil
}
