package mcmt

import (
	"fmt"
	"slices"
	"strings"

	"ftmc/internal/clip"
	"ftmc/mcmt/system"
)

// parser holds what the three syntaxes share: the token stream, error
// reporting, expressions and their conversion to the model's terms and
// formulas.
type parser struct {
	lx *lexer
	// toks are the tokens scanned so far (the lexer runs only as far as
	// the parser looks); toks[i] is the next.
	toks  []token
	i     int
	depth int // nesting of expressions being read
	// iffNodes counts the nodes of <=> written out (expand); sizes
	// memoizes treeSize.
	iffNodes int
	sizes    map[*system.Formula]int
	sys      *system.System
	// consts are named constants: Cubicle's constructors (True, False and
	// enumerated types).
	consts map[string]system.Term
	// pendingArrays are option values that must name an array declared
	// anywhere in the model (checkArrays).
	pendingArrays []pendingArray
}

// bailout unwinds the parser to Parse on the first error; it never leaves
// this package.
type bailout struct{ err *Error }

func (p *parser) failAt(t token, format string, args ...any) {
	panic(bailout{p.lx.errorf(t.off, t.pos, format, args...)})
}

func (p *parser) failExpr(e *pexpr, format string, args ...any) {
	panic(bailout{p.lx.errorf(e.off, e.pos, format, args...)})
}

// maxDepth bounds the nesting of expressions (parentheses, operators),
// so that hostile input cannot exhaust the stack.
const maxDepth = 1000

// nest counts one more level of nesting at t; the caller defers unnest.
func (p *parser) nest(t token) {
	p.depth++
	if p.depth > maxDepth {
		p.failAt(t, "expression nested too deeply (more than %d levels)", maxDepth)
	}
}

func (p *parser) unnest() { p.depth-- }

// scan makes toks[n] available, unless the file ends before.
func (p *parser) scan(n int) {
	for len(p.toks) <= n && (len(p.toks) == 0 || p.toks[len(p.toks)-1].kind != tEOF) {
		t, err := p.lx.next()
		if err != nil {
			panic(bailout{err})
		}
		p.toks = append(p.toks, t)
	}
}

func (p *parser) peek() token { return p.peekAt(0) }

func (p *parser) peekAt(k int) token {
	p.scan(p.i + k)
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.peek()
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// is reports whether the next token is the punctuation or name text.
func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tPunct || t.kind == tIdent || t.kind == tKey) && t.text == text
}

func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(text, context string) token {
	if !p.is(text) {
		t := p.peek()
		if context != "" {
			context = " " + context
		}
		p.failAt(t, "expected %q%s, found %s", text, context, t)
	}
	return p.next()
}

func (p *parser) ident(what string) token {
	t := p.peek()
	if t.kind != tIdent {
		p.failAt(t, "expected %s, found %s", what, t)
	}
	return p.next()
}

func (p *parser) number(what string) int64 {
	neg := p.accept("-")
	t := p.peek()
	if t.kind != tNum {
		p.failAt(t, "expected %s, found %s", what, t)
	}
	p.next()
	if neg {
		return -t.num
	}
	return t.num
}

// builtinSorts are the sorts every syntax names alike; each lists those it
// knows.
var builtinSorts = map[string]system.Sort{
	"bool": sortBool,
	"int":  sortInt,
	"nat":  {Kind: system.Int, HasLo: true},
	"proc": sortProc,
}

// builtinSort gives the sort t names when it is one of names; it refuses
// real-valued what (variables, arrays) by name, and reports false for
// another name, which the syntax's own types may define.
func (p *parser) builtinSort(t token, what string, names ...string) (system.Sort, bool) {
	if slices.Contains(names, t.text) {
		return builtinSorts[t.text], true
	}
	if t.text == "real" {
		p.failAt(t, "real-valued %s are not supported", what)
	}
	return system.Sort{}, false
}

// pexpr is an expression as written, before names are resolved and terms
// are told apart from formulas.
type pexpr struct {
	op    string // num bool name read any neg + - = != < <= > >= and or not imp iff forall_other
	num   int64
	name  string
	index string
	args  []*pexpr
	pos   system.Pos
	off   int
}

func (p *parser) mk(t token, op string, args ...*pexpr) *pexpr {
	return &pexpr{op: op, args: args, pos: t.pos, off: t.off}
}

// The expressions below the logical operators are written alike in
// Cubicle and MCMT: each syntax passes its own operands to these.

// chain reads operands separated by the token tok as one n-ary node op
// (an operand alone as itself), so that a long chain is one level deep.
func (p *parser) chain(tok, op string, operand func() *pexpr) *pexpr {
	e := operand()
	if !p.is(tok) {
		return e
	}
	x := p.mk(p.peek(), op, e)
	for p.accept(tok) {
		x.args = append(x.args, operand())
	}
	return x
}

// prefix reads the operand of the prefix operator t, already read, as the
// node op, one level of nesting deeper.
func (p *parser) prefix(t token, op string, operand func() *pexpr) *pexpr {
	p.nest(t)
	defer p.unnest()
	return p.mk(t, op, operand())
}

// comparison reads a sum and, when a comparison operator other than
// except follows, the sum it is compared with.
func (p *parser) comparison(primary func() *pexpr, except string) *pexpr {
	e := p.sum(primary)
	if t := p.peek(); t.kind == tPunct && t.text != except {
		if op, ok := cmpOps[t.text]; ok {
			p.next()
			e = p.mk(t, op, e, p.sum(primary))
		}
	}
	return e
}

// sum reads a + b - c ...: each operator is a level of the tree.
func (p *parser) sum(primary func() *pexpr) *pexpr {
	e := primary()
	levels := 0
	defer func() { p.depth -= levels }()
	for p.is("+") || p.is("-") {
		t := p.next()
		p.nest(t)
		levels++
		e = p.mk(t, t.text, e, primary())
	}
	return e
}

// primary reads a number, -x, a parenthesized expr, true, false, a name
// or a[i]. Names for which keyword holds are not terms; Cubicle's arrays
// may have more dimensions (a[i, j]), which multiDim refuses by name.
func (p *parser) primary(expr func() *pexpr, keyword func(string) bool, multiDim bool) *pexpr {
	t := p.peek()
	switch {
	case t.kind == tNum || p.is("true") || p.is("false"):
		return p.constant(p.next())
	case p.is("-"):
		return p.prefix(p.next(), "neg", func() *pexpr { return p.primary(expr, keyword, multiDim) })
	case p.is("("):
		p.next()
		e := expr()
		p.expect(")", "to close the parenthesis")
		return e
	case t.kind == tIdent && !keyword(t.text):
		p.next()
		return p.variable(t, t.text, multiDim)
	}
	p.failAt(t, "expected a term or formula, found %s", t)
	return nil
}

// constant gives the node of t, a number, true or false.
func (p *parser) constant(t token) *pexpr {
	if t.kind == tNum {
		e := p.mk(t, "num")
		e.num = t.num
		return e
	}
	e := p.mk(t, "bool")
	if t.text == "true" {
		e.num = 1
	}
	return e
}

// variable reads the index, if any, after t, the name of a variable (as
// name) already read: a[i] is a read of the array a, a alone its name.
func (p *parser) variable(t token, name string, multiDim bool) *pexpr {
	if p.accept("[") {
		idx := p.ident("a process variable as index")
		if multiDim && p.is(",") {
			p.failAt(p.peek(), "multi-dimensional arrays are not supported")
		}
		p.expect("]", "after the index")
		e := p.mk(t, "read")
		e.name, e.index = name, idx.text
		return e
	}
	e := p.mk(t, "name")
	e.name = name
	return e
}

// quant reads a formula in braces over vars: the initial, unsafe or
// invariant formula that kw starts.
func (p *parser) quant(kw token, vars []string, expr func() *pexpr) *system.Quant {
	p.expect("{", "before the formula")
	body := p.form(expr(), vars)
	p.expect("}", "after the formula")
	return &system.Quant{Name: kw.doc, Vars: vars, Body: body, Pos: kw.pos}
}

var cmpOps = map[string]string{"=": "=", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

func isCmp(op string) bool {
	switch op {
	case "=", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func isLogic(op string) bool {
	switch op {
	case "and", "or", "not", "imp", "iff", "forall_other":
		return true
	}
	return isCmp(op)
}

// scope is the list of process variables a formula may use.
type scope []string

func (s scope) has(name string) bool { return slices.Contains(s, name) }

var sortInt = system.Sort{Kind: system.Int}
var sortBool = system.Sort{Kind: system.Bool}
var sortProc = system.Sort{Kind: system.Proc}

// term converts an expression that denotes a value.
func (p *parser) term(e *pexpr, sc scope) system.Term {
	switch e.op {
	case "num":
		return system.Term{Kind: system.Const, Off: e.num, Sort: sortInt, Pos: e.pos}
	case "bool":
		return system.Term{Kind: system.Const, Off: e.num, Sort: sortBool, Pos: e.pos}
	case "any":
		return system.Term{Kind: system.Any, Pos: e.pos}
	case "name":
		if sc.has(e.name) {
			return system.Term{Kind: system.ProcID, Index: e.name, Sort: sortProc, Pos: e.pos}
		}
		if v := p.sys.Var(e.name); v != nil {
			if v.Local {
				p.failExpr(e, "%s is a local array: write %s[i] with a process variable i", e.name, e.name)
			}
			return system.Term{Kind: system.Read, Var: v, Sort: v.Sort, Pos: e.pos}
		}
		if c, ok := p.consts[e.name]; ok {
			c.Pos = e.pos
			return c
		}
		if len(sc) > 0 {
			p.failExpr(e, "unknown name %s (process variables here: %s)", e.name, strings.Join(sc, ", "))
		}
		p.failExpr(e, "unknown name %s", e.name)
	case "read":
		v := p.sys.Var(e.name)
		if v == nil {
			p.failExpr(e, "unknown array %s", e.name)
		}
		if !sc.has(e.index) {
			if len(sc) == 0 {
				p.failExpr(e, "unknown process variable %s (none is in scope here)", e.index)
			}
			p.failExpr(e, "unknown process variable %s (process variables here: %s)", e.index, strings.Join(sc, ", "))
		}
		t := system.Term{Kind: system.Read, Var: v, Sort: v.Sort, Pos: e.pos}
		if v.Local {
			t.Index = e.index
		}
		return t
	case "neg":
		t := p.term(e.args[0], sc)
		if t.Kind != system.Const || !t.Sort.Numeric() {
			p.failExpr(e, "expected a number after unary minus")
		}
		t.Off = -t.Off
		t.Pos = e.pos
		return t
	case "+", "-":
		l, r := p.term(e.args[0], sc), p.term(e.args[1], sc)
		if l.Kind == system.Any || r.Kind == system.Any {
			p.failExpr(e, "a nondeterministic value cannot be added to")
		}
		if !l.Sort.Numeric() || !r.Sort.Numeric() {
			p.failExpr(e, "%s needs numbers on both sides", e.op)
		}
		if e.op == "+" && l.Kind == system.Const && r.Kind != system.Const {
			l, r = r, l
		}
		if r.Kind != system.Const {
			p.failExpr(e, "sums of two variables are not supported: one side of %s must be a constant", e.op)
		}
		if e.op == "+" {
			l.Off += r.Off
		} else {
			l.Off -= r.Off
		}
		if l.Kind != system.Const {
			l.Sort = sortInt
		}
		l.Pos = e.pos
		return l
	}
	if isLogic(e.op) {
		p.failExpr(e, "expected a value, found a formula")
	}
	p.failExpr(e, "expected a value")
	return system.Term{}
}

func compatible(a, b system.Sort) bool {
	if a.Numeric() && b.Numeric() {
		return true
	}
	return a.Kind == b.Kind && a.Enum == b.Enum
}

// form converts an expression that denotes a formula.
func (p *parser) form(e *pexpr, sc scope) *system.Formula {
	switch e.op {
	case "and", "or":
		fs := make([]*system.Formula, len(e.args))
		for i, a := range e.args {
			fs[i] = p.form(a, sc)
		}
		if e.op == "and" {
			return system.Conj(fs...)
		}
		return system.Disj(fs...)
	case "not":
		return &system.Formula{Kind: system.Not, Args: []*system.Formula{p.form(e.args[0], sc)}, Pos: e.pos}
	case "imp":
		a, b := p.form(e.args[0], sc), p.form(e.args[1], sc)
		return system.Disj(&system.Formula{Kind: system.Not, Args: []*system.Formula{a}, Pos: e.pos}, b)
	case "iff":
		a, b := p.form(e.args[0], sc), p.form(e.args[1], sc)
		p.expand(e, 2*(p.treeSize(a)+p.treeSize(b)))
		na := &system.Formula{Kind: system.Not, Args: []*system.Formula{a}, Pos: e.pos}
		nb := &system.Formula{Kind: system.Not, Args: []*system.Formula{b}, Pos: e.pos}
		return system.Conj(system.Disj(na, b), system.Disj(nb, a))
	case "bool":
		if e.num != 0 {
			return &system.Formula{Kind: system.True, Pos: e.pos}
		}
		return &system.Formula{Kind: system.False, Pos: e.pos}
	case "forall_other":
		p.failExpr(e, "forall_other is only allowed in the requires clause of a transition, as a conjunct")
	}
	if !isCmp(e.op) {
		if t := p.term(e, sc); t.Sort.Kind == system.Bool {
			// A Boolean value used as a formula: b means b = true.
			return &system.Formula{Kind: system.Lit, Op: system.Eq, L: t, R: system.C(1, sortBool), Pos: e.pos}
		}
		p.failExpr(e, "expected a formula (a comparison such as a[x] = true), found a value")
	}
	l, r := p.term(e.args[0], sc), p.term(e.args[1], sc)
	if l.Kind == system.Any || r.Kind == system.Any {
		p.failExpr(e, "a nondeterministic value can only be assigned")
	}
	if !compatible(l.Sort, r.Sort) {
		p.failExpr(e, "cannot compare %s (%s) with %s (%s)", l, l.Sort, r, r.Sort)
	}
	ops := map[string]system.Op{"=": system.Eq, "!=": system.Ne, "<": system.Lt, "<=": system.Le, ">": system.Gt, ">=": system.Ge}
	op := ops[e.op]
	if op != system.Eq && op != system.Ne && !l.Sort.Numeric() {
		p.failExpr(e, "%s compares numbers, not %s values", e.op, l.Sort)
	}
	return &system.Formula{Kind: system.Lit, Op: op, L: l, R: r, Pos: e.pos}
}

// A <=> B is written with A and B twice, so nested <=> doubles a formula
// at each level for those that walk it: maxIff bounds the nodes of one
// <=> so expanded, maxIffTotal those of all of them.
const (
	maxIff      = 1 << 16
	maxIffTotal = 1 << 20
)

// expand counts n more nodes for the <=> e.
func (p *parser) expand(e *pexpr, n int) {
	p.iffNodes += n
	switch {
	case n > maxIff:
		p.failExpr(e, "formula too large with <=> written out (more than %d nodes): nest fewer <=>", maxIff)
	case p.iffNodes > maxIffTotal:
		p.failExpr(e, "formulas too large with <=> written out (more than %d nodes in all)", maxIffTotal)
	}
}

// treeSize is the number of nodes of f written out as a tree (shared
// subformulas counted each time), at most maxIffTotal+1.
func (p *parser) treeSize(f *system.Formula) int {
	if n, ok := p.sizes[f]; ok {
		return n
	}
	n := 1
	for _, a := range f.Args {
		n = min(n+p.treeSize(a), maxIffTotal+1)
	}
	if p.sizes == nil {
		p.sizes = map[*system.Formula]int{}
	}
	p.sizes[f] = n
	return n
}

// assignable reports whether a value of sort v may be stored in a variable
// of sort to.
func assignable(to system.Sort, v system.Term) bool {
	if v.Kind == system.Any {
		return true
	}
	return compatible(to, v.Sort)
}

// updates collects the updates of one transition, variable by variable, so
// that a[x] := e; a[y] := f and a lambda over a become one case list.
type updates struct {
	p     *parser
	order []*system.Var
	byVar map[*system.Var]*pendingUpdate
}

type pendingUpdate struct {
	u         *system.Update
	points    map[string]bool // parameters with a point update
	otherwise bool            // the last case is a whole-array default
}

func newUpdates(p *parser) *updates {
	return &updates{p: p, byVar: map[*system.Var]*pendingUpdate{}}
}

func (us *updates) get(v *system.Var, j string, pos system.Pos) *pendingUpdate {
	pu := us.byVar[v]
	if pu == nil {
		pu = &pendingUpdate{u: &system.Update{Var: v, J: j, Pos: pos}, points: map[string]bool{}}
		if !v.Local {
			pu.u.J = ""
		}
		us.byVar[v] = pu
		us.order = append(us.order, v)
	}
	return pu
}

// renameJ rewrites process variable from to the update's J in a formula or
// term that was written with another lambda variable name.
func renameTerm(t system.Term, from, to string) system.Term {
	if from != to && t.Index == from && (t.Kind == system.Read || t.Kind == system.ProcID) {
		t.Index = to
	}
	return t
}

func renameForm(f *system.Formula, from, to string) *system.Formula {
	if f == nil || from == to {
		return f
	}
	g := *f
	g.L, g.R = renameTerm(f.L, from, to), renameTerm(f.R, from, to)
	g.Args = make([]*system.Formula, len(f.Args))
	for i, a := range f.Args {
		g.Args[i] = renameForm(a, from, to)
	}
	return &g
}

// updJ names the index of point updates; no source can declare it.
const updJ = "j'"

// point records a[x] := val (x a parameter), or g := val for a global.
func (us *updates) point(v *system.Var, x string, val system.Term, at *pexpr) {
	pu := us.get(v, updJ, at.pos)
	if !v.Local {
		if len(pu.u.Cases) > 0 {
			us.p.failExpr(at, "%s is assigned twice in this transition", v.Name)
		}
		pu.u.Cases = []system.Case{{Val: val}}
		pu.otherwise = true
		return
	}
	if pu.points[x] {
		us.p.failExpr(at, "%s[%s] is assigned twice in this transition", v.Name, x)
	}
	pu.points[x] = true
	cond := &system.Formula{Kind: system.Lit, Op: system.Eq,
		L: system.Term{Kind: system.ProcID, Index: pu.u.J, Sort: sortProc},
		R: system.Term{Kind: system.ProcID, Index: x, Sort: sortProc}, Pos: at.pos}
	// Point updates go before any lambda's cases: they are more specific.
	n := 0
	for n < len(pu.u.Cases) && pu.u.Cases[n].Cond != nil && isPoint(pu.u.Cases[n].Cond, pu.u.J) {
		n++
	}
	pu.u.Cases = slices.Insert(pu.u.Cases, n, system.Case{Cond: cond, Val: val})
}

func isPoint(f *system.Formula, j string) bool {
	return f.Kind == system.Lit && f.Op == system.Eq && f.L.Kind == system.ProcID && f.L.Index == j && f.R.Kind == system.ProcID
}

// lambda records a[j] := cases for every j (cases written with variable j),
// restricted to the processes where restrict holds (nil: all).
func (us *updates) lambda(v *system.Var, j string, restrict *system.Formula, cases []system.Case, at *pexpr) {
	pu := us.get(v, j, at.pos)
	if !v.Local {
		us.p.failExpr(at, "%s is a global: assign it with %s := value", v.Name, v.Name)
	}
	if pu.otherwise {
		us.p.failExpr(at, "%s is assigned by two lambdas in this transition", v.Name)
	}
	J := pu.u.J
	restrict = renameForm(restrict, j, J)
	for _, c := range cases {
		cond := renameForm(c.Cond, j, J)
		val := renameTerm(c.Val, j, J)
		switch {
		case restrict == nil && cond == nil:
			pu.otherwise = true
		case restrict == nil:
		case cond == nil:
			cond = restrict
		default:
			cond = system.Conj(restrict, cond)
		}
		pu.u.Cases = append(pu.u.Cases, system.Case{Cond: cond, Val: val})
	}
}

// finish closes every update with its default (the array keeps its value)
// and returns them in the order they were written.
func (us *updates) finish() []*system.Update {
	var out []*system.Update
	for _, v := range us.order {
		pu := us.byVar[v]
		if !pu.otherwise {
			keep := system.Term{Kind: system.Read, Var: v, Sort: v.Sort}
			if v.Local {
				keep.Index = pu.u.J
			}
			pu.u.Cases = append(pu.u.Cases, system.Case{Val: keep})
		}
		out = append(out, pu.u)
	}
	return out
}

// checkSystem verifies what every syntax must provide.
func (p *parser) checkSystem() {
	s := p.sys
	if len(s.Unsafe) == 0 {
		p.failAt(p.peek(), "the model has no unsafe formula: nothing to verify")
	}
	seen := map[string]bool{}
	for _, t := range s.Trans {
		if seen[t.Name] {
			panic(bailout{&Error{File: p.lx.file, Pos: t.Pos, Msg: fmt.Sprintf("a second transition named %s", clip.Text(t.Name))}})
		}
		seen[t.Name] = true
	}
}
