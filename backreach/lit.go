package backreach

import (
	stdcmp "cmp"
	"fmt"
	"math"
	"strings"

	"ftmc/mcmt/system"
)

// atom is an integer unknown of a cube: an array entry a[i], a global, or
// the identifier of process variable i. Bits 8 and up hold the variable's
// index + 1 (0 for identifiers), bits 0-7 the process variable + 1 (0 for
// globals). The zero atom stands for "no atom" (a constant).
type atom uint32

func readAtom(v, k int) atom { return atom(uint32(v+1)<<8 | uint32(k+1)) }
func globalAtom(v int) atom  { return atom(uint32(v+1) << 8) }
func procAtom(k int) atom    { return atom(uint32(k + 1)) }

func (a atom) v() int       { return int(a>>8) - 1 }
func (a atom) k() int       { return int(a&0xff) - 1 }
func (a atom) isProc() bool { return a != 0 && a>>8 == 0 }
func (a atom) local() bool  { return a&0xff != 0 }
func (a atom) withK(k int) atom {
	return a&^0xff | atom(k+1)
}

// inf stands for an absent bound; values stay far from it.
const inf = math.MaxInt64 / 4

// lop is the comparison of a normalized literal.
type lop uint8

const (
	opEq lop = iota // x = y + c, or x = c
	opNe            // x != y + c, or x != c
	opLe            // x - y <= c, or x <= c
	opGe            // x >= c (constant literals only)
)

// lit is a normalized literal: "x op c" when y is 0, else "x op y + c"
// (for opLe: x - y <= c). Eq and Ne literals over two atoms have x < y.
type lit struct {
	x, y atom
	op   lop
	c    int64
}

func litLess(a, b lit) bool {
	if a.x != b.x {
		return a.x < b.x
	}
	if a.y != b.y {
		return a.y < b.y
	}
	if a.op != b.op {
		return a.op < b.op
	}
	return a.c < b.c
}

func litCmp(a, b lit) int {
	if a.x != b.x {
		return stdcmp.Compare(a.x, b.x)
	}
	if a.y != b.y {
		return stdcmp.Compare(a.y, b.y)
	}
	if a.op != b.op {
		return stdcmp.Compare(a.op, b.op)
	}
	return stdcmp.Compare(a.c, b.c)
}

// negate returns the literal that holds exactly when l does not (over the
// integers).
func (l lit) negate() lit {
	switch l.op {
	case opEq:
		l.op = opNe
	case opNe:
		l.op = opEq
	case opGe:
		l.op, l.c = opLe, l.c-1
	case opLe:
		if l.y == 0 {
			l.op, l.c = opGe, l.c+1
		} else {
			l.x, l.y, l.c = l.y, l.x, -l.c-1
		}
	}
	return l
}

// rename maps the process variables of l's atoms through sigma.
func (l lit) rename(sigma []int) lit {
	r := func(a atom) atom {
		if a == 0 || !a.local() {
			return a
		}
		return a.withK(sigma[a.k()])
	}
	l.x, l.y = r(l.x), r(l.y)
	if l.y != 0 && (l.op == opEq || l.op == opNe) && l.x > l.y {
		l.x, l.y, l.c = l.y, l.x, -l.c
	}
	return l
}

// truth is the value of a literal that simplifies to a constant.
type truth uint8

const (
	isLit truth = iota
	isTrue
	isFalse
)

func truthOf(b bool) truth {
	if b {
		return isTrue
	}
	return isFalse
}

// domain is the range of values of an atom.
type domain struct {
	lo, hi int64 // inf / -inf when unbounded
}

func (d domain) finite() bool { return d.lo > -inf && d.hi < inf }

// iterm is an instantiated term: atom + c, or the constant c when a is 0.
type iterm struct {
	a atom
	c int64
}

// vocabulary knows the atoms' domains and names.
type vocabulary struct {
	sys  *system.System
	doms []domain // per variable, narrowed by unit axioms
	// extra holds the domains of placeholder globals (nondeterministic
	// values in a pre-image), numbered after the model's variables.
	extra []domain
}

func (voc *vocabulary) dom(a atom) domain {
	if a.isProc() {
		return domain{0, inf}
	}
	v := a.v()
	if v >= len(voc.doms) {
		return voc.extra[v-len(voc.doms)]
	}
	return voc.doms[v]
}

// mkLit builds the literal l op r over instantiated terms and simplifies
// it with the atoms' domains.
func (voc *vocabulary) mkLit(op system.Op, l, r iterm) (lit, truth) {
	if l.a == 0 && r.a != 0 {
		l, r = r, l
		op = [...]system.Op{system.Eq, system.Ne, system.Gt, system.Ge, system.Lt, system.Le}[op]
	}
	if l.a == 0 {
		return lit{}, truthOf(cmp(op, l.c, r.c))
	}
	if r.a == 0 {
		c := r.c - l.c
		switch op {
		case system.Eq:
			return voc.simplify(lit{x: l.a, op: opEq, c: c})
		case system.Ne:
			return voc.simplify(lit{x: l.a, op: opNe, c: c})
		case system.Lt:
			return voc.simplify(lit{x: l.a, op: opLe, c: c - 1})
		case system.Le:
			return voc.simplify(lit{x: l.a, op: opLe, c: c})
		case system.Gt:
			return voc.simplify(lit{x: l.a, op: opGe, c: c + 1})
		}
		return voc.simplify(lit{x: l.a, op: opGe, c: c})
	}
	// x + l.c op y + r.c
	x, y, c := l.a, r.a, r.c-l.c
	switch op {
	case system.Eq:
		return voc.simplify(lit{x: x, y: y, op: opEq, c: c})
	case system.Ne:
		return voc.simplify(lit{x: x, y: y, op: opNe, c: c})
	case system.Lt:
		return voc.simplify(lit{x: x, y: y, op: opLe, c: c - 1})
	case system.Le:
		return voc.simplify(lit{x: x, y: y, op: opLe, c: c})
	case system.Gt:
		return voc.simplify(lit{x: y, y: x, op: opLe, c: -c - 1})
	}
	return voc.simplify(lit{x: y, y: x, op: opLe, c: -c})
}

func cmp(op system.Op, a, b int64) bool {
	switch op {
	case system.Eq:
		return a == b
	case system.Ne:
		return a != b
	case system.Lt:
		return a < b
	case system.Le:
		return a <= b
	case system.Gt:
		return a > b
	}
	return a >= b
}

// simplify puts l in normal form, deciding it when the domains do.
func (voc *vocabulary) simplify(l lit) (lit, truth) {
	if l.y == 0 {
		d := voc.dom(l.x)
		switch l.op {
		case opEq:
			if l.c < d.lo || l.c > d.hi {
				return l, isFalse
			}
		case opNe:
			if l.c < d.lo || l.c > d.hi {
				return l, isTrue
			}
			if d.lo == l.c && d.hi == l.c+1 {
				return lit{x: l.x, op: opEq, c: l.c + 1}, isLit
			}
			if d.hi == l.c && d.lo == l.c-1 {
				return lit{x: l.x, op: opEq, c: l.c - 1}, isLit
			}
			if d.lo == l.c && d.hi == l.c {
				return l, isFalse
			}
		case opLe:
			if l.c >= d.hi {
				return l, isTrue
			}
			if l.c < d.lo {
				return l, isFalse
			}
			if l.c == d.lo {
				return lit{x: l.x, op: opEq, c: l.c}, isLit
			}
		case opGe:
			if l.c <= d.lo {
				return l, isTrue
			}
			if l.c > d.hi {
				return l, isFalse
			}
			if l.c == d.hi {
				return lit{x: l.x, op: opEq, c: l.c}, isLit
			}
		}
		return l, isLit
	}
	if l.x == l.y {
		switch l.op {
		case opEq:
			return l, truthOf(l.c == 0)
		case opNe:
			return l, truthOf(l.c != 0)
		}
		return l, truthOf(0 <= l.c)
	}
	if l.x.isProc() && l.y.isProc() && l.c == 0 {
		// Process variables of a cube denote distinct processes.
		switch l.op {
		case opEq:
			return l, isFalse
		case opNe:
			return l, isTrue
		}
	}
	if (l.op == opEq || l.op == opNe) && l.x > l.y {
		l.x, l.y, l.c = l.y, l.x, -l.c
	}
	dx, dy := voc.dom(l.x), voc.dom(l.y)
	switch l.op {
	case opLe:
		// x - y <= c always holds when hi(x) - lo(y) <= c.
		if dx.hi < inf && dy.lo > -inf && dx.hi-dy.lo <= l.c {
			return l, isTrue
		}
		if dx.lo > -inf && dy.hi < inf && dx.lo-dy.hi > l.c {
			return l, isFalse
		}
	case opEq, opNe:
		if dx.hi < inf && dy.lo > -inf && dx.hi < dy.lo+l.c || dx.lo > -inf && dy.hi < inf && dx.lo > dy.hi+l.c {
			return l, truthOf(l.op == opNe)
		}
	}
	return l, isLit
}

// name prints an atom with the model's names; process variable k is
// written #k+1 as in Cubicle's output.
func (voc *vocabulary) name(a atom) string {
	switch {
	case a.isProc():
		return fmt.Sprintf("#%d", a.k()+1)
	case a.v() >= len(voc.sys.Vars):
		return fmt.Sprintf("?%d", a.v()-len(voc.sys.Vars))
	case a.local():
		return fmt.Sprintf("%s[#%d]", voc.sys.Vars[a.v()].Name, a.k()+1)
	}
	return voc.sys.Vars[a.v()].Name
}

func (voc *vocabulary) sortOf(a atom) system.Sort {
	if a.isProc() || a.v() >= len(voc.sys.Vars) {
		return system.Sort{Kind: system.Int}
	}
	return voc.sys.Vars[a.v()].Sort
}

func (voc *vocabulary) value(a atom, c int64) string {
	if s := voc.sortOf(a); s.Kind == system.Bool || s.Kind == system.Enum {
		return system.FormatValue(c, s)
	}
	return fmt.Sprint(c)
}

func (voc *vocabulary) litString(l lit) string {
	x := voc.name(l.x)
	if l.y == 0 {
		op := [...]string{"=", "!=", "<=", ">="}[l.op]
		return x + " " + op + " " + voc.value(l.x, l.c)
	}
	y := voc.name(l.y)
	off := ""
	switch {
	case l.c > 0:
		off = fmt.Sprintf(" + %d", l.c)
	case l.c < 0:
		off = fmt.Sprintf(" - %d", -l.c)
	}
	switch l.op {
	case opEq:
		return x + " = " + y + off
	case opNe:
		return x + " != " + y + off
	}
	if l.c == -1 {
		return x + " < " + y
	}
	return x + " <= " + y + off
}

func (voc *vocabulary) cubeString(c *cube) string {
	parts := make([]string, len(c.lits))
	for i, l := range c.lits {
		parts[i] = voc.litString(l)
	}
	return strings.Join(parts, " && ")
}
