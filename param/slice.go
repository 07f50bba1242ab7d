package param

import (
	"fmt"

	"ftmc/ta"
)

// Slicing away the rules a reachability property does not depend on.
//
// A safety specification is violated by a finite run that reaches
// configurations where its negation's conditions hold. Call a rule
// relevant when
//   - it moves a process into a location the specification mentions, or
//     into the source of a relevant rule;
//   - it moves a process out of a location whose counter the negation
//     wants small (l == 0, l < c, a sum with a negative coefficient): there
//     the number of processes must stay exact; or
//   - it updates a shared variable that the specification or the guard of
//     a relevant rule reads.
//
// Dropping the other rules keeps the verdict. From a run of the full
// automaton drop every firing of an irrelevant rule, leaving its process
// where it was. No relevant rule leaves the target of an irrelevant one
// (its source would be relevant, and so the rule into it), so every firing
// that follows it from there is dropped too. The firings kept are
// enabled: the shared variables that relevant rules and the specification
// read are updated by relevant rules only, so they take the same values;
// and a relevant rule's source holds at least as many processes as in the
// full run, since only irrelevant moves out of it were undone and none
// into it. Every configuration of the full run so has a counterpart with
// the same shared variables, the same counters where the negation wants
// them small, and at least the counters where it wants them large: the
// negation holds at the counterparts where it held (it is monotone in
// those counters, and temporal operators keep that). Conversely every run
// of the sliced automaton is a run of the full one. Fairness is another
// matter (a process left behind may be asked to move on), so lassos are
// not sliced.
//
// The hunter, the counterexamples' replay and the report use the automaton
// as written; the schemas, the single query and the contraction the
// sliced one.

// sliced says what slicing dropped.
type sliced struct {
	Rules, Kept int
}

func (s sliced) String() string {
	return fmt.Sprintf("%d of %d rules after dropping those the specification does not depend on", s.Kept, s.Rules)
}

// sliceFor returns f without the rules the reachability specification
// spec does not depend on, and what it dropped; f and nil when it drops
// nothing or cannot read spec.
func sliceFor(f *ta.File, spec ta.Expr) (*ta.File, *sliced) {
	m, err := prepareCycles(f, true)
	if err != nil || m.reset != nil {
		return f, nil
	}
	large, exact, vars, ok := specPolarity(f, spec)
	if !ok {
		return f, nil
	}
	inL := make([]bool, m.nloc) // mentioned, or the source of a relevant rule
	for l := range inL {
		inL[l] = large[l] || exact[l]
	}
	relevant := make([]bool, len(m.rules))
	for changed := true; changed; {
		changed = false
		for i, r := range m.rules {
			if relevant[i] || r.stutter {
				continue
			}
			rel := inL[r.dst] || exact[r.src]
			for v, c := range r.inc {
				rel = rel || (c != 0 || (r.reset != nil && r.reset[v])) && vars[v]
			}
			if !rel {
				continue
			}
			relevant[i], changed = true, true
			inL[r.src] = true
			markVars(r.guard, m.atoms, vars)
		}
	}
	var rules []*ta.Rule
	for i, r := range m.rules {
		if relevant[i] || r.stutter && inL[r.src] {
			rules = append(rules, f.Rules[i])
		}
	}
	if len(rules) == len(f.Rules) {
		return f, nil
	}
	g := *f
	g.Rules = rules
	return &g, &sliced{Rules: len(f.Rules), Kept: len(rules)}
}

// markVars marks the shared variables the atoms of b read.
func markVars(b *bexpr, atoms []atom, vars []bool) {
	if b.op == 'l' {
		for v := range atoms[b.atom].shared.Coef {
			vars[v.Index] = true
		}
	}
	for _, k := range b.kids {
		markVars(k, atoms, vars)
	}
}

// specPolarity reads the negation of spec: large marks the locations
// whose counters it only wants at least something (l != 0, l >= c, in a
// sum with positive coefficients), exact those it reads otherwise, vars
// the shared variables it reads. ok is false for a form it does not know.
func specPolarity(f *ta.File, spec ta.Expr) (large, exact, vars []bool, ok bool) {
	large = make([]bool, len(f.Locations))
	exact = make([]bool, len(f.Locations))
	vars = make([]bool, len(f.Shared))
	ok = true
	// want: true where the negation wants e true, false where it wants e
	// false. A comparison outside every temporal operator reads the
	// initial configuration, which the sliced run shares.
	var walk func(e ta.Expr, want, later bool)
	walk = func(e ta.Expr, want, later bool) {
		if !ok {
			return
		}
		switch e := e.(type) {
		case *ta.BoolLit, *ta.IntLit:
		case *ta.Unary:
			switch e.Op {
			case "!":
				walk(e.X, !want, later)
			case "[]", "<>":
				walk(e.X, want, true)
			default:
				ok = false
			}
		case *ta.Binary:
			switch e.Op {
			case "&&", "||":
				walk(e.X, want, later)
				walk(e.Y, want, later)
			case "->":
				walk(e.X, !want, later)
				walk(e.Y, want, later)
			case "<", "<=", ">", ">=", "==", "!=":
				if later {
					cmpPolarity(e, want, large, exact, vars, &ok)
				}
			default:
				ok = false
			}
		default:
			ok = false
		}
	}
	walk(spec, false, false)
	for l := range large {
		large[l] = large[l] && !exact[l]
	}
	return large, exact, vars, ok
}

// cmpPolarity marks the counters and variables of the comparison e, which
// the negation wants true (want) or false.
func cmpPolarity(e *ta.Binary, want bool, large, exact, vars []bool, ok *bool) {
	d, err := ta.Linear(&ta.Binary{Pos: e.Pos, Op: "-", X: e.X, Y: e.Y})
	if err != nil {
		*ok = false
		return
	}
	op := e.Op
	// A sum of counters with coefficients of one sign compared with 0 by
	// == or != is one by <= or >.
	if op == "==" || op == "!=" {
		pos, neg := 0, 0
		for v, c := range d.Coef {
			switch {
			case v.Kind != ta.Local:
				pos, neg = 1, 1
			case c > 0:
				pos++
			case c < 0:
				neg++
			}
		}
		if d.Const == 0 && (pos == 0) != (neg == 0) {
			if neg > 0 {
				d = d.Scale(-1)
			}
			op = map[string]string{"==": "<=", "!=": ">"}[op]
		}
	}
	// up: the comparison turns true as d grows.
	var up, both bool
	switch op {
	case ">", ">=":
		up = true
	case "<", "<=":
	default:
		both = true
	}
	if !want {
		up = !up
	}
	for v, c := range d.Coef {
		switch v.Kind {
		case ta.Shared:
			vars[v.Index] = true
		case ta.Local:
			if !both && up == (c > 0) {
				large[v.Index] = true
			} else {
				exact[v.Index] = true
			}
		case ta.Param:
		default:
			*ok = false
		}
	}
}

// Rules that the specification forbids.
//
// A disjunct of a negated liveness specification often keeps locations
// empty from the start: nontriv's [](all_not_suspicious) in ByMC's
// non-blocking atomic commitment says that no process is ever in a
// location where it suspects another. A run that satisfies the disjunct
// fires no rule into or out of such a location: firing one into it fills
// it, and one out of it needs a process there. When every disjunct keeps
// a location empty, dropping the rules that touch it leaves exactly the
// runs that may violate the specification; and where those rules closed
// the automaton's cycles (the failure detector's suspicions, which come
// and go), the rest is acyclic and the lasso schemas apply.

// forbidFor returns f without the rules into or out of the locations that
// the root G conditions of every disjunct in lcs keep empty, and how many
// it dropped; f and 0 when it drops none.
func forbidFor(f *ta.File, lcs []*lcase) (*ta.File, int) {
	var empty []bool
	for _, lc := range lcs {
		z := make([]bool, len(f.Locations))
		for _, g := range lc.root.gs {
			zeroIn(g, z)
		}
		if empty == nil {
			empty = z
			continue
		}
		for l := range empty {
			empty[l] = empty[l] && z[l]
		}
	}
	var rules []*ta.Rule
	for _, r := range f.Rules {
		if empty == nil || !empty[r.Src] && !empty[r.Dst] {
			rules = append(rules, r)
		}
	}
	if len(rules) == len(f.Rules) {
		return f, 0
	}
	g := *f
	g.Rules = rules
	return &g, len(f.Rules) - len(rules)
}

// zeroIn marks in z the locations that the state condition e keeps empty
// wherever it holds: those of its clauses in conjunctive normal form (cnf,
// as the G conditions are read) that are a single literal l == 0, or more
// generally a sum of counters with positive coefficients bounded by 0.
func zeroIn(e ta.Expr, z []bool) {
	cl, ok := cnf(e, false)
	if !ok {
		return
	}
	for _, c := range cl {
		if len(c) != 1 {
			continue
		}
		op := c[0].e.Op
		if c[0].neg {
			op = negCmp[op]
		}
		// The literal as d <= bound, for d linear.
		var sign, bound int64
		switch op {
		case "==", "<=":
			sign, bound = 1, 0
		case "<":
			sign, bound = 1, -1
		case ">=":
			sign, bound = -1, 0
		case ">":
			sign, bound = -1, -1
		default:
			continue
		}
		d, err := ta.Linear(&ta.Binary{Pos: c[0].e.Pos, Op: "-", X: c[0].e.X, Y: c[0].e.Y})
		if err != nil {
			continue
		}
		d = d.Scale(sign)
		// sum c_l * k_l <= bound - const with every c_l > 0 and the
		// right side at most 0: every k_l is 0.
		if bound-d.Const > 0 || len(d.Coef) == 0 {
			continue
		}
		positive := true
		for v, k := range d.Coef {
			positive = positive && v.Kind == ta.Local && k > 0
		}
		if positive {
			for v := range d.Coef {
				z[v.Index] = true
			}
		}
	}
}
