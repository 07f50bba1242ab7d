package param

import (
	"fmt"

	"ftmc/ta"
)

// tform is a formula in negation normal form over propositional state
// conditions, with F (eventually) and G (always).
type tform struct {
	op   byte // 'p' proposition, '&', '|', 'F', 'G'
	p    ta.Expr
	kids []*tform
}

func hasTemporal(e ta.Expr) bool {
	switch e := e.(type) {
	case *ta.Unary:
		return e.Op == "<>" || e.Op == "[]" || hasTemporal(e.X)
	case *ta.Binary:
		return hasTemporal(e.X) || hasTemporal(e.Y)
	}
	return false
}

func notExpr(e ta.Expr) ta.Expr { return &ta.Unary{Pos: e.Position(), Op: "!", X: e} }

// nnf pushes negations down to state conditions.
func nnf(e ta.Expr, neg bool) *tform {
	if !hasTemporal(e) {
		if neg {
			return &tform{op: 'p', p: notExpr(e)}
		}
		return &tform{op: 'p', p: e}
	}
	switch e := e.(type) {
	case *ta.Unary:
		switch e.Op {
		case "!":
			return nnf(e.X, !neg)
		case "<>":
			if neg {
				return &tform{op: 'G', kids: []*tform{nnf(e.X, true)}}
			}
			return &tform{op: 'F', kids: []*tform{nnf(e.X, false)}}
		case "[]":
			if neg {
				return &tform{op: 'F', kids: []*tform{nnf(e.X, true)}}
			}
			return &tform{op: 'G', kids: []*tform{nnf(e.X, false)}}
		}
	case *ta.Binary:
		switch e.Op {
		case "&&", "||":
			and := (e.Op == "&&") != neg
			op := byte('|')
			if and {
				op = '&'
			}
			return &tform{op: op, kids: []*tform{nnf(e.X, neg), nnf(e.Y, neg)}}
		case "->":
			if neg {
				return &tform{op: '&', kids: []*tform{nnf(e.X, false), nnf(e.Y, true)}}
			}
			return &tform{op: '|', kids: []*tform{nnf(e.X, true), nnf(e.Y, false)}}
		}
	}
	return &tform{op: 'p', p: e}
}

// wnode is a witness position of the negated specification: a state where
// props hold, from which the gs hold forever, followed by the witnesses of
// its kids.
type wnode struct {
	props []ta.Expr
	gs    []ta.Expr
	kids  []*wnode
	id    int
}

// lcase is one disjunct of the negated specification: a run satisfies it
// when the root's conditions hold initially and every witness is placed.
type lcase struct {
	form     *tform // the disjunct, for checking counterexamples
	root     *wnode
	loopGs   []ta.Expr // hold on the lasso's loop (from F G ...)
	loopFGs  []ta.Expr // those of loopGs from F G, which hold on every configuration of the loop
	needLoop bool
	nodes    int
}

type conj struct {
	op   byte // 'p', 'F', 'G', 'L' (holds in the lasso's repeated configuration)
	p    ta.Expr
	kid  []conj // F: the witness's conjuncts
	form *tform
}

const maxCases = 64

var errTooManyCases = fmt.Errorf("the negated specification has more than %d disjuncts", maxCases)

// cases splits a formula into disjuncts of conjunctions.
func cases(t *tform) ([][]conj, error) {
	switch t.op {
	case 'p':
		return [][]conj{{{op: 'p', p: t.p, form: t}}}, nil
	case '|':
		var out [][]conj
		for _, k := range t.kids {
			cs, err := cases(k)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
		if len(out) > maxCases {
			return nil, errTooManyCases
		}
		return out, nil
	case '&':
		return conjCases(t.kids, cases)
	case 'F':
		cs, err := cases(t.kids[0])
		if err != nil {
			return nil, err
		}
		out := make([][]conj, len(cs))
		for i, c := range cs {
			out[i] = []conj{{op: 'F', kid: c, form: &tform{op: 'F', kids: []*tform{conjForm(c)}}}}
		}
		return out, nil
	case 'G':
		return gcases(t.kids[0])
	}
	return nil, fmt.Errorf("unexpected formula")
}

// conjCases splits the conjunction of kids into cases, each kid split by
// split: a case per choice of one case of every kid.
func conjCases(kids []*tform, split func(*tform) ([][]conj, error)) ([][]conj, error) {
	out := [][]conj{{}}
	for _, k := range kids {
		cs, err := split(k)
		if err != nil {
			return nil, err
		}
		var next [][]conj
		for _, a := range out {
			for _, b := range cs {
				next = append(next, append(append([]conj(nil), a...), b...))
			}
		}
		out = next
		if len(out) > maxCases {
			return nil, errTooManyCases
		}
	}
	return out, nil
}

func gcases(t *tform) ([][]conj, error) {
	switch t.op {
	case 'p':
		return [][]conj{{{op: 'G', p: t.p, form: &tform{op: 'G', kids: []*tform{t}}}}}, nil
	case 'G':
		return gcases(t.kids[0])
	case '&':
		return conjCases(t.kids, gcases)
	case 'F':
		// G F q: every infinite run of an acyclic automaton ends in one
		// configuration that self-loops repeat, so q holds infinitely
		// often exactly when it holds in that configuration.
		if k := t.kids[0]; k.op == 'p' {
			return [][]conj{{{op: 'L', p: k.p, form: &tform{op: 'G', kids: []*tform{t}}}}}, nil
		}
		return nil, fmt.Errorf("G F over a temporal formula is outside the supported LTL(F,G) fragment")
	case '|':
		// G(p || F q) where p implies q is G F q: F q holds wherever p
		// does. ByMC's fairness [](some_ri -> <>no_ri) has this shape.
		if q, ok := impliedEventually(t); ok {
			return gcases(&tform{op: 'F', kids: []*tform{q}})
		}
	}
	return nil, fmt.Errorf("G over a disjunction of temporal formulas is outside the supported LTL(F,G) fragment")
}

// impliedEventually recognises p || F q, in either order, where the
// state condition p implies the state condition q, and returns q.
func impliedEventually(t *tform) (*tform, bool) {
	if len(t.kids) != 2 {
		return nil, false
	}
	for i := range 2 {
		p, f := t.kids[i], t.kids[1-i]
		if p.op == 'p' && f.op == 'F' && f.kids[0].op == 'p' && implies(p.p, f.kids[0].p) {
			return f.kids[0], true
		}
	}
	return nil, false
}

// implies reports whether p implies q by their conjunctive normal forms:
// every clause of q contains a clause of p. It may answer false for a
// valid implication, never true for an invalid one.
func implies(p, q ta.Expr) bool {
	cp, ok1 := cnf(p, false)
	cq, ok2 := cnf(q, false)
	if !ok1 || !ok2 {
		return false
	}
	keys := func(c []lit) (map[string]bool, bool) {
		m := map[string]bool{}
		for _, l := range c {
			k, ok := litKey(l)
			if !ok {
				return nil, false
			}
			m[k] = true
		}
		return m, true
	}
	var pk []map[string]bool
	for _, c := range cp {
		if k, ok := keys(c); ok {
			pk = append(pk, k)
		}
	}
	for _, c := range cq {
		qk, ok := keys(c)
		if !ok {
			return false
		}
		found := false
		for _, k := range pk {
			sub := true
			for l := range k {
				sub = sub && qk[l]
			}
			found = found || sub
		}
		if !found {
			return false
		}
	}
	return true
}

// negCmp negates a comparison.
var negCmp = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}

// litKey is a canonical text of an integer literal as d <= 0, d == 0 or
// d != 0, so that !(x != 0) and x == 0, or !(x < y) and y <= x, have the
// same key.
func litKey(l lit) (string, bool) {
	x, err1 := ta.Linear(l.e.X)
	y, err2 := ta.Linear(l.e.Y)
	if err1 != nil || err2 != nil {
		return "", false
	}
	d := x.Add(y.Scale(-1))
	op := l.e.Op
	if l.neg {
		op = negCmp[op]
	}
	switch op {
	case "<=":
	case "<": // d < 0 iff d + 1 <= 0
		d.Const++
		op = "<="
	case ">=":
		d = d.Scale(-1)
		op = "<="
	case ">": // d > 0 iff -d + 1 <= 0
		d = d.Scale(-1)
		d.Const++
		op = "<="
	case "==", "!=":
		if vs := d.Vars(); len(vs) > 0 && d.Coef[vs[0]] < 0 || len(vs) == 0 && d.Const < 0 {
			d = d.Scale(-1)
		}
	default:
		return "", false
	}
	return op + " " + d.Key(), true
}

func conjForm(c []conj) *tform {
	if len(c) == 1 {
		return c[0].form
	}
	t := &tform{op: '&'}
	for _, x := range c {
		t.kids = append(t.kids, x.form)
	}
	return t
}

// buildCase turns a conjunction into a witness tree.
func buildCase(c []conj) *lcase {
	lc := &lcase{form: conjForm(c)}
	lc.root = lc.node(c, true)
	lc.needLoop = len(lc.loopGs) > 0 || lc.anyG(lc.root)
	return lc
}

func (lc *lcase) anyG(n *wnode) bool {
	if len(n.gs) > 0 {
		return true
	}
	for _, k := range n.kids {
		if lc.anyG(k) {
			return true
		}
	}
	return false
}

func (lc *lcase) node(c []conj, root bool) *wnode {
	n := &wnode{id: lc.nodes}
	lc.nodes++
	for _, x := range c {
		switch x.op {
		case 'p':
			n.props = append(n.props, x.p)
		case 'G':
			n.gs = append(n.gs, x.p)
		case 'L':
			lc.loopGs = append(lc.loopGs, x.p)
		case 'F':
			k := lc.node(x.kid, false)
			switch {
			case len(k.props) == 0 && len(k.kids) == 0 && len(k.gs) > 0:
				// F G g: g holds on the loop of a lasso.
				lc.loopGs = append(lc.loopGs, k.gs...)
				lc.loopFGs = append(lc.loopFGs, k.gs...)
			case len(k.props) == 0 && len(k.gs) == 0:
				n.kids = append(n.kids, k.kids...) // F F x = F x
			default:
				n.kids = append(n.kids, k)
			}
		}
	}
	return n
}

// specCases negates a specification and splits it.
func specCases(spec ta.Expr) ([]*lcase, error) {
	cs, err := cases(nnf(spec, true))
	if err != nil {
		return nil, err
	}
	out := make([]*lcase, len(cs))
	for i, c := range cs {
		out[i] = buildCase(c)
	}
	return out, nil
}

// gclause is one clause of a G condition in conjunctive normal form.
type gclause struct {
	ctx     *bexpr // the literals over shared variables and parameters
	zero    []int  // locations l with literal k_l == 0
	nonzero []int  // locations l with literal k_l != 0
	general bool   // literals the engine cannot place exactly
}

// gcond is a G condition prepared for segments.
type gcond struct {
	expr    ta.Expr
	clauses []gclause
}

type lit struct {
	e   *ta.Binary
	neg bool
}

// pushNeg says how a negation (neg) of x op y goes into it, for op &&, ||
// or ->: x's polarity (y keeps neg), and whether the result is a
// conjunction of the two.
func pushNeg(op string, neg bool) (xneg, and bool) {
	if op == "->" {
		return !neg, neg
	}
	return neg, (op == "&&") != neg
}

func cnf(e ta.Expr, neg bool) ([][]lit, bool) {
	switch e := e.(type) {
	case *ta.BoolLit:
		if e.Val != neg {
			return nil, true
		}
		return [][]lit{{}}, true
	case *ta.Unary:
		if e.Op == "!" {
			return cnf(e.X, !neg)
		}
	case *ta.Binary:
		switch e.Op {
		case "&&", "||", "->":
			xn, and := pushNeg(e.Op, neg)
			x, ok1 := cnf(e.X, xn)
			y, ok2 := cnf(e.Y, neg)
			if !ok1 || !ok2 {
				return nil, false
			}
			if and {
				return append(x, y...), true
			}
			if len(x)*len(y) > 256 {
				return nil, false
			}
			var out [][]lit
			for _, a := range x {
				for _, b := range y {
					out = append(out, append(append([]lit(nil), a...), b...))
				}
			}
			return out, true
		default:
			return [][]lit{{{e, neg}}}, true
		}
	}
	return nil, false
}

// prepareG classifies the clauses of a G condition; shared-variable
// literals become atoms so that segments keep them constant.
func (m *model) prepareG(e ta.Expr) (*gcond, error) {
	g := &gcond{expr: e}
	cl, ok := cnf(e, false)
	if !ok {
		g.clauses = []gclause{{general: true}}
		return g, nil
	}
	for _, c := range cl {
		gc := gclause{ctx: bFalse}
		for _, l := range c {
			x, err1 := ta.Linear(l.e.X)
			y, err2 := ta.Linear(l.e.Y)
			if err1 != nil || err2 != nil {
				gc.general = true
				continue
			}
			d := x.Add(y.Scale(-1))
			hasLoc := len(d.Only(ta.Local).Coef) > 0
			hasSh := len(d.Only(ta.Shared).Coef) > 0
			switch {
			case hasLoc && hasSh:
				gc.general = true
			case hasLoc:
				loc, zero, ok := counterLit(d, l.e.Op, l.neg)
				switch {
				case !ok:
					gc.general = true
				case zero:
					gc.zero = append(gc.zero, loc)
				default:
					gc.nonzero = append(gc.nonzero, loc)
				}
			default:
				b, err := m.compileCmp(l.e, l.neg)
				if err != nil {
					return nil, err
				}
				gc.ctx = mkOr(gc.ctx, b)
			}
		}
		if len(gc.zero) > 1 || len(gc.zero) > 0 && len(gc.nonzero) > 0 {
			gc.general = true
		}
		g.clauses = append(g.clauses, gc)
	}
	return g, nil
}

// counterLit recognises d op 0 (negated when neg) as k_l == 0 or k_l != 0.
func counterLit(d ta.Lin, op string, neg bool) (loc int, zero bool, ok bool) {
	if len(d.Coef) != 1 {
		return 0, false, false
	}
	var v ta.Var
	var c int64
	for v, c = range d.Coef {
	}
	if neg {
		op = negCmp[op]
	}
	if c < 0 { // -k + c0 op 0  <=>  k - c0 flip(op) 0
		d = d.Scale(-1)
		op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[op]
	}
	if d.Coef[v] != 1 {
		return 0, false, false
	}
	k := -d.Const // k op k0 where k0 = -Const
	switch {
	case op == "==" && k == 0, op == "<=" && k == 0, op == "<" && k == 1:
		return v.Index, true, true
	case op == "!=" && k == 0, op == ">" && k == 0, op == ">=" && k == 1:
		return v.Index, false, true
	}
	return 0, false, false
}

// IsSafety reports whether spec is a safety specification: every
// counterexample to it has a finite prefix that shows it (no case of its
// negation needs a lasso). TACO checks only these.
func IsSafety(spec ta.Expr) (bool, error) {
	cs, err := specCases(spec)
	if err != nil {
		return false, err
	}
	for _, c := range cs {
		if c.needLoop {
			return false, nil
		}
	}
	return true, nil
}
