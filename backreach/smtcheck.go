package backreach

import (
	"context"
	"errors"
	"fmt"

	"ftmc/smt"
)

// smtCheck decides c ⊨ d1σ1 ∨ ... ∨ dkσk (is c ∧ ¬d1σ1 ∧ ... unsatisfiable?)
// with an SMT solver, for the fixpoint checks that syntactic matching
// cannot settle. Atoms are Int constants declared once, with their domains
// asserted at the base level; each check runs between push and pop.
type smtCheck struct {
	s        smt.Solver
	voc      *vocabulary
	declared map[atom]bool
	procs    []atom
	calls    int64
}

func newSMTCheck(ctx context.Context, voc *vocabulary, opts smt.Options) (*smtCheck, error) {
	if opts.Logic == "" && opts.Name != "cvc5" {
		opts.Logic = "QF_LIA"
	}
	if c := opts.CrossCheck; c != nil && c.Logic == "" && c.Name != "cvc5" {
		second := *c
		second.Logic = "QF_LIA"
		opts.CrossCheck = &second
	}
	s, err := smt.New(ctx, opts)
	if err != nil {
		if errors.Is(err, smt.ErrNoSolver) || ctx.Err() != nil {
			return nil, err
		}
		return nil, &solverFailure{err}
	}
	return &smtCheck{s: s, voc: voc, declared: map[atom]bool{}}, nil
}

func (sc *smtCheck) close() {
	if sc != nil && sc.s != nil {
		sc.s.Close()
	}
}

func (sc *smtCheck) name(a atom) string {
	switch {
	case a.isProc():
		return fmt.Sprintf("p%d", a.k())
	case a.local():
		return fmt.Sprintf("a%d_%d", a.v(), a.k())
	}
	return fmt.Sprintf("g%d", a.v())
}

func (sc *smtCheck) declare(a atom) {
	if sc.declared[a] {
		return
	}
	sc.declared[a] = true
	n := sc.name(a)
	sc.s.Send(smt.DeclareConst(n, "Int"))
	d := sc.voc.dom(a)
	if d.lo > -inf {
		sc.s.Assert(smt.App(">=", n, smt.Int(d.lo)))
	}
	if d.hi < inf {
		sc.s.Assert(smt.App("<=", n, smt.Int(d.hi)))
	}
	if a.isProc() {
		for _, q := range sc.procs {
			sc.s.Assert(smt.Not(smt.App("=", n, sc.name(q))))
		}
		sc.procs = append(sc.procs, a)
	}
}

func (sc *smtCheck) lit(l lit) string {
	sc.declare(l.x)
	x := sc.name(l.x)
	if l.y == 0 {
		c := smt.Int(l.c)
		switch l.op {
		case opEq:
			return smt.App("=", x, c)
		case opNe:
			return smt.Not(smt.App("=", x, c))
		case opLe:
			return smt.App("<=", x, c)
		}
		return smt.App(">=", x, c)
	}
	sc.declare(l.y)
	y := sc.name(l.y)
	rhs := y
	if l.c != 0 {
		rhs = smt.App("+", y, smt.Int(l.c))
	}
	switch l.op {
	case opEq:
		return smt.App("=", x, rhs)
	case opNe:
		return smt.Not(smt.App("=", x, rhs))
	}
	return smt.App("<=", smt.App("-", x, y), smt.Int(l.c))
}

// covered reports whether c entails the disjunction of the clauses' cubes
// (each clause lists the literals of one instance). An unknown answer
// counts as not covered, which only costs work, never soundness.
func (sc *smtCheck) covered(ctx context.Context, c *cube, clauses [][]lit) (bool, error) {
	// Declarations go to the base level, before the push.
	for _, l := range c.lits {
		sc.declare(l.x)
		if l.y != 0 {
			sc.declare(l.y)
		}
	}
	for k := 0; k < c.n; k++ {
		sc.declare(procAtom(k))
	}
	for _, cl := range clauses {
		for _, l := range cl {
			sc.declare(l.x)
			if l.y != 0 {
				sc.declare(l.y)
			}
		}
	}
	// One assertion for the whole query: one command, and one answer from
	// the solver, instead of one per instance (thousands, at times).
	sc.s.Push()
	conj := make([]string, 0, len(c.lits)+len(clauses))
	for _, l := range c.lits {
		conj = append(conj, sc.lit(l))
	}
	for _, cl := range clauses {
		ts := make([]string, len(cl))
		for i, l := range cl {
			ts[i] = sc.lit(l)
		}
		conj = append(conj, smt.Not(smt.And(ts...)))
	}
	sc.s.Assert(smt.And(conj...))
	sc.calls++
	st, err := sc.s.Check(ctx)
	sc.s.Pop(1)
	if err != nil {
		if ctx.Err() != nil {
			return false, err
		}
		return false, &solverFailure{err}
	}
	return st == smt.Unsat, nil
}

// solverFailure is an error of the SMT solver (it keeps dying, answers
// what is not SMT-LIB, reports an error, or contradicts the solver that
// cross-checks it): the search stops with the verdict unknown and the
// error as the reason.
type solverFailure struct{ err error }

func (f *solverFailure) Error() string { return f.err.Error() }
func (f *solverFailure) Unwrap() error { return f.err }
