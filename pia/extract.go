package pia

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"ftmc/promela"
	"ftmc/smt"
)

// Error is a model outside the class the abstraction handles, at the
// position of the construct.
type Error struct {
	Pos promela.Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

func errorf(p promela.Pos, format string, args ...any) error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// Options configure Extract.
type Options struct {
	// Thresholds, when not empty, replaces the thresholds collected from
	// the model (ByMC's -O piaDom.thresholds=...): expressions over the
	// parameters, such as "0", "F", "MAJ", "N-T". 0 and 1 are always
	// added.
	Thresholds []string
	// More adds thresholds to those collected or given, as a refinement
	// (the thresholds of the model's #pragma when the collected ones are
	// too coarse); MorePos is where they were written, MoreFrom says so
	// in the report.
	More     []string
	MorePos  promela.Pos
	MoreFrom string
	// Solver runs the queries of the abstraction (default: z3).
	Solver smt.Options
	// Cycles keeps each abstract local state a location of its own, so
	// that the automaton has the model's cycles (a control variable that
	// toggles, a local reset), for the counter abstraction with
	// refinement. Otherwise the states between which a process moves back
	// and forth become one location, as the schema technique needs.
	Cycles bool
}

// maxPaths bounds the paths through one step of one abstract local state.
const maxPaths = 200000

// maxLocations bounds the abstract local states.
const maxLocations = 5000

// sstate is a symbolic state during one step: the values of the locals as
// linear terms, the increments of the shared variables, and the path
// condition.
type sstate struct {
	env map[*promela.Symbol]lin
	inc map[*promela.Symbol]int64
	cs  []cons
}

func (s *sstate) clone() *sstate {
	t := &sstate{env: make(map[*promela.Symbol]lin, len(s.env)), inc: make(map[*promela.Symbol]int64, len(s.inc)), cs: append([]cons(nil), s.cs...)}
	for k, v := range s.env {
		t.env[k] = v
	}
	for k, v := range s.inc {
		t.inc[k] = v
	}
	return t
}

type extractor struct {
	ctx    context.Context
	prog   *promela.Program
	proc   *promela.ProcDecl
	loop   *promela.DoStmt
	labels map[string]bool // labels of the main loop
	init   []promela.Stmt

	locals     []*promela.Symbol
	bounded    map[*promela.Symbol]bool
	shared     []*promela.Symbol
	sharedInit map[*promela.Symbol]int64
	params     []*promela.Symbol

	thr     []lin // thresholds, weakly increasing under the case's assumptions
	rcTerms []string
	rcLin   []cons // the linear conjunctive part of the assumptions, for pruning
	solver  smt.Solver
	fresh   int
	paths   int
	queries int64
	memo    map[string]smt.Status
	cycles  bool // Options.Cycles
}

func localSym(s *promela.Symbol) string  { return "l:" + s.Name }
func sharedSym(s *promela.Symbol) string { return "s:" + s.Name }

// shape finds the process, its initialisation and its main loop, and
// classifies the variables.
func (x *extractor) shape() error {
	p := x.prog
	if len(p.Nevers) > 0 {
		return errorf(p.Nevers[0].Pos(), "never claims are not supported in parameterized verification: state the property as an ltl formula over atomic propositions")
	}
	if p.Init != nil {
		return errorf(p.Init.Pos(), "an init process is outside the class: the processes must be one active proctype, active [N] proctype P() (or active [N - F])")
	}
	if len(p.Procs) != 1 {
		if len(p.Procs) == 0 {
			// Spin refuses such a model too ("no runable process").
			return errorf(promela.MakePos(&p.Filename, 1, 1), "no process runs: the model has no proctype: expected one active [N] proctype")
		}
		return errorf(p.Procs[1].Pos(), "a second proctype is outside the class: expected exactly one active [N] proctype (the thesis's processes are all copies of one)")
	}
	x.proc = p.Procs[0]
	if !x.proc.Active {
		return errorf(x.proc.Pos(), "the proctype must be active with a parametric count: active [N] proctype (or active [N - F])")
	}
	if len(x.proc.Params) > 0 {
		return errorf(x.proc.Params[0].Pos(), "proctype parameters are outside the class: every process must start alike")
	}
	if x.proc.Provided != nil {
		return errorf(x.proc.Provided.Pos(), "provided clauses are outside the class")
	}
	if len(p.Params) == 0 {
		return errorf(promela.MakePos(&p.Filename, 1, 1), "the model has no symbolic parameters (symbolic int N, T, F;): check it with ftmc check")
	}
	x.params = p.Params
	for _, g := range p.Globals {
		s := g.Name.Sym
		if g.Len != nil || g.Chan != nil || g.Type.Kind == promela.CHAN {
			return errorf(g.Pos(), "global %s: arrays and channels are outside the class: messages are counted in shared int variables (int nsnt;)", s.Name)
		}
		if t := s.Type; t == nil || t.Kind == promela.TStruct || t.Kind == promela.TArray {
			return errorf(g.Pos(), "global %s: only integer shared variables are supported", s.Name)
		}
		v := int64(0)
		if g.Init != nil {
			l, err := x.rawArith(g.Init)
			if err != nil {
				return err
			}
			if !l.isConst() {
				return errorf(g.Init.Pos(), "the initial value of shared variable %s must be a constant", s.Name)
			}
			v = l.k
		}
		if v < 0 {
			return errorf(g.Init.Pos(), "shared variable %s starts negative: shared variables count messages and only grow", s.Name)
		}
		x.shared = append(x.shared, s)
		x.sharedInit[s] = v
	}
	body := x.proc.Body.Stmts
	idx := -1
	for i, s := range body {
		labels := map[string]bool{}
		for {
			if l, ok := s.(*promela.LabeledStmt); ok {
				labels[l.Label.Name] = true
				s = l.Stmt
				continue
			}
			break
		}
		if d, ok := s.(*promela.DoStmt); ok {
			idx = i
			x.loop = d
			x.labels = labels
		}
	}
	if idx < 0 {
		return errorf(x.proc.Body.Rbrace, "the process has no main loop: expected its initialisation followed by do :: atomic { ... } od")
	}
	for _, s := range body[idx+1:] {
		return errorf(s.Pos(), "statements after the main loop are outside the class: the loop is where a process stays")
	}
	x.init = body[:idx]
	for _, d := range x.proc.Locals {
		s := d.Name.Sym
		if d.Len != nil || d.Chan != nil {
			return errorf(d.Pos(), "local %s: arrays and channels are outside the class", s.Name)
		}
		if d.Late {
			return errorf(d.Pos(), "local %s is declared inside the body: declare the locals at the top of the proctype", s.Name)
		}
		x.locals = append(x.locals, s)
	}
	return x.classify()
}

// classify finds the bounded locals: those assigned only constants and
// other bounded locals (control variables). The others are data
// variables, abstracted into intervals between the thresholds.
func (x *extractor) classify() error {
	for _, s := range x.locals {
		x.bounded[s] = true
	}
	for changed := true; changed; {
		changed = false
		unbound := func(s *promela.Symbol) {
			if s != nil && x.bounded[s] {
				x.bounded[s] = false
				changed = true
			}
		}
		var visit func(ss []promela.Stmt)
		visit = func(ss []promela.Stmt) {
			for _, st := range ss {
				promela.Inspect(st, func(n promela.Node) bool {
					switch n := n.(type) {
					case *promela.AssignStmt:
						if id, ok := n.LHS.(*promela.Ident); ok && x.isLocal(id.Sym) && !x.boundedExpr(n.RHS) {
							unbound(id.Sym)
						}
					case *promela.IncDecStmt:
						if id, ok := n.X.(*promela.Ident); ok && x.isLocal(id.Sym) {
							unbound(id.Sym)
						}
					case *promela.HavocStmt:
						if id, ok := n.X.(*promela.Ident); ok && x.isLocal(id.Sym) {
							unbound(id.Sym)
						}
					}
					return true
				})
			}
		}
		visit(x.proc.Body.Stmts)
		for _, d := range x.proc.Locals {
			if d.Init != nil && !x.boundedExpr(d.Init) {
				unbound(d.Name.Sym)
			}
		}
	}
	return nil
}

func (x *extractor) isLocal(s *promela.Symbol) bool {
	return s != nil && s.Kind == promela.SymVar && s.Proc == x.proc
}

func (x *extractor) boundedExpr(e promela.Expr) bool {
	switch e := e.(type) {
	case *promela.IntLit:
		return true
	case *promela.Ident:
		if e.Sym == nil {
			return false
		}
		switch e.Sym.Kind {
		case promela.SymMtype:
			return true
		case promela.SymVar:
			return x.isLocal(e.Sym) && x.bounded[e.Sym]
		}
	case *promela.UnaryExpr:
		if e.Op == promela.SUB {
			_, ok := e.X.(*promela.IntLit)
			return ok
		}
	}
	return false
}

// rawArith evaluates an expression with every variable as a symbol of its
// value before the step (for thresholds and initial values).
func (x *extractor) rawArith(e promela.Expr) (lin, error) {
	st := &sstate{env: map[*promela.Symbol]lin{}, inc: map[*promela.Symbol]int64{}}
	for _, s := range x.locals {
		st.env[s] = symLin(localSym(s))
	}
	return x.arith(e, st, nil)
}

// quant is the process a quantified proposition ranges over: its locals
// are read from the location being evaluated.
type quant struct{ env map[*promela.Symbol]lin }

// arith evaluates an arithmetic expression to a linear term.
func (x *extractor) arith(e promela.Expr, st *sstate, q *quant) (lin, error) {
	switch e := e.(type) {
	case *promela.IntLit:
		return constLin(e.Value), nil
	case *promela.Ident:
		s := e.Sym
		if s == nil {
			return lin{}, errorf(e.Pos(), "unresolved name %s", e.Name)
		}
		switch s.Kind {
		case promela.SymMtype:
			return constLin(s.Value), nil
		case promela.SymParam:
			if s.Bound {
				return constLin(s.Value), nil
			}
			return symLin(s.Name), nil
		case promela.SymVar:
			if s.Proc == nil {
				l := symLin(sharedSym(s))
				if st != nil {
					return l.add(constLin(st.inc[s]))
				}
				return l, nil
			}
			if q != nil && s.Proc == x.proc {
				if v, ok := q.env[s]; ok {
					return v, nil
				}
			}
			if st != nil && s.Proc == x.proc {
				if v, ok := st.env[s]; ok {
					return v, nil
				}
			}
			return lin{}, errorf(e.Pos(), "%s is a local variable of %s: outside the process, refer to it inside all(...), some(...) or card(...) as %s:%s", s.Name, x.proc.ProcName(), x.proc.ProcName(), s.Name)
		case promela.SymPredef:
			return lin{}, errorf(e.Pos(), "%s is outside the class: processes of a parameterized model are anonymous", s.Name)
		}
		return lin{}, errorf(e.Pos(), "%s %s where a number is expected", s.Kind, s.Name)
	case *promela.RemoteRef:
		if q == nil || e.Var == nil {
			return lin{}, errorf(e.Pos(), "a remote reference is allowed only inside all(...), some(...) or card(...)")
		}
		if e.Index != nil {
			return lin{}, errorf(e.Index.Pos(), "a process index is outside the class: processes are anonymous; quantify with all/some/card")
		}
		return x.arith(e.Var, nil, q)
	case *promela.UnaryExpr:
		if e.Op == promela.SUB {
			v, err := x.arith(e.X, st, q)
			if err != nil {
				return lin{}, err
			}
			return v.scale(-1)
		}
	case *promela.BinaryExpr:
		switch e.Op {
		case promela.ADD, promela.SUB, promela.MUL, promela.QUO, promela.REM:
			a, err := x.arith(e.X, st, q)
			if err != nil {
				return lin{}, err
			}
			b, err := x.arith(e.Y, st, q)
			if err != nil {
				return lin{}, err
			}
			switch e.Op {
			case promela.ADD:
				return a.add(b)
			case promela.SUB:
				return a.sub(b)
			case promela.MUL:
				if a.isConst() {
					return b.scale(a.k)
				}
				if b.isConst() {
					return a.scale(b.k)
				}
				return lin{}, errorf(e.OpPos, "the product of two variables is outside the class: guards and updates must be linear")
			default:
				if a.isConst() && b.isConst() && b.k != 0 {
					if e.Op == promela.QUO {
						return constLin(a.k / b.k), nil
					}
					return constLin(a.k % b.k), nil
				}
				return lin{}, errorf(e.OpPos, "%s on variables or parameters is outside the class: introduce a parameter for the quotient with an assume (ByMC's NplusTdiv2)", e.Op)
			}
		}
		return lin{}, errorf(e.Pos(), "a condition (%s) where a number is expected", e.Op)
	case *promela.CallExpr:
		if e.Fun == promela.BuiltinCard {
			return lin{}, errorf(e.Pos(), "card(...) is allowed only in atomic propositions")
		}
		return lin{}, errorf(e.Pos(), "%s(...) is outside the class", e.Fun)
	case *promela.CondExpr:
		return lin{}, errorf(e.Pos(), "conditional expressions are outside the class: use if :: ... fi")
	case *promela.IndexExpr:
		return lin{}, errorf(e.Pos(), "arrays are outside the class")
	}
	return lin{}, errorf(e.Pos(), "%s is outside the class", promela.ExprString(e))
}

// bf is a condition: a constraint, a conjunction, a disjunction, or a
// constant.
type bf struct {
	op   byte // 't', 'f', 'c', '&', '|'
	c    cons
	kids []*bf
}

var bTrue, bFalse = &bf{op: 't'}, &bf{op: 'f'}

func mkCons(c cons) *bf {
	if h, ok := c.decided(); ok {
		if h {
			return bTrue
		}
		return bFalse
	}
	return &bf{op: 'c', c: c}
}

func bAnd(a, b *bf) *bf { return bJoin('&', bTrue, bFalse, a, b) }

func bOr(a, b *bf) *bf { return bJoin('|', bFalse, bTrue, a, b) }

// bJoin builds a op b, for the connective op with the unit and the zero
// (the value that decides it) given.
func bJoin(op byte, unit, zero, a, b *bf) *bf {
	switch {
	case a.op == zero.op || b.op == zero.op:
		return zero
	case a.op == unit.op:
		return b
	case b.op == unit.op:
		return a
	}
	return &bf{op: op, kids: []*bf{a, b}}
}

// cmp builds a op b (negated when neg).
func cmp(op promela.Token, a, b lin, neg bool) (*bf, error) {
	if neg {
		op = map[promela.Token]promela.Token{promela.EQL: promela.NEQ, promela.NEQ: promela.EQL, promela.LSS: promela.GEQ, promela.GEQ: promela.LSS, promela.GTR: promela.LEQ, promela.LEQ: promela.GTR}[op]
	}
	switch op {
	case promela.GEQ:
		c, err := ge(a, b)
		return mkCons(c), err
	case promela.GTR: // a > b is a-1 >= b
		a1, err := a.sub(constLin(1))
		if err != nil {
			return nil, err
		}
		return cmp(promela.GEQ, a1, b, false)
	case promela.LEQ: // a <= b is b >= a
		return cmp(promela.GEQ, b, a, false)
	case promela.LSS: // a < b is b > a
		return cmp(promela.GTR, b, a, false)
	case promela.EQL:
		c, err := eqc(a, b)
		return mkCons(c), err
	case promela.NEQ:
		x, err := cmp(promela.LSS, a, b, false)
		if err != nil {
			return nil, err
		}
		y, err := cmp(promela.GTR, a, b, false)
		if err != nil {
			return nil, err
		}
		return bOr(x, y), nil
	}
	return nil, fmt.Errorf("unknown comparison %s", op)
}

// cond evaluates a condition (negated when neg).
func (x *extractor) cond(e promela.Expr, st *sstate, q *quant, neg bool) (*bf, error) {
	switch e := e.(type) {
	case *promela.IntLit:
		if (e.Value != 0) != neg {
			return bTrue, nil
		}
		return bFalse, nil
	case *promela.UnaryExpr:
		if e.Op == promela.NOT {
			return x.cond(e.X, st, q, !neg)
		}
	case *promela.BinaryExpr:
		switch e.Op {
		case promela.LAND, promela.LOR:
			a, err := x.cond(e.X, st, q, neg)
			if err != nil {
				return nil, err
			}
			b, err := x.cond(e.Y, st, q, neg)
			if err != nil {
				return nil, err
			}
			if (e.Op == promela.LAND) != neg {
				return bAnd(a, b), nil
			}
			return bOr(a, b), nil
		case promela.EQL, promela.NEQ, promela.LSS, promela.LEQ, promela.GTR, promela.GEQ:
			a, err := x.arith(e.X, st, q)
			if err != nil {
				return nil, err
			}
			b, err := x.arith(e.Y, st, q)
			if err != nil {
				return nil, err
			}
			return cmp(e.Op, a, b, neg)
		}
	case *promela.RemoteRef:
		if e.Label != nil {
			if e.Index != nil {
				return nil, errorf(e.Index.Pos(), "a process index is outside the class: processes are anonymous")
			}
			if x.labels[e.Label.Name] {
				if neg {
					return bFalse, nil
				}
				return bTrue, nil
			}
			return nil, errorf(e.Label.Pos(), "%s@%s: only the label of the main loop (where every process is between steps) can be tested", e.Proc.Name, e.Label.Name)
		}
	}
	v, err := x.arith(e, st, q)
	if err != nil {
		return nil, err
	}
	return cmp(promela.NEQ, v, constLin(0), neg)
}

// dnf flattens a condition into a disjunction of conjunctions.
func dnf(b *bf, limit int) ([][]cons, bool) {
	switch b.op {
	case 't':
		return [][]cons{{}}, true
	case 'f':
		return nil, true
	case 'c':
		return [][]cons{{b.c}}, true
	case '|':
		var out [][]cons
		for _, k := range b.kids {
			d, ok := dnf(k, limit)
			if !ok {
				return nil, false
			}
			out = append(out, d...)
			if len(out) > limit {
				return nil, false
			}
		}
		return out, true
	case '&':
		out := [][]cons{{}}
		for _, k := range b.kids {
			d, ok := dnf(k, limit)
			if !ok {
				return nil, false
			}
			var next [][]cons
			for _, a := range out {
				for _, c := range d {
					next = append(next, append(append([]cons(nil), a...), c...))
				}
			}
			out = next
			if len(out) > limit {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

const maxDNF = 4096

// branch continues k once per disjunct of the condition.
func (x *extractor) branch(p promela.Pos, b *bf, st *sstate, k func(*sstate) error) error {
	ds, ok := dnf(b, maxDNF)
	if !ok {
		return errorf(p, "the condition has more than %d disjuncts", maxDNF)
	}
	for i, d := range ds {
		s := st
		if i < len(ds)-1 {
			s = st.clone()
		}
		s.cs = append(s.cs, d...)
		if _, ok := simplify(s.cs); !ok {
			continue
		}
		if err := k(s); err != nil {
			return err
		}
	}
	return nil
}

func (x *extractor) seq(ss []promela.Stmt, st *sstate, k func(*sstate) error) error {
	if len(ss) == 0 {
		return k(st)
	}
	return x.stmt(ss[0], st, func(s *sstate) error { return x.seq(ss[1:], s, k) })
}

// guard is the executability of a sequence's first statement.
func (x *extractor) guard(ss []promela.Stmt, st *sstate) (*bf, error) {
	if len(ss) == 0 {
		return bTrue, nil
	}
	switch s := ss[0].(type) {
	case *promela.ExprStmt:
		return x.cond(s.X, st, nil, false)
	case *promela.AssumeStmt:
		return x.cond(s.X, st, nil, false)
	case *promela.LabeledStmt:
		return x.guard([]promela.Stmt{s.Stmt}, st)
	case *promela.AtomicStmt:
		return x.guard(s.Body.Stmts, st)
	case *promela.BlockStmt:
		return x.guard(s.Body.Stmts, st)
	case *promela.DStepStmt:
		return x.guard(s.Body.Stmts, st)
	case *promela.IfStmt:
		g := bFalse
		for _, o := range s.Options {
			if _, ok := o.Stmts[0].(*promela.ElseStmt); ok {
				return bTrue, nil
			}
			h, err := x.guard(o.Stmts, st)
			if err != nil {
				return nil, err
			}
			g = bOr(g, h)
		}
		return g, nil
	}
	return bTrue, nil
}

func negBF(b *bf) *bf {
	switch b.op {
	case 't':
		return bFalse
	case 'f':
		return bTrue
	case 'c':
		if b.c.eq {
			l1, _ := b.c.l.sub(constLin(1))
			m, _ := b.c.l.scale(-1)
			l2, _ := m.sub(constLin(1))
			return bOr(mkCons(cons{l: l1}), mkCons(cons{l: l2}))
		}
		m, _ := b.c.l.scale(-1)
		l, _ := m.sub(constLin(1))
		return mkCons(cons{l: l})
	case '&':
		out := bFalse
		for _, k := range b.kids {
			out = bOr(out, negBF(k))
		}
		return out
	case '|':
		out := bTrue
		for _, k := range b.kids {
			out = bAnd(out, negBF(k))
		}
		return out
	}
	return b
}

// options runs the options of an if (or of the main loop): each one whose
// guard can hold, else when no other can.
func (x *extractor) options(opts []*promela.Option, st *sstate, k func(*sstate) error) error {
	var elseOpt *promela.Option
	others := bFalse
	for _, o := range opts {
		if _, ok := o.Stmts[0].(*promela.ElseStmt); ok {
			elseOpt = o
			continue
		}
		g, err := x.guard(o.Stmts, st)
		if err != nil {
			return err
		}
		others = bOr(others, g)
	}
	for _, o := range opts {
		if o == elseOpt {
			continue
		}
		if err := x.seq(o.Stmts, st.clone(), k); err != nil {
			return err
		}
	}
	if elseOpt != nil {
		return x.branch(elseOpt.Pos(), negBF(others), st.clone(), func(s *sstate) error {
			return x.seq(elseOpt.Stmts[1:], s, k)
		})
	}
	return nil
}

func (x *extractor) stmt(s promela.Stmt, st *sstate, k func(*sstate) error) error {
	if err := x.ctx.Err(); err != nil {
		return err
	}
	switch s := s.(type) {
	case *promela.ExprStmt:
		if _, ok := s.X.(*promela.RunExpr); ok {
			return errorf(s.X.Pos(), "run is outside the class: the processes are the active ones")
		}
		b, err := x.cond(s.X, st, nil, false)
		if err != nil {
			return err
		}
		return x.branch(s.X.Pos(), b, st, k)
	case *promela.AssumeStmt:
		b, err := x.cond(s.X, st, nil, false)
		if err != nil {
			return err
		}
		return x.branch(s.Assume, b, st, k)
	case *promela.AssignStmt:
		id, ok := s.LHS.(*promela.Ident)
		if !ok {
			return errorf(s.LHS.Pos(), "only plain variables can be assigned (no arrays or fields)")
		}
		v, err := x.arith(s.RHS, st, nil)
		if err != nil {
			return err
		}
		return x.assign(id, s.EqPos, v, st, k)
	case *promela.IncDecStmt:
		id, ok := s.X.(*promela.Ident)
		if !ok {
			return errorf(s.X.Pos(), "only plain variables can be incremented")
		}
		cur, err := x.arith(id, st, nil)
		if err != nil {
			return err
		}
		d := int64(1)
		if s.Tok == promela.DEC {
			d = -1
		}
		v, err := cur.add(constLin(d))
		if err != nil {
			return err
		}
		return x.assign(id, s.TokPos, v, st, k)
	case *promela.HavocStmt:
		id, ok := s.X.(*promela.Ident)
		if !ok || !x.isLocal(id.Sym) {
			return errorf(s.X.Pos(), "havoc applies to a local variable of the process (the value a receive step picks)")
		}
		x.fresh++
		st.env[id.Sym] = symLin(fmt.Sprintf("h%d:%s", x.fresh, id.Sym.Name))
		if x.bounded[id.Sym] {
			return errorf(s.X.Pos(), "havoc of the control variable %s", id.Sym.Name)
		}
		return k(st)
	case *promela.IfStmt:
		return x.options(s.Options, st, k)
	case *promela.AtomicStmt:
		return x.seq(s.Body.Stmts, st, k)
	case *promela.DStepStmt:
		return x.seq(s.Body.Stmts, st, k)
	case *promela.BlockStmt:
		return x.seq(s.Body.Stmts, st, k)
	case *promela.LabeledStmt:
		return x.stmt(s.Stmt, st, k)
	case *promela.PrintfStmt, *promela.PrintmStmt:
		return k(st)
	case *promela.DoStmt:
		return errorf(s.Do, "a loop inside a step is outside the class: a step of the main loop must terminate")
	case *promela.BreakStmt:
		return errorf(s.Break, "break is outside the class: a process stays in its main loop")
	case *promela.GotoStmt:
		return errorf(s.Goto, "goto is outside the class: write the step as if/fi branches")
	case *promela.AssertStmt:
		return errorf(s.Pos(), "assert is not supported in parameterized verification: state the property as an ltl formula over atomic propositions")
	case *promela.SendStmt, *promela.RecvStmt:
		return errorf(s.Pos(), "channels are outside the class: count the messages sent in a shared int variable and receive with havoc and assume (ByMC's message counters)")
	case *promela.ElseStmt:
		return errorf(s.Else, "else outside the first place of an option")
	case *promela.DeclStmt:
		for _, d := range s.Vars {
			if d.Late {
				return errorf(d.Pos(), "declarations inside the body are outside the class: declare the locals at the top")
			}
		}
		return k(st)
	}
	return errorf(s.Pos(), "this statement is outside the class of parameterized models")
}

func (x *extractor) assign(id *promela.Ident, p promela.Pos, v lin, st *sstate, k func(*sstate) error) error {
	s := id.Sym
	if s == nil || s.Kind != promela.SymVar {
		return errorf(id.Pos(), "%s is not a variable", id.Name)
	}
	if s.Proc == nil {
		cur := symLin(sharedSym(s))
		d, err := v.sub(cur)
		if err != nil {
			return err
		}
		if !d.isConst() {
			return errorf(p, "shared variable %s may only change by a constant (x++, x--, x = x + c or x = x - c)", s.Name)
		}
		st.inc[s] = d.k
		return k(st)
	}
	if !x.isLocal(s) {
		return errorf(id.Pos(), "%s is not a variable of this process", s.Name)
	}
	if x.bounded[s] && !v.isConst() {
		return errorf(p, "control variable %s gets a value that is not a constant", s.Name)
	}
	st.env[s] = v
	return k(st)
}

// collectThresholds finds the comparisons of a data variable, or a sum of
// data variables, with an expression over the parameters.
func (x *extractor) collectThresholds() []lin {
	var out []lin
	seen := map[string]bool{}
	add := func(l lin) {
		k := l.key() + fmt.Sprint(l.k)
		if !seen[k] {
			seen[k] = true
			out = append(out, l)
		}
	}
	add(constLin(0))
	add(constLin(1))
	visit := func(n promela.Node) bool {
		b, ok := n.(*promela.BinaryExpr)
		if !ok {
			return true
		}
		switch b.Op {
		case promela.EQL, promela.NEQ, promela.LSS, promela.LEQ, promela.GTR, promela.GEQ:
		default:
			return true
		}
		a, err1 := x.rawArith(b.X)
		c, err2 := x.rawArith(b.Y)
		if err1 != nil || err2 != nil {
			return true
		}
		d, err := a.sub(c)
		if err != nil {
			return true
		}
		var data []string
		for v := range d.c {
			if strings.HasPrefix(v, "s:") {
				return true
			}
			if strings.HasPrefix(v, "l:") {
				if !slices.ContainsFunc(x.locals, func(s *promela.Symbol) bool { return localSym(s) == v && !x.bounded[s] }) {
					return true // a control variable
				}
				data = append(data, v)
			}
		}
		if len(data) == 0 {
			return true
		}
		// One data variable, or a sum of them (x + y >= N - T): the
		// parameter side is the threshold, as ByMC collects it.
		op := b.Op
		a1 := d.c[data[0]]
		if a1 != 1 && a1 != -1 {
			return true
		}
		for _, v := range data[1:] {
			if d.c[v] != a1 {
				return true
			}
		}
		if a1 == -1 {
			d, _ = d.scale(-1)
			op = map[promela.Token]promela.Token{promela.EQL: promela.EQL, promela.NEQ: promela.NEQ, promela.LSS: promela.GTR, promela.GEQ: promela.LEQ, promela.GTR: promela.LSS, promela.LEQ: promela.GEQ}[op]
		}
		for _, v := range data {
			delete(d.c, v)
		}
		th, _ := d.scale(-1) // x op th
		th1, _ := th.add(constLin(1))
		switch op {
		case promela.GEQ, promela.LSS:
			add(th)
		case promela.GTR, promela.LEQ:
			add(th1)
		default:
			add(th)
			add(th1)
		}
		return true
	}
	promela.Inspect(x.proc.Body, visit)
	for _, p := range x.prog.Props {
		promela.Inspect(p.X, visit)
	}
	return out
}
