package compile

import "ftmc/promela"

// Tabulated expressions. An expression whose value depends on one
// byte-sized variable at a fixed offset (of the globals or of the running
// process) and on constants only, through arithmetic, comparisons and
// conditional expressions, is a function of 256 values: it is computed
// once per value when compiled, and read from the table when run. The
// targets and channel indices of models over a ring of processes, such as
// (p + 1 + ahead[p]) % N with p a specialised parameter, are such
// expressions. A value for which the expression fails (a division by
// zero) is computed at run time, where it records its fault.

// minTabOps is the number of operators from which an expression is
// tabulated: below it, the compiled expression is as fast as a lookup.
const minTabOps = 2

// tabVar is the variable a tabulated expression depends on.
type tabVar struct {
	off   int
	local bool
}

// tabulable reports whether x is a function of one byte-sized variable at
// a fixed offset (v) with at least minTabOps operators.
func (c *comp) tabulable(x promela.Expr) (v tabVar, ok bool) {
	found, pure, ops := false, true, 0
	var walk func(x promela.Expr)
	walk = func(x promela.Expr) {
		if !pure {
			return
		}
		if _, k := c.constValue(x); k {
			return
		}
		switch y := x.(type) {
		case *promela.Ident, *promela.IndexExpr:
			r, isByte := c.byteOperand(y)
			if !isByte || r.indexed {
				pure = false
				return
			}
			w := tabVar{off: r.off, local: r.local}
			if found && w != v {
				pure = false
				return
			}
			v, found = w, true
		case *promela.UnaryExpr:
			switch y.Op {
			case promela.SUB, promela.TILDE, promela.NOT:
			default:
				pure = false
				return
			}
			ops++
			walk(y.X)
		case *promela.BinaryExpr:
			if _, known := binary32(y.Op, 1, 1); !known {
				pure = false
				return
			}
			ops++
			walk(y.X)
			walk(y.Y)
		case *promela.CondExpr:
			ops++
			walk(y.Cond)
			walk(y.Then)
			walk(y.Else)
		default:
			pure = false
		}
	}
	walk(x)
	return v, pure && found && ops >= minTabOps
}

// tabulate compiles x, a function of variable v (tabulable), to a table
// lookup.
func (c *comp) tabulate(x promela.Expr, v tabVar) evalFn {
	f, tab, bad, anyBad := c.table(x, v)
	off := v.off
	switch {
	case anyBad:
		local := v.local
		return func(m *machine) int32 {
			a := off
			if local {
				a += m.base
			}
			if b := m.vec[a]; !bad[b] {
				return tab[b]
			}
			return f(m)
		}
	case v.local:
		return func(m *machine) int32 { return tab[m.vec[m.base+off]] }
	}
	return func(m *machine) int32 { return tab[m.vec[off]] }
}

// table compiles x, a function of variable v (tabulable), and computes its
// values: tab[i] when v is i, unless bad[i] (x fails; anyBad says whether
// it does for some value).
func (c *comp) table(x promela.Expr, v tabVar) (f evalFn, tab *[256]int32, bad *[256]bool, anyBad bool) {
	c.noTab = true
	f = c.expr(x)
	c.noTab = false
	// Evaluate f for every value of v in a scratch vector where v is at
	// its offset (the running process's segment at 0).
	m := &machine{p: c.p, vec: make([]byte, v.off+1)}
	tab, bad = new([256]int32), new([256]bool)
	for i := range tab {
		m.vec[v.off] = byte(i)
		m.fault = ""
		tab[i] = f(m)
		if m.fault != "" {
			bad[i], anyBad = true, true
		}
	}
	return f, tab, bad, anyBad
}
