package param

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"ftmc/smt"
	"ftmc/ta"
)

// Contraction of moves a reachability property cannot observe.
//
// A rule is internal to a specification when it moves a process between two
// locations the specification does not mention, changes no shared variable,
// and has a guard that can only turn from false to true (threshold atoms
// x >= e, joined by && and ||, and comparisons of parameters). Such a move
// can be postponed until the process's next other move: the guards it
// needed still hold then, and nobody can tell the difference, because the
// shared variables are the same and the locations are not observed. So each
// other rule out of a location l is replaced by rules out of every entry
// location a from which l is reached by internal rules, guarded by the
// guards of the internal path and its own, and the internal rules go. A
// location entered only by internal rules, and empty initially, is then
// never occupied and goes too. The contracted automaton has the same
// reachable configurations as the original, restricted to the observed
// locations and the shared variables; so a reachability (safety)
// specification has the same verdict on both. PIA abstractions of receive
// steps are where this pays: a process that receives messages one at a time
// moves through dozens of abstract local states no specification mentions.
//
// Locations need not be unmentioned: a move between two locations that
// every comparison of the specification weighs alike (both in one sum, say)
// is internal too.
//
// A liveness specification F -> S, where the fairness F is a conjunction of
// [](<>(C)) and each C says of single locations l == 0 || p (p over shared
// variables and parameters: "a process here has received every message"),
// is contracted the same way, with S as what is observed. The configuration
// a lasso repeats stays the same all along its loop (the only cycles are
// self-loops), so F only asks something of the processes that stay forever:
// the process at an entry a stands for one that stays at any location its
// postponed moves reach, so a == 0 || (path guard && p) for one of them
// replaces the conditions of the locations it reaches, and the stuttering
// there becomes a self-loop of a guarded the same way. This is exact. With
// Options.Overapprox, locations that differ only in those stay conditions
// and stuttering are merged as well (mergeStays): that over-approximates the
// lassos, for callers that confirm every violation on the concrete system.
//
// A combined rule is named by the rules it stands for, joined by "+", so a
// counterexample shows the internal moves a process makes just before its
// move.

// maxContractSets bounds the path guards kept while contracting.
const maxContractSets = 200_000

type contraction struct {
	ctx    context.Context
	f      *ta.File
	m      *model
	solver smt.Solver
	err    error

	conjKey  []string  // conjunct id -> key
	conjExpr []ta.Expr // conjunct id -> expression
	conjB    []*bexpr  // conjunct id -> compiled
	conjIdx  map[string]int
	impl     map[[2]int]bool // [a, b]: conjunct a implies conjunct b
	boundGeq map[string]bool
}

// contracted describes what contract did, for the report.
type contracted struct {
	// Over says that locations were merged that a lasso can tell apart:
	// the contracted automaton over-approximates the original's lassos.
	Over                   bool
	Locations, Rules       int // before
	NewLocations, NewRules int // after
	// Merged maps each location merged into another to the one that
	// stands for both.
	Merged map[string]string
}

func (c contracted) String() string {
	s := fmt.Sprintf("%d of %d locations and %d of %d rules after contracting the moves the specification cannot observe", c.NewLocations, c.Locations, c.NewRules, c.Rules)
	if c.Over {
		s += " and merging the locations that differ only in what fairness asks of a process that stays (an over-approximation: a counterexample is confirmed on the concrete system)"
	}
	return s
}

// contract returns f with the moves internal to the specification spec
// contracted, and what it did; f itself when nothing contracts or the
// contraction would grow too large.
func contract(ctx context.Context, f *ta.File, spec ta.Expr, sopts smt.Options) (*ta.File, *contracted, error) {
	g, _, info, err := contractFor(ctx, f, spec, false, false, sopts)
	return g, info, err
}

// contractFor is contract for a specification whose counterexamples are
// lassos when lasso is set: it also returns the specification to check on
// the contracted automaton (spec itself when nothing contracts).
func contractFor(ctx context.Context, f *ta.File, spec ta.Expr, lasso, overApprox bool, sopts smt.Options) (*ta.File, ta.Expr, *contracted, error) {
	// Internal moves are postponed along paths, cycles or not: a path that
	// goes round a cycle needs the guards of the path without it, and
	// more. A lasso may go round for ever, so its automaton must be
	// acyclic from the start.
	m, err := prepareCycles(f, !lasso)
	if err != nil || m.reset != nil {
		return f, spec, nil, nil // the search reports it
	}
	var fair *fairSplit
	if lasso {
		fair = splitFairness(spec)
	} else {
		fair = &fairSplit{rest: spec}
	}
	// Two locations the specification weighs alike in every comparison
	// (both unmentioned, say, or both in one sum) cannot be told apart.
	sig := observedSignature(f, fair.rest)
	// A location with a self-loop that updates shared variables is kept
	// as it is: a process there is seen by the update.
	fixed := make([]bool, m.nloc)
	for _, r := range m.rules {
		if r.src == r.dst && !r.stutter {
			fixed[r.src] = true
		}
	}
	internal := make([]bool, len(m.rules))
	some := false
	for i, r := range m.rules {
		internal[i] = !r.stutter && r.src != r.dst && sig[r.src] == sig[r.dst] && !fixed[r.src] && !fixed[r.dst] && zeroInc(r.inc) && rising(r.guard)
		some = some || internal[i]
	}
	if !some {
		return f, spec, nil, nil
	}
	c := &contraction{ctx: ctx, f: f, m: m, conjIdx: map[string]int{}, impl: map[[2]int]bool{}, boundGeq: map[string]bool{}}
	s, err := smt.New(ctx, sopts)
	if err != nil {
		return nil, nil, nil, err
	}
	defer s.Close()
	c.solver = s
	base, err := (&problem{m: m}).base()
	if err != nil {
		return nil, nil, nil, err
	}
	s.Send(base...)

	ruleConj := make([][]int, len(m.rules))
	for i, r := range m.rules {
		ruleConj[i] = c.conjuncts(r.r.Guard)
	}
	maybeInit := initOccupied(f)
	// The entries: locations a process can be in without having moved
	// there internally.
	entry := make([]bool, m.nloc)
	for l := range entry {
		entry[l] = maybeInit[l]
	}
	for i, r := range m.rules {
		if !internal[i] && !r.stutter {
			entry[r.dst] = true
		}
	}
	out := make([][]int, m.nloc)
	for i, r := range m.rules {
		out[r.src] = append(out[r.src], i)
	}
	// What the fairness asks of a process that stays in a location
	// forever: its conjuncts, or never.
	stayConj := make([][]int, m.nloc)
	never := make([]bool, m.nloc)
	for l, ps := range fair.perLoc {
		for _, p := range ps {
			if b, ok := p.(*ta.BoolLit); ok && !b.Val {
				never[l] = true
			}
			stayConj[l] = union(stayConj[l], c.conjuncts(p))
		}
	}
	// stay[a]: the weakest guards under which a process at the entry a
	// may stay forever where its postponed moves lead.
	stay := make([][]guarded, m.nloc)
	var rules []crule
	sets := 0
	for a := 0; a < m.nloc; a++ {
		if !entry[a] {
			continue
		}
		// The internal paths from a, with their guards: for each location,
		// the guards that no other path's guard implies.
		reach := map[int][]guarded{a: {{}}}
		queue := []int{a}
		for len(queue) > 0 {
			l := queue[0]
			queue = queue[1:]
			for _, p := range reach[l] {
				for _, ri := range out[l] {
					if !internal[ri] {
						continue
					}
					r := m.rules[ri]
					np := guarded{guard: c.reduce(union(p.guard, ruleConj[ri])), rules: append(slices.Clip(p.rules), ri)}
					if c.err != nil {
						return nil, nil, nil, c.err
					}
					var added bool
					if reach[r.dst], added = c.addWeakest(reach[r.dst], np); !added {
						continue
					}
					sets++
					if sets > maxContractSets {
						return f, spec, nil, nil
					}
					if !slices.Contains(queue, r.dst) {
						queue = append(queue, r.dst)
					}
				}
			}
		}
		// Every other rule out of a reached location becomes a rule out of
		// a; of the rules to the same location with the same update, only
		// those whose guard no other's implies are kept.
		groups := map[string][]guarded{}
		var keys []string
		locs := make([]int, 0, len(reach))
		for l := range reach {
			locs = append(locs, l)
		}
		sort.Ints(locs)
		for _, l := range locs {
			for _, p := range reach[l] {
				if lasso && !never[l] {
					stay[a], _ = c.addWeakest(stay[a], guarded{guard: c.reduce(union(p.guard, stayConj[l])), rules: p.rules})
				}
				for _, ri := range out[l] {
					r := m.rules[ri]
					if internal[ri] || r.stutter && (!lasso || never[l]) {
						continue
					}
					guard := union(p.guard, ruleConj[ri])
					if r.stutter {
						// The process that keeps the lasso going stays
						// too: fairness asks the same of it.
						guard = union(guard, stayConj[l])
					}
					g := guarded{guard: c.reduce(guard), rules: append(slices.Clip(p.rules), ri)}
					if c.err != nil {
						return nil, nil, nil, c.err
					}
					key := fmt.Sprint(r.dst, r.inc)
					if r.stutter {
						key = fmt.Sprint(a, r.inc)
					}
					if groups[key] == nil {
						keys = append(keys, key)
					}
					groups[key], _ = c.addWeakest(groups[key], g)
				}
			}
		}
		for _, k := range keys {
			for _, cd := range groups[k] {
				last := m.rules[cd.rules[len(cd.rules)-1]]
				dst := last.dst
				if last.stutter {
					dst = a
				}
				rules = append(rules, crule{src: a, dst: dst, inc: fmt.Sprint(last.inc), guard: cd.guard, ids: cd.rules})
			}
		}
	}
	rules = dropUnentered(rules, func(r crule) (int, int) { return r.src, r.dst }, maybeInit, m.nloc)
	obs := slices.Clone(sig)
	for l := range obs {
		if maybeInit[l] {
			obs[l] += fmt.Sprint(",init", l)
		}
	}
	over := false
	if lasso && overApprox {
		// Locations that differ only in what the fairness asks of a
		// process that stays, and in the stuttering that keeps it there,
		// stand for each other (an over-approximation).
		rules, over = c.mergeStays(rules, obs, stay)
	}
	if lasso {
		for l := range obs {
			obs[l] += fmt.Sprint(",stay", stayKey(stay[l]))
		}
	}
	rules, rep := c.quotient(rules, obs)
	if c.err != nil {
		return nil, nil, nil, c.err
	}
	live := map[int]bool{}
	for l := range maybeInit {
		if maybeInit[l] {
			live[l] = true
		}
	}
	var out2 []*ta.Rule
	for _, r := range rules {
		live[r.src], live[r.dst] = true, true
		out2 = append(out2, c.rule(r))
	}
	nf := *f
	nf.Rules = out2
	merged := map[string]string{}
	for l, r := range rep {
		if r != l {
			merged[f.Locations[l].Name] = f.Locations[r].Name
		}
	}
	nspec := spec
	if lasso && fair.split {
		var stays []int
		for l := range live {
			if rep[l] == l && entry[l] {
				stays = append(stays, l)
			}
		}
		sort.Ints(stays)
		nspec = c.fairSpec(spec.Position(), fair, stays, stay)
	}
	return &nf, nspec, &contracted{Over: over, Locations: m.nloc, Rules: len(f.Rules), NewLocations: len(live), NewRules: len(out2), Merged: merged}, nil
}

// guarded is a sequence of rules (their indices) with the conjuncts of
// their guards (sorted ids, none implied by another).
type guarded struct {
	guard []int
	rules []int
}

// addWeakest adds g to gs, a set of sequences none of whose guards
// implies another's, unless the guard of one of them is implied by g's;
// it drops those whose guard implies g's.
func (c *contraction) addWeakest(gs []guarded, g guarded) ([]guarded, bool) {
	if slices.ContainsFunc(gs, func(q guarded) bool { return c.weaker(q.guard, g.guard) }) {
		return gs, false
	}
	gs = slices.DeleteFunc(gs, func(q guarded) bool { return c.weaker(g.guard, q.guard) })
	return append(gs, g), true
}

// crule is a rule of the contracted automaton: it moves a process from
// src to dst with the update of the last of the rules ids.
type crule struct {
	src, dst int
	inc      string
	guard    []int
	ids      []int
}

// dropUnentered drops the rules out of locations no rule enters and that
// are empty initially: they stay empty. ends gives a rule's source and
// target.
func dropUnentered[R any](rules []R, ends func(R) (src, dst int), maybeInit []bool, nloc int) []R {
	for {
		entered := make([]bool, nloc)
		for _, r := range rules {
			if src, dst := ends(r); src != dst {
				entered[dst] = true
			}
		}
		n := len(rules)
		rules = slices.DeleteFunc(rules, func(r R) bool {
			src, _ := ends(r)
			return !entered[src] && !maybeInit[src]
		})
		if len(rules) == n {
			return rules
		}
	}
}

// quotient merges the locations that neither the specification nor the
// initial conditions tell apart and whose rules agree (the coarsest
// bisimulation): a rule into a merged location goes to its first member,
// whose counter then stands for all of them, and the others keep no rules
// and stay empty; it returns the rules and the member that stands for
// each location. obs gives each location's observation: locations with
// different observations are never merged. Among the rules from one
// location to one class with one update, only those whose guard no
// other's implies are kept.
func (c *contraction) quotient(rules []crule, obs []string) ([]crule, []int) {
	n := len(obs)
	class := make([]int, n)
	ids := map[string]int{}
	for l, o := range obs {
		if _, ok := ids[o]; !ok {
			ids[o] = len(ids)
		}
		class[l] = ids[o]
	}
	from := make([][]int, n)
	for i, r := range rules {
		from[r.src] = append(from[r.src], i)
	}
	// the rules of l, grouped by the class of their target and their
	// update, without those another of the group implies
	reduced := func(l int) []int {
		var keep []int
		for _, i := range from[l] {
			r := rules[i]
			dominated := false
			for _, j := range from[l] {
				q := rules[j]
				if i == j || class[q.dst] != class[r.dst] || q.inc != r.inc || !c.weaker(q.guard, r.guard) {
					continue
				}
				if !c.weaker(r.guard, q.guard) || j < i {
					dominated = true
					break
				}
			}
			if !dominated {
				keep = append(keep, i)
			}
		}
		return keep
	}
	count := len(ids)
	for {
		sigs := map[string]int{}
		next := make([]int, n)
		for l := 0; l < n; l++ {
			var parts []string
			for _, i := range reduced(l) {
				r := rules[i]
				parts = append(parts, fmt.Sprint(class[r.dst], "|", r.inc, "|", r.guard))
			}
			slices.Sort(parts)
			sig := fmt.Sprint(class[l], "#", strings.Join(slices.Compact(parts), ";"))
			if _, ok := sigs[sig]; !ok {
				sigs[sig] = len(sigs)
			}
			next[l] = sigs[sig]
		}
		class = next
		if len(sigs) == count {
			break
		}
		count = len(sigs)
	}
	rep := make([]int, count)
	for i := range rep {
		rep[i] = -1
	}
	// A class is named by a member some rule enters, if any.
	entered := make([]bool, n)
	for _, r := range rules {
		entered[r.dst] = true
	}
	for l := 0; l < n; l++ {
		if k := class[l]; rep[k] < 0 || entered[l] && !entered[rep[k]] {
			rep[k] = l
		}
	}
	var out []crule
	seen := map[string]bool{}
	for l := 0; l < n; l++ {
		if rep[class[l]] != l {
			continue
		}
		for _, i := range reduced(l) {
			r := rules[i]
			r.dst = rep[class[r.dst]]
			key := fmt.Sprint(r.src, "|", r.dst, "|", r.inc, "|", r.guard)
			if !seen[key] {
				seen[key] = true
				out = append(out, r)
			}
		}
	}
	reps := make([]int, n)
	for l := range reps {
		reps[l] = rep[class[l]]
	}
	return out, reps
}

// observedSignature describes what the specification sees of each
// location: its coefficient in each comparison of the specification (the
// location itself, for one that is not linear). Moving a process between
// two locations with the same signature changes no comparison.
func observedSignature(f *ta.File, spec ta.Expr) []string {
	parts := make([][]string, len(f.Locations))
	n := 0
	var walk func(e ta.Expr)
	walk = func(e ta.Expr) {
		switch e := e.(type) {
		case *ta.Unary:
			walk(e.X)
		case *ta.Binary:
			switch e.Op {
			case "==", "!=", "<", "<=", ">", ">=":
				n++
				d, err := ta.Linear(&ta.Binary{Pos: e.Pos, Op: "-", X: e.X, Y: e.Y})
				if err != nil {
					for l, o := range observedLocations(f, e) {
						if o {
							parts[l] = append(parts[l], fmt.Sprint("own", l))
						}
					}
					return
				}
				for v, k := range d.Coef {
					if v.Kind == ta.Local {
						parts[v.Index] = append(parts[v.Index], fmt.Sprint(n, ":", k))
					}
				}
			case "||", "&&":
				// A disjunction of l != 0 tells no more than whether their
				// sum is zero, and so does a conjunction of l == 0.
				kids := flatten(e, e.Op)
				n++
				group := n
				for _, k := range kids {
					if l, nonzero, ok := zeroTest(k); ok && nonzero == (e.Op == "||") {
						parts[l] = append(parts[l], fmt.Sprint(group, ":sum"))
					} else {
						walk(k)
					}
				}
			default:
				walk(e.X)
				walk(e.Y)
			}
		}
	}
	walk(spec)
	out := make([]string, len(parts))
	for l, p := range parts {
		out[l] = strings.Join(p, ",")
	}
	return out
}

// rule builds the rule of the automaton for r.
func (c *contraction) rule(r crule) *ta.Rule {
	last := c.m.rules[r.ids[len(r.ids)-1]].r
	var names []string
	for _, i := range r.ids {
		names = append(names, c.m.rules[i].r.ID)
	}
	g := c.conjExprOf(r.guard)
	return &ta.Rule{
		Pos: last.Pos, ID: strings.Join(names, "+"),
		From: c.f.Locations[r.src].Name, FromPos: last.FromPos, To: c.f.Locations[r.dst].Name, ToPos: last.ToPos,
		Guard: g, Updates: last.Updates, Unchanged: last.Unchanged,
		Src: r.src, Dst: r.dst,
	}
}

// conjuncts splits a guard at its top-level && into conjunct ids.
func (c *contraction) conjuncts(e ta.Expr) []int {
	var ids []int
	var walk func(e ta.Expr)
	walk = func(e ta.Expr) {
		if b, ok := e.(*ta.Binary); ok && b.Op == "&&" {
			walk(b.X)
			walk(b.Y)
			return
		}
		if b, ok := e.(*ta.BoolLit); ok && b.Val {
			return
		}
		key := e.String()
		id, ok := c.conjIdx[key]
		if !ok {
			id = len(c.conjKey)
			c.conjIdx[key] = id
			c.conjKey = append(c.conjKey, key)
			c.conjExpr = append(c.conjExpr, e)
			b, err := c.m.compileGuard(e)
			if err != nil {
				b = nil
			}
			c.conjB = append(c.conjB, b)
		}
		ids = append(ids, id)
	}
	walk(e)
	slices.Sort(ids)
	return slices.Compact(ids)
}

func union(a, b []int) []int {
	u := append(slices.Clip(a), b...)
	slices.Sort(u)
	return slices.Compact(u)
}

// reduce drops the conjuncts of g that another conjunct of g implies.
func (c *contraction) reduce(g []int) []int {
	out := g[:0:0]
	for i, x := range g {
		implied := false
		for j, y := range g {
			if i != j && c.implies(y, x) && !(c.implies(x, y) && j > i) {
				implied = true
				break
			}
		}
		if !implied {
			out = append(out, x)
		}
	}
	return out
}

// weaker reports whether the conjunction a is implied by the conjunction
// b: every conjunct of a is implied by one of b.
func (c *contraction) weaker(a, b []int) bool {
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y int) bool { return c.implies(y, x) }) {
			return false
		}
	}
	return true
}

// implies reports whether conjunct a implies conjunct b, as far as it can
// tell cheaply: the same conjunct, or two threshold atoms sum(u*x) >= e
// and sum(v*x) >= e' with u <= v coefficientwise (on non-negative shared
// variables) and e >= e' under the assumptions.
func (c *contraction) implies(a, b int) bool {
	if a == b {
		return true
	}
	if v, ok := c.impl[[2]int{a, b}]; ok {
		return v
	}
	ba, bb := c.conjB[a], c.conjB[b]
	res := false
	if ba != nil && bb != nil && ba.op == 'l' && bb.op == 'l' && ba.pos && bb.pos {
		x, y := c.m.atoms[ba.atom], c.m.atoms[bb.atom]
		res = true
		// sum(v*x) >= sum(u*x) >= e >= e' when v >= u coefficientwise
		for v, k := range x.shared.Coef {
			if y.shared.Coef[v] < k {
				res = false
			}
		}
		res = res && c.geq(x.bound, y.bound)
	}
	c.impl[[2]int{a, b}] = res
	return res
}

// geq reports whether the assumptions imply x >= y over the parameters.
func (c *contraction) geq(x, y ta.Lin) bool {
	d := x.Add(y.Scale(-1))
	key := d.Key()
	if v, ok := c.boundGeq[key]; ok {
		return v
	}
	res := false
	if len(d.Coef) == 0 {
		res = d.Const >= 0
	} else if c.err == nil {
		c.solver.Push()
		c.solver.Assert(smt.Not(smt.App(">=", linTerm(d, ""), "0")))
		st, err := c.solver.Check(c.ctx)
		c.solver.Pop(1)
		if err != nil {
			c.err = err
		}
		res = st == smt.Unsat
	}
	c.boundGeq[key] = res
	return res
}

func zeroInc(inc []int64) bool {
	for _, v := range inc {
		if v != 0 {
			return false
		}
	}
	return true
}

// rising reports whether a guard can only turn from false to true: no
// negated threshold atom.
func rising(b *bexpr) bool {
	switch b.op {
	case 'l':
		return b.pos
	case 'a', 'o':
		for _, k := range b.kids {
			if !rising(k) {
				return false
			}
		}
	}
	return true
}

// initOccupied marks the locations the initial conditions do not force
// to be empty (a conjunct loc == 0, or another form zeroTest reads).
func initOccupied(f *ta.File) []bool {
	occ := make([]bool, len(f.Locations))
	for i := range occ {
		occ[i] = true
	}
	var walk func(e ta.Expr)
	walk = func(e ta.Expr) {
		b, ok := e.(*ta.Binary)
		if !ok {
			return
		}
		if b.Op == "&&" {
			walk(b.X)
			walk(b.Y)
		} else if l, nonzero, ok := zeroTest(b); ok && !nonzero {
			occ[l] = false
		}
	}
	for _, e := range f.Inits {
		walk(e)
	}
	return occ
}

// observedLocations marks the locations whose counters e mentions.
func observedLocations(f *ta.File, e ta.Expr) []bool {
	obs := make([]bool, len(f.Locations))
	var walk func(e ta.Expr)
	walk = func(e ta.Expr) {
		switch e := e.(type) {
		case *ta.Ident:
			if e.Kind == ta.Local {
				obs[e.Index] = true
			}
		case *ta.Unary:
			walk(e.X)
		case *ta.Binary:
			walk(e.X)
			walk(e.Y)
		}
	}
	walk(e)
	return obs
}

// zeroTest reads the comparison e as l == 0 (nonzero false) or l != 0
// (nonzero true) for a location counter l, in the forms counterLit
// knows (l >= 1, 0 == l, ...).
func zeroTest(e ta.Expr) (l int, nonzero, ok bool) {
	b, isBin := e.(*ta.Binary)
	if !isBin || negCmp[b.Op] == "" {
		return 0, false, false
	}
	d, err := ta.Linear(&ta.Binary{Pos: b.Pos, Op: "-", X: b.X, Y: b.Y})
	if err != nil || len(d.Only(ta.Local).Coef) != 1 || len(d.Coef) != 1 {
		return 0, false, false
	}
	l, zero, ok := counterLit(d, b.Op, false)
	return l, !zero, ok
}

// fairSplit is a liveness specification F -> S read for contraction. F is
// a conjunction of [](<>(C)), and every conjunct of each C either mentions
// no location (global) or says l == 0 || p for one location l and a p
// without locations (perLoc[l] holds the p's; false for l == 0 alone). The
// configuration a lasso repeats is the same all along its loop in an
// automaton whose only cycles are self-loops, so F asks just that of it:
// every process that stays in l forever has p. When spec has another
// shape, split is false and rest is spec.
type fairSplit struct {
	split  bool
	perLoc map[int][]ta.Expr
	global []ta.Expr
	rest   ta.Expr
}

func splitFairness(spec ta.Expr) *fairSplit {
	whole := &fairSplit{rest: spec}
	imp, ok := spec.(*ta.Binary)
	if !ok || imp.Op != "->" {
		return whole
	}
	fs := &fairSplit{split: true, perLoc: map[int][]ta.Expr{}, rest: imp.Y}
	for _, gf := range flatten(imp.X, "&&") {
		g, ok := gf.(*ta.Unary)
		if !ok || g.Op != "[]" {
			return whole
		}
		f, ok := g.X.(*ta.Unary)
		if !ok || f.Op != "<>" || hasTemporal(f.X) {
			return whole
		}
		if !fs.add(f.X, false) {
			return whole
		}
	}
	return fs
}

// add reads e (negated when neg) as a conjunction of per-location
// conditions and global ones.
func (fs *fairSplit) add(e ta.Expr, neg bool) bool {
	if !ta.Mentions(e, ta.Local) {
		if neg {
			e = notExpr(e)
		}
		fs.global = append(fs.global, e)
		return true
	}
	switch x := e.(type) {
	case *ta.Unary:
		if x.Op == "!" {
			return fs.add(x.X, !neg)
		}
		return false
	case *ta.Binary:
		if x.Op == "&&" && !neg || x.Op == "||" && neg {
			return fs.add(x.X, neg) && fs.add(x.Y, neg)
		}
	}
	// a disjunction: one l == 0 and conditions without locations
	loc := -1
	var rest []ta.Expr
	for _, d := range disjuncts(e, neg) {
		if !ta.Mentions(d, ta.Local) {
			rest = append(rest, d)
			continue
		}
		l, nonzero, ok := zeroTest(d)
		if !ok {
			if u, isNot := d.(*ta.Unary); isNot && u.Op == "!" {
				l, nonzero, ok = zeroTest(u.X)
				nonzero = !nonzero
			}
		}
		if !ok || nonzero || loc >= 0 {
			return false
		}
		loc = l
	}
	if loc < 0 {
		return false
	}
	var p ta.Expr = &ta.BoolLit{Pos: e.Position(), Val: false}
	for i, r := range rest {
		if i == 0 {
			p = r
		} else {
			p = &ta.Binary{Pos: e.Position(), Op: "||", X: p, Y: r}
		}
	}
	fs.perLoc[loc] = append(fs.perLoc[loc], p)
	return true
}

// disjuncts splits e (negated when neg) at its disjunctions, pushing the
// negation inwards; a negated leaf comes back wrapped in !.
func disjuncts(e ta.Expr, neg bool) []ta.Expr {
	switch x := e.(type) {
	case *ta.Unary:
		if x.Op == "!" {
			return disjuncts(x.X, !neg)
		}
	case *ta.Binary:
		if x.Op == "||" && !neg || x.Op == "&&" && neg {
			return append(disjuncts(x.X, neg), disjuncts(x.Y, neg)...)
		}
	}
	if neg {
		return []ta.Expr{notExpr(e)}
	}
	return []ta.Expr{e}
}

func flatten(e ta.Expr, op string) []ta.Expr {
	if b, ok := e.(*ta.Binary); ok && b.Op == op {
		return append(flatten(b.X, op), flatten(b.Y, op)...)
	}
	return []ta.Expr{e}
}

// stayKey names a set of guards for the quotient.
func stayKey(gs []guarded) string {
	keys := make([]string, len(gs))
	for i, g := range gs {
		keys[i] = fmt.Sprint(g.guard)
	}
	slices.Sort(keys)
	return strings.Join(keys, "|")
}

// fairSpec is the specification on the contracted automaton:
// [](<>(global && (l == 0 || stay[l]) for each location l)) -> rest.
func (c *contraction) fairSpec(pos ta.Pos, fs *fairSplit, locs []int, stay [][]guarded) ta.Expr {
	conj := slices.Clone(fs.global)
	for _, l := range locs {
		var alts []ta.Expr
		free := false
		for _, g := range stay[l] {
			if len(g.guard) == 0 {
				free = true
				break
			}
			alts = append(alts, c.conjExprOf(g.guard))
		}
		if free {
			continue
		}
		var e ta.Expr = &ta.Binary{Pos: pos, Op: "==", X: &ta.Ident{Pos: pos, Name: c.f.Locations[l].Name, Kind: ta.Local, Index: l}, Y: &ta.IntLit{Pos: pos}}
		for _, a := range alts {
			e = &ta.Binary{Pos: pos, Op: "||", X: e, Y: a}
		}
		conj = append(conj, e)
	}
	if len(conj) == 0 {
		return fs.rest
	}
	gf := &ta.Unary{Pos: pos, Op: "[]", X: &ta.Unary{Pos: pos, Op: "<>", X: conjExpr(conj)}}
	return &ta.Binary{Pos: pos, Op: "->", X: gf, Y: fs.rest}
}

// conjExprOf is the conjunction of the conjuncts ids.
func (c *contraction) conjExprOf(ids []int) ta.Expr {
	es := make([]ta.Expr, len(ids))
	for i, id := range ids {
		es[i] = c.conjExpr[id]
	}
	return conjExpr(es)
}

// mergeStays merges the locations that are alike (by obs) and whose moves
// agree, when the stay guards and the stuttering rules are not told apart:
// each member gets the stay guards and the stuttering of all of them, so
// that the quotient then merges them. This over-approximates the lassos: a
// process in the merged location may stay there under the condition of
// another member, while every run of the automaton is still a run of the
// merged one.
func (c *contraction) mergeStays(rules []crule, obs []string, stay [][]guarded) ([]crule, bool) {
	moving := slices.DeleteFunc(slices.Clone(rules), c.stutters)
	_, rep := c.quotient(moving, obs)
	union := map[int][]guarded{}
	for l, r := range rep {
		for _, q := range stay[l] {
			union[r], _ = c.addWeakest(union[r], q)
		}
	}
	loops := map[int][]guarded{}
	byIDs := map[string]crule{}
	for _, r := range rules {
		if c.stutters(r) {
			loops[rep[r.src]], _ = c.addWeakest(loops[rep[r.src]], guarded{guard: r.guard, rules: r.ids})
			byIDs[fmt.Sprint(r.ids)] = r
		}
	}
	out := moving
	over := false
	for l, r := range rep {
		if stayKey(stay[l]) != stayKey(union[r]) {
			over = true
		}
		stay[l] = union[r]
		for _, q := range loops[r] {
			lr := byIDs[fmt.Sprint(q.rules)]
			over = over || lr.src != l
			lr.src, lr.dst = l, l
			out = append(out, lr)
		}
	}
	return out, over
}

// stutters reports whether the contracted rule r changes nothing: a
// self-loop that ends with a stuttering rule.
func (c *contraction) stutters(r crule) bool {
	return r.src == r.dst && c.m.rules[r.ids[len(r.ids)-1]].stutter
}
