package param

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// TestCycleForbidden: a liveness specification that keeps a location
// empty from the start forbids the rules into and out of it; where those
// close the automaton's only cycle (here B and C, a suspicion that comes
// and goes), the lasso schemas check the rest, with the verdicts of the
// instances. Kept empty only eventually, the location's rules stay, and
// the counter abstraction with refinement checks the automaton.
func TestCycleForbidden(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f := checked(t, "susp.ta", suspicionTA("x >= 1 || x == 0", `
    fair: ([](C == 0) && [](<>(A == 0 && (x < N || B == 0)))) -> <>(D != 0);
    unfair: ([](C == 0) && [](<>(A == 0))) -> <>(D != 0);
    noB: ([](C == 0 && B == 0) && [](<>(A == 0))) -> <>(D != 0);
    either: (([](C == 0) || [](B == 0)) && [](<>(A == 0))) -> <>(D != 0);
    leaveB: [](<>(A == 0)) -> <>(B == 0);`))
	// The negation of <>(D != 0) keeps D empty too.
	for _, c := range []struct {
		spec string
		want trace.Verdict
		kept string
	}{{"fair", trace.Holds, "3 of 9"}, {"unfair", trace.Violated, "3 of 9"}, {"noB", trace.Holds, "1 of 9"}} {
		spec := c.spec
		r := Verify(context.Background(), f, spec, crossChecked(Options{Jobs: 1}))
		if r.Verdict != c.want || r.CEGAR != nil || !strings.HasPrefix(r.Forbidden, c.kept+" rules") {
			t.Errorf("%s: %s (%s; %q, refinement %v), want %s by the schemas on %s rules", spec, r.Verdict, r.Reason, r.Forbidden, r.CEGAR != nil, c.want, c.kept)
		}
		crossCheck(t, f, spec, r, 5, 4)
	}
	// A location kept empty in one disjunct of the negation but not in the
	// other, or kept occupied, keeps its rules: they may fire.
	for _, spec := range []string{"either", "leaveB"} {
		r := Verify(context.Background(), f, spec, Options{Jobs: 1})
		if r.Forbidden != "" {
			t.Errorf("%s: %q: want the rules kept, and the counter abstraction and the instances", spec, r.Forbidden)
		}
		if spec == "either" && r.Verdict == trace.Holds {
			t.Errorf("either: holds, but every process may stay in B")
		}
		crossCheck(t, f, spec, r, 5, 4)
	}
}

// TestCycleMerged: locations that a process moves between at will (rules
// both ways that update nothing and whose guards always hold) merge when
// the specification weighs them alike, which breaks their cycle and keeps
// the verdict; with guards that are thresholds instead, the merge
// over-approximates, so it proves holds only and leaves a violation to
// the counter abstraction. Where the specification tells the locations
// apart, they stay.
func TestCycleMerged(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	specs := `
    fair: [](<>(A == 0 && (x < N || (B == 0 && C == 0)))) -> <>(D != 0);
    unfair: [](<>(A == 0)) -> <>(D != 0);
    onlyB: [](<>(A == 0 && (x < N || B == 0)))  -> <>(D != 0);`
	for _, c := range []struct {
		guard, spec string
		want        trace.Verdict
		how         string // in Forbidden; "" for the counter abstraction
		noSelfLoops bool   // without the self-loops at B and C
	}{
		{"x >= 1 || x == 0", "fair", trace.Holds, "merging 1 locations that a process moves between at will", false},
		{"x >= 1 || x == 0", "unfair", trace.Violated, "merging 1 locations that a process moves between at will", false},
		{"x >= 1", "fair", trace.Holds, "an over-approximation", false},
		{"x >= 1", "unfair", trace.Violated, "", false},
		{"x >= 1 || x == 0", "onlyB", trace.Violated, "", false},
		// Without self-loops at B and C, the violating lassos only move
		// between them: the merged location keeps that move.
		{"x >= 1 || x == 0", "unfair", trace.Violated, "merging 1 locations that a process moves between at will", true},
		{"x >= 1", "unfair", trace.Violated, "", true},
	} {
		src := suspicionTA(c.guard, specs)
		if c.noSelfLoops {
			src = strings.NewReplacer("7: B -> B when (true) do { unchanged(x); };", "", "8: C -> C when (true) do { unchanged(x); };", "").Replace(src)
		}
		f := checked(t, "toggle.ta", src)
		r := Verify(context.Background(), f, c.spec, crossChecked(Options{Jobs: 1}))
		name := fmt.Sprintf("%s/%s (without self-loops %v)", c.guard, c.spec, c.noSelfLoops)
		if c.how != "" && !strings.Contains(r.Forbidden, c.how) || c.how == "" && r.Forbidden != "" {
			t.Errorf("%s: %q: want %q", name, r.Forbidden, c.how)
		}
		if r.Verdict != c.want && (c.how != "" || r.Verdict != trace.Unknown) {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, c.want)
		}
		crossCheck(t, f, c.spec, r, 5, 4)
	}
}

// TestCycleSplit: locations that a process moves between without updates,
// which the specification weighs alike until the loop and tells apart on
// it, where a G condition keeps one of them empty, are merged until the
// loop and split again for it. That over-approximates: it proves holds
// (later), and leaves a violation (laterUnfair) to the counter abstraction
// and the instances. Where the loop tells them apart and does not keep
// one empty (toggling: every run that violates it goes back and forth
// between B and C forever), or where the prefix tells them apart (backToB:
// a violating run visits C and goes back to B), they stay.
func TestCycleSplit(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	specs := `
    later: (<>[](C == 0) && [](<>(A == 0 && (x < N || B == 0)))) -> <>(D != 0);
    laterUnfair: (<>[](C == 0) && [](<>(A == 0))) -> <>(D != 0);
    toggling: ([](<>(A == 0 && B == 0)) && [](<>(A == 0 && C == 0))) -> <>(D != 0);
    backToB: (<>[](C == 0) && [](<>(A == 0))) -> ([](C == 0) || <>(D != 0));`
	const split = "told apart again"
	for _, c := range []struct {
		guard, spec string
		want        trace.Verdict
		split       bool
	}{
		{"x >= 1 || x == 0", "later", trace.Holds, true},
		{"x >= 1", "later", trace.Holds, true},
		{"x >= 1 || x == 0", "laterUnfair", trace.Violated, false},
		{"x >= 1 || x == 0", "toggling", trace.Violated, false},
		{"x >= 1 || x == 0", "backToB", trace.Violated, false},
	} {
		f := checked(t, "split.ta", suspicionTA(c.guard, specs))
		r := Verify(context.Background(), f, c.spec, crossChecked(Options{Jobs: 1}))
		name := c.guard + "/" + c.spec
		if strings.Contains(r.Forbidden, split) != c.split {
			t.Errorf("%s: %q, want split %v", name, r.Forbidden, c.split)
		}
		if r.Verdict != c.want {
			t.Errorf("%s: %s (%s), want %s", name, r.Verdict, r.Reason, c.want)
		}
		crossCheck(t, f, c.spec, r, 5, 4)
	}
}

// suspicionTA is an automaton whose processes move from A to B, then between
// B and C at will when guard holds (a suspicion that comes and goes), and
// on to D once every process has left A; specs are its specifications.
func suspicionTA(guard, specs string) string {
	return strings.ReplaceAll(`ta Toggle {
  shared x;
  parameters N;
  assumptions (1) { N > 0; }
  locations (4) { A: [0]; B: [1]; C: [2]; D: [3]; }
  inits (5) { A == N; B == 0; C == 0; D == 0; x == 0; }
  rules (9) {
  0: A -> B when (true) do { x' == x + 1; };
  1: B -> C when (GUARD) do { unchanged(x); };
  2: C -> B when (GUARD) do { unchanged(x); };
  3: B -> D when (x >= N) do { unchanged(x); };
  4: C -> D when (x >= N) do { unchanged(x); };
  5: D -> D when (true) do { unchanged(x); };
  6: A -> A when (true) do { unchanged(x); };
  7: B -> B when (true) do { unchanged(x); };
  8: C -> C when (true) do { unchanged(x); };
  }
  specifications (0) {`+specs+`
  }
}`, "GUARD", guard)
}
