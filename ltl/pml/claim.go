package pml

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"ftmc/ltl"
	"ftmc/promela"
)

// Claim converts a never claim into a Büchi automaton, as Spin runs it: the
// claim takes one statement per step of the model, evaluated on the model's
// current state; an expression statement is a guard; else is a guard that
// holds when no other option of its if or do does; assert(e) lets the claim
// go on when e holds and accepts when it fails; a state labelled accept...
// is accepting; the end of the claim's body accepts. Inside atomic and
// d_step the statements after the first take no step of their own: they
// are evaluated on the same model state (this is how `spin -f` writes
// `atomic { (p) -> assert(!(p)) }`), and must not block.
//
// Statements that change the state (assignments, channel operations, run)
// are errors: a claim only observes.
func Claim(d *promela.ProcDecl) (*ltl.Automaton, Atoms, error) {
	b := &claimBuilder{labels: map[string]int{}, atomIdx: map[string]int{}, atoms: Atoms{}}
	b.end = b.node()
	b.nodes[b.end].end = true
	entry := b.seq(d.Body.Stmts, b.end, false)
	if b.err != nil {
		return nil, nil, b.err
	}
	for _, g := range b.gotos {
		t, ok := b.labels[g.label]
		if !ok {
			return nil, nil, &Error{Pos: g.pos, Msg: fmt.Sprintf("never claim: no label %s", g.label)}
		}
		b.nodes[g.node].eps = append(b.nodes[g.node].eps, t)
	}
	// A label belongs to the statement it labels, however control gets
	// there: mark that node.
	names := make([]string, 0, len(b.labels))
	for name := range b.labels {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t := b.settle(b.labels[name])
		if promela.KindOfLabel(name) == promela.LabelAccept {
			b.nodes[t].accept = true
		}
		if b.nodes[t].label == "" || promela.KindOfLabel(name) == promela.LabelAccept {
			b.nodes[t].label = name
		}
	}
	a, err := b.automaton(entry, d)
	if err != nil {
		return nil, nil, err
	}
	if len(a.Atoms) > ltl.MaxAtoms {
		return nil, nil, &Error{Pos: d.Pos(), Msg: fmt.Sprintf("never claim has %d distinct guards; at most %d are supported", len(a.Atoms), ltl.MaxAtoms)}
	}
	return a, b.atoms, nil
}

// A lit is an atom (a guard expression), possibly negated.
type lit struct {
	atom int
	neg  bool
}

type cedge struct {
	lits []lit // conjunction; empty: true
	els  bool
	to   int
}

type cnode struct {
	edges   []cedge
	eps     []int // moves that take no step (goto, break, the options of if and do)
	accept  bool
	end     bool
	instant bool // inside atomic, after its first statement
	branch  bool // an if or a do: eps are its options
	label   string
	pos     promela.Pos
}

type pendingGoto struct {
	node  int
	label string
	pos   promela.Pos
}

type claimBuilder struct {
	nodes   []cnode
	labels  map[string]int
	gotos   []pendingGoto
	atomIdx map[string]int
	names   []string
	atoms   Atoms
	end     int
	breaks  []int // exit node of the enclosing do loops
	err     error
}

func (b *claimBuilder) node() int {
	b.nodes = append(b.nodes, cnode{})
	return len(b.nodes) - 1
}

func (b *claimBuilder) errorf(pos promela.Pos, format string, args ...any) int {
	if b.err == nil {
		b.err = &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
	return b.end
}

func (b *claimBuilder) atom(x promela.Expr) int {
	text := promela.ExprString(x)
	if i, ok := b.atomIdx[text]; ok {
		return i
	}
	i := len(b.names)
	b.atomIdx[text] = i
	b.names = append(b.names, text)
	b.atoms[text] = x
	return i
}

// seq builds the statements and returns the node where they start; next is
// where control goes after them. instant marks statements that run in the
// step of the one before them (inside atomic).
func (b *claimBuilder) seq(stmts []promela.Stmt, next int, instant bool) int {
	for i := len(stmts) - 1; i >= 0; i-- {
		next = b.stmt(stmts[i], next, instant)
		if i > 0 && instant {
			b.nodes[next].instant = true
		}
	}
	return next
}

func (b *claimBuilder) stmt(s promela.Stmt, next int, instant bool) int {
	if b.err != nil {
		return b.end
	}
	switch s := s.(type) {
	case *promela.ExprStmt:
		n := b.node()
		b.nodes[n].pos = s.Pos()
		if v, ok := promela.ConstValue(s.X); ok {
			if v != 0 {
				b.nodes[n].edges = []cedge{{to: next}}
			}
			return n
		}
		if _, ok := s.X.(*promela.RunExpr); ok {
			return b.errorf(s.Pos(), "never claim: run is not allowed in a claim")
		}
		b.nodes[n].edges = []cedge{{lits: []lit{{atom: b.atom(s.X)}}, to: next}}
		return n
	case *promela.ElseStmt:
		n := b.node()
		b.nodes[n].pos = s.Pos()
		b.nodes[n].edges = []cedge{{els: true, to: next}}
		return n
	case *promela.AssertStmt:
		n := b.node()
		b.nodes[n].pos = s.Pos()
		if v, ok := promela.ConstValue(s.X); ok {
			to := next
			if v == 0 {
				to = b.end
			}
			b.nodes[n].edges = []cedge{{to: to}}
			return n
		}
		a := b.atom(s.X)
		b.nodes[n].edges = []cedge{{lits: []lit{{atom: a}}, to: next}, {lits: []lit{{atom: a, neg: true}}, to: b.end}}
		return n
	case *promela.PrintfStmt, *promela.PrintmStmt:
		n := b.node()
		b.nodes[n].pos = s.Pos()
		b.nodes[n].edges = []cedge{{to: next}}
		return n
	case *promela.LabeledStmt:
		n := b.stmt(s.Stmt, next, instant)
		name := s.Label.Name
		if _, dup := b.labels[name]; dup {
			return b.errorf(s.Label.NamePos, "never claim: label %s declared twice", name)
		}
		// A label names a node of its own, which moves to the statement
		// without taking a step: labels on gotos and joins stay distinct.
		l := b.node()
		b.nodes[l].eps = []int{n}
		b.nodes[l].label = name
		b.nodes[l].pos = s.Label.NamePos
		b.labels[name] = l
		return l
	case *promela.GotoStmt:
		n := b.node()
		b.gotos = append(b.gotos, pendingGoto{node: n, label: s.Label.Name, pos: s.Label.NamePos})
		return n
	case *promela.BreakStmt:
		if len(b.breaks) == 0 {
			return b.errorf(s.Pos(), "never claim: break outside a do loop")
		}
		n := b.node()
		b.nodes[n].eps = []int{b.breaks[len(b.breaks)-1]}
		return n
	case *promela.IfStmt:
		n := b.node()
		b.nodes[n].pos = s.Pos()
		b.nodes[n].branch = true
		for _, o := range s.Options {
			b.nodes[n].eps = append(b.nodes[n].eps, b.seq(o.Stmts, next, false))
		}
		return n
	case *promela.DoStmt:
		n := b.node()
		b.nodes[n].pos = s.Pos()
		b.nodes[n].branch = true
		b.breaks = append(b.breaks, next)
		for _, o := range s.Options {
			b.nodes[n].eps = append(b.nodes[n].eps, b.seq(o.Stmts, n, false))
		}
		b.breaks = b.breaks[:len(b.breaks)-1]
		return n
	case *promela.BlockStmt:
		return b.seq(s.Body.Stmts, next, instant)
	case *promela.AtomicStmt:
		return b.seq(s.Body.Stmts, next, true)
	case *promela.DStepStmt:
		return b.seq(s.Body.Stmts, next, true)
	case *promela.DeclStmt:
		return b.errorf(s.Pos(), "never claim: local variables are not supported in a claim")
	}
	return b.errorf(s.Pos(), "never claim: %s changes the state; a claim may only test it", strings.TrimSpace(promela.StmtString(s)))
}

// closure returns the edges of node n: its own and those of the nodes it
// reaches without a step.
//
// An else among the edges holds when none of the others does, which is
// Spin's else only when the others all come from options of the else's
// own if or do (possibly nested in them): an else in an if that is an
// option of another if or do with options of its own is refused.
func (b *claimBuilder) closure(n int) ([]cedge, error) {
	var out []cedge
	var from [][]int // the ifs and dos each edge is an option of, outermost first
	seen, onPath := map[int]bool{}, map[int]bool{}
	cycle := false
	var walk func(int, int, []int) error
	walk = func(v, depth int, br []int) error {
		if onPath[v] {
			cycle = true
		}
		if seen[v] {
			return nil
		}
		onPath[v] = true
		defer delete(onPath, v)
		if depth > len(b.nodes) {
			return &Error{Pos: b.nodes[n].pos, Msg: "never claim: a loop of gotos without a statement"}
		}
		seen[v] = true
		for _, e := range b.nodes[v].edges {
			out = append(out, e)
			from = append(from, br)
		}
		if b.nodes[v].end {
			// The end of the claim, reached without a step.
			out = append(out, cedge{to: b.end})
			from = append(from, br)
		}
		if b.nodes[v].branch {
			br = append(br[:len(br):len(br)], v)
		}
		for _, w := range b.nodes[v].eps {
			if err := walk(w, depth+1, br); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(n, 0, nil); err != nil {
		return nil, err
	}
	if cycle && len(out) == 0 {
		pos := b.nodes[n].pos
		for _, g := range b.gotos {
			if seen[g.node] {
				pos = g.pos
				break
			}
		}
		return nil, &Error{Pos: pos, Msg: "never claim: an infinite loop of gotos without a statement"}
	}
	for i, e := range out {
		if !e.els || len(from[i]) == 0 {
			continue
		}
		own := from[i][len(from[i])-1]
		for j := range out {
			if !slices.Contains(from[j], own) {
				return nil, &Error{Pos: b.nodes[own].pos, Msg: "never claim: else in an if or do that is an option of another if or do is not supported (move the options into one if)"}
			}
		}
	}
	return out, nil
}

// settle follows eps moves from n to the node where the claim waits: the
// node itself unless it only jumps (a goto, a label, a break).
func (b *claimBuilder) settle(n int) int {
	for k := 0; k < len(b.nodes); k++ {
		c := b.nodes[n]
		if len(c.edges) > 0 || len(c.eps) != 1 || c.end {
			return n
		}
		n = c.eps[0]
	}
	return n
}

// automaton numbers the nodes where the claim can wait and builds the edges
// between them, running through instant (atomic) nodes.
func (b *claimBuilder) automaton(entry int, d *promela.ProcDecl) (*ltl.Automaton, error) {
	a := &ltl.Automaton{}
	index := map[int]int{}
	var work []int
	state := func(n int) int {
		n = b.settle(n)
		if i, ok := index[n]; ok {
			return i
		}
		i := len(a.States)
		index[n] = i
		st := ltl.State{Accepting: b.nodes[n].accept || b.nodes[n].end, End: b.nodes[n].end, Name: b.nodes[n].label}
		a.States = append(a.States, st)
		work = append(work, n)
		return i
	}
	a.Init = state(entry)
	for len(work) > 0 {
		n := work[0]
		work = work[1:]
		from := index[n]
		if b.nodes[n].end {
			continue
		}
		edges, err := b.closure(n)
		if err != nil {
			return nil, err
		}
		var out []ltl.Edge
		for _, e := range edges {
			paths, err := b.through(e, 0)
			if err != nil {
				return nil, err
			}
			for _, p := range paths {
				cube, ok := cubeOf(p.lits)
				if !ok {
					continue
				}
				out = append(out, ltl.Edge{Guard: cube, Else: p.els, To: state(p.to)})
			}
		}
		a.States[from].Edges = out
	}
	a.Atoms = append([]string(nil), b.names...)
	nameStates(a)
	return a, nil
}

// through continues edge e through the instant nodes it leads to.
func (b *claimBuilder) through(e cedge, depth int) ([]cedge, error) {
	to := b.settle(e.to)
	if !b.nodes[to].instant || b.nodes[to].end {
		return []cedge{e}, nil
	}
	if depth > len(b.nodes) {
		return nil, &Error{Pos: b.nodes[to].pos, Msg: "never claim: a loop inside an atomic sequence"}
	}
	next, err := b.closure(to)
	if err != nil {
		return nil, err
	}
	// The statements inside must not block: together their guards must
	// always hold (as with assert, or true).
	if !covers(next) {
		return nil, &Error{Pos: b.nodes[to].pos, Msg: "never claim: a statement inside atomic that can block is not supported"}
	}
	var out []cedge
	for _, n := range next {
		if n.els || e.els && len(n.lits) > 0 {
			return nil, &Error{Pos: b.nodes[to].pos, Msg: "never claim: else with an atomic sequence that tests the state is not supported"}
		}
		c := cedge{lits: append(append([]lit(nil), e.lits...), n.lits...), els: e.els, to: n.to}
		more, err := b.through(c, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// covers reports whether some edge is always enabled: one without guard,
// or an atom and its negation.
func covers(es []cedge) bool {
	pos, neg := map[int]bool{}, map[int]bool{}
	for _, e := range es {
		if len(e.lits) == 0 {
			return true
		}
		if len(e.lits) == 1 {
			if e.lits[0].neg {
				neg[e.lits[0].atom] = true
			} else {
				pos[e.lits[0].atom] = true
			}
		}
	}
	for a := range pos {
		if neg[a] {
			return true
		}
	}
	return false
}

func cubeOf(ls []lit) (ltl.Cube, bool) {
	var c ltl.Cube
	for _, l := range ls {
		if l.neg {
			c.Neg |= 1 << l.atom
		} else {
			c.Pos |= 1 << l.atom
		}
	}
	return c, c.Pos&c.Neg == 0
}

// nameStates gives unlabelled states names for printing, and makes names
// unique.
func nameStates(a *ltl.Automaton) {
	used := map[string]bool{}
	for _, s := range a.States {
		if s.Name != "" {
			used[s.Name] = true
		}
	}
	var unnamed []int
	for i, s := range a.States {
		if s.Name == "" {
			unnamed = append(unnamed, i)
		}
	}
	sort.Ints(unnamed)
	for _, i := range unnamed {
		prefix := "S"
		switch {
		case a.States[i].End:
			prefix = "end_of_claim"
		case a.States[i].Accepting:
			prefix = "accept_S"
		}
		name := prefix
		for k := i; used[name] || name == "S" || name == "accept_S"; k++ {
			name = fmt.Sprintf("%s%d", prefix, k)
		}
		used[name] = true
		a.States[i].Name = name
	}
}
