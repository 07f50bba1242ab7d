package compile

import (
	"ftmc/promela"
)

// havocOp is a compiled havoc(x) (ByMC): x takes any value of its type. An
// int or short takes the values allowed by the bounds of the assume that
// follows the havoc (lo <= x && x <= hi), since enumerating its type is
// out of the question.
type havocOp struct {
	store  func(m *machine, v int32)
	lo, hi []evalFn // bounds found in the following assume (the largest lo, the smallest hi apply)
	tmin   int64    // the type's range
	tmax   int64
}

// maxHavocDomain is the largest type domain havoc enumerates without
// bounds from an assume.
const maxHavocDomain = 1 << 16

func (c *comp) compileHavoc(s *promela.HavocStmt, e *element) *havocOp {
	op := &havocOp{}
	r, ok := c.compileRef(s.X)
	if !ok {
		return op
	}
	op.store = c.storeFn(r, s.Havoc)
	st := scalarType(r.typ)
	op.tmin, op.tmax = st.Range()
	var sym *promela.Symbol
	if id, ok := s.X.(*promela.Ident); ok {
		sym = id.Sym
	}
	if next := nextStmt(e); next != nil && sym != nil {
		if a, ok := next.stmt.(*promela.AssumeStmt); ok {
			c.bounds(a.X, sym, op)
		}
	}
	if (len(op.lo) == 0 || len(op.hi) == 0) && op.tmax-op.tmin >= maxHavocDomain {
		c.errorf(s.Havoc, "havoc(%s): %s has too many values to try; bound them with assume(lo <= %s && %s <= hi) right after the havoc", promela.ExprString(s.X), st, promela.ExprString(s.X), promela.ExprString(s.X))
	}
	return op
}

// bounds collects the bounds on the variable sym in the conjunction x.
func (c *comp) bounds(x promela.Expr, sym *promela.Symbol, op *havocOp) {
	b, ok := x.(*promela.BinaryExpr)
	if !ok {
		return
	}
	if b.Op == promela.LAND {
		c.bounds(b.X, sym, op)
		c.bounds(b.Y, sym, op)
		return
	}
	isVar := func(e promela.Expr) bool {
		id, ok := e.(*promela.Ident)
		return ok && id.Sym == sym
	}
	mentions := func(e promela.Expr) bool {
		found := false
		promela.Inspect(e, func(n promela.Node) bool {
			if id, ok := n.(*promela.Ident); ok && id.Sym == sym {
				found = true
			}
			return !found
		})
		return found
	}
	op2, other := b.Op, b.Y
	switch {
	case isVar(b.X) && !mentions(b.Y):
	case isVar(b.Y) && !mentions(b.X):
		other = b.X
		switch op2 { // e op x is x op' e
		case promela.LSS:
			op2 = promela.GTR
		case promela.LEQ:
			op2 = promela.GEQ
		case promela.GTR:
			op2 = promela.LSS
		case promela.GEQ:
			op2 = promela.LEQ
		}
	default:
		return
	}
	e := c.expr(other)
	switch op2 {
	case promela.LEQ:
		op.hi = append(op.hi, e)
	case promela.LSS:
		op.hi = append(op.hi, func(m *machine) int32 { return e(m) - 1 })
	case promela.GEQ:
		op.lo = append(op.lo, e)
	case promela.GTR:
		op.lo = append(op.lo, func(m *machine) int32 { return e(m) + 1 })
	case promela.EQL:
		op.lo = append(op.lo, e)
		op.hi = append(op.hi, e)
	}
}

// bounds returns the values to try.
func (op *havocOp) bounds(m *machine) (lo, hi int64) {
	lo, hi = op.tmin, op.tmax
	for _, f := range op.lo {
		if v := int64(f(m)); v > lo {
			lo = v
		}
	}
	for _, f := range op.hi {
		if v := int64(f(m)); v < hi {
			hi = v
		}
	}
	return lo, hi
}

// nextStmt returns the element that follows e in its sequence, past joins
// and jumps.
func nextStmt(e *element) *element {
	x := e.nxt
	for i := 0; x != nil && i < 50; i++ {
		switch x.kind {
		case eDot, eBreak:
			x = x.nxt
		case eGoto:
			x = x.jump
		default:
			return x
		}
	}
	return nil
}
