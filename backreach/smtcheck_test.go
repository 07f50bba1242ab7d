package backreach

import (
	"context"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/smt"
)

// A fixpoint check with thousands of instances gets its answer. Sent as
// one command per instance, each answered by the solver and the answers
// read only at the check, it once filled the pipe back from the solver:
// both sides waited for the other, and the search hung. The query takes
// about 4 s on an idle machine and four times that under load, so the
// solver has no time limit of its own: only a hang fails.
func TestSMTManyClauses(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	s := parse(t, "many.cub", "var X : int\narray B[proc] : bool\nunsafe (i) { B[i] = True }")
	voc := &vocabulary{sys: s, doms: []domain{{-inf, inf}, {0, 1}}}
	sc, err := newSMTCheck(context.Background(), voc, smt.Options{Name: "z3"})
	if err != nil {
		t.Fatal(err)
	}
	x := globalAtom(0)
	c := &cube{n: 1, lits: []lit{{x: x, op: opGe, c: 0}, {x: x, op: opLe, c: 20000}}}
	// Covered by the cubes X = k, k = 0..20000.
	var clauses [][]lit
	for k := int64(0); k <= 20000; k++ {
		clauses = append(clauses, []lit{{x: x, op: opEq, c: k}})
	}
	type answer struct {
		ok  bool
		err error
	}
	done := make(chan answer, 1)
	go func() {
		ok, err := sc.covered(context.Background(), c, clauses)
		done <- answer{ok, err}
	}()
	select {
	case a := <-done:
		sc.close()
		if a.err != nil || !a.ok {
			t.Errorf("covered %v, %v; want covered", a.ok, a.err)
		}
	case <-time.After(90 * time.Second):
		// The solver is left blocked: closing it would block as well.
		t.Fatal("no answer after 90 s: the solver and the search wait for each other")
	}
}
