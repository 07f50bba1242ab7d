package compile

import "ftmc/promela"

// byteTest is a test of a byte-sized variable at a fixed offset of the
// globals or of the running process, lo <= v <= lo+span (as unsigned
// numbers), negated when neg: the comparisons of such a variable with a
// constant, and its truth. Such a test reads one byte and cannot fail, so
// a conjunction of them is evaluated as a loop over the tests, in any
// order.
type byteTest struct {
	off      int
	local    bool
	lo, span uint32
	neg      bool
}

func (t *byteTest) holds(m *machine) bool {
	a := t.off
	if t.local {
		a += m.base
	}
	return (uint32(m.vec[a])-t.lo <= t.span) != t.neg
}

// admits reports whether the test holds when the variable is v.
func (t *byteTest) admits(v byte) bool {
	return (uint32(v)-t.lo <= t.span) != t.neg
}

// conjunctTests returns the conjuncts of x that are byte tests, and
// whether one of its conjuncts is always false.
func (c *comp) conjunctTests(x promela.Expr) (ts []byteTest, never bool) {
	for _, y := range conjuncts(x, nil) {
		if v, ok := c.constValue(y); ok {
			if v == 0 {
				never = true
			}
			continue
		}
		t, konst, value, ok := c.byteTestOf(y)
		switch {
		case !ok:
		case konst:
			if !value {
				never = true
			}
		default:
			ts = append(ts, t)
		}
	}
	return ts, never
}

// byteTestOf reports whether x is a byteTest; when the test's outcome does
// not depend on the variable's value, konst is set and value gives it.
func (c *comp) byteTestOf(x promela.Expr) (t byteTest, konst bool, value bool, ok bool) {
	var r *byteRef
	op, k := promela.NEQ, int64(0)
	switch x := x.(type) {
	case *promela.BinaryExpr:
		switch x.Op {
		case promela.EQL, promela.NEQ, promela.LSS, promela.LEQ, promela.GTR, promela.GEQ:
		default:
			return t, false, false, false
		}
		kv, kc := c.constValue(x.Y)
		if !kc {
			return t, false, false, false
		}
		if r, ok = c.byteOperand(x.X); !ok {
			return t, false, false, false
		}
		op, k = x.Op, int64(int32(kv))
	case *promela.UnaryExpr:
		if x.Op != promela.NOT {
			return t, false, false, false
		}
		if r, ok = c.byteOperand(x.X); !ok {
			return t, false, false, false
		}
		op = promela.EQL
	default:
		if r, ok = c.byteOperand(x); !ok {
			return t, false, false, false
		}
	}
	if r.indexed {
		return t, false, false, false
	}
	lo, hi := int64(0), int64(255)
	neg := false
	switch op {
	case promela.EQL:
		lo, hi = k, k
	case promela.NEQ:
		lo, hi, neg = k, k, true
	case promela.LSS:
		hi = k - 1
	case promela.LEQ:
		hi = k
	case promela.GTR:
		lo = k + 1
	case promela.GEQ:
		lo = k
	}
	lo, hi = max(lo, 0), min(hi, 255)
	if lo > hi {
		return t, true, neg, true
	}
	if lo == 0 && hi == 255 {
		return t, true, !neg, true
	}
	return byteTest{off: r.off, local: r.local, lo: uint32(lo), span: uint32(hi - lo), neg: neg}, false, false, true
}

// conjuncts appends the operands of a chain of && to xs.
func conjuncts(x promela.Expr, xs []promela.Expr) []promela.Expr {
	if b, ok := x.(*promela.BinaryExpr); ok && b.Op == promela.LAND {
		return conjuncts(b.Y, conjuncts(b.X, xs))
	}
	return append(xs, x)
}

// byteTests compiles x when it is a byteTest or a conjunction that starts
// with byteTests and constants; nil otherwise. The operands after the
// first that is neither are evaluated after the tests, in order, as &&
// does.
func (c *comp) byteTests(x promela.Expr) evalFn {
	var ts []byteTest
	ys := conjuncts(x, nil)
	for i, y := range ys {
		if v, ok := c.constValue(y); ok {
			if v == 0 {
				return constFn(0)
			}
			continue
		}
		t, konst, value, ok := c.byteTestOf(y)
		if !ok {
			if len(ts) == 0 {
				return nil
			}
			return c.testsThen(ts, ys[i:])
		}
		if konst {
			if !value {
				return constFn(0)
			}
			continue
		}
		ts = append(ts, t)
	}
	switch {
	case len(ts) == 0:
		return constFn(1)
	case len(ts) == 1 && !ts[0].local:
		off, lo, span, neg := ts[0].off, ts[0].lo, ts[0].span, ts[0].neg
		return func(m *machine) int32 { return b2i((uint32(m.vec[off])-lo <= span) != neg) }
	case len(ts) == 1:
		t := ts[0]
		return func(m *machine) int32 { return b2i(t.holds(m)) }
	case len(ts) == 2:
		t, u := ts[0], ts[1]
		return func(m *machine) int32 { return b2i(t.holds(m) && u.holds(m)) }
	}
	return func(m *machine) int32 {
		for i := range ts {
			if !ts[i].holds(m) {
				return 0
			}
		}
		return 1
	}
}

// testsThen compiles ts && rest[0] && rest[1] ...
func (c *comp) testsThen(ts []byteTest, rest []promela.Expr) evalFn {
	var fs []evalFn
	for _, y := range rest {
		fs = append(fs, c.expr(y))
	}
	if len(ts) == 1 && len(fs) == 1 {
		t, f := ts[0], fs[0]
		return func(m *machine) int32 {
			if !t.holds(m) {
				return 0
			}
			return b2i(f(m) != 0)
		}
	}
	return func(m *machine) int32 {
		for i := range ts {
			if !ts[i].holds(m) {
				return 0
			}
		}
		for _, f := range fs {
			if f(m) == 0 {
				return 0
			}
		}
		return 1
	}
}

// failsafe reports whether evaluating x cannot fail in any state: x is
// built of constants and byte-sized variables at fixed offsets (not
// indexed at run time) with operators that cannot fail (division and
// remainder only by a nonzero constant). Such an expression changes
// nothing either.
func (c *comp) failsafe(x promela.Expr) bool {
	if _, ok := c.constValue(x); ok {
		return true
	}
	switch y := x.(type) {
	case *promela.Ident, *promela.IndexExpr:
		r, ok := c.byteOperand(y)
		return ok && !r.indexed
	case *promela.UnaryExpr:
		switch y.Op {
		case promela.SUB, promela.TILDE, promela.NOT:
			return c.failsafe(y.X)
		}
	case *promela.BinaryExpr:
		switch y.Op {
		case promela.QUO, promela.REM:
			if k, ok := c.constValue(y.Y); !ok || int32(k) == 0 {
				return false
			}
		default:
			if _, known := binary32(y.Op, 1, 1); !known {
				return false
			}
		}
		return c.failsafe(y.X) && c.failsafe(y.Y)
	case *promela.CondExpr:
		return c.failsafe(y.Cond) && c.failsafe(y.Then) && c.failsafe(y.Else)
	}
	return false
}
