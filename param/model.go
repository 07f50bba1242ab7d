package param

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"ftmc/smt"
	"ftmc/ta"
)

// atom is a threshold: sum(Coef*x) >= Bound(params), with non-negative
// coefficients on shared variables, so it can only turn from false to true
// along a run. A guard x < e is the negation of the atom x >= e.
type atom struct {
	shared ta.Lin // over shared variables, coefficients >= 0
	bound  ta.Lin // over parameters and a constant
	text   string
}

// bexpr is a Boolean combination of atom literals and static (parameter-only)
// comparisons.
type bexpr struct {
	op     byte // 'a' and, 'o' or, 'l' atom literal, 's' static, 't' true, 'f' false
	kids   []*bexpr
	atom   int
	pos    bool   // literal polarity
	static string // SMT term over parameters
}

var (
	bTrue  = &bexpr{op: 't'}
	bFalse = &bexpr{op: 'f'}
)

type rule struct {
	r        *ta.Rule
	src, dst int
	guard    *bexpr
	inc      []int64 // per shared variable
	stutter  bool    // a self-loop that changes nothing: only in lassos
	reset    []bool  // per shared variable: set to 0 (nil: none is)
}

// isReset reports whether an update's right-hand side l sets its variable
// to 0: a reset of TACO's extended automata.
func isReset(l ta.Lin) bool { return len(l.Coef) == 0 && l.Const == 0 }

// model is a threshold automaton prepared for the schema engine.
type model struct {
	f       *ta.File
	nloc    int
	nsh     int
	rules   []*rule
	order   []int // non-stutter rules in topological order of their sources
	atoms   []atom
	atomIdx map[string]int
	cycle   error // the rules form a cycle (prepareCycles): there is no order
	reset   error // a rule resets or decreases a shared variable (the first, positioned)
}

func prepare(f *ta.File) (*model, error) {
	m, err := prepareCycles(f, true)
	switch {
	case err != nil:
		return nil, err
	case m.reset != nil:
		return nil, m.reset
	case m.cycle != nil:
		return nil, m.cycle
	}
	return m, nil
}

// prepareCycles is prepare, which with cycles set accepts rules that form
// cycles (the model has no order then): the contraction of a safety
// specification reads such an automaton, and may leave none of them.
func prepareCycles(f *ta.File, cycles bool) (*model, error) {
	if len(f.Unknowns) > 0 {
		return nil, fmt.Errorf("%s:%s: the automaton has unknowns (%s): a sketch, for guard synthesis (Synthesize), not for one verification", f.Path, f.Unknowns[0].Pos, strings.Join(ta.Names(f.Unknowns), ", "))
	}
	m := &model{f: f, nloc: len(f.Locations), nsh: len(f.Shared), atomIdx: map[string]int{}}
	for _, r := range f.Rules {
		g, err := m.compileGuard(r.Guard)
		if err != nil {
			return nil, fmt.Errorf("%s:%s: rule %s: %v", f.Path, r.Pos, r.ID, err)
		}
		mr := &rule{r: r, src: r.Src, dst: r.Dst, guard: g, inc: make([]int64, m.nsh)}
		for _, u := range r.Updates {
			l, err := ta.Linear(u.Expr)
			if err != nil {
				return nil, fmt.Errorf("%s:%s: rule %s: %v", f.Path, u.Pos, r.ID, err)
			}
			self := ta.Var{Kind: ta.Shared, Index: u.Var.Index}
			c := l.Const
			ok := len(l.Coef) == 1 && l.Coef[self] == 1
			if isReset(l) {
				if mr.reset == nil {
					mr.reset = make([]bool, m.nsh)
				}
				mr.reset[u.Var.Index] = true
				if m.reset == nil {
					m.reset = fmt.Errorf("%s:%s: rule %s: %s' == %s resets %s: resets (TACO's extended threshold automata) are not supported by the schema engine, whose shared variables only grow", f.Path, u.Pos, r.ID, u.Var.Name, u.Expr, u.Var.Name)
				}
				continue
			}
			if !ok {
				return nil, fmt.Errorf("%s:%s: rule %s: the update %s' == %s is not an increment x' == x + c, a decrement x' == x - c or a reset x' == 0", f.Path, u.Pos, r.ID, u.Var.Name, u.Expr)
			}
			if c < 0 && m.reset == nil {
				m.reset = fmt.Errorf("%s:%s: rule %s: %s' == %s decreases %s: the schema engine needs shared variables that only grow (--engine cegar checks such automata)", f.Path, u.Pos, r.ID, u.Var.Name, u.Expr, u.Var.Name)
			}
			mr.inc[u.Var.Index] = c
		}
		zero := true
		for _, c := range mr.inc {
			zero = zero && c == 0
		}
		mr.stutter = mr.src == mr.dst && zero && mr.reset == nil
		m.rules = append(m.rules, mr)
	}
	if err := m.topo(); err != nil {
		if !cycles {
			return nil, err
		}
		m.cycle = err
	}
	return m, nil
}

// topo orders the moving rules so that every rule into a location comes
// before every rule out of it; it fails when the locations form a cycle.
func (m *model) topo() error {
	succ := make([][]int, m.nloc)
	indeg := make([]int, m.nloc)
	for _, r := range m.rules {
		if r.src != r.dst {
			succ[r.src] = append(succ[r.src], r.dst)
			indeg[r.dst]++
		}
	}
	rank := make([]int, m.nloc)
	var queue []int
	for l := 0; l < m.nloc; l++ {
		if indeg[l] == 0 {
			queue = append(queue, l)
		}
	}
	n := 0
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		rank[l] = n
		n++
		for _, d := range succ[l] {
			indeg[d]--
			if indeg[d] == 0 {
				queue = append(queue, d)
			}
		}
	}
	if n < m.nloc {
		// Every location left has a rule into it from another one left:
		// walking such rules backwards comes round to a location twice.
		into := make([]*rule, m.nloc)
		for _, r := range m.rules {
			if r.src != r.dst && indeg[r.src] > 0 && indeg[r.dst] > 0 {
				into[r.dst] = r
			}
		}
		l := 0
		for indeg[l] == 0 {
			l++
		}
		seen := map[int]int{}
		var walk []*rule
		for {
			if k, ok := seen[l]; ok {
				walk = walk[k:]
				break
			}
			seen[l] = len(walk)
			walk = append(walk, into[l])
			l = into[l].src
		}
		slices.Reverse(walk)
		cyc := []string{walk[0].r.From}
		for _, r := range walk {
			cyc = append(cyc, fmt.Sprintf("(rule %s) %s", r.r.ID, r.r.To))
		}
		return fmt.Errorf("%s:%s: the rules form a cycle %s; the schema engine needs an acyclic automaton (self-loops aside)", m.f.Path, walk[0].r.Pos, strings.Join(cyc, " -> "))
	}
	for i, r := range m.rules {
		if !r.stutter {
			m.order = append(m.order, i)
		}
	}
	sort.SliceStable(m.order, func(a, b int) bool {
		ra, rb := m.rules[m.order[a]], m.rules[m.order[b]]
		if rank[ra.src] != rank[rb.src] {
			return rank[ra.src] < rank[rb.src]
		}
		return ra.src == ra.dst && rb.src != rb.dst // self-loops first
	})
	return nil
}

// finitely reports whether a rule can fire only finitely often in any run:
// its guard requires x < bound for a sum x of shared variables that the
// rule increments (a crash counter guarded by nfaulty < F).
func (m *model) finitely(r *rule) bool {
	lits := []*bexpr{r.guard}
	if r.guard.op == 'a' {
		lits = r.guard.kids
	}
	for _, l := range lits {
		if l.op != 'l' || l.pos {
			continue
		}
		grows := false
		for v, c := range m.atoms[l.atom].shared.Coef {
			if c > 0 && r.inc[v.Index] > 0 {
				grows = true
			}
		}
		if grows {
			return true
		}
	}
	return false
}

// compileGuard turns a guard into literals over monotone atoms.
func (m *model) compileGuard(e ta.Expr) (*bexpr, error) {
	return m.compileBool(e, false)
}

func (m *model) compileBool(e ta.Expr, neg bool) (*bexpr, error) {
	switch e := e.(type) {
	case *ta.BoolLit:
		if e.Val != neg {
			return bTrue, nil
		}
		return bFalse, nil
	case *ta.Unary:
		if e.Op == "!" {
			return m.compileBool(e.X, !neg)
		}
	case *ta.Binary:
		switch e.Op {
		case "&&", "||":
			x, err := m.compileBool(e.X, neg)
			if err != nil {
				return nil, err
			}
			y, err := m.compileBool(e.Y, neg)
			if err != nil {
				return nil, err
			}
			if (e.Op == "&&") != neg {
				return mkAnd(x, y), nil
			}
			return mkOr(x, y), nil
		case "->":
			x, err := m.compileBool(e.X, !neg)
			if err != nil {
				return nil, err
			}
			y, err := m.compileBool(e.Y, neg)
			if err != nil {
				return nil, err
			}
			if neg {
				return mkAnd(x, y), nil
			}
			return mkOr(x, y), nil
		case "<", "<=", ">", ">=", "==", "!=":
			return m.compileCmp(e, neg)
		}
	}
	return nil, fmt.Errorf("%s: unsupported condition %s", e.Position(), e)
}

// errNoAtom: a comparison looked up (find) is not an atom of the model.
var errNoAtom = fmt.Errorf("not an atom of the model")

// geq returns the literals of d >= 0. With find, the atom must exist
// already (errNoAtom otherwise), and the model is left unchanged.
func (m *model) geq(d ta.Lin, find bool) (*bexpr, error) {
	sh := d.Only(ta.Shared)
	rest := d.Without(ta.Shared)
	for v := range rest.Coef {
		if v.Kind != ta.Param {
			return nil, fmt.Errorf("only parameters and shared variables may appear in guards")
		}
	}
	if len(sh.Coef) == 0 {
		return &bexpr{op: 's', static: smt.App(">=", linTerm(rest, ""), "0")}, nil
	}
	pos, negc := false, false
	for _, c := range sh.Coef {
		if c > 0 {
			pos = true
		} else {
			negc = true
		}
	}
	if pos && negc {
		return nil, fmt.Errorf("the threshold %s >= 0 mixes shared variables with positive and negative coefficients; it is not monotone", d.Format(m.f))
	}
	lit := func(sh, bound ta.Lin, pos bool) (*bexpr, error) {
		if !find {
			return &bexpr{op: 'l', atom: m.atomOf(sh, bound), pos: pos}, nil
		}
		a, ok := m.atomIdx[atomKey(sh, bound)]
		if !ok {
			return nil, errNoAtom
		}
		return &bexpr{op: 'l', atom: a, pos: pos}, nil
	}
	// Shared variables are never negative: sh >= c holds for a constant
	// c <= 0, and sh <= c fails for c < 0 (x >= 1 || x == 0 is true).
	constant := len(rest.Coef) == 0
	if pos { // sh + rest >= 0  <=>  sh >= -rest
		if constant && rest.Const >= 0 {
			return bTrue, nil
		}
		return lit(sh, rest.Scale(-1), true)
	}
	if constant && rest.Const < 0 {
		return bFalse, nil
	}
	// -sh' + rest >= 0 with sh' >= 0  <=>  sh' <= rest  <=>  !(sh' >= rest + 1)
	b := rest
	b.Const++
	return lit(sh.Scale(-1), b, false)
}

func (m *model) compileCmp(e *ta.Binary, neg bool) (*bexpr, error) {
	return m.cmp(e, neg, false)
}

// findCmp is compileCmp over the atoms the model has; errNoAtom when the
// comparison needs another.
func (m *model) findCmp(e *ta.Binary, neg bool) (*bexpr, error) {
	return m.cmp(e, neg, true)
}

func (m *model) cmp(e *ta.Binary, neg bool, find bool) (*bexpr, error) {
	x, err := ta.Linear(e.X)
	if err != nil {
		return nil, err
	}
	y, err := ta.Linear(e.Y)
	if err != nil {
		return nil, err
	}
	op := e.Op
	if neg {
		op = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}[op]
	}
	d := x.Add(y.Scale(-1)) // x - y
	minus1 := func(l ta.Lin) ta.Lin { l.Const--; return l }
	switch op {
	case ">=":
		return m.geq(d, find)
	case ">":
		return m.geq(minus1(d), find)
	case "<=":
		return m.geq(d.Scale(-1), find)
	case "<":
		return m.geq(minus1(d.Scale(-1)), find)
	case "==", "!=":
		a, err := m.geq(d, find)
		if err != nil {
			return nil, err
		}
		b, err := m.geq(d.Scale(-1), find)
		if err != nil {
			return nil, err
		}
		if op == "==" {
			return mkAnd(a, b), nil
		}
		return mkOr(negate(a), negate(b)), nil
	}
	return nil, fmt.Errorf("unknown comparison %s", op)
}

func negate(b *bexpr) *bexpr {
	switch b.op {
	case 't':
		return bFalse
	case 'f':
		return bTrue
	case 'l':
		return &bexpr{op: 'l', atom: b.atom, pos: !b.pos}
	case 's':
		return &bexpr{op: 's', static: smt.Not(b.static)}
	case 'a', 'o':
		kids := make([]*bexpr, len(b.kids))
		for i, k := range b.kids {
			kids[i] = negate(k)
		}
		if b.op == 'a' {
			return &bexpr{op: 'o', kids: kids}
		}
		return &bexpr{op: 'a', kids: kids}
	}
	return b
}

func mkAnd(x, y *bexpr) *bexpr { return mkJoin('a', bTrue, bFalse, x, y) }

func mkOr(x, y *bexpr) *bexpr { return mkJoin('o', bFalse, bTrue, x, y) }

// mkJoin builds x op y, for the connective op with the unit and the zero
// (the value that decides it) given.
func mkJoin(op byte, unit, zero, x, y *bexpr) *bexpr {
	switch {
	case x.op == zero.op || y.op == zero.op:
		return zero
	case x.op == 'l' && y.op == 'l' && x.atom == y.atom && x.pos != y.pos:
		return zero // a literal and its negation
	case x.op == unit.op:
		return y
	case y.op == unit.op:
		return x
	}
	return &bexpr{op: op, kids: []*bexpr{x, y}}
}

func atomKey(sh, bound ta.Lin) string { return sh.Key() + ">=" + bound.Key() }

func (m *model) atomOf(sh, bound ta.Lin) int {
	key := atomKey(sh, bound)
	if i, ok := m.atomIdx[key]; ok {
		return i
	}
	m.atoms = append(m.atoms, atom{shared: sh, bound: bound, text: sh.Format(m.f) + " >= " + bound.Format(m.f)})
	m.atomIdx[key] = len(m.atoms) - 1
	return len(m.atoms) - 1
}

// evalCtx evaluates b when the milestone atoms in flipped are true and
// the others false. It returns 't', 'f', or 'r' with the residual SMT term:
// over the parameters, and over the state st for the literals of atoms
// that no context fixes (flow atoms, p.flow, and those that are no
// milestone).
func (p *problem) evalCtx(b *bexpr, flipped []bool, st stateNames) (byte, string) {
	switch b.op {
	case 't', 'f':
		return b.op, ""
	case 'l':
		if !flipped[b.atom] && !p.isMilestone(b.atom) { // flow atoms are no milestones (markFlow)
			t := p.m.atomTerm(b.atom, st)
			if !b.pos {
				t = smt.Not(t)
			}
			return 'r', t
		}
		if flipped[b.atom] == b.pos {
			return 't', ""
		}
		return 'f', ""
	case 's':
		return 'r', b.static
	case 'a', 'o':
		var rs []string
		for _, k := range b.kids {
			v, r := p.evalCtx(k, flipped, st)
			switch {
			case v == 'f' && b.op == 'a':
				return 'f', ""
			case v == 't' && b.op == 'o':
				return 't', ""
			case v == 'r':
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			if b.op == 'a' {
				return 't', ""
			}
			return 'f', ""
		}
		if b.op == 'a' {
			return 'r', smt.And(rs...)
		}
		return 'r', smt.Or(rs...)
	}
	return 'f', ""
}

// term renders b over a state.
func (m *model) bterm(b *bexpr, st stateNames) string {
	switch b.op {
	case 't':
		return "true"
	case 'f':
		return "false"
	case 'l':
		t := m.atomTerm(b.atom, st)
		if b.pos {
			return t
		}
		return smt.Not(t)
	case 's':
		return b.static
	case 'a', 'o':
		ts := make([]string, len(b.kids))
		for i, k := range b.kids {
			ts[i] = m.bterm(k, st)
		}
		if b.op == 'a' {
			return smt.And(ts...)
		}
		return smt.Or(ts...)
	}
	return "false"
}

func (m *model) atomTerm(a int, st stateNames) string {
	at := m.atoms[a]
	return smt.App(">=", linTerm(at.shared, st), linTerm(at.bound, st))
}

// stateNames names the SMT constants of one configuration: counters k<l>
// and shared variables x<v> under a prefix such as "u3".
type stateNames string

func (s stateNames) k(l int) string { return fmt.Sprintf("%s_k%d", s, l) }
func (s stateNames) x(v int) string { return fmt.Sprintf("%s_x%d", s, v) }

func paramName(i int) string { return fmt.Sprintf("p%d", i) }

// linTerm renders l over the state st (parameters are global).
func linTerm(l ta.Lin, st stateNames) string {
	var ts []string
	for _, v := range l.Vars() {
		var name string
		switch v.Kind {
		case ta.Param:
			name = paramName(v.Index)
		case ta.Shared:
			name = st.x(v.Index)
		case ta.Local:
			name = st.k(v.Index)
		default:
			name = "unknown"
		}
		ts = append(ts, smt.Times(l.Coef[v], name))
	}
	if l.Const != 0 || len(ts) == 0 {
		ts = append(ts, smt.Int(l.Const))
	}
	return smt.Sum(ts...)
}

// exprTerm renders a state condition or arithmetic expression over st.
func exprTerm(e ta.Expr, st stateNames) (string, error) {
	switch e := e.(type) {
	case *ta.BoolLit:
		if e.Val {
			return "true", nil
		}
		return "false", nil
	case *ta.IntLit:
		return smt.Int(e.Val), nil
	case *ta.Ident:
		return linTerm(ta.Lin{Coef: map[ta.Var]int64{{Kind: e.Kind, Index: e.Index}: 1}}, st), nil
	case *ta.Unary:
		x, err := exprTerm(e.X, st)
		if err != nil {
			return "", err
		}
		switch e.Op {
		case "-":
			return smt.App("-", x), nil
		case "!":
			return smt.Not(x), nil
		}
		return "", fmt.Errorf("%s: temporal operator %s where a state condition is expected", e.Pos, e.Op)
	case *ta.Binary:
		x, err := exprTerm(e.X, st)
		if err != nil {
			return "", err
		}
		y, err := exprTerm(e.Y, st)
		if err != nil {
			return "", err
		}
		switch e.Op {
		case "&&":
			return smt.And(x, y), nil
		case "||":
			return smt.Or(x, y), nil
		case "->":
			return smt.App("=>", x, y), nil
		case "==":
			return smt.App("=", x, y), nil
		case "!=":
			return smt.Not(smt.App("=", x, y)), nil
		case "+", "-", "*", "<", "<=", ">", ">=":
			return smt.App(e.Op, x, y), nil
		}
	}
	return "", fmt.Errorf("%s: cannot translate %s", e.Position(), e)
}
