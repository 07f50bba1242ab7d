// Package pml connects Promela models to package ltl: it turns the formula
// of an ltl block (as the Promela parser read it) into an ltl.Formula and a
// never claim into an ltl.Automaton. In both, the atomic propositions are
// Promela expressions, returned alongside so that the caller can compile
// them into predicates over the model's states.
//
// It names properties as Spin does: an ltl block by its name, an unnamed
// one ltl_0, ltl_1, ... counting only the unnamed blocks; a never claim by
// its name, an unnamed one never_0, never_1, ... by its place among the
// claims.
package pml

import (
	"fmt"

	"ftmc/ltl"
	"ftmc/promela"
)

// Atoms maps the text of each atomic proposition (as in ltl.Formula.Atom and
// ltl.Automaton.Atoms) to its Promela expression.
type Atoms map[string]promela.Expr

// Error is a problem with a formula or a claim, at a position.
type Error struct {
	Pos promela.Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Pos converts a Promela position.
func Pos(p promela.Pos) ltl.Pos {
	return ltl.Pos{File: p.Filename(), Line: int(p.Line), Col: int(p.Col)}
}

// Names returns the property name of each ltl block of prog, in order.
func Names(prog *promela.Program) []string {
	names := make([]string, len(prog.LTL))
	unnamed := 0
	for i, d := range prog.LTL {
		if d.Name != nil {
			names[i] = d.Name.Name
			continue
		}
		names[i] = fmt.Sprintf("ltl_%d", unnamed)
		unnamed++
	}
	return names
}

// ClaimName is the property name of a never claim.
func ClaimName(d *promela.ProcDecl) string { return d.ProcName() }

// Formula converts an ltl block's formula. The maximal subexpressions
// without temporal operators, other than Boolean combinations, become
// atoms; && || ! -> <-> and the temporal operators become the formula's
// operators.
func Formula(x promela.Expr) (*ltl.Formula, Atoms, error) {
	atoms := Atoms{}
	f, err := convert(x, atoms)
	if err != nil {
		return nil, nil, err
	}
	return f, atoms, nil
}

// unaryOps and binaryOps are the Promela operators that are the formula's
// operators; any other operator is inside an atom.
var (
	unaryOps = map[promela.Token]ltl.Op{
		promela.NOT:        ltl.OpNot,
		promela.ALWAYS:     ltl.OpAlways,
		promela.EVENTUALLY: ltl.OpEventually,
		promela.NEXT:       ltl.OpNext,
	}
	binaryOps = map[promela.Token]ltl.Op{
		promela.LAND:      ltl.OpAnd,
		promela.LOR:       ltl.OpOr,
		promela.IMPLIES:   ltl.OpImplies,
		promela.EQUIV:     ltl.OpEquiv,
		promela.UNTIL:     ltl.OpUntil,
		promela.WEAKUNTIL: ltl.OpWeakUntil,
		promela.RELEASE:   ltl.OpRelease,
	}
)

func convert(x promela.Expr, atoms Atoms) (*ltl.Formula, error) {
	pos := Pos(x.Pos())
	switch x := x.(type) {
	case *promela.IntLit:
		if x.Value != 0 {
			return &ltl.Formula{Op: ltl.OpTrue, Pos: pos}, nil
		}
		return &ltl.Formula{Op: ltl.OpFalse, Pos: pos}, nil
	case *promela.UnaryExpr:
		if op, ok := unaryOps[x.Op]; ok {
			return operator(op, pos, atoms, x.X)
		}
	case *promela.BinaryExpr:
		if op, ok := binaryOps[x.Op]; ok {
			return operator(op, pos, atoms, x.X, x.Y)
		}
	}
	return atom(x, atoms)
}

// operator converts the operands (one or two) of the formula's operator op.
func operator(op ltl.Op, pos ltl.Pos, atoms Atoms, operands ...promela.Expr) (*ltl.Formula, error) {
	var kids [2]*ltl.Formula
	for i, x := range operands {
		k, err := convert(x, atoms)
		if err != nil {
			return nil, err
		}
		kids[i] = k
	}
	return &ltl.Formula{Op: op, L: kids[0], R: kids[1], Pos: pos}, nil
}

// atom makes x an atomic proposition; it must not contain temporal
// operators.
func atom(x promela.Expr, atoms Atoms) (*ltl.Formula, error) {
	var bad promela.Node
	promela.Inspect(x, func(n promela.Node) bool {
		if bad != nil {
			return false
		}
		switch n := n.(type) {
		case *promela.UnaryExpr:
			if n.Op == promela.ALWAYS || n.Op == promela.EVENTUALLY || n.Op == promela.NEXT {
				bad = n
			}
		case *promela.BinaryExpr:
			switch n.Op {
			case promela.UNTIL, promela.WEAKUNTIL, promela.RELEASE, promela.IMPLIES, promela.EQUIV:
				bad = n
			}
		}
		return bad == nil
	})
	if bad != nil {
		p := bad.Pos()
		if b, ok := bad.(*promela.BinaryExpr); ok {
			p = b.OpPos
		}
		return nil, &Error{Pos: p, Msg: "temporal operator inside an expression: parenthesise the expression"}
	}
	text := promela.ExprString(x)
	atoms[text] = x
	return &ltl.Formula{Op: ltl.OpAtom, Atom: text, Pos: Pos(x.Pos())}, nil
}
