package ta

import (
	"fmt"
	"math"
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

// MaxCoef bounds the coefficients and the constant of a linear form, as
// the reader bounds a number: sums and differences of a few forms, and
// their products with a number, then fit in an int64.
const MaxCoef = 1 << 40

// Linear converts an arithmetic expression to a linear form; a product of
// two non-constant factors is an error, and so is a coefficient or
// constant beyond MaxCoef.
func Linear(e Expr) (Lin, error) {
	checked := func(l Lin, ok bool) (Lin, error) {
		ok = ok && -MaxCoef <= l.Const && l.Const <= MaxCoef
		for _, c := range l.Coef {
			ok = ok && -MaxCoef <= c && c <= MaxCoef
		}
		if !ok {
			return Lin{}, fmt.Errorf("%s: %s has a coefficient or constant larger than %d", e.Position(), e, int64(MaxCoef))
		}
		return l, nil
	}
	switch e := e.(type) {
	case *IntLit:
		return Lin{Const: e.Val}, nil
	case *Ident:
		return Lin{Coef: map[Var]int64{{e.Kind, e.Index}: 1}}, nil
	case *Unary:
		if e.Op == "-" {
			x, err := Linear(e.X)
			if err != nil {
				return Lin{}, err
			}
			return checked(x.scale(-1))
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
			return checked(x.add(y))
		case "-":
			ny, ok := y.scale(-1)
			if !ok {
				return Lin{}, overflow(e)
			}
			return checked(x.add(ny))
		case "*":
			if len(x.Coef) == 0 {
				return checked(y.scale(x.Const))
			}
			if len(y.Coef) == 0 {
				return checked(x.scale(y.Const))
			}
			return Lin{}, fmt.Errorf("%s: %s is not linear (a product of two variables)", e.Pos, e)
		}
	}
	return Lin{}, fmt.Errorf("%s: expected an arithmetic expression, found %s", e.Position(), e)
}

// scale and add are Scale and Add with ok false when a coefficient or the
// constant does not fit in an int64.
func (l Lin) scale(k int64) (Lin, bool) {
	c, ok := mulInt(l.Const, k)
	out := Lin{Const: c}
	if k != 0 && len(l.Coef) > 0 {
		out.Coef = make(map[Var]int64, len(l.Coef))
		for v, c := range l.Coef {
			p, ok1 := mulInt(c, k)
			out.Coef[v], ok = p, ok && ok1
		}
	}
	return out, ok
}

func (l Lin) add(m Lin) (Lin, bool) {
	c, ok := addInt(l.Const, m.Const)
	out := Lin{Const: c, Coef: map[Var]int64{}}
	for v, c := range l.Coef {
		out.Coef[v] = c
	}
	for v, c := range m.Coef {
		s, ok1 := addInt(out.Coef[v], c)
		ok = ok && ok1
		out.Coef[v] = s
		if s == 0 {
			delete(out.Coef, v)
		}
	}
	return out, ok
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

// Eval evaluates l with the values val(v); ok is false when a product or
// sum does not fit in an int64.
func (l Lin) Eval(val func(Var) int64) (sum int64, ok bool) {
	sum, ok = l.Const, true
	for v, c := range l.Coef {
		p, ok1 := mulInt(c, val(v))
		s, ok2 := addInt(sum, p)
		if !ok1 || !ok2 {
			return 0, false
		}
		sum = s
	}
	return sum, true
}

// addInt, mulInt and negInt are int64 arithmetic that reports, with ok
// false, a result that does not fit (instead of wrapping around).
func addInt(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || a == -1 && b == math.MinInt64 || b == -1 && a == math.MinInt64 {
		return 0, false
	}
	return p, true
}

func negInt(a int64) (int64, bool) { return -a, a != math.MinInt64 }

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
// int64, conditions as 0 or 1. A value that does not fit in an int64 is an
// error, not a value wrapped around.
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
			if n, ok := negInt(x); ok {
				return n, nil
			}
			return 0, overflow(e)
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
		case "+", "-", "*":
			var v int64
			ok := false
			switch e.Op {
			case "+":
				v, ok = addInt(x, y)
			case "-":
				if ny, ok1 := negInt(y); ok1 {
					v, ok = addInt(x, ny)
				} else if x < 0 { // x - MinInt64 fits when x is negative
					v, ok = x-y, true
				}
			case "*":
				v, ok = mulInt(x, y)
			}
			if !ok {
				return 0, overflow(e)
			}
			return v, nil
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

func overflow(e Expr) error {
	return fmt.Errorf("%s: the value of %s does not fit in a 64-bit integer", e.Position(), e)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
