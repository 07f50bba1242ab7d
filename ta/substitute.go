package ta

import (
	"fmt"
	"strings"
)

// Substitute returns a copy of the checked automaton f in which every
// unknown has the value vals gives it (by unknown index): a candidate of a
// guard synthesis, an automaton without unknowns. The assumptions that
// mention unknowns and no parameter (the unknowns' ranges) are left out;
// they must hold for vals, else the error says which does not. f itself
// is not changed.
func Substitute(f *File, vals []int64) (*File, error) {
	if len(vals) != len(f.Unknowns) {
		return nil, fmt.Errorf("%d values for %d unknowns", len(vals), len(f.Unknowns))
	}
	sub := func(e Expr) Expr { return substitute(e, vals) }
	g := *f
	g.Unknowns = nil
	g.Params = make([]Decl, len(f.Params))
	for i, p := range f.Params {
		g.Params[i] = p
		if p.Quotient != nil {
			g.Params[i].Quotient = &Quotient{Num: sub(p.Quotient.Num), Den: p.Quotient.Den}
		}
	}
	g.Defines = make([]Define, len(f.Defines))
	for i, d := range f.Defines {
		g.Defines[i] = Define{Pos: d.Pos, Name: d.Name, Body: sub(d.Body)}
	}
	g.Assumptions = nil
	for _, a := range f.Assumptions {
		if OnlyUnknowns(a) && Mentions(a, Unknown) {
			v, err := Eval(a, func(v Var) int64 { return vals[v.Index] })
			if err != nil {
				return nil, fmt.Errorf("%s:%v", f.Path, err)
			}
			if v == 0 {
				return nil, fmt.Errorf("%s:%s: the values %s violate the assumption %s", f.Path, a.Position(), FormatUnknowns(f, vals), a)
			}
			continue
		}
		g.Assumptions = append(g.Assumptions, sub(a))
	}
	g.Inits = make([]Expr, len(f.Inits))
	for i, e := range f.Inits {
		g.Inits[i] = sub(e)
	}
	g.Rules = make([]*Rule, len(f.Rules))
	for i, r := range f.Rules {
		c := *r
		c.Guard = sub(r.Guard)
		c.Updates = make([]Update, len(r.Updates))
		for j, u := range r.Updates {
			c.Updates[j] = Update{Pos: u.Pos, Var: u.Var, Expr: sub(u.Expr)}
		}
		g.Rules[i] = &c
	}
	g.Specs = make([]Spec, len(f.Specs))
	for i, s := range f.Specs {
		g.Specs[i] = s
		g.Specs[i].Formula = sub(s.Formula)
	}
	return &g, nil
}

// substitute copies e with every unknown replaced by its value; parts
// without unknowns are shared, not copied.
func substitute(e Expr, vals []int64) Expr {
	switch e := e.(type) {
	case *Ident:
		if e.Kind != Unknown {
			return e
		}
		v := vals[e.Index]
		if v < 0 {
			return &Unary{Pos: e.Pos, Op: "-", X: &IntLit{Pos: e.Pos, Val: -v}}
		}
		return &IntLit{Pos: e.Pos, Val: v}
	case *Unary:
		x := substitute(e.X, vals)
		if x == e.X {
			return e
		}
		return &Unary{Pos: e.Pos, Op: e.Op, X: x}
	case *Binary:
		x, y := substitute(e.X, vals), substitute(e.Y, vals)
		if x == e.X && y == e.Y {
			return e
		}
		return &Binary{Pos: e.Pos, Op: e.Op, X: x, Y: y}
	}
	return e
}

// Mentions reports whether e names a variable of kind k.
func Mentions(e Expr, k Kind) bool {
	return anyIdent(e, func(id *Ident) bool { return id.Kind == k })
}

// OnlyUnknowns reports whether every name in e is an unknown.
func OnlyUnknowns(e Expr) bool {
	return !anyIdent(e, func(id *Ident) bool { return id.Kind != Unknown })
}

// anyIdent reports whether some name in e satisfies fn.
func anyIdent(e Expr, fn func(*Ident) bool) bool {
	switch e := e.(type) {
	case *Ident:
		return fn(e)
	case *Unary:
		return anyIdent(e.X, fn)
	case *Binary:
		return anyIdent(e.X, fn) || anyIdent(e.Y, fn)
	}
	return false
}

// FormatUnknowns writes the values of f's unknowns as "a1 = 1, b1 = 0".
func FormatUnknowns(f *File, vals []int64) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = fmt.Sprintf("%s = %d", f.Unknowns[i].Name, v)
	}
	return strings.Join(parts, ", ")
}
