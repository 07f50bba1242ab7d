package param

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"ftmc/internal/graph"
	"ftmc/smt"
	"ftmc/ta"
)

// Locations a process moves between at will.
//
// ByMC's automata from Promela model a failure detector's suspicion as a
// bit that a process may flip at any step: rules between two locations,
// both ways, that update nothing and whose guards always hold
// ((x >= 1 || x == 0) && ...). Their cycles keep the lasso schemas out.
// Call a rule free when it moves between two distinct locations, updates
// nothing, and its guard holds in every configuration; and call a set of
// locations free when free rules connect each of them to each other.
//
// Merging a free set into one of its locations, its representative, keeps
// a specification's verdict when the specification and the initial
// conditions weigh the locations of the set alike (observedSignature:
// equal coefficients in every comparison, or members of one sum tested
// for zero), and at most the representative may be occupied initially.
// The merged automaton redirects every rule into or out of a member to
// the representative and drops the rules between members. A run of the
// automaton maps to a run of the merged one: put the processes of every
// member at the representative; a free move becomes a step that changes
// nothing, another rule fires from the representative with the same
// shared variables, and every comparison of the specification sees the
// same sums. Conversely a process at the representative that fires a rule
// out of another member first moves there by free rules, which are always
// enabled and invisible. So the runs that violate the specification, lassos
// included, are the same up to those moves, and a counterexample of the
// merged automaton is one of the original with them left out.

// mergeFree returns f with its free sets merged (see above) and the map
// from each merged location's name to its representative's; f and nil
// when it merges nothing.
//
// With over set, a rule need not have a guard that always holds, only no
// updates: the suspicion of nbacr.ta comes and goes once a threshold is
// reached. The merged automaton then over-approximates: every run maps to
// one of it as above, but a process at the representative may leave by a
// rule of a member it could not have reached yet. A specification that
// holds there holds on f; a violation there proves nothing.
func mergeFree(ctx context.Context, f *ta.File, spec ta.Expr, over bool, sopts smt.Options) (*ta.File, map[string]string, error) {
	m, err := prepareCycles(f, true)
	if err != nil || m.reset != nil {
		return f, nil, nil
	}
	sig := observedSignature(f, spec)
	var inits ta.Expr
	for _, e := range f.Inits {
		if inits == nil {
			inits = e
		} else {
			inits = &ta.Binary{Pos: e.Position(), Op: "&&", X: inits, Y: e}
		}
	}
	if inits != nil {
		for l, s := range observedSignature(f, inits) {
			sig[l] += "|" + s
		}
	}
	// Candidates first, then the solver for their guards.
	var cand []int
	for i, r := range m.rules {
		if !r.stutter && r.src != r.dst && sig[r.src] == sig[r.dst] && zeroInc(r.inc) && r.reset == nil {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return f, nil, nil
	}
	// Over-approximating, every candidate is free; else those whose
	// guard the solver finds valid.
	var valid func(g ta.Expr) (bool, error)
	if over {
		valid = func(ta.Expr) (bool, error) { return true, nil }
	} else {
		s, err := smt.New(ctx, sopts)
		if err != nil {
			return nil, nil, err
		}
		defer s.Close()
		p := &problem{m: m}
		base, err := p.base()
		if err != nil {
			return nil, nil, err
		}
		s.Send(base...)
		t0 := stateNames("t0")
		s.Send(p.declareState(t0)...)
		for v := 0; v < m.nsh; v++ {
			s.Assert(smt.App(">=", t0.x(v), "0"))
		}
		always := map[string]bool{}
		valid = func(g ta.Expr) (bool, error) {
			key := g.String()
			if ok, seen := always[key]; seen {
				return ok, nil
			}
			t, err := exprTerm(g, t0)
			if err != nil {
				always[key] = false
				return false, nil
			}
			s.Push()
			s.Assert(smt.Not(t))
			st, err := s.Check(ctx)
			s.Pop(1)
			if err != nil {
				return false, err
			}
			always[key] = st == smt.Unsat
			return always[key], nil
		}
	}
	adj := make([][]int, m.nloc)
	for _, i := range cand {
		ok, err := valid(m.rules[i].r.Guard)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			adj[m.rules[i].src] = append(adj[m.rules[i].src], m.rules[i].dst)
		}
	}
	comp := graph.SCC(m.nloc, adj)
	size := map[int]int{}
	for _, c := range comp {
		size[c]++
	}
	// A set merges when at most one member may hold processes initially
	// (it represents the set), and no rule between members updates a
	// shared variable.
	occ := initOccupied(f)
	rep := make([]int, m.nloc)
	for l := range rep {
		rep[l] = -1
	}
	bad := map[int]bool{}
	for _, r := range m.rules {
		if comp[r.src] == comp[r.dst] && r.src != r.dst && (!zeroInc(r.inc) || r.reset != nil) {
			bad[comp[r.src]] = true
		}
	}
	first := map[int]int{} // component -> representative
	occupied := map[int]int{}
	for l := 0; l < m.nloc; l++ {
		c := comp[l]
		if size[c] < 2 || bad[c] {
			continue
		}
		if _, ok := first[c]; !ok {
			first[c] = l
		}
		if occ[l] {
			occupied[c]++
			first[c] = l
		}
	}
	for c, n := range occupied {
		if n > 1 {
			bad[c] = true
		}
	}
	merged := map[string]string{}
	for l := 0; l < m.nloc; l++ {
		c := comp[l]
		if r, ok := first[c]; ok && !bad[c] {
			rep[l] = r
			if r != l {
				merged[f.Locations[l].Name] = f.Locations[r].Name
			}
		}
	}
	if len(merged) == 0 {
		return f, nil, nil
	}
	to := func(l int) int {
		if rep[l] >= 0 {
			return rep[l]
		}
		return l
	}
	var rules []*ta.Rule
	for _, r := range f.Rules {
		src, dst := to(r.Src), to(r.Dst)
		if src == dst && r.Src != r.Dst {
			continue // between members: a free move, or one they cover
		}
		if src == r.Src && dst == r.Dst {
			rules = append(rules, r)
			continue
		}
		nr := *r
		nr.Src, nr.Dst = src, dst
		nr.From, nr.To = f.Locations[src].Name, f.Locations[dst].Name
		rules = append(rules, &nr)
	}
	g := *f
	g.Rules = rules
	return &g, merged, nil
}

// mergedString describes what mergeFree merged, for the report.
func mergedString(merged map[string]string) string {
	var names []string
	for a, b := range merged {
		names = append(names, a+" into "+b)
	}
	sort.Strings(names)
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("and %d more", len(names)-3))
	}
	return strings.Join(names, ", ")
}
