package param

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"ftmc/explore"
	"ftmc/smt"
	"ftmc/state"
	"ftmc/ta"
	"ftmc/trace"
)

// The schema technique needs shared variables that only grow. TACO's
// extended automata reset them (x' == 0), so that one automaton runs
// round after round; their safety specifications are checked here on a
// counter abstraction instead, in the spirit of the zero-counter systems
// TACO checks them with (Eichler, Jacobs, Weil-Kennedy, "Parameterized
// verification of round-based distributed algorithms via extended
// threshold automata", FM 2024) and of the parametric interval abstraction
// of the thesis (ch. 4):
//
//   - a location's counter is abstracted to zero or not zero;
//   - the shared variables are abstracted to the truth values of the
//     guards' threshold atoms (x >= t + 1 - f, ...), grouped by the
//     variables they share, over every parameter value the assumptions
//     allow; which combinations of truth values exist, and which a rule's
//     update can lead to from which, is asked of the SMT solver once,
//     before the search;
//   - a rule moves a process from a non-empty location: the target is
//     then non-empty and the source either (the other processes may have
//     left or not).
//
// Every run of every instance maps to a run of this finite system, so a
// search of it (explore's breadth-first search) that reaches no bad state
// proves the specification for all parameters. A bad state it reaches may
// be an artefact of the abstraction: a violation is reported only when an
// explicit check of an instance finds one, which is then the
// counterexample. The instances checked are the one whose parameters the
// solver picks for the abstract path's rules (concretize), then the
// smallest (huntAbstract); none violating, the verdict is unknown, with
// the abstract path in the reason.

// absMaxAtoms bounds the atoms of one group of shared variables; a byte
// of the state vector says which of the group's consistent truth values
// (at most absMaxMasks) holds.
const (
	absMaxAtoms = 32
	absMaxMasks = 256
)

// When the abstraction reaches a bad state, the smallest instances (by
// the sum of their parameters, at most absHuntSum) are checked for a
// violation: at most absHuntInstances of them, for at most absHuntTime.
// TACO's phase-king-buggy.eta is violated first at N = 7, T = 2, F = 1
// (a sum of 10), beyond the hunter's bound of 4 on each parameter.
const (
	absHuntSum       = 16
	absHuntInstances = 1000
	absHuntTime      = 20 * time.Second
)

// absMaxQueries bounds the SMT queries that build the abstraction (TACO's
// automata with resets take 59 to 250).
const absMaxQueries = 100_000

// absMaxInit bounds the abstract initial states.
const absMaxInit = 1 << 16

// absModel is the counter abstraction of an automaton as a state.Model.
// A vector holds one byte per location (0: empty, 1: not) and one byte
// per group of atoms (the atoms that hold, a bit each).
type absModel struct {
	f      *ta.File
	m      *model
	groups []absGroup
	atomG  []int // atom -> its group
	atomB  []uint
	rules  []absRule
	bad    ta.Expr
	badCmp map[*ta.Binary]*bexpr // the comparisons of shared variables in bad
	init   [][]byte
	nloc   int

	// A location's byte holds the thresholds its counter reaches, a bit
	// each (cth[0] is 1: bit 0 says the location is not empty); cmasks
	// are the combinations that exist, and cinc and cdec what a process
	// more or less leads to. Without thresholds beyond 1 (verifyAbstract)
	// a counter is zero or not.
	cth        []ta.Lin
	cmasks     []byte
	cinc, cdec map[byte][]byte
	ctext      map[byte]string
	// The refinement (cegar.go) removes the abstract states and
	// transitions that no run of any instance has.
	blockedStates []absPattern
	blockedTrans  [][]absTransBlock // by rule
	// conds are the conditions the specification's negation reads
	// (cegar.go).
	conds []absCond
	// freeze adds a byte to the vector: 1 once the run stays in its
	// configuration for ever (cegar.go).
	freeze bool
	// With trackInit, the vector keeps the initial value of each location
	// in initLocs, those with more than one (after the groups), so that
	// the refinement knows what the run started from.
	trackInit bool
	initLocs  []int
	// premises are conditions on the parameters alone that every
	// counterexample satisfies (cegar.go): the solver assumes them.
	premises []ta.Expr

	buf []byte
}

type absGroup struct {
	atoms []int
	vars  []int
	masks []uint32 // the consistent truth values, a bit per atom
}

type absRule struct {
	r       *rule
	touched []int             // groups the rule's update changes
	next    []map[byte][]byte // per touched group: mask -> successor masks (indices in masks)
}

// HasResets reports whether a rule of f resets a shared variable: Verify
// then checks its safety specifications on a counter abstraction.
func HasResets(f *ta.File) bool {
	for _, r := range f.Rules {
		for _, u := range r.Updates {
			if l, err := ta.Linear(u.Expr); err == nil && isReset(l) {
				return true
			}
		}
	}
	return false
}

// verifyAbstract checks specName of f, whose rules reset shared variables,
// on the counter abstraction.
func verifyAbstract(ctx context.Context, f *ta.File, spec *ta.Spec, opts Options, res SpecResult) SpecResult {
	if ctx.Err() != nil {
		res.Reason = explore.StopCause(ctx) + " before the counter abstraction was built"
		return res
	}
	m, err := prepareCycles(f, true)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	init, bad, ok := SafetyShape(spec.Formula)
	if !ok {
		// Liveness: only violations, on the smallest instances.
		res.Reason = fmt.Sprintf("%s:%s: %s is not a safety specification (init -> [](...)); with resets (TACO's extended threshold automata) only safety specifications are proved, on a counter abstraction", f.Path, spec.Pos, spec.Name)
		if r, n := huntAbstract(ctx, f, spec.Name, true); r != nil {
			res.Verdict, res.Kind, res.Counterexample, res.Reason = trace.Violated, r.Kind, r.Counterexample, ""
		} else {
			res.Reason += fmt.Sprintf(", and none of the %d smallest instances checked has a lasso that violates it", n)
			if ctx.Err() != nil {
				res.Reason += "; " + explore.StopCause(ctx)
			}
		}
		return res
	}
	a, err := newAbsModel(m, spec, bad)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	a.bad = bad
	s, err := smt.New(ctx, opts.Solver)
	if err != nil {
		res.Reason = err.Error()
		return res
	}
	defer s.Close()
	t0 := time.Now()
	queries, err := a.build(ctx, s, init)
	res.Queries += queries
	res.SolverSeconds += time.Since(t0).Seconds()
	res.Atoms = len(m.atoms)
	if err != nil {
		res.Reason = err.Error()
		if ctx.Err() != nil {
			res.Reason = explore.StopCause(ctx) + " while the counter abstraction was built"
		}
		return res
	}
	if len(a.init) == 0 {
		res.Verdict = trace.Holds
		res.Abstract = &AbstractStats{Predicates: len(m.atoms)}
		return res
	}
	r, st, err := explore.Run(ctx, a, explore.Options{Order: explore.BreadthFirst, Property: spec.Name})
	res.Abstract = &AbstractStats{States: st.States, Transitions: st.Transitions, Predicates: len(m.atoms)}
	if searched(&res, r, st, err) {
		return res
	}
	// A bad abstract state: the path to it, if some parameter values
	// follow it, is a violation of their instance, which the explicit
	// search confirms; else the smallest instances are searched.
	var path []string
	for _, s := range r.Counterexample.Steps {
		path = append(path, s.Rule)
	}
	why := fmt.Sprintf("the counter abstraction (%d abstract states) reaches a bad state by %s", st.States, strings.Join(path, ", "))
	return a.settle(ctx, s, init, opts, r.Counterexample, why, res)
}

// settle decides a counterexample c of the abstraction that the caller
// cannot remove (why says which): a violation when the explicit search
// of an instance finds one (for a safety specification, first the
// instance whose parameters the solver picks for c's rules; then the
// smallest instances), else unknown with why.
func (a *absModel) settle(ctx context.Context, s smt.Solver, init ta.Expr, opts Options, c *trace.Counterexample, why string, res SpecResult) SpecResult {
	f, spec := a.f, res.Property
	if a.bad != nil {
		vals, q, err := a.concretize(ctx, s, init, c)
		res.Queries += q
		switch {
		case err != nil:
			why += fmt.Sprintf(" (the path was not concretized: %v)", err)
		case vals != nil:
			er, _ := Explicit(ctx, f, spec, vals, explore.Options{MaxStates: huntStates})
			if er.Verdict == trace.Violated {
				res.Verdict, res.Kind, res.Counterexample, res.Reason = trace.Violated, er.Kind, er.Counterexample, ""
				return res
			}
			name := fmt.Sprint(vals)
			if in, err := ta.NewInstance(f, vals, ta.InstanceOptions{}); err == nil {
				name = in.ParamString()
			}
			why += fmt.Sprintf(" (a run of the instance %s follows it, which the explicit search did not confirm: %s)", name, er.Reason)
		default:
			why += " (no run of any instance follows it)"
		}
	}
	if opts.NoHunt {
		res.Reason = why + ": the abstraction may be too coarse"
		return res
	}
	// The lassos of a liveness specification (no bad state) on a cyclic
	// automaton; a reachability specification searches up to
	// absHuntInstances instances.
	r2, checked := huntAbstract(ctx, f, spec, a.bad == nil && a.m.cycle != nil)
	if r2 != nil {
		res.Verdict, res.Kind, res.Counterexample, res.Reason = trace.Violated, r2.Kind, r2.Counterexample, ""
		return res
	}
	why += fmt.Sprintf(", and none of the %d smallest instances checked violates it", checked)
	if ctx.Err() != nil {
		why += "; " + explore.StopCause(ctx)
	}
	res.Reason = why + ": the abstraction may be too coarse"
	return res
}

// searched puts the outcome of a search of the abstraction that did not
// find a counterexample in res, and reports whether it did not.
func searched(res *SpecResult, r trace.Result, st trace.Stats, err error) bool {
	switch {
	case err != nil:
		res.Reason = err.Error()
	case r.Verdict == trace.Holds && st.Complete:
		res.Verdict = trace.Holds
	case r.Verdict != trace.Violated:
		res.Reason = r.Reason
		if res.Reason == "" {
			res.Reason = "the search of the counter abstraction did not end"
		}
	default:
		return false
	}
	return true
}

// concretize asks the solver for parameter values and a run of their
// instance that fires the rules of the abstract counterexample c in its
// order, one process each, and ends in a bad configuration (in whichever
// abstract states: the abstract path is only a hint). It returns the
// values (nil: no such run) and the queries asked.
func (a *absModel) concretize(ctx context.Context, s smt.Solver, init ta.Expr, c *trace.Counterexample) (map[string]int64, int64, error) {
	rules, err := a.pathRules(c)
	if err != nil {
		return nil, 0, err
	}
	m := a.m
	s.Push()
	defer s.Pop(1)
	st := func(i int) stateNames { return stateNames(fmt.Sprintf("c%d", i)) }
	var ts []string
	for i := range len(rules) + 1 {
		n := st(i)
		for l := range m.nloc {
			s.Send(smt.DeclareConst(n.k(l), "Int"))
			ts = append(ts, smt.App(">=", n.k(l), "0"))
		}
		for x := range m.nsh {
			s.Send(smt.DeclareConst(n.x(x), "Int"))
			ts = append(ts, smt.App(">=", n.x(x), "0"))
		}
	}
	for _, e := range append(append([]ta.Expr(nil), m.f.Inits...), init) {
		t, err := exprTerm(e, st(0))
		if err != nil {
			return nil, 0, err
		}
		ts = append(ts, t)
	}
	for i, ri := range rules {
		r := a.rules[ri].r
		ts = append(ts, m.stepTerms(r, st(i), st(i+1))...)
	}
	bad, err := exprTerm(a.bad, st(len(rules)))
	if err != nil {
		return nil, 0, err
	}
	ts = append(ts, bad)
	for _, t := range ts {
		s.Assert(t)
	}
	status, err := s.Check(ctx)
	if err != nil {
		return nil, 1, err
	}
	if status != smt.Sat {
		return nil, 1, nil
	}
	var names []string
	for i := range m.f.Params {
		names = append(names, paramName(i))
	}
	got, err := s.Values(ctx, names...)
	if err != nil {
		return nil, 1, err
	}
	vals := map[string]int64{}
	for i, d := range m.f.Params {
		if d.Quotient != nil {
			continue // instances compute it
		}
		n, ok := got[i].Int64()
		if !ok {
			return nil, 1, fmt.Errorf("the solver's value of %s is %s", d.Name, got[i])
		}
		vals[d.Name] = n
	}
	return vals, 1, nil
}

// pathRules returns the rules of a counterexample of the abstraction, by
// their indices.
func (a *absModel) pathRules(c *trace.Counterexample) ([]int, error) {
	byName := map[string]int{}
	for i, r := range a.rules {
		if _, dup := byName[r.r.r.Name()]; dup {
			return nil, fmt.Errorf("two rules are named %s", r.r.r.Name())
		}
		byName[r.r.r.Name()] = i
	}
	var rules []int
	for _, st := range c.Steps {
		ri, ok := byName[st.Rule]
		if !ok {
			return nil, fmt.Errorf("no rule named %s", st.Rule)
		}
		rules = append(rules, ri)
	}
	return rules, nil
}

// huntAbstract checks specName on the smallest instances of f and returns
// the first violation, or nil and the number of instances checked; with
// lassos, the lassos of a liveness specification on the huntInstances
// smallest instances of an automaton whose rules form cycles (explicit).
func huntAbstract(ctx context.Context, f *ta.File, specName string, lassos bool) (*SpecResult, int) {
	ctx, cancel := context.WithTimeout(ctx, absHuntTime)
	defer cancel()
	checked := 0
	var found *SpecResult
	paramsBySum(f, absHuntSum, func(vals map[string]int64) bool {
		if ctx.Err() != nil {
			return false
		}
		r, _ := explicit(ctx, f, specName, vals, explore.Options{MaxStates: huntStates})
		if r.Verdict == trace.Violated {
			found = &r
			return false
		}
		checked++
		if lassos {
			return checked < huntInstances
		}
		return checked < absHuntInstances
	})
	if found != nil {
		return found, checked
	}
	return nil, checked
}

// AbstractStats describe the counter abstraction of an automaton with
// resets.
type AbstractStats struct {
	States, Transitions int64
	Predicates          int   // threshold atoms over the shared variables
	MemoryBytes         int64 // of the last search (cegar.go)
}

// compileBad makes atoms of the comparisons of shared variables in bad,
// so that the abstraction keeps their truth values.
func (a *absModel) compileBad(e ta.Expr) error {
	switch e := e.(type) {
	case *ta.Unary:
		return a.compileBad(e.X)
	case *ta.Binary:
		switch e.Op {
		case "&&", "||", "->":
			if err := a.compileBad(e.X); err != nil {
				return err
			}
			return a.compileBad(e.Y)
		}
		d, err := cmpLin(e)
		if err != nil {
			return err
		}
		if len(d.Only(ta.Local).Coef) == 0 && len(d.Only(ta.Shared).Coef) > 0 {
			b, err := a.m.compileCmp(e, false)
			if err != nil {
				return fmt.Errorf("%s: %v", e.Pos, err)
			}
			a.badCmp[e] = b
		}
	}
	return nil
}

func cmpLin(e *ta.Binary) (ta.Lin, error) {
	x, err := ta.Linear(e.X)
	if err != nil {
		return ta.Lin{}, err
	}
	y, err := ta.Linear(e.Y)
	if err != nil {
		return ta.Lin{}, err
	}
	return x.Add(y.Scale(-1)), nil
}

// build groups the atoms, and asks the solver which truth values each
// group can take, which an update leads to, and which initial states the
// assumptions, the inits and init allow.
func (a *absModel) build(ctx context.Context, s smt.Solver, init ta.Expr) (int64, error) {
	m := a.m
	var queries int64
	// Group the atoms by shared variables (union-find over variables).
	parent := make([]int, m.nsh)
	for v := range parent {
		parent[v] = v
	}
	var find func(int) int
	find = func(v int) int {
		for parent[v] != v {
			parent[v] = parent[parent[v]]
			v = parent[v]
		}
		return v
	}
	for _, at := range m.atoms {
		vs := at.shared.Vars()
		for _, v := range vs[1:] {
			parent[find(v.Index)] = find(vs[0].Index)
		}
	}
	byRoot := map[int]int{}
	a.atomG, a.atomB = make([]int, len(m.atoms)), make([]uint, len(m.atoms))
	for i, at := range m.atoms {
		root := find(at.shared.Vars()[0].Index)
		g, ok := byRoot[root]
		if !ok {
			g = len(a.groups)
			byRoot[root] = g
			a.groups = append(a.groups, absGroup{})
			for v := range m.nsh {
				if find(v) == root {
					a.groups[g].vars = append(a.groups[g].vars, v)
				}
			}
		}
		if len(a.groups[g].atoms) == absMaxAtoms {
			return queries, fmt.Errorf("%s: more than %d threshold atoms over the shared variables %s: the counter abstraction does not take them", m.f.Path, absMaxAtoms, a.varNames(a.groups[g].vars))
		}
		a.atomG[i], a.atomB[i] = g, uint(len(a.groups[g].atoms))
		a.groups[g].atoms = append(a.groups[g].atoms, i)
	}

	cmds, err := (&problem{m: m}).base()
	if err != nil {
		return queries, err
	}
	s.Send(cmds...)
	for _, e := range a.premises {
		t, err := exprTerm(e, "")
		if err != nil {
			return queries, fmt.Errorf("%s:%v", m.f.Path, err)
		}
		s.Assert(t)
	}
	x, y := stateNames("x"), stateNames("y")
	for _, st := range []stateNames{x, y} {
		for v := range m.nsh {
			s.Send(smt.DeclareConst(st.x(v), "Int"), "(assert (>= "+st.x(v)+" 0))")
		}
		for l := range m.nloc {
			s.Send(smt.DeclareConst(st.k(l), "Int"), "(assert (>= "+st.k(l)+" 0))")
		}
	}
	// sat asks whether the terms can hold together; an answer other than
	// unsat counts as yes, which keeps the abstraction sound.
	sat := func(terms ...string) (bool, error) {
		queries++
		if queries > absMaxQueries {
			return false, fmt.Errorf("%s: the counter abstraction needs more than %d SMT queries", m.f.Path, absMaxQueries)
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
		s.Push()
		for _, t := range terms {
			s.Assert(t)
		}
		st, err := s.Check(ctx)
		s.Pop(1)
		if err != nil {
			return false, err
		}
		return st != smt.Unsat, nil
	}
	// Up to 8 atoms, each combination of truth values is asked (at most
	// 256, what a byte of the vector tells apart); more are enumerated
	// model by model, up to 256 of them.
	for g := range a.groups {
		n := len(a.groups[g].atoms)
		if n > 8 {
			masks, q, err := allTruths(ctx, s, a.groupTerms(g, x))
			queries += q
			if err != nil {
				return queries, err
			}
			if masks == nil {
				return queries, fmt.Errorf("%s: the %d threshold atoms over the shared variables %s have more than %d combinations of truth values, or the solver did not enumerate them: the counter abstraction does not take them", m.f.Path, n, a.varNames(a.groups[g].vars), absMaxMasks)
			}
			a.groups[g].masks = masks
			continue
		}
		for mask := uint32(0); mask < 1<<n; mask++ {
			ok, err := sat(a.groupPattern(g, mask, x)...)
			if err != nil {
				return queries, err
			}
			if ok {
				a.groups[g].masks = append(a.groups[g].masks, mask)
			}
		}
	}

	// Updates: a group's successor masks depend only on what the rule
	// does to the group's variables.
	memo := map[string]map[byte][]byte{}
	for _, r := range m.rules {
		ar := absRule{r: r}
		for g, gr := range a.groups {
			var key strings.Builder
			var upd []string
			changed := false
			for _, v := range gr.vars {
				switch {
				case r.reset != nil && r.reset[v]:
					fmt.Fprintf(&key, "%d=0;", v)
					upd = append(upd, smt.App("=", y.x(v), "0"))
					changed = true
				case r.inc[v] != 0:
					fmt.Fprintf(&key, "%d+%d;", v, r.inc[v])
					upd = append(upd, smt.App("=", y.x(v), smt.Sum(x.x(v), smt.Int(r.inc[v]))))
					changed = true
				default:
					upd = append(upd, smt.App("=", y.x(v), x.x(v)))
				}
			}
			if !changed {
				continue
			}
			k := fmt.Sprintf("%d:%s", g, key.String())
			next, ok := memo[k]
			if !ok {
				next = map[byte][]byte{}
				for fi, from := range gr.masks {
					for ti, to := range gr.masks {
						ts := append(append(a.groupPattern(g, from, x), a.groupPattern(g, to, y)...), upd...)
						ok, err := sat(ts...)
						if err != nil {
							return queries, err
						}
						if ok {
							next[byte(fi)] = append(next[byte(fi)], byte(ti))
						}
					}
				}
				memo[k] = next
			}
			ar.touched = append(ar.touched, g)
			ar.next = append(ar.next, next)
		}
		a.rules = append(a.rules, ar)
	}

	// Initial states: the assumptions, the inits and init over x, each
	// location empty or not and each group's truth values on their own
	// (a product, which over-approximates).
	var base []string
	for _, e := range append(append([]ta.Expr(nil), m.f.Inits...), init) {
		t, err := exprTerm(e, x)
		if err != nil {
			return queries, fmt.Errorf("%s:%v", m.f.Path, err)
		}
		base = append(base, t)
	}
	if ok, err := sat(base...); err != nil || !ok {
		return queries, err
	}
	choices := make([][]byte, m.nloc+len(a.groups))
	if err := a.counters(sat); err != nil {
		return queries, err
	}
	for l := range m.nloc {
		for _, c := range a.cmasks {
			ok, err := sat(append(append([]string(nil), base...), a.counterPattern(l, c, x)...)...)
			if err != nil {
				return queries, err
			}
			if ok {
				choices[l] = append(choices[l], c)
			}
		}
	}
	for g := range a.groups {
		for i, mask := range a.groups[g].masks {
			ok, err := sat(append(append([]string(nil), base...), a.groupPattern(g, mask, x)...)...)
			if err != nil {
				return queries, err
			}
			if ok {
				choices[m.nloc+g] = append(choices[m.nloc+g], byte(i))
			}
		}
	}
	n := 1.0
	for _, c := range choices {
		n *= float64(len(c))
	}
	if n > absMaxInit {
		return queries, fmt.Errorf("%s: %.0f initial states of the counter abstraction (at most %d are taken)", m.f.Path, n, absMaxInit)
	}
	if a.trackInit {
		for l := range m.nloc {
			if len(choices[l]) > 1 {
				a.initLocs = append(a.initLocs, l)
			}
		}
	}
	vec := make([]byte, len(choices)+len(a.initLocs))
	if a.freeze {
		vec = append(vec, 0)
	}
	var rec func(i int)
	rec = func(i int) {
		if i == len(choices) {
			for j, l := range a.initLocs {
				vec[len(choices)+j] = vec[l]
			}
			if !a.blockedState(vec) {
				a.init = append(a.init, append([]byte(nil), vec...))
			}
			return
		}
		for _, c := range choices[i] {
			vec[i] = c
			rec(i + 1)
		}
	}
	if n > 0 {
		rec(0)
	}
	return queries, nil
}

func (a *absModel) varNames(vs []int) string {
	var ns []string
	for _, v := range vs {
		ns = append(ns, a.f.Shared[v].Name)
	}
	return strings.Join(ns, ", ")
}

func (a *absModel) Name() string { return a.f.Path }

func (a *absModel) Initial(emit func(s []byte)) error {
	for _, v := range a.init {
		emit(v)
	}
	return nil
}

// may evaluates b on v: whether it can be true, and whether it can be
// false (atoms are exact; a condition over the parameters alone may be
// either).
func (a *absModel) may(b *bexpr, v []byte) (canT, canF bool) {
	switch b.op {
	case 't':
		return true, false
	case 'f':
		return false, true
	case 's':
		return true, true
	case 'l':
		val := a.truth(v, b.atom)
		return val == b.pos, val != b.pos
	}
	and := b.op == 'a'
	canT, canF = and, !and
	for _, k := range b.kids {
		t, f := a.may(k, v)
		if and {
			canT, canF = canT && t, canF || f
		} else {
			canT, canF = canT || t, canF && f
		}
	}
	return canT, canF
}

func (a *absModel) Next(v []byte, sink state.Sink) {
	if a.freeze && v[len(v)-1] == 1 {
		sink.Succ(state.Trans{Proc: -1, ID: int32(len(a.rules))}, v)
		return
	}
	for ri, ar := range a.rules {
		r := ar.r
		if v[r.src]&1 == 0 {
			continue
		}
		if t, _ := a.may(r.guard, v); !t {
			continue
		}
		a.buf = append(a.buf[:0], v...)
		if r.src == r.dst {
			a.product(ri, 0, v, sink)
			continue
		}
		for _, sv := range a.cdec[v[r.src]] {
			for _, dv := range a.cinc[v[r.dst]] {
				a.buf[r.src], a.buf[r.dst] = sv, dv
				a.product(ri, 0, v, sink)
			}
		}
	}
	if a.freeze && a.canStay(v) {
		a.buf = append(a.buf[:0], v...)
		a.buf[len(v)-1] = 1
		sink.Succ(state.Trans{Proc: -1, ID: int32(len(a.rules))}, a.buf)
	}
}

// product emits the successors of rule ri from v for every choice of the
// touched groups' masks from the k-th on.
func (a *absModel) product(ri, k int, v []byte, sink state.Sink) {
	ar := &a.rules[ri]
	if k == len(ar.touched) {
		if !a.blocked(ri, v, a.buf) {
			sink.Succ(state.Trans{Proc: -1, ID: int32(ri)}, a.buf)
		}
		return
	}
	at := a.nloc + ar.touched[k]
	old := a.buf[at]
	for _, to := range ar.next[k][old] {
		a.buf[at] = to
		a.product(ri, k+1, v, sink)
	}
	a.buf[at] = old
}

// Check reports a state where bad can hold.
func (a *absModel) Check(v []byte) (kind, msg string, bad bool) {
	if a.bad == nil {
		return "", "", false
	}
	if t, _ := a.mayExpr(a.bad, v); t {
		return state.KindInvariant, "", true
	}
	return "", "", false
}

// mayExpr evaluates a condition of the specification on v, as may.
func (a *absModel) mayExpr(e ta.Expr, v []byte) (canT, canF bool) {
	switch e := e.(type) {
	case *ta.BoolLit:
		return e.Val, !e.Val
	case *ta.Unary:
		if e.Op == "!" {
			t, f := a.mayExpr(e.X, v)
			return f, t
		}
	case *ta.Binary:
		switch e.Op {
		case "&&", "||", "->":
			xt, xf := a.mayExpr(e.X, v)
			yt, yf := a.mayExpr(e.Y, v)
			switch e.Op {
			case "&&":
				return xt && yt, xf || yf
			case "||":
				return xt || yt, xf && yf
			}
			return xf || yt, xt && yf
		}
		if b, ok := a.badCmp[e]; ok {
			return a.may(b, v)
		}
		d, err := cmpLin(e)
		if err != nil || len(d.Only(ta.Local).Coef) != len(d.Coef) {
			return true, true
		}
		return a.mayLocals(d, e.Op, v)
	}
	return true, true
}

// mayLocals evaluates d op 0, d over location counters and a constant,
// from the range of d when each counter is 0 or at least 1.
func (a *absModel) mayLocals(d ta.Lin, op string, v []byte) (canT, canF bool) {
	lo, hi := float64(d.Const), float64(d.Const)
	for x, c := range d.Coef {
		if v[x.Index]&1 == 0 {
			continue
		}
		if c > 0 {
			lo += float64(c)
			hi = math.Inf(1)
		} else {
			hi += float64(c)
			lo = math.Inf(-1)
		}
	}
	switch op {
	case ">=":
		return hi >= 0, lo < 0
	case ">":
		return hi > 0, lo <= 0
	case "<=":
		return lo <= 0, hi > 0
	case "<":
		return lo < 0, hi >= 0
	case "==":
		return lo <= 0 && hi >= 0, !(lo == 0 && hi == 0)
	case "!=":
		return !(lo == 0 && hi == 0), lo <= 0 && hi >= 0
	}
	return true, true
}

func (a *absModel) ValidEnd([]byte) bool { return true }

func (a *absModel) Explain(t state.Trans, from, to []byte) trace.Step {
	if int(t.ID) == len(a.rules) {
		return trace.Step{Pid: -1, Stmt: "the configuration stays for ever (a self-loop rule fires again and again)"}
	}
	return a.f.Step(a.rules[t.ID].r.r, 0)
}

func (a *absModel) Decode(v []byte) []trace.Var {
	var out []trace.Var
	for l := range a.nloc {
		out = append(out, trace.Var{Name: a.f.Locations[l].Name, Value: a.ctext[v[l]]})
	}
	for g, gr := range a.groups {
		for b, ai := range gr.atoms {
			val := "false"
			if gr.masks[v[a.nloc+g]]>>uint(b)&1 == 1 {
				val = "true"
			}
			out = append(out, trace.Var{Name: a.m.atoms[ai].text, Value: val})
		}
	}
	for j, l := range a.initLocs {
		out = append(out, trace.Var{Name: initVar(a.f.Locations[l].Name), Value: a.ctext[v[a.initPos(j)]]})
	}
	if a.freeze {
		val := "no"
		if v[len(v)-1] == 1 {
			val = "yes"
		}
		out = append(out, trace.Var{Name: staysVar, Value: val})
	}
	return out
}

func (a *absModel) Fork() state.Model {
	b := *a
	b.buf = nil
	return &b
}

// paramsBySum calls visit with the valuations of f's parameters (the
// quotients aside) that satisfy the assumptions, by increasing sum, the
// sum at most maxSum, until visit returns false.
func paramsBySum(f *ta.File, maxSum int64, visit func(map[string]int64) bool) {
	var names []string
	for _, d := range f.Params {
		if d.Quotient == nil {
			names = append(names, d.Name)
		}
	}
	vals := make([]int64, len(names))
	var rec func(i int, left int64) bool
	rec = func(i int, left int64) bool {
		if i >= len(names)-1 {
			if len(names) > 0 {
				vals[len(names)-1] = left
			} else if left > 0 {
				return true
			}
			m := make(map[string]int64, len(names))
			for j, n := range names {
				m[n] = vals[j]
			}
			if _, err := ta.NewInstance(f, m, ta.InstanceOptions{}); err != nil {
				return true
			}
			return visit(m)
		}
		for v := int64(0); v <= left; v++ {
			vals[i] = v
			if !rec(i+1, left-v) {
				return false
			}
		}
		return true
	}
	for sum := int64(0); sum <= maxSum; sum++ {
		if !rec(0, sum) {
			return
		}
	}
}
