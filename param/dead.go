package param

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"ftmc/smt"
	"ftmc/ta"
)

// Dropping the rules that no run fires.
//
// Every process follows a path of the automaton's rules, and the shared
// variables only grow. Take a sum S of shared variables (non-negative
// coefficients) and let mx_l be the most that S grows along a path from
// location l (rule by rule, by the rule's increments). The processes that
// start at l add at most mx_l each, so every reachable configuration has
// S <= S_0 + sum_l mx_l * k_l(0), where S_0 and k_l(0) are the initial
// configuration's. A guard that needs the atoms S_1 >= b_1, ..., S_j >= b_j
// together needs S_1 + ... + S_j >= b_1 + ... + b_j; when no initial
// configuration that the assumptions and the initial conditions allow
// leaves room for that, its rule never fires, in any run. Dropping it keeps
// every run, finite or infinite, and every configuration, so every verdict:
// the schemas, the lassos, the single query and the contraction then see an
// automaton without it. A rule whose guard is false goes the same way, and
// so do the rules out of a location that only dropped rules enter and no
// initial configuration occupies.
//
// In the automata ByMC derives from Promela a process sends one of two
// messages once, and a receive step that wants more than N messages of
// both kinds together is written out all the same: in cc_case3, 2,540 of
// 6,928 rules want N - T of each, or MAJ of each, or one and the other.
//
// mx_l is read off the acyclic automaton (self-loops aside); a self-loop
// that grows S makes mx_l unbounded, and an automaton whose rules form
// cycles is left as it is.

// deadMinRules is the fewest rules for which the rules that no run fires
// are looked for: in a smaller automaton the solver's round trip costs
// more than such rules do (none of ByMC's or TACO's automata with fewer
// than 42 rules has one).
const deadMinRules = 32

// maxDeadAtoms bounds the atoms of a guard whose every subset is tried;
// a guard with more is tried by single atoms and pairs.
const maxDeadAtoms = 4

// deadRules says what dropping the rules no run fires did.
type deadRules struct {
	Rules, Kept int
}

func (d deadRules) String() string {
	return fmt.Sprintf("%d of %d rules after dropping those that no run fires", d.Kept, d.Rules)
}

// deadFor returns f without the rules that no run fires, and what it
// dropped; f and nil when it drops none or cannot read f.
func deadFor(ctx context.Context, f *ta.File, sopts smt.Options) (*ta.File, *deadRules, error) {
	if len(f.Rules) < deadMinRules {
		return f, nil, nil
	}
	lastDead.Lock()
	if lastDead.f == f && lastDead.solver == sopts.Name {
		g, info := lastDead.g, lastDead.info
		lastDead.Unlock()
		return g, info, nil
	}
	lastDead.Unlock()
	g, info, err := dropNeverFired(ctx, f, sopts)
	if err == nil {
		lastDead.Lock()
		lastDead.f, lastDead.solver, lastDead.g, lastDead.info = f, sopts.Name, g, info
		lastDead.Unlock()
	}
	return g, info, err
}

// lastDead is deadFor's last answer: the specifications of one automaton
// are verified one after another (ftmc verify FILE all), and the rules
// no run fires do not depend on the specification.
var lastDead struct {
	sync.Mutex
	f, g   *ta.File
	solver string
	info   *deadRules
}

// dropNeverFired is deadFor whatever the number of rules.
func dropNeverFired(ctx context.Context, f *ta.File, sopts smt.Options) (*ta.File, *deadRules, error) {
	m, err := prepareCycles(f, true)
	if err != nil || m.reset != nil || m.cycle != nil {
		return f, nil, nil
	}
	// The keys of the sets of atoms each rule's guard needs together.
	keys := make([][]string, len(m.rules))
	var sets [][]int
	seen := map[string]bool{}
	for i, r := range m.rules {
		for _, sub := range atomSubsets(positiveAtoms(r.guard)) {
			k := atomSetKey(sub)
			keys[i] = append(keys[i], k)
			if !seen[k] {
				seen[k] = true
				sets = append(sets, sub)
			}
		}
	}
	never, err := m.neverTogether(ctx, sets, sopts)
	if err != nil {
		return f, nil, err
	}
	var live []int
	for i, r := range m.rules {
		if r.guard.op != 'f' && !slices.ContainsFunc(keys[i], func(k string) bool { return never[k] }) {
			live = append(live, i)
		}
	}
	// A location that no rule left enters, and that is empty initially,
	// stays empty: the rules out of it go too.
	live = dropUnentered(live, func(i int) (int, int) { return m.rules[i].src, m.rules[i].dst }, initOccupied(f), m.nloc)
	var rules []*ta.Rule
	for _, i := range live {
		rules = append(rules, f.Rules[i])
	}
	if len(rules) == len(f.Rules) {
		return f, nil, nil
	}
	g := *f
	g.Rules = rules
	return &g, &deadRules{Rules: len(f.Rules), Kept: len(rules)}, nil
}

// positiveAtoms returns the atoms that b needs true, sorted: its
// positive literals, and those of the conjuncts of a conjunction.
func positiveAtoms(b *bexpr) []int {
	var as []int
	var walk func(b *bexpr)
	walk = func(b *bexpr) {
		switch b.op {
		case 'l':
			if b.pos {
				as = append(as, b.atom)
			}
		case 'a':
			for _, k := range b.kids {
				walk(k)
			}
		}
	}
	walk(b)
	slices.Sort(as)
	return slices.Compact(as)
}

// atomSubsets returns the non-empty subsets of as: all of them for at
// most maxDeadAtoms atoms, the single atoms and the pairs for more.
func atomSubsets(as []int) [][]int {
	var subs [][]int
	if len(as) <= maxDeadAtoms {
		for bits := 1; bits < 1<<len(as); bits++ {
			var sub []int
			for i, a := range as {
				if bits&(1<<i) != 0 {
					sub = append(sub, a)
				}
			}
			subs = append(subs, sub)
		}
		return subs
	}
	for i, a := range as {
		subs = append(subs, []int{a})
		for _, b := range as[i+1:] {
			subs = append(subs, []int{a, b})
		}
	}
	return subs
}

func atomSetKey(as []int) string {
	var b strings.Builder
	for _, a := range as {
		b.WriteString(strconv.Itoa(a))
		b.WriteByte(',')
	}
	return b.String()
}

// maxGrowth bounds mx_l: a larger growth counts as unbounded.
const maxGrowth = 1 << 40

// growth returns, for each location l, the most that the sum s of shared
// variables grows along a path from l, and whether that is unbounded (a
// self-loop on the way grows s). The model must be acyclic (m.order).
func (m *model) growth(s ta.Lin) (mx []int64, unbounded []bool) {
	mx = make([]int64, m.nloc)
	unbounded = make([]bool, m.nloc)
	coef := make([]int64, m.nsh)
	for v, c := range s.Coef {
		coef[v.Index] = c
	}
	// m.order lists the rules by the rank of their sources: backwards,
	// every rule out of a rule's target comes first.
	for i := len(m.order) - 1; i >= 0; i-- {
		r := m.rules[m.order[i]]
		var g int64
		for v, c := range coef {
			switch d := r.inc[v]; {
			case c == 0 || d == 0:
			case c > (maxGrowth+1)/d:
				g = maxGrowth + 1
			default:
				g = min(g+c*d, maxGrowth+1)
			}
		}
		if r.src == r.dst {
			unbounded[r.src] = unbounded[r.src] || g > 0
			continue
		}
		if unbounded[r.dst] || g+mx[r.dst] > maxGrowth {
			unbounded[r.src] = true
			continue
		}
		mx[r.src] = max(mx[r.src], g+mx[r.dst])
	}
	return mx, unbounded
}

// neverTogether asks, for each set of atoms, whether some reachable
// configuration may satisfy them all by the bound above; the keys of
// those that none may are true in the map. Each query is unsat when the
// set never holds: the verdicts rest on these answers.
func (m *model) neverTogether(ctx context.Context, sets [][]int, sopts smt.Options) (map[string]bool, error) {
	never := map[string]bool{}
	if len(sets) == 0 {
		return never, nil
	}
	p := &problem{m: m}
	base, err := p.base()
	if err != nil {
		return nil, err
	}
	t0 := stateNames("t0")
	cmds := append(base, p.declareState(t0)...)
	for l := 0; l < m.nloc; l++ {
		cmds = assertAll(cmds, smt.App(">=", t0.k(l), "0"))
	}
	for v := 0; v < m.nsh; v++ {
		cmds = assertAll(cmds, smt.App(">=", t0.x(v), "0"))
	}
	for _, e := range m.f.Inits {
		// An initial condition that is not linear is left out: the
		// initial configurations are then more, never fewer.
		if t, err := exprTerm(e, t0); err == nil {
			cmds = assertAll(cmds, t)
		}
	}
	terms := make([]string, len(sets))
	for i, set := range sets {
		var sum, bound ta.Lin
		for _, a := range set {
			sum = sum.Add(m.atoms[a].shared)
			bound = bound.Add(m.atoms[a].bound)
		}
		mx, unbounded := m.growth(sum)
		most := []string{linTerm(sum, t0)}
		var or []string
		for l := 0; l < m.nloc; l++ {
			switch {
			case unbounded[l]:
				or = append(or, smt.App(">=", t0.k(l), "1"))
			case mx[l] > 0:
				most = append(most, smt.Times(mx[l], t0.k(l)))
			}
		}
		or = append(or, smt.App(">=", smt.Sum(most...), linTerm(bound, "")))
		terms[i] = smt.Or(or...)
	}
	s, err := smt.New(ctx, sopts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	s.Push()
	defer s.Pop(1)
	s.Send(cmds...)
	sts, err := smt.CheckEach(ctx, s, terms)
	if err != nil {
		return nil, err
	}
	for i, set := range sets {
		if sts[i] == smt.Unsat {
			never[atomSetKey(set)] = true
		}
	}
	return never, nil
}
