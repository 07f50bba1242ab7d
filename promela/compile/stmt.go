package compile

import (
	"ftmc/promela"
)

// tkind is the kind of a transition's statement.
type tkind uint8

const (
	tSkip   tkind = iota // always executable, changes nothing but the pc
	tCond                // executable when its expression is non-zero
	tElse                // executable when no earlier transition of the state was
	tAssign              // always executable: an effect
	tSend
	tRecv
	tAssert
	tRun   // run as a statement
	tEnd   // the process ends (and is removed if it is the last one)
	tDStep // a d_step: one indivisible step
	tAssume
	tHavoc
)

// trans is a transition of a proctype's automaton. The fields a successor
// computation reads are kept in the transition itself; the rest is in the
// code its statement compiled to, shared by the copies of one statement.
type trans struct {
	kind   tkind
	atomic bool  // after it, the process keeps control (inside atomic)
	id     int32 // its index in program.trans
	etrans int   // the escape (unless) state it belongs to, or 0
	to     int
	// jump is where an atomic sequence goes on after the transition when
	// it runs without a recorder: to, past the locations that change
	// nothing but the program counter inside the sequence (a skip, a
	// choice whose options lead to one place: chainTable).
	jump int
	// then are the assignments an atomic sequence runs after this one
	// (an assignment) in the same step when it runs without a recorder:
	// each the one statement of the location the previous one jumps to
	// (chainTable). The last one's jump and atomic hold for the step.
	then []*trans
	// choose, in the first transition of a location, picks its
	// executable option when an atomic sequence reaches it and runs
	// without a recorder (chooseTable); nil when the location is not a
	// choice of conditions.
	choose func(m *machine) int
	cond   evalFn
	effect func(m *machine)
	send   *sendOp
	recv   *recvOp
	from   int
	pt     *procType
	elem   *element
	*code
}

// bind attaches the compiled statement to the transition.
func (t *trans) bind(cd *code) {
	t.code = cd
	t.kind, t.cond, t.effect, t.send, t.recv = cd.kind, cd.cond, cd.effect, cd.send, cd.recv
}

// code is a statement compiled.
type code struct {
	kind   tkind
	cond   evalFn           // tCond, tAssert
	effect func(m *machine) // tAssign, tRun
	send   *sendOp          // tSend
	recv   *recvOp          // tRecv
	dstep  *dstepCode       // tDStep
	havoc  *havocOp         // tHavoc
	text   string           // the statement as written
	pos    promela.Pos      // where it is written
	assign []promela.Expr   // assigned variables, for traces
	safe   bool             // tCond: evaluating it cannot fail (failsafe)
	// tCond: the conjuncts that are byte tests, and whether one is
	// always false (conjunctTests).
	tests []byteTest
	never bool
	// tCond: a test of a channel's length, full(ch), nfull(ch),
	// empty(ch) or nempty(ch), and its argument as written; 0 and ""
	// otherwise.
	chanFun promela.Builtin
	chanArg string
}

// compileTrans compiles the statement of a transition (once per element).
func (c *comp) compileTrans(t *trans) {
	if t.code != nil {
		return
	}
	if cd := c.p.codeOf(t.elem); cd != nil {
		t.bind(cd)
		return
	}
	cd := c.compileElem(t.elem)
	c.p.setCode(t.elem, cd)
	t.bind(cd)
}

func (p *program) codeOf(e *element) *code {
	if p.codes == nil {
		return nil
	}
	return p.codes[e]
}

func (p *program) setCode(e *element, cd *code) {
	if p.codes == nil {
		p.codes = map[*element]*code{}
	}
	p.codes[e] = cd
}

func (c *comp) compileElem(e *element) *code {
	cd := &code{kind: tSkip, pos: e.pos}
	switch e.kind {
	case eElse:
		cd.kind, cd.text = tElse, "else"
		return cd
	case eGoto:
		cd.text = promela.StmtString(e.stmt)
		return cd
	case eDot:
		cd.text = ".(goto)"
		return cd
	case eBreak:
		cd.text = "break"
		return cd
	case eEnd:
		cd.kind, cd.text = tEnd, "-end-"
		return cd
	case eDStep:
		cd.kind, cd.text = tDStep, "d_step"
		cd.dstep = c.compileDStep(e)
		return cd
	case eIf, eDo, eAtomic, eBlock, eUnless:
		// Structural elements are never steps; this cannot happen.
		cd.text = promela.StmtString(e.stmt)
		return cd
	}
	s := e.stmt
	cd.text = stmtText(s)
	switch s := s.(type) {
	case *promela.ExprStmt:
		if run, ok := s.X.(*promela.RunExpr); ok {
			cd.kind = tRun
			start := c.compileRun(run)
			cd.effect = func(m *machine) { start(m) }
			return cd
		}
		if isSkip(e) {
			return cd
		}
		cd.kind = tCond
		cd.cond = c.expr(s.X)
		cd.safe = c.failsafe(s.X)
		cd.tests, cd.never = c.conjunctTests(s.X)
		if x, ok := s.X.(*promela.CallExpr); ok && len(x.Args) == 1 {
			switch x.Fun {
			case promela.BuiltinFull, promela.BuiltinNfull, promela.BuiltinEmpty, promela.BuiltinNempty:
				cd.chanFun, cd.chanArg = x.Fun, promela.ExprString(x.Args[0])
			}
		}
	case *promela.AssignStmt:
		cd.kind = tAssign
		cd.assign = []promela.Expr{s.LHS}
		cd.effect = c.assignment(s.LHS, s.RHS, s.EqPos)
	case *promela.IncDecStmt:
		cd.kind = tAssign
		cd.assign = []promela.Expr{s.X}
		op := promela.ADD
		if s.Tok == promela.DEC {
			op = promela.SUB
		}
		one := &promela.IntLit{ValuePos: s.TokPos, Value: 1, Lit: "1"}
		cd.effect = c.assignment(s.X, &promela.BinaryExpr{X: s.X, OpPos: s.TokPos, Op: op, Y: one}, s.TokPos)
	case *promela.SendStmt:
		cd.kind = tSend
		cd.send = c.compileSend(s)
	case *promela.RecvStmt:
		cd.kind = tRecv
		cd.recv = c.compileRecv(s.Chan, s.Args, s.Random, s.Copy, false)
		for _, a := range s.Args {
			switch a.(type) {
			case *promela.Ident, *promela.IndexExpr, *promela.SelectorExpr:
				cd.assign = append(cd.assign, a)
			}
		}
	case *promela.AssertStmt:
		cd.kind = tAssert
		cd.cond = c.expr(s.X)
	case *promela.PrintfStmt, *promela.PrintmStmt, *promela.XStmt:
		// No effect on the state.
	case *promela.AssumeStmt:
		cd.kind = tAssume
		cd.cond = c.expr(s.X)
	case *promela.HavocStmt:
		cd.kind = tHavoc
		cd.assign = []promela.Expr{s.X}
		cd.havoc = c.compileHavoc(s, e)
	case *lateStruct:
		// A step that changes nothing.
	default:
		c.errorf(s.Pos(), "%s is not supported by the compiler yet", cd.text)
	}
	return cd
}

// stmtText is the statement as Spin shows it in a trail.
func stmtText(s promela.Stmt) string {
	switch s := s.(type) {
	case *lateStruct:
		return promela.StmtString(&promela.DeclStmt{Vars: []*promela.VarDecl{s.VarDecl}})
	}
	return promela.StmtString(s)
}

// assignment compiles lhs = rhs (rhs may be a run).
func (c *comp) assignment(lhs, rhs promela.Expr, pos promela.Pos) func(m *machine) {
	r, ok := c.compileRef(lhs)
	if !ok {
		return func(*machine) {}
	}
	if r.typ.Kind == promela.TStruct || r.typ.Kind == promela.TArray && rhsIsWhole(rhs) {
		return c.copyWhole(r, rhs, pos)
	}
	store := c.storeFn(r, pos)
	if run, ok := rhs.(*promela.RunExpr); ok {
		start := c.compileRun(run)
		return func(m *machine) {
			pid := start(m)
			if m.fault == "" {
				store(m, pid)
			}
		}
	}
	if br, ok := c.byteOperand(lhs); ok && br.indexed {
		if k, ok := c.constValue(rhs); ok {
			v := int32(k)
			return func(m *machine) { br.write(m, v) }
		}
		val := c.expr(rhs)
		return func(m *machine) {
			v := val(m)
			if m.fault == "" {
				br.write(m, v)
			}
		}
	}
	k, konst := c.constValue(rhs)
	if ce := cellOf(scalarType(r.typ)); r.isConst() && !r.write && ce.size == 1 {
		// A byte at a fixed offset: stored in place.
		off, mask := r.off, byte(ce.mask)
		switch {
		case konst && r.local:
			b := byte(k) & mask
			return func(m *machine) { m.vec[m.base+off] = b }
		case konst:
			b := byte(k) & mask
			return func(m *machine) { m.vec[off] = b }
		}
		val := c.expr(rhs)
		if r.local {
			return func(m *machine) {
				v := val(m)
				if m.fault == "" {
					m.vec[m.base+off] = byte(v) & mask
				}
			}
		}
		return func(m *machine) {
			v := val(m)
			if m.fault == "" {
				m.vec[off] = byte(v) & mask
			}
		}
	}
	if konst {
		v := int32(k)
		return func(m *machine) { store(m, v) }
	}
	val := c.expr(rhs)
	return func(m *machine) {
		v := val(m)
		if m.fault == "" {
			store(m, v)
		}
	}
}

func rhsIsWhole(x promela.Expr) bool {
	t := typeOfRef(x)
	return t != nil && (t.Kind == promela.TStruct || t.Kind == promela.TArray)
}

// copyWhole compiles the assignment of a structure to a structure of the
// same type.
func (c *comp) copyWhole(r *ref, rhs promela.Expr, pos promela.Pos) func(m *machine) {
	src, ok := c.compileRef(rhs)
	if !ok {
		return func(*machine) {}
	}
	if src.typ.String() != r.typ.String() {
		c.errorf(pos, "cannot assign %s to %s", src.typ, r.typ)
		return func(*machine) {}
	}
	n := sizeOf(r.typ)
	dst, from := r.addrFn(), src.addrFn()
	return func(m *machine) {
		a, b := dst(m), from(m)
		if a < 0 || b < 0 {
			return
		}
		copy(m.vec[a:a+n], m.vec[b:b+n])
	}
}
