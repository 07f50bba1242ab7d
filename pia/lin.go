package pia

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// lin is a linear integer term: the sum of c[v]*v over named symbols, plus
// k. Symbols are parameters (their own names), shared variables before the
// step ("s:" prefix), locals before the step ("l:") and values chosen
// during the step ("h<n>:").
type lin struct {
	c map[string]int64
	k int64
}

func constLin(k int64) lin      { return lin{k: k} }
func symLin(name string) lin    { return lin{c: map[string]int64{name: 1}} }
func (a lin) isConst() bool     { return len(a.c) == 0 }
func (a lin) has(v string) bool { _, ok := a.c[v]; return ok }

// errOverflow is returned when a coefficient leaves int64.
var errOverflow = fmt.Errorf("integer overflow in a linear term")

func addI(a, b int64) (int64, error) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, errOverflow
	}
	return s, nil
}

func mulI(a, b int64) (int64, error) {
	if a == 0 || b == 0 {
		return 0, nil
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, errOverflow
	}
	return p, nil
}

func (a lin) add(b lin) (lin, error) {
	out := lin{c: make(map[string]int64, len(a.c)+len(b.c))}
	var err error
	if out.k, err = addI(a.k, b.k); err != nil {
		return lin{}, err
	}
	for v, x := range a.c {
		out.c[v] = x
	}
	for v, x := range b.c {
		s, err := addI(out.c[v], x)
		if err != nil {
			return lin{}, err
		}
		if s == 0 {
			delete(out.c, v)
		} else {
			out.c[v] = s
		}
	}
	return out, nil
}

func (a lin) scale(m int64) (lin, error) {
	out := lin{c: make(map[string]int64, len(a.c))}
	var err error
	if out.k, err = mulI(a.k, m); err != nil {
		return lin{}, err
	}
	if m == 0 {
		return lin{}, nil
	}
	for v, x := range a.c {
		if out.c[v], err = mulI(x, m); err != nil {
			return lin{}, err
		}
	}
	return out, nil
}

func (a lin) sub(b lin) (lin, error) {
	nb, err := b.scale(-1)
	if err != nil {
		return lin{}, err
	}
	return a.add(nb)
}

// subst replaces the symbol v by t.
func (a lin) subst(v string, t lin) (lin, error) {
	x, ok := a.c[v]
	if !ok {
		return a, nil
	}
	rest := lin{c: make(map[string]int64, len(a.c)), k: a.k}
	for w, y := range a.c {
		if w != v {
			rest.c[w] = y
		}
	}
	st, err := t.scale(x)
	if err != nil {
		return lin{}, err
	}
	return rest.add(st)
}

func (a lin) vars() []string {
	vs := make([]string, 0, len(a.c))
	for v := range a.c {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	return vs
}

func (a lin) key() string {
	var b strings.Builder
	for _, v := range a.vars() {
		b.WriteString(strconv.FormatInt(a.c[v], 10))
		b.WriteByte('*')
		b.WriteString(v)
		b.WriteByte('+')
	}
	return b.String()
}

// cons is l >= 0, or l == 0 when eq.
type cons struct {
	l  lin
	eq bool
}

func ge(a, b lin) (cons, error)  { d, err := a.sub(b); return cons{l: d}, err }
func eqc(a, b lin) (cons, error) { d, err := a.sub(b); return cons{l: d, eq: true}, err }

// decided tells whether a constraint without symbols holds.
func (c cons) decided() (holds, ok bool) {
	if !c.l.isConst() {
		return false, false
	}
	if c.eq {
		return c.l.k == 0, true
	}
	return c.l.k >= 0, true
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// tighten divides by the gcd of the coefficients, rounding the constant of
// an inequality down (valid over the integers); an equation whose constant
// is not divisible has no solution and becomes 0 == 1.
func (c cons) tighten() cons {
	var g int64
	for _, x := range c.l.c {
		g = gcd(g, x)
	}
	if g <= 1 {
		return c
	}
	out := lin{c: make(map[string]int64, len(c.l.c))}
	for v, x := range c.l.c {
		out.c[v] = x / g
	}
	if c.eq {
		if c.l.k%g != 0 {
			return cons{l: constLin(1), eq: true}
		}
		out.k = c.l.k / g
	} else {
		out.k = floorDiv(c.l.k, g)
	}
	return cons{l: out, eq: c.eq}
}

// maxFM bounds the constraints Fourier–Motzkin elimination may produce
// for one variable; beyond it the variable's constraints are dropped,
// which over-approximates (the projection stays sound).
const maxFM = 400

// project eliminates every symbol for which drop is true (Fourier–Motzkin
// over the rationals, exact over the integers when the eliminated
// coefficients are 1 or -1; otherwise an over-approximation). It returns
// false when the constraints are found unsatisfiable.
func project(cs []cons, drop func(string) bool) ([]cons, bool, error) {
	out, ok, _, err := projectX(cs, drop)
	return out, ok, err
}

// projectX is project that also tells whether the projection is exact over
// the integers (every eliminated coefficient was 1 or -1, nothing dropped).
func projectX(cs []cons, drop func(string) bool) ([]cons, bool, bool, error) {
	exact := true
	// Equations first: substitute a variable with coefficient +-1.
	work := make([]cons, 0, len(cs))
	for _, c := range cs {
		work = append(work, c.tighten())
	}
	for {
		idx, v := -1, ""
		for i, c := range work {
			if !c.eq {
				continue
			}
			for _, w := range c.l.vars() {
				if drop(w) && (c.l.c[w] == 1 || c.l.c[w] == -1) {
					idx, v = i, w
					break
				}
			}
			if idx >= 0 {
				break
			}
		}
		if idx < 0 {
			break
		}
		c := work[idx]
		// v = -(rest)/coef
		coef := c.l.c[v]
		rest := lin{c: map[string]int64{}, k: c.l.k}
		for w, x := range c.l.c {
			if w != v {
				rest.c[w] = x
			}
		}
		t, err := rest.scale(-coef) // coef is +-1: v = -rest*coef
		if err != nil {
			return nil, false, false, err
		}
		next := make([]cons, 0, len(work))
		for i, d := range work {
			if i == idx {
				continue
			}
			nl, err := d.l.subst(v, t)
			if err != nil {
				return nil, false, false, err
			}
			next = append(next, cons{l: nl, eq: d.eq}.tighten())
		}
		work = next
	}
	// Remaining equations become two inequalities.
	var ineq []cons
	for _, c := range work {
		if c.eq {
			neg, err := c.l.scale(-1)
			if err != nil {
				return nil, false, false, err
			}
			ineq = append(ineq, cons{l: c.l}.tighten(), cons{l: neg}.tighten())
		} else {
			ineq = append(ineq, c)
		}
	}
	ineq, ok := simplify(ineq)
	if !ok {
		return nil, false, exact, nil
	}
	for {
		// Pick the droppable variable with the fewest new constraints.
		best, bestCost := "", -1
		seen := map[string]bool{}
		for _, c := range ineq {
			for v := range c.l.c {
				if !drop(v) || seen[v] {
					continue
				}
				seen[v] = true
				p, n := 0, 0
				for _, d := range ineq {
					switch x := d.l.c[v]; {
					case x > 0:
						p++
					case x < 0:
						n++
					}
				}
				if cost := p * n; bestCost < 0 || cost < bestCost || cost == bestCost && v < best {
					best, bestCost = v, cost
				}
			}
		}
		if bestCost < 0 {
			return ineq, true, exact, nil
		}
		var pos, neg, rest []cons
		for _, c := range ineq {
			switch x := c.l.c[best]; {
			case x > 0:
				pos = append(pos, c)
			case x < 0:
				neg = append(neg, c)
			default:
				rest = append(rest, c)
			}
		}
		if len(pos)*len(neg) > maxFM {
			exact = false
		}
		if len(pos)*len(neg) <= maxFM {
			for _, p := range pos {
				for _, n := range neg {
					a, b := p.l.c[best], -n.l.c[best]
					if a != 1 && b != 1 {
						exact = false
					}
					x, err := p.l.scale(b)
					if err != nil {
						return nil, false, false, err
					}
					y, err := n.l.scale(a)
					if err != nil {
						return nil, false, false, err
					}
					s, err := x.add(y)
					if err != nil {
						return nil, false, false, err
					}
					delete(s.c, best)
					rest = append(rest, cons{l: s}.tighten())
				}
			}
		}
		ineq, ok = simplify(rest)
		if !ok {
			return nil, false, exact, nil
		}
	}
}

// simplify removes decided and duplicate inequalities, keeping the
// strongest constant of each left-hand side; false when one is violated.
func simplify(cs []cons) ([]cons, bool) {
	best := map[string]int{}
	var out []cons
	for _, c := range cs {
		if h, ok := c.decided(); ok {
			if !h {
				return nil, false
			}
			continue
		}
		k := c.l.key()
		if c.eq {
			k = "=" + k
		}
		if i, ok := best[k]; ok {
			if c.l.k < out[i].l.k && !c.eq {
				out[i] = c
			} else if c.eq && c.l.k != out[i].l.k {
				return nil, false
			}
			continue
		}
		best[k] = len(out)
		out = append(out, c)
	}
	// Opposite bounds on the same term: l + a >= 0 and -l + b >= 0 need a + b >= 0.
	for k, i := range best {
		if strings.HasPrefix(k, "=") {
			continue
		}
		neg, err := out[i].l.scale(-1)
		if err != nil {
			continue
		}
		if j, ok := best[neg.key()]; ok && j != i {
			if s, err := addI(out[i].l.k, out[j].l.k); err == nil && s < 0 {
				return nil, false
			}
		}
	}
	keys := make([]string, len(out))
	for i, c := range out {
		keys[i] = consKey(c)
	}
	sort.Stable(byKey{out, keys})
	return out, true
}

func consKey(c cons) string {
	op := ">="
	if c.eq {
		op = "=="
	}
	return c.l.key() + op + strconv.FormatInt(c.l.k, 10)
}

// byKey sorts constraints by their keys, computed once.
type byKey struct {
	cs   []cons
	keys []string
}

func (b byKey) Len() int           { return len(b.cs) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.cs[i], b.cs[j] = b.cs[j], b.cs[i]
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
}
