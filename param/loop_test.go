package param

import (
	"context"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// stuckTA: processes leave I sending a message, move from A to B when
// guard holds and on from B to C. Fairness asks I and B empty on the loop,
// and A too once guard holds; termination asks them all empty: it holds
// when guard is x >= N (every process sends) and is violated when it is
// x >= N + 1 (no process ever leaves A).
func stuckTA(guard string) string {
	return strings.ReplaceAll(`ta Stuck {
  shared x;
  parameters N;
  assumptions (1) { N > 0; }
  locations (4) { I: [0]; A: [1]; B: [2]; C: [3]; }
  inits (5) { I == N; A == 0; B == 0; C == 0; x == 0; }
  rules (7) {
  0: I -> A when (true) do { x' == x + 1; };
  1: A -> B when (GUARD) do { unchanged(x); };
  2: B -> C when (true) do { unchanged(x); };
  3: I -> I when (true) do { unchanged(x); };
  4: A -> A when (true) do { unchanged(x); };
  5: B -> B when (true) do { unchanged(x); };
  6: C -> C when (true) do { unchanged(x); };
  }
  specifications (1) {
    term: ([](<>(I == 0)) && [](<>((!(GUARD) || A == 0) && B == 0))) -> <>(I == 0 && A == 0 && B == 0);
  }
}`, "GUARD", guard)
}

// TestLoopSplit checks the case split loopSplit adds to a lasso's loop: the
// locations of the G condition that fairness lets hold processes, each
// with the guards that keep it, and the verdicts of the tree search with
// it. The violated row fails when the split asks A's guard true instead
// of false (a process stays in A only while A's guard fails): the one run
// that violates the specification is lost.
func TestLoopSplit(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	for _, c := range []struct {
		guard string
		want  trace.Verdict
	}{
		{"x >= N", trace.Holds},
		{"x >= N + 1", trace.Violated},
	} {
		f := checked(t, "stuck.ta", stuckTA(c.guard))
		lcs, err := specCases(f.Specs[0].Formula)
		if err != nil || len(lcs) != 1 {
			t.Fatalf("%s: %d cases, %v", c.guard, len(lcs), err)
		}
		p, err := setup(context.Background(), f, lcs[0], Options{})
		if err != nil {
			t.Fatal(err)
		}
		fr := &frame{flipped: p.always, active: p.gconds[p.lc.root], end: "u0"}
		split := p.loopSplit(fr)
		// I is empty on the loop whatever the guards, B too: only A is left,
		// with its guard false.
		if len(split) != 1 || !strings.Contains(split[0], "u0_k1") || strings.Contains(split[0], "u0_k0") || strings.Contains(split[0], "u0_k2") || !strings.Contains(split[0], "not") {
			t.Errorf("%s: split %q, want one disjunct, over A (u0_k1) with its guard false", c.guard, split)
		}
		r := Verify(context.Background(), f, "term", crossChecked(Options{Jobs: 1, NoHunt: true, NoSingle: true}))
		if r.Verdict != c.want {
			t.Errorf("%s: %s (%s), want %s", c.guard, r.Verdict, r.Reason, c.want)
		}
		crossCheck(t, f, "term", r, 5, 4)
	}
}
