package ltl

import (
	"fmt"
	"math/bits"
	"sort"

	"ftmc/internal/graph"
)

// Translate returns a Büchi automaton that accepts exactly the words on
// which f holds. To check that a model satisfies φ, translate Not(φ) and
// search the product for an accepting run, as Spin does with `spin -f
// '!(φ)'`.
func Translate(f *Formula) (*Automaton, error) {
	t := newFtab()
	root := t.fromFormula(f, false)
	if len(t.atoms) > MaxAtoms {
		return nil, fmt.Errorf("formula has %d propositions; at most %d are supported", len(t.atoms), MaxAtoms)
	}
	g, err := buildTGBA(t, root)
	if err != nil {
		return nil, err
	}
	a := g.degeneralize()
	a.Atoms = append([]string(nil), t.atoms...)
	reduce(a)
	return a, nil
}

// maxTGBAStates bounds the tableau: a formula whose automaton is larger
// than this is rejected rather than exhausting memory.
const maxTGBAStates = 1 << 16

// A term is one way to satisfy a formula now: the literals that must hold
// (c), the formulas that must hold from the next position on (next), and the
// promises it postpones (pend: bit i is promise i, the right operand of an
// until that this term does not fulfil yet).
type term struct {
	c    Cube
	next []fid
	pend uint64
}

type tgbaEdge struct {
	c    Cube
	to   int
	pend uint64
}

// tgba is a transition-based generalized Büchi automaton: a run is accepted
// when, for every promise, it takes infinitely often an edge that does not
// postpone it (Couvreur's construction).
type tgba struct {
	t        *ftab
	states   []fid // the formula each state stands for
	index    map[fid]int
	edges    [][]tgbaEdge
	promises map[fid]int // promise formula -> bit
	exp      map[fid][]term
}

func buildTGBA(t *ftab, root fid) (*tgba, error) {
	g := &tgba{t: t, index: map[fid]int{}, promises: map[fid]int{}, exp: map[fid][]term{}}
	g.state(root)
	for i := 0; i < len(g.states); i++ {
		if len(g.states) > maxTGBAStates {
			return nil, fmt.Errorf("formula too large: its automaton exceeds %d states", maxTGBAStates)
		}
		if len(g.promises) > 64 {
			return nil, fmt.Errorf("formula too large: more than 64 eventualities")
		}
		terms, err := g.expand(g.states[i])
		if err != nil {
			return nil, err
		}
		var es []tgbaEdge
		for _, tm := range terms {
			to := t.stateAnd(tm.next)
			if to == idFalse {
				continue
			}
			es = append(es, tgbaEdge{c: tm.c, to: g.state(to), pend: tm.pend})
		}
		g.edges = append(g.edges, simplifyTGBAEdges(es))
	}
	return g, nil
}

func (g *tgba) state(f fid) int {
	if i, ok := g.index[f]; ok {
		return i
	}
	i := len(g.states)
	g.states = append(g.states, f)
	g.index[f] = i
	return i
}

func (g *tgba) promise(f fid) uint64 {
	i, ok := g.promises[f]
	if !ok {
		i = len(g.promises)
		g.promises[f] = i
	}
	if i >= 64 {
		return 0
	}
	return 1 << i
}

const maxTerms = 1 << 12

// expand returns the terms of f (its disjunctive normal form with next-time
// obligations), without subsumed terms.
func (g *tgba) expand(f fid) ([]term, error) {
	if ts, ok := g.exp[f]; ok {
		return ts, nil
	}
	t := g.t
	n := t.n(f)
	var ts []term
	var err error
	switch n.op {
	case fTrue:
		ts = []term{{}}
	case fFalse:
	case fLit:
		var c Cube
		if n.neg {
			c.Neg = 1 << n.atom
		} else {
			c.Pos = 1 << n.atom
		}
		ts = []term{{c: c}}
	case fAnd:
		ts = []term{{}}
		for _, k := range n.kids {
			var kt []term
			if kt, err = g.expand(k); err != nil {
				return nil, err
			}
			if ts, err = product(ts, kt); err != nil {
				return nil, err
			}
		}
	case fOr:
		for _, k := range n.kids {
			var kt []term
			if kt, err = g.expand(k); err != nil {
				return nil, err
			}
			ts = append(ts, kt...)
			if len(ts) > maxTerms*2 {
				return nil, fmt.Errorf("formula too large: more than %d terms", maxTerms)
			}
		}
	case fNext:
		ts = []term{{next: []fid{n.l}}}
	case fUntil: // b || (a && X(a U b)), postponing b
		var a, b []term
		if a, err = g.expand(n.l); err != nil {
			return nil, err
		}
		if b, err = g.expand(n.r); err != nil {
			return nil, err
		}
		var later []term
		if later, err = product(a, []term{{next: []fid{f}, pend: g.promise(n.r)}}); err != nil {
			return nil, err
		}
		ts = append(append(ts, b...), later...)
	case fEvent: // b || X F b, postponing b
		var b []term
		if b, err = g.expand(n.l); err != nil {
			return nil, err
		}
		ts = append(append(ts, b...), term{next: []fid{f}, pend: g.promise(n.l)})
	case fRelease: // (a && b) || (b && X(a V b))
		var a, b, now, later []term
		if a, err = g.expand(n.l); err != nil {
			return nil, err
		}
		if b, err = g.expand(n.r); err != nil {
			return nil, err
		}
		if now, err = product(a, b); err != nil {
			return nil, err
		}
		if later, err = product(b, []term{{next: []fid{f}}}); err != nil {
			return nil, err
		}
		ts = append(now, later...)
	case fAlways: // a && X G a
		var a []term
		if a, err = g.expand(n.l); err != nil {
			return nil, err
		}
		if ts, err = product(a, []term{{next: []fid{f}}}); err != nil {
			return nil, err
		}
	}
	ts = pruneTerms(ts)
	if len(ts) > maxTerms {
		return nil, fmt.Errorf("formula too large: more than %d terms", maxTerms)
	}
	g.exp[f] = ts
	return ts, nil
}

func product(a, b []term) ([]term, error) {
	if len(a)*len(b) > maxTerms*2 {
		return nil, fmt.Errorf("formula too large: more than %d terms", maxTerms)
	}
	var out []term
	for _, x := range a {
		for _, y := range b {
			c, ok := x.c.and(y.c)
			if !ok {
				continue
			}
			out = append(out, term{c: c, next: unionFids(x.next, y.next), pend: x.pend | y.pend})
		}
	}
	return pruneTerms(out), nil
}

func unionFids(a, b []fid) []fid {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]fid, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	return sortUnique(out)
}

func subsetFids(a, b []fid) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
	}
	return true
}

// pruneTerms removes terms that another term makes redundant: one that asks
// for fewer literals, fewer obligations and postpones fewer promises.
func pruneTerms(ts []term) []term {
	out := ts[:0:0]
	for i, x := range ts {
		redundant := false
		for j, y := range ts {
			if i == j {
				continue
			}
			if x.c.implies(y.c) && y.pend&^x.pend == 0 && subsetFids(y.next, x.next) {
				// y is at least as good as x; of equal terms keep the first.
				same := y.c == x.c && y.pend == x.pend && len(y.next) == len(x.next)
				if !same || j < i {
					redundant = true
					break
				}
			}
		}
		if !redundant {
			out = append(out, x)
		}
	}
	return out
}

// simplifyTGBAEdges merges edges to the same state with the same
// acceptance whose guards differ in one literal, and drops edges implied by
// another (a weaker guard, at least as accepting).
func simplifyTGBAEdges(es []tgbaEdge) []tgbaEdge {
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(es) && !changed; i++ {
			for j := 0; j < len(es) && !changed; j++ {
				if i == j || es[i].to != es[j].to {
					continue
				}
				a, b := es[i], es[j]
				if a.c.implies(b.c) && b.pend&^a.pend == 0 && (a != b || j < i) {
					es = append(es[:i], es[i+1:]...)
					changed = true
					break
				}
				if a.pend == b.pend {
					if c, ok := mergeCubes(a.c, b.c); ok {
						es[i].c = c
						es = append(es[:j], es[j+1:]...)
						changed = true
					}
				}
			}
		}
	}
	return es
}

// mergeCubes returns c when a || b == c for cubes that differ in the
// polarity of exactly one atom.
func mergeCubes(a, b Cube) (Cube, bool) {
	if a.Pos|a.Neg != b.Pos|b.Neg {
		return Cube{}, false
	}
	d := a.Pos ^ b.Pos
	if bits.OnesCount64(d) != 1 || (a.Neg^b.Neg) != d {
		return Cube{}, false
	}
	return Cube{a.Pos &^ d, a.Neg &^ d}, true
}

// degeneralize turns the TGBA into a state-based Büchi automaton, counting
// the promises kept in a fixed order. The counter is local to each strongly
// connected component (an accepting run ends in one of them): only the
// promises postponed inside the component count, and an edge that enters a
// component starts the count afresh.
func (g *tgba) degeneralize() *Automaton {
	n := len(g.states)
	succ := make([][]int, n)
	for i, es := range g.edges {
		for _, e := range es {
			succ[i] = append(succ[i], e.to)
		}
	}
	comp := graph.SCC(n, succ)
	// The promises that matter in each component, and whether a cycle in it
	// can be accepting at all.
	type compInfo struct {
		sets     []uint64 // promise bits, in counting order
		hasCycle bool
		dead     bool // some promise is postponed on every internal edge
	}
	ncomp := 0
	for _, c := range comp {
		if c+1 > ncomp {
			ncomp = c + 1
		}
	}
	info := make([]compInfo, ncomp)
	postponed := make([]uint64, ncomp) // postponed on some internal edge
	kept := make([]uint64, ncomp)      // not postponed on some internal edge
	for i, es := range g.edges {
		for _, e := range es {
			if comp[e.to] == comp[i] {
				c := comp[i]
				info[c].hasCycle = true
				postponed[c] |= e.pend
				kept[c] |= ^e.pend
			}
		}
	}
	for c := range info {
		if postponed[c]&^kept[c] != 0 {
			info[c].dead = true
		}
		for p := postponed[c]; p != 0; p &= p - 1 {
			info[c].sets = append(info[c].sets, p&-p)
		}
	}
	type key struct{ q, level int }
	a := &Automaton{}
	index := map[key]int{}
	var work []key
	get := func(k key) int {
		if i, ok := index[k]; ok {
			return i
		}
		i := len(a.States)
		index[k] = i
		ci := info[comp[k.q]]
		acc := ci.hasCycle && !ci.dead && k.level == len(ci.sets)
		a.States = append(a.States, State{Accepting: acc})
		work = append(work, k)
		return i
	}
	a.Init = get(key{0, 0})
	for len(work) > 0 {
		k := work[0]
		work = work[1:]
		from := index[k]
		c := comp[k.q]
		sets := info[c].sets
		for _, e := range g.edges[k.q] {
			level := 0
			if comp[e.to] == c && !info[c].dead {
				level = k.level
				if level == len(sets) {
					level = 0
				}
				for level < len(sets) && e.pend&sets[level] == 0 {
					level++
				}
			}
			to := get(key{e.to, level})
			a.States[from].Edges = append(a.States[from].Edges, Edge{Guard: e.c, To: to})
		}
	}
	return a
}

// reduce shrinks a Büchi automaton without changing its language: it drops
// states that are unreachable or from which no accepting cycle is reachable,
// clears the acceptance of states on no cycle, merges edges, and merges
// bisimilar states; it repeats until nothing changes.
func reduce(a *Automaton) {
	for {
		before, beforeEdges := a.Size()
		pruneDead(a)
		simplifyEdges(a)
		bisimulate(a)
		after, afterEdges := a.Size()
		if after == before && afterEdges == beforeEdges {
			break
		}
	}
	a.sortEdges()
}

func pruneDead(a *Automaton) {
	n := len(a.States)
	succ := make([][]int, n)
	for i, s := range a.States {
		for _, e := range s.Edges {
			succ[i] = append(succ[i], e.To)
		}
	}
	comp := graph.SCC(n, succ)
	ncomp := 0
	for _, c := range comp {
		if c+1 > ncomp {
			ncomp = c + 1
		}
	}
	cyclic := make([]bool, ncomp)
	accepting := make([]bool, ncomp)
	for i, s := range a.States {
		for _, e := range s.Edges {
			if comp[e.To] == comp[i] {
				cyclic[comp[i]] = true
			}
		}
	}
	for i, s := range a.States {
		if s.End || cyclic[comp[i]] && s.Accepting {
			accepting[comp[i]] = true
		}
		if !cyclic[comp[i]] && !s.End {
			a.States[i].Accepting = false
		}
	}
	// Tarjan numbers components in reverse topological order: successors
	// first. A component is live if it is accepting or reaches a live one.
	live := make([]bool, ncomp)
	order := make([][]int, ncomp)
	for i := range a.States {
		order[comp[i]] = append(order[comp[i]], i)
	}
	for c := 0; c < ncomp; c++ {
		live[c] = accepting[c]
		for _, i := range order[c] {
			for _, e := range a.States[i].Edges {
				if live[comp[e.To]] {
					live[c] = true
				}
			}
		}
	}
	keep := make([]bool, n)
	for i := range keep {
		keep[i] = live[comp[i]]
	}
	// Reachable from the initial state through live states.
	reach := make([]bool, n)
	if keep[a.Init] {
		stack := []int{a.Init}
		reach[a.Init] = true
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, e := range a.States[i].Edges {
				if keep[e.To] && !reach[e.To] {
					reach[e.To] = true
					stack = append(stack, e.To)
				}
			}
		}
	} else {
		// The language is empty: one non-accepting state without edges.
		*a = Automaton{Atoms: a.Atoms, States: []State{{}}, Init: 0}
		return
	}
	renumber(a, reach)
}

// renumber keeps the states with keep[i], dropping edges to the others.
func renumber(a *Automaton, keep []bool) {
	newIdx := make([]int, len(a.States))
	var states []State
	for i, s := range a.States {
		newIdx[i] = -1
		if keep[i] {
			newIdx[i] = len(states)
			states = append(states, s)
		}
	}
	for i := range states {
		var es []Edge
		for _, e := range states[i].Edges {
			if newIdx[e.To] >= 0 {
				e.To = newIdx[e.To]
				es = append(es, e)
			}
		}
		states[i].Edges = es
	}
	a.Init = newIdx[a.Init]
	a.States = states
}

// simplifyEdges merges, per state, edges to the same target.
func simplifyEdges(a *Automaton) {
	for i := range a.States {
		es := a.States[i].Edges
		for changed := true; changed; {
			changed = false
			for x := 0; x < len(es) && !changed; x++ {
				for y := 0; y < len(es) && !changed; y++ {
					if x == y || es[x].To != es[y].To || es[x].Else || es[y].Else {
						continue
					}
					if es[x].Guard.implies(es[y].Guard) && (es[x] != es[y] || y < x) {
						es = append(es[:x], es[x+1:]...)
						changed = true
						break
					}
					if c, ok := mergeCubes(es[x].Guard, es[y].Guard); ok {
						es[x].Guard = c
						es = append(es[:y], es[y+1:]...)
						changed = true
					}
				}
			}
		}
		a.States[i].Edges = es
	}
}

// bisimulate merges states that have the same acceptance and the same
// edges into the same classes (the coarsest such partition).
func bisimulate(a *Automaton) {
	if len(a.States) == 0 {
		return
	}
	n := len(a.States)
	class := make([]int, n)
	for i, s := range a.States {
		if s.Accepting {
			class[i] = 1
		}
		if s.End {
			class[i] = 2
		}
	}
	for {
		sigs := map[string]int{}
		next := make([]int, n)
		for i, s := range a.States {
			type ge struct {
				c   Cube
				els bool
				to  int
			}
			var es []ge
			for _, e := range s.Edges {
				es = append(es, ge{e.Guard, e.Else, class[e.To]})
			}
			sort.Slice(es, func(x, y int) bool {
				if es[x].to != es[y].to {
					return es[x].to < es[y].to
				}
				if es[x].els != es[y].els {
					return !es[x].els
				}
				if es[x].c.Pos != es[y].c.Pos {
					return es[x].c.Pos < es[y].c.Pos
				}
				return es[x].c.Neg < es[y].c.Neg
			})
			sig := fmt.Sprint(class[i], es)
			if c, ok := sigs[sig]; ok {
				next[i] = c
			} else {
				next[i] = len(sigs)
				sigs[sig] = next[i]
			}
		}
		stable := true
		classes := map[int]bool{}
		for _, c := range class {
			classes[c] = true
		}
		if len(sigs) != len(classes) {
			stable = false
		}
		class = next
		if stable {
			break
		}
	}
	// Build the quotient: the first state of each class represents it.
	rep := map[int]int{}
	keep := make([]bool, n)
	for i, c := range class {
		if _, ok := rep[c]; !ok {
			rep[c] = i
			keep[i] = true
		}
	}
	for i := range a.States {
		for j, e := range a.States[i].Edges {
			a.States[i].Edges[j].To = rep[class[e.To]]
		}
	}
	a.Init = rep[class[a.Init]]
	renumber(a, keep)
	// Merged targets may have made edges equal.
	for i := range a.States {
		es := a.States[i].Edges
		seen := map[Edge]bool{}
		out := es[:0]
		for _, e := range es {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
		a.States[i].Edges = out
	}
}
