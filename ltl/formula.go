package ltl

import (
	"fmt"
	"strings"

	"ftmc/internal/ident"
)

// Pos is a position in a source file; Line and Col are 1-based.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Op is the operator of a formula node.
type Op uint8

const (
	OpTrue Op = iota
	OpFalse
	OpAtom
	OpNot
	OpAnd
	OpOr
	OpImplies
	OpEquiv
	OpNext
	OpAlways
	OpEventually
	OpUntil
	OpWeakUntil
	OpRelease
)

var opNames = [...]string{
	OpTrue: "true", OpFalse: "false", OpAtom: "atom", OpNot: "!", OpAnd: "&&", OpOr: "||",
	OpImplies: "->", OpEquiv: "<->", OpNext: "X", OpAlways: "[]", OpEventually: "<>",
	OpUntil: "U", OpWeakUntil: "W", OpRelease: "V",
}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", o)
}

// unary reports whether o takes one operand (L).
func (o Op) unary() bool { return o == OpNot || o == OpNext || o == OpAlways || o == OpEventually }

// binary reports whether o takes two operands (L, R).
func (o Op) binary() bool { return o >= OpAnd && o <= OpEquiv || o >= OpUntil }

// Formula is an LTL formula as written. Unary operators use L; binary
// operators use L and R; an atom has Atom.
type Formula struct {
	Op   Op
	L, R *Formula
	Atom string // OpAtom: the proposition, in the model's language
	Pos  Pos    // where the operator or atom starts
}

// Constructors for formulas built in code (positions are zero).

func True() *Formula                 { return &Formula{Op: OpTrue} }
func False() *Formula                { return &Formula{Op: OpFalse} }
func Atom(text string) *Formula      { return &Formula{Op: OpAtom, Atom: text} }
func Not(f *Formula) *Formula        { return &Formula{Op: OpNot, L: f} }
func And(f, g *Formula) *Formula     { return &Formula{Op: OpAnd, L: f, R: g} }
func Or(f, g *Formula) *Formula      { return &Formula{Op: OpOr, L: f, R: g} }
func Implies(f, g *Formula) *Formula { return &Formula{Op: OpImplies, L: f, R: g} }
func Equiv(f, g *Formula) *Formula   { return &Formula{Op: OpEquiv, L: f, R: g} }
func Next(f *Formula) *Formula       { return &Formula{Op: OpNext, L: f} }
func Always(f *Formula) *Formula     { return &Formula{Op: OpAlways, L: f} }
func Eventually(f *Formula) *Formula { return &Formula{Op: OpEventually, L: f} }
func Until(f, g *Formula) *Formula   { return &Formula{Op: OpUntil, L: f, R: g} }
func WeakUntil(f, g *Formula) *Formula {
	return &Formula{Op: OpWeakUntil, L: f, R: g}
}
func Release(f, g *Formula) *Formula { return &Formula{Op: OpRelease, L: f, R: g} }

// Atoms returns the distinct atomic propositions of f in order of first
// occurrence (left to right).
func (f *Formula) Atoms() []string {
	var out []string
	seen := map[string]bool{}
	var walk func(*Formula)
	walk = func(f *Formula) {
		if f == nil {
			return
		}
		if f.Op == OpAtom && !seen[f.Atom] {
			seen[f.Atom] = true
			out = append(out, f.Atom)
		}
		walk(f.L)
		walk(f.R)
	}
	walk(f)
	return out
}

// AtomPos returns the position of the first occurrence of atom a in f.
func (f *Formula) AtomPos(a string) (Pos, bool) {
	if f == nil {
		return Pos{}, false
	}
	if f.Op == OpAtom && f.Atom == a {
		return f.Pos, true
	}
	if p, ok := f.L.AtomPos(a); ok {
		return p, true
	}
	return f.R.AtomPos(a)
}

// precedence levels of Spin's inline ltl grammar, loosest first.
func (o Op) prec() int {
	switch o {
	case OpImplies, OpEquiv:
		return 1
	case OpOr:
		return 2
	case OpAnd:
		return 3
	case OpUntil, OpWeakUntil, OpRelease:
		return 4
	case OpNot, OpNext, OpAlways, OpEventually:
		return 5
	}
	return 6
}

// String prints f in Spin's syntax, with parentheses only where Spin's
// precedence (binary operators associate to the left) needs them; an atom
// that is not a plain name is parenthesised.
func (f *Formula) String() string {
	var b strings.Builder
	f.write(&b)
	return b.String()
}

func (f *Formula) write(b *strings.Builder) {
	switch f.Op {
	case OpTrue:
		b.WriteString("true")
	case OpFalse:
		b.WriteString("false")
	case OpAtom:
		if ident.Valid(f.Atom) {
			b.WriteString(f.Atom)
		} else {
			b.WriteString("(" + f.Atom + ")")
		}
	case OpNot, OpNext, OpAlways, OpEventually:
		b.WriteString(f.Op.String())
		if f.Op == OpNext {
			b.WriteByte(' ')
		}
		f.L.writeOperand(b, f.Op.prec(), false)
	default:
		f.L.writeOperand(b, f.Op.prec(), false)
		b.WriteString(" " + f.Op.String() + " ")
		f.R.writeOperand(b, f.Op.prec(), true)
	}
}

func (f *Formula) writeOperand(b *strings.Builder, parent int, right bool) {
	p := f.Op.prec()
	if p < parent || right && p == parent && f.Op.binary() {
		b.WriteByte('(')
		f.write(b)
		b.WriteByte(')')
		return
	}
	f.write(b)
}

// Equal reports whether f and g are the same formula (positions ignored).
func Equal(f, g *Formula) bool {
	if f == nil || g == nil {
		return f == g
	}
	return f.Op == g.Op && f.Atom == g.Atom && Equal(f.L, g.L) && Equal(f.R, g.R)
}
