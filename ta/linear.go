package ta

import (
	"fmt"
	"sort"
	"strings"
)

// Var is a resolved variable: a parameter, shared variable, location counter
// or unknown.
type Var struct {
	Kind  Kind
	Index int
}

// Lin is a linear integer expression: the sum of Coef[v]*v plus Const.
type Lin struct {
	Coef  map[Var]int64
	Const int64
}

// Linear converts an arithmetic expression to a linear form; a product of
// two non-constant factors is an error.
func Linear(e Expr) (Lin, error) {
	switch e := e.(type) {
	case *IntLit:
		return Lin{Const: e.Val}, nil
	case *Ident:
		return Lin{Coef: map[Var]int64{{e.Kind, e.Index}: 1}}, nil
	case *Unary:
		if e.Op == "-" {
			x, err := Linear(e.X)
			return x.Scale(-1), err
		}
	case *Binary:
		x, err := Linear(e.X)
		if err != nil {
			return Lin{}, err
		}
		y, err := Linear(e.Y)
		if err != nil {
			return Lin{}, err
		}
		switch e.Op {
		case "+":
			return x.Add(y), nil
		case "-":
			return x.Add(y.Scale(-1)), nil
		case "*":
			if len(x.Coef) == 0 {
				return y.Scale(x.Const), nil
			}
			if len(y.Coef) == 0 {
				return x.Scale(y.Const), nil
			}
			return Lin{}, fmt.Errorf("%s: %s is not linear (a product of two variables)", e.Pos, e)
		}
	}
	return Lin{}, fmt.Errorf("%s: expected an arithmetic expression, found %s", e.Position(), e)
}

// Scale multiplies by k.
func (l Lin) Scale(k int64) Lin {
	out := Lin{Const: l.Const * k}
	if k != 0 && len(l.Coef) > 0 {
		out.Coef = make(map[Var]int64, len(l.Coef))
		for v, c := range l.Coef {
			out.Coef[v] = c * k
		}
	}
	return out
}

// Add returns l + m.
func (l Lin) Add(m Lin) Lin {
	out := Lin{Const: l.Const + m.Const, Coef: map[Var]int64{}}
	for v, c := range l.Coef {
		out.Coef[v] += c
	}
	for v, c := range m.Coef {
		out.Coef[v] += c
		if out.Coef[v] == 0 {
			delete(out.Coef, v)
		}
	}
	return out
}

// Vars returns the variables with a non-zero coefficient, sorted.
func (l Lin) Vars() []Var {
	vs := make([]Var, 0, len(l.Coef))
	for v, c := range l.Coef {
		if c != 0 {
			vs = append(vs, v)
		}
	}
	sort.Slice(vs, func(i, j int) bool {
		if vs[i].Kind != vs[j].Kind {
			return vs[i].Kind < vs[j].Kind
		}
		return vs[i].Index < vs[j].Index
	})
	return vs
}

// Only returns the part of l over variables of kind k (without constant).
func (l Lin) Only(k Kind) Lin {
	out := Lin{Coef: map[Var]int64{}}
	for v, c := range l.Coef {
		if v.Kind == k && c != 0 {
			out.Coef[v] = c
		}
	}
	return out
}

// Without returns l without the variables of kind k.
func (l Lin) Without(k Kind) Lin {
	out := Lin{Coef: map[Var]int64{}, Const: l.Const}
	for v, c := range l.Coef {
		if v.Kind != k && c != 0 {
			out.Coef[v] = c
		}
	}
	return out
}

// Eval evaluates l with the values val(v).
func (l Lin) Eval(val func(Var) int64) int64 {
	s := l.Const
	for v, c := range l.Coef {
		s += c * val(v)
	}
	return s
}

// Key is a canonical text of l, for deduplication.
func (l Lin) Key() string {
	var b strings.Builder
	for _, v := range l.Vars() {
		fmt.Fprintf(&b, "%d*%d.%d+", l.Coef[v], v.Kind, v.Index)
	}
	fmt.Fprintf(&b, "%d", l.Const)
	return b.String()
}

// Format renders l with names from f.
func (l Lin) Format(f *File) string {
	var b strings.Builder
	for _, v := range l.Vars() {
		c := l.Coef[v]
		switch {
		case b.Len() == 0 && c == 1:
		case b.Len() == 0 && c == -1:
			b.WriteString("-")
		case b.Len() == 0:
			fmt.Fprintf(&b, "%d*", c)
		case c == 1:
			b.WriteString(" + ")
		case c == -1:
			b.WriteString(" - ")
		case c < 0:
			fmt.Fprintf(&b, " - %d*", -c)
		default:
			fmt.Fprintf(&b, " + %d*", c)
		}
		b.WriteString(f.VarName(v))
	}
	switch {
	case b.Len() == 0:
		fmt.Fprintf(&b, "%d", l.Const)
	case l.Const > 0:
		fmt.Fprintf(&b, " + %d", l.Const)
	case l.Const < 0:
		fmt.Fprintf(&b, " - %d", -l.Const)
	}
	return b.String()
}

// VarName is the declared name of v.
func (f *File) VarName(v Var) string {
	switch v.Kind {
	case Param:
		return f.Params[v.Index].Name
	case Shared:
		return f.Shared[v.Index].Name
	case Local:
		return f.Locations[v.Index].Name
	case Unknown:
		return f.Unknowns[v.Index].Name
	}
	return "?"
}

// Eval evaluates an expression without temporal operators: numbers as
// int64, conditions as 0 or 1.
func Eval(e Expr, val func(Var) int64) (int64, error) {
	switch e := e.(type) {
	case *IntLit:
		return e.Val, nil
	case *BoolLit:
		return b2i(e.Val), nil
	case *Ident:
		return val(Var{e.Kind, e.Index}), nil
	case *Unary:
		x, err := Eval(e.X, val)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case "-":
			return -x, nil
		case "!":
			return b2i(x == 0), nil
		}
		return 0, fmt.Errorf("%s: temporal operator %s in a state condition", e.Pos, e.Op)
	case *Binary:
		x, err := Eval(e.X, val)
		if err != nil {
			return 0, err
		}
		switch e.Op { // short-circuit forms
		case "&&":
			if x == 0 {
				return 0, nil
			}
		case "||":
			if x != 0 {
				return 1, nil
			}
		case "->":
			if x == 0 {
				return 1, nil
			}
		}
		y, err := Eval(e.Y, val)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case "+":
			return x + y, nil
		case "-":
			return x - y, nil
		case "*":
			return x * y, nil
		case "<":
			return b2i(x < y), nil
		case "<=":
			return b2i(x <= y), nil
		case ">":
			return b2i(x > y), nil
		case ">=":
			return b2i(x >= y), nil
		case "==":
			return b2i(x == y), nil
		case "!=":
			return b2i(x != y), nil
		case "&&", "||", "->":
			return b2i(y != 0), nil
		}
	}
	return 0, fmt.Errorf("%s: cannot evaluate %s", e.Position(), e)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
