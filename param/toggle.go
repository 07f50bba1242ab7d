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
// the representative and drops the rules between members; a self-loop at
// the representative that updates nothing and is always enabled stands
// for them. A run of the automaton maps to a run of the merged one: put
// the processes of every member at the representative; a free move
// becomes a firing of that self-loop, which changes nothing (so a lasso
// whose loop only moves between members stays a lasso), another rule
// fires from the representative with the same
// shared variables, and every comparison of the specification sees the
// same sums. Conversely a process at the representative that fires a rule
// out of another member first moves there by free rules, which are always
// enabled and invisible. So the runs that violate the specification, lassos
// included, are the same up to those moves, and a counterexample of the
// merged automaton is one of the original with them left out (the
// self-loop at the representative: a free move, there and back).

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
	for l, s := range initSignature(f) {
		sig[l] += "|" + s
	}
	rep, err := freeSets(ctx, f, m, sig, over, sopts, nil)
	if err != nil || rep == nil {
		return f, nil, err
	}
	return mergeSets(f, rep, false), mergedNames(f, rep), nil
}

// mergeSets returns f with the sets of rep merged: a rule into a member goes
// to its representative, a rule out of one leaves from the representative,
// the rules between members go, and a self-loop at the representative
// that updates nothing and is always enabled stands for them: the moves
// between members, which a process may take forever. Without it a lasso
// that only moves between members, where no member has a self-loop, would
// be lost (the lasso schemas of an acyclic automaton end in a self-loop).
// With split, a rule out of a member also stays at the member, and a rule
// that updates nothing and is always enabled moves a process from the
// representative to each other member (splitFree).
func mergeSets(f *ta.File, rep []int, split bool) *ta.File {
	g := *f
	g.Rules = nil
	for _, r := range f.Rules {
		src, dst := to(rep, r.Src), to(rep, r.Dst)
		if src == dst && r.Src != r.Dst {
			continue // between members: a free move, or one they cover
		}
		g.Rules = append(g.Rules, moved(f, r, src, dst, r.ID))
		if split && src != r.Src {
			if r.Src == r.Dst {
				dst = r.Dst
			}
			g.Rules = append(g.Rules, moved(f, r, r.Src, dst, r.ID+"'"))
		}
	}
	always := func(id string, src, dst int) *ta.Rule {
		return &ta.Rule{Pos: f.Locations[dst].Pos, ID: id, From: f.Locations[src].Name, To: f.Locations[dst].Name, Src: src, Dst: dst, Guard: &ta.BoolLit{Val: true}}
	}
	for l, r := range rep {
		if split && r >= 0 && r != l {
			g.Rules = append(g.Rules, always("split_"+f.Locations[l].Name, r, l))
		}
	}
	for l, r := range rep {
		if r == l {
			g.Rules = append(g.Rules, always("moves_"+f.Locations[l].Name, l, l))
		}
	}
	return &g
}

// initSignature is observedSignature of the conjunction of f's initial
// conditions.
func initSignature(f *ta.File) []string {
	return observedSignature(f, conjExpr(f.Inits))
}

// freeSets returns, for every location of a free set among those of equal
// signature sig, the representative of its set, and -1 for the others; nil
// when there is no such set. A set merges when its rules between members
// update nothing, at most one member may hold processes initially (it
// represents the set), and keep, when given, accepts its members. With
// over set every rule without updates counts as free, whatever its guard
// (see mergeFree).
func freeSets(ctx context.Context, f *ta.File, m *model, sig []string, over bool, sopts smt.Options, keep func(members []int) bool) ([]int, error) {
	// Candidates first, then the solver for their guards.
	var cand []int
	for i, r := range m.rules {
		if !r.stutter && r.src != r.dst && sig[r.src] == sig[r.dst] && zeroInc(r.inc) && r.reset == nil {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return nil, nil
	}
	// Over-approximating, every candidate is free; else those whose
	// guard the solver finds valid.
	var valid func(g ta.Expr) (bool, error)
	if over {
		valid = func(ta.Expr) (bool, error) { return true, nil }
	} else {
		s, err := smt.New(ctx, sopts)
		if err != nil {
			return nil, err
		}
		defer s.Close()
		p := &problem{m: m}
		base, err := p.base()
		if err != nil {
			return nil, err
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
			return nil, err
		}
		if ok {
			adj[m.rules[i].src] = append(adj[m.rules[i].src], m.rules[i].dst)
		}
	}
	comp := graph.SCC(m.nloc, adj)
	members := map[int][]int{}
	for l, c := range comp {
		members[c] = append(members[c], l)
	}
	bad := map[int]bool{}
	for _, r := range m.rules {
		if comp[r.src] == comp[r.dst] && r.src != r.dst && (!zeroInc(r.inc) || r.reset != nil) {
			bad[comp[r.src]] = true
		}
	}
	occ := initOccupied(f)
	rep := make([]int, m.nloc)
	for l := range rep {
		rep[l] = -1
	}
	any := false
	for c, ls := range members {
		if len(ls) < 2 || bad[c] || keep != nil && !keep(ls) {
			continue
		}
		first, occupied := ls[0], 0
		for _, l := range ls {
			if occ[l] {
				first = l
				occupied++
			}
		}
		if occupied > 1 {
			continue
		}
		for _, l := range ls {
			rep[l] = first
		}
		any = true
	}
	if !any {
		return nil, nil
	}
	return rep, nil
}

// to is the representative of l, or l when it merges with nothing.
func to(rep []int, l int) int {
	if rep[l] >= 0 {
		return rep[l]
	}
	return l
}

// moved is r from src to dst under the name id; r itself when nothing
// changes.
func moved(f *ta.File, r *ta.Rule, src, dst int, id string) *ta.Rule {
	if src == r.Src && dst == r.Dst && id == r.ID {
		return r
	}
	nr := *r
	nr.ID = id
	nr.Src, nr.Dst = src, dst
	nr.From, nr.To = f.Locations[src].Name, f.Locations[dst].Name
	return &nr
}

// mergedNames maps the name of every merged location to its
// representative's.
func mergedNames(f *ta.File, rep []int) map[string]string {
	merged := map[string]string{}
	for l, r := range rep {
		if r >= 0 && r != l {
			merged[f.Locations[l].Name] = f.Locations[r].Name
		}
	}
	return merged
}

// Locations told apart on the loop only.
//
// nbac's termination weighs the suspicion bit alike until the run
// settles, and then asks that every process suspect another: its negation
// <>[](all_not_suspecting == 0) tells the members of a free set apart on
// the lasso's loop, where mergeFree cannot merge them. splitFree takes a
// free set whose members every disjunct of the negated specification
// weighs alike everywhere but on the loop (its conditions from F G and
// G F), and where it does not, keeps enough members empty on the loop
// by G conditions that no rule between members can fire there. The
// automaton it returns sends the rules into a member to the
// representative, as mergeFree does, and keeps every rule out of a member
// twice: from the member and from the representative; the rules between
// members go, and a new rule, which updates nothing and is always
// enabled, moves a process from the representative to each other member
// (and a self-loop there stands for the moves between members, as in
// mergeFree). It has no cycle through the set.
//
// A lasso of f that violates a disjunct maps to one of the new automaton:
// on the prefix a process in the set is at the representative and fires
// the copy of its member's rule there; the disjunct's conditions there
// weigh the members alike, so they see the same sums. When the loop
// begins, each process in the set moves to its member by the new rules.
// The loop of f fires no rule between members (when the loop's conditions
// tell them apart, a G condition keeps the source or the target empty),
// so it is a loop of the new automaton too, through the same
// configurations; and where the loop's conditions weigh the members alike
// the processes may as well stay at the representative. The new automaton
// has runs that f does not have (a process may take the rules of a member
// it could not have reached, and move to any member): a specification
// that holds there holds on f, and a violation there proves nothing.

// splitFree returns f with its free sets told apart on the loop only
// split (see above), and the map from each merged location's name to its
// representative's; f and nil when it finds no such set.
func splitFree(f *ta.File, lcs []*lcase) (*ta.File, map[string]string) {
	m, err := prepareCycles(f, true)
	if err != nil || m.reset != nil {
		return f, nil
	}
	// Every condition is read on its own: each holds or not in one
	// configuration, and different ones in different configurations.
	sig := initSignature(f)
	observe := func(sig []string, tag string, es []ta.Expr) {
		for j, e := range es {
			for l, s := range observedSignature(f, e) {
				sig[l] += fmt.Sprintf("|%s%d:%s", tag, j, s)
			}
		}
	}
	type loopView struct {
		sig  []string
		zero []bool
	}
	var loops []loopView
	for i, lc := range lcs {
		var pre, gs []ta.Expr
		var walk func(n *wnode)
		walk = func(n *wnode) {
			pre = append(append(pre, n.props...), n.gs...)
			gs = append(gs, n.gs...)
			for _, k := range n.kids {
				walk(k)
			}
		}
		walk(lc.root)
		observe(sig, fmt.Sprint(i, "."), pre)
		if !lc.needLoop {
			continue
		}
		z := make([]bool, m.nloc)
		for _, g := range append(gs, lc.loopFGs...) {
			zeroIn(g, z)
		}
		ls := make([]string, m.nloc)
		observe(ls, "", lc.loopGs)
		loops = append(loops, loopView{ls, z})
	}
	keep := func(ls []int) bool {
		in := map[int]bool{}
		for _, l := range ls {
			in[l] = true
		}
		for _, lv := range loops {
			alike := true
			for _, l := range ls {
				alike = alike && lv.sig[l] == lv.sig[ls[0]]
			}
			if alike {
				continue
			}
			for _, r := range m.rules {
				if in[r.src] && in[r.dst] && r.src != r.dst && !lv.zero[r.src] && !lv.zero[r.dst] {
					return false
				}
			}
		}
		return true
	}
	rep, err := freeSets(context.Background(), f, m, sig, true, smt.Options{}, keep)
	if err != nil || rep == nil {
		return f, nil
	}
	return mergeSets(f, rep, true), mergedNames(f, rep)
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
