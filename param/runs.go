package param

import (
	"context"
	"fmt"
	"strings"

	"ftmc/smt"
	"ftmc/ta"
)

// noRuns decides whether the automaton has a run at all: parameter values
// that satisfy the resilience condition, and for some of them an initial
// configuration. Without either, the schema search finds no counterexample
// because there is nothing to search, and holds would say nothing: none is
// then the reason of the unknown verdict. Each of the two questions is one
// query to s, the solver of the search's setup (a second solver confirms
// its unsat answers as it does the search's); noRuns leaves s as it found
// it. When the solver does not answer (it fails, times out, or the run is
// stopped), undecided says why: the search goes on and meets the same
// solver, whose failure it reports as usual, and a holds it reaches is
// unknown with this reason.
func noRuns(ctx context.Context, s smt.Solver, m *model) (none, undecided string, queries int64) {
	s.Push()
	defer s.Pop(1)
	p := &problem{m: m}
	// Each assumption and initial condition is asserted under a literal of
	// its own, so that the unsat core names those that contradict each
	// other.
	var lits []string
	var exprs []ta.Expr
	declared := 0
	guarded := func(e ta.Expr, st stateNames) error {
		t, err := exprTerm(e, st)
		if err != nil {
			return err
		}
		lit := fmt.Sprintf("c%d", declared)
		declared++
		s.Send(smt.DeclareConst(lit, "Bool"), "(assert (=> "+lit+" "+t+"))")
		lits = append(lits, lit)
		exprs = append(exprs, e)
		return nil
	}
	// The conditions named by the core of the last check.
	named := func() string {
		core, err := s.UnsatCore(ctx)
		if err != nil {
			return ""
		}
		var parts []string
		for i, lit := range lits {
			if contains(core, lit) {
				parts = append(parts, fmt.Sprintf("%s at %s:%s", exprs[i], m.f.Path, exprs[i].Position()))
			}
		}
		if len(parts) == 0 {
			return ""
		}
		return " (" + strings.Join(parts, ", ") + ")"
	}
	ask := func() (bool, string) {
		st, err := s.Check(ctx, lits...)
		queries++
		switch {
		case err != nil:
			return false, err.Error()
		case st == smt.Unknown:
			return false, s.Reason()
		}
		return st == smt.Unsat, ""
	}

	for i := range m.f.Params {
		s.Send(smt.DeclareConst(paramName(i), "Int"), "(assert (>= "+paramName(i)+" 0))")
	}
	for _, a := range m.f.Assumptions {
		if err := guarded(a, ""); err != nil {
			return "", err.Error(), queries
		}
	}
	empty, why := ask()
	if why != "" {
		return "", why, queries
	}
	if empty {
		return "no parameter values satisfy the resilience condition" + named() + ", so the automaton has no run and nothing was checked", "", queries
	}
	// The resilience condition holds from now on; only the initial
	// conditions are named.
	for _, lit := range lits {
		s.Assert(lit)
	}
	lits, exprs = nil, nil
	t0 := stateNames("t0")
	s.Send(p.declareState(t0)...)
	for l := 0; l < m.nloc; l++ {
		s.Assert(smt.App(">=", t0.k(l), "0"))
	}
	for v := 0; v < m.nsh; v++ {
		s.Assert(smt.App(">=", t0.x(v), "0"))
	}
	for _, e := range m.f.Inits {
		if err := guarded(e, t0); err != nil {
			return "", err.Error(), queries
		}
	}
	empty, why = ask()
	if why != "" {
		return "", why, queries
	}
	if empty {
		return "no initial configuration satisfies the initial condition under the resilience condition" + named() + ", so the automaton has no run and nothing was checked", "", queries
	}
	return "", "", queries
}
