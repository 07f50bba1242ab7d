package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/internal/spin"
	"ftmc/trace"
)

// TestMergeVerdicts runs every Promela check run of the corpus, of
// examples/ and of the explicit benchmarks breadth-first and depth-first
// as check runs them by default (statement merging and partial-order
// reduction) and with neither, and requires the same verdicts; a merged
// complete search must not store more states than the full one.
func TestMergeVerdicts(t *testing.T) {
	merged := 0
	for _, j := range promelaCheckRuns(t) {
		for _, order := range []string{"--bfs", "--dfs"} {
			if hasOrder(j.args) && order == "--dfs" {
				continue // the run chooses its order itself
			}
			args := j.args
			if !hasOrder(j.args) {
				args = append(append([]string(nil), j.args...), order)
			}
			where := j.where + " " + order
			t.Run(where, func(t *testing.T) {
				budget := runBudget(t)
				ctx, cancel := context.WithTimeout(context.Background(), budget)
				defer cancel()
				on, codeOn, errOn := runFtmc(ctx, args)
				off, codeOff, errOff := runFtmc(ctx, append(append([]string(nil), args...), "--no-merge", "--no-reduce"))
				if ctx.Err() != nil {
					t.Fatal(overBudget(where, budget))
				}
				sameOutcome(t, where, "merging", ftmcRun{on, codeOn, errOn}, ftmcRun{off, codeOff, errOff})
				if off.Stats.Merging {
					t.Errorf("%s: --no-merge reports merging", where)
				}
				if on.Stats.Merging {
					merged++
				}
			})
		}
	}
	// Merging must actually take place on most models.
	if merged < 40 {
		t.Errorf("merging applied in %d searches, want at least 40", merged)
	}
}

// TestMergeKeepsErrors checks models whose errors statement merging must
// not hide, breadth-first and depth-first, with merging (which must
// apply) and without: the verdict, the kind of violation and, for the
// failing merged step, the statements its explanation lists.
func TestMergeKeepsErrors(t *testing.T) {
	cases := []struct {
		name, src string
		kind      string // "" for holds
		lastStmt  string // the last step of the counterexample lists this
	}{
		{"assertion inside a chain", `
byte x;
active proctype P() { byte a; x = 1; a = 5; a++;
	assert(a != 6); a = 0; x = 2 }
active proctype Q() { x == 2 }
`, "assertion", "a = 5; a++; assert(a != 6)"},
		{"deadlock after a chain", `
byte x;
active proctype P() { byte a; x == 0; a = 1; a++; x == 1 }
`, "invalid end state", "x == 0; a = 1; a++"},
		// The merged step stops at a local guard that is false: the state
		// there must be a successor, where Q's assertion fails.
		{"chain blocked by a local guard", `
byte x;
active proctype P() { byte a; x = 1; a = 1; a++; a == 3 }
active proctype Q() { x == 1; assert(false) }
`, "assertion", ""},
		{"chain ending at an end label", `
byte x;
active proctype P() { byte a; x = 1; a = 1; a++; end: a == 3 }
active proctype Q() { x == 1 }
`, "", ""},
		{"chain ending where no end label is", `
byte x;
active proctype P() { byte a; x = 1; a = 1; a++; a == 3 }
active proctype Q() { x == 1 }
`, "invalid end state", ""},
		// The goto enters the chain a++; a++; assert(...) in its middle:
		// only that way does the assertion fail.
		{"goto into the middle of a chain", `
byte x;
active proctype P() {
	byte a;
	if
	:: x == 0 -> goto mid
	:: x == 0 -> a = 1
	fi;
	a++;
mid:	a++;
	assert(a != 1)
}
`, "assertion", "assert(a != 1)"},
		{"run-time error inside a chain", `
byte x;
active proctype P() { byte a[2]; byte i; x = 1; i = 2; a[i] = 1; x = 2 }
`, "runtime error", "a[i] = 1"},
		// The escape reads x and may fire after a = 1 only: the body is
		// not merged.
		{"unless", `
byte x;
active proctype P() { byte a; { a = 1; a = 2; a = 3 } unless { x == 1 -> assert(a != 1) } }
active proctype Q() { x = 1 }
`, "assertion", ""},
		// A loop of local statements: the merged step must end.
		{"local loop", `
byte x;
active proctype P() { byte i; do :: i++ od }
active proctype Q() { x = 1; assert(x == 0) }
`, "assertion", ""},
	}
	dir := t.TempDir()
	for k, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("m%d.pml", k))
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, order := range []string{"--bfs", "--dfs"} {
			t.Run(c.name+" "+order, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), runBudget(t))
				defer cancel()
				for _, merge := range []bool{true, false} {
					args := []string{"check", path, order, "--json"}
					if !merge {
						args = append(args, "--no-merge")
					}
					rep, code, stderr := runFtmc(ctx, args)
					if rep == nil {
						t.Fatalf("merging %v: exit %d: %s", merge, code, stderr)
					}
					if rep.Stats.Merging != merge {
						t.Errorf("merging %v: the report says merging %v", merge, rep.Stats.Merging)
					}
					if len(rep.Verdicts) != 1 {
						t.Fatalf("merging %v: verdicts %s", merge, verdictList(rep.Verdicts))
					}
					r := rep.Verdicts[0]
					if c.kind == "" {
						if r.Verdict != trace.Holds {
							t.Errorf("merging %v: %s (%s: %s), want holds", merge, r.Verdict, r.Kind, r.Reason)
						}
						continue
					}
					if r.Verdict != trace.Violated || r.Kind != c.kind {
						t.Fatalf("merging %v: %s (%s), want violated (%s)", merge, r.Verdict, r.Kind, c.kind)
					}
					if !merge || c.lastStmt == "" {
						continue
					}
					steps := r.Counterexample.Steps
					if len(steps) == 0 || !strings.Contains(steps[len(steps)-1].Stmt, c.lastStmt) {
						t.Errorf("the failing merged step does not list %q: %+v", c.lastStmt, steps)
					}
					// A failed assertion inside a merged step says where it is.
					if msg := r.Counterexample.Message; c.kind == "assertion" && !strings.Contains(msg, fmt.Sprintf("(at %s:", path)) {
						t.Errorf("the message %q does not say where the assertion is", msg)
					}
				}
			})
		}
	}
}

// TestMergeAgainstSpin logs the states ftmc stores with statement merging
// next to Spin's with its own (spin -a without -o3, pan -DNOREDUCE), both
// without partial-order reduction. Spin merges differently (its data-flow
// optimisations -o1 -o2 also change the states), so the counts are
// logged; the verdicts must agree, merging must apply, and it must store
// fewer states than the search without it, which Spin -o3 matches state
// for state (TestDifferential).
func TestMergeAgainstSpin(t *testing.T) {
	againstSpin(t, spinCases, func(o *spin.Options) { o.Optimize = true }, "--no-reduce", "--no-merge",
		func(t *testing.T, c spinCase, on, off *trace.Report, want *spin.Result) {
			t.Logf("%s %v: ftmc %d states merged (%d without), Spin %d merged", c.file, c.defs, on.Stats.States, off.Stats.States, want.States)
			if got := on.Verdicts[0].Verdict; got != want.Verdict {
				t.Errorf("ftmc says %s with merging, Spin %s", got, want.Verdict)
			}
			if !on.Stats.Merging || on.Stats.States >= off.Stats.States {
				t.Errorf("%d states merged (merging %v), %d without: merging did not apply", on.Stats.States, on.Stats.Merging, off.Stats.States)
			}
		})
}

// TestMergeReported checks that the text report says when statements were
// merged: by default on a model with local sequences (in the safety and
// the LTL searches), not with --no-merge, nor when the model reads another
// process's variables, nor in an LTL search under weak fairness.
func TestMergeReported(t *testing.T) {
	local := writeModel(t, "local.pml", "byte x; active proctype P() { byte a; a = 1; a++; x = a }\n")
	remote := writeModel(t, "remote.pml", "byte x; active proctype P() { byte a; a = 1; a++; x = a } active proctype Q() { x = P[0]:a }\n")
	withLTL := writeModel(t, "ltl.pml", "byte x; active proctype P() { byte a; a = 1; a++; x = a }\nltl p { <>(x == 2) }\n")
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"check", local}, true},
		{[]string{"check", local, "--no-merge"}, false},
		{[]string{"check", remote}, false},
		// The LTL searches merge too, but not under weak fairness.
		{[]string{"check", withLTL}, true},
		{[]string{"check", withLTL, "--ltl", "p"}, true},
		{[]string{"check", withLTL, "--no-merge"}, false},
		{[]string{"check", withLTL, "--ltl", "p", "--fairness", "weak"}, false},
	}
	// The safety search merges, the property over P's local does not: the
	// report says which did.
	mixed := writeModel(t, "mixed.pml", "byte x; active proctype P() { byte a; a = 1; a++; x = a }\nltl p { <>(P:a == 2) }\n")
	out, errs, code := runCmd("check", mixed)
	if code != trace.ExitHolds || !strings.Contains(out, "statement merging: on for safety; off for p\n") {
		t.Errorf("exit %d: %s\nthe report does not say that only safety merged:\n%s", code, errs, out)
	}
	for _, c := range cases {
		out, errs, code := runCmd(c.args...)
		if code != trace.ExitHolds {
			t.Errorf("%v: exit %d: %s", c.args, code, errs)
		}
		if got := strings.Contains(out, "statement merging: on"); got != c.want {
			t.Errorf("%v: the report says merging %v, want %v:\n%s", c.args, got, c.want, out)
		}
	}
}

// TestMergeLTLKeepsViolations checks LTL properties whose verdicts a
// careless merge would change: a property that reads, through a remote
// reference, a variable that the statements after the first of a merged
// step write (a violation whose only witness is a state inside the
// merged step, and a <> whose only witness is there), and a formula with
// X, which counts the steps a merge would skip. Each must get its
// verdict, with merging where the property allows it (the properties over
// global variables and channels) and without it elsewhere; under weak
// fairness the search does not merge.
func TestMergeLTLKeepsViolations(t *testing.T) {
	const model = `
byte y;
chan c = [1] of { byte };
active proctype P() { byte a; y = 1; a = 1; a = 2; a = 3; y = 2 }
active proctype Q() { byte b; b = 1; b = 2; b = 3; c!b; y == 2 }
`
	cases := []struct {
		name, formula string
		want          trace.Verdict
		merged        bool
	}{
		{"global eventually", "<> (y == 2)", trace.Holds, true},
		{"global always", "[] (y != 3)", trace.Holds, true},
		{"global violated", "[] (y != 2)", trace.Violated, true},
		// Merged statements touch no channel.
		{"channel", "<> (len(c) == 1)", trace.Holds, true},
		{"channel violated", "[] (len(c) == 0 || y != 0)", trace.Violated, true},
		{"intermediate state violates", "[] (P:a != 2)", trace.Violated, false},
		{"intermediate state witnesses", "<> (P:a == 2)", trace.Holds, false},
		{"intermediate state with a global", "[] !(y == 1 && P:a == 2)", trace.Violated, false},
		// Without merging, the step after y = 1 is P's a = 1 or one of
		// Q's: y is still 1. A merged step would go on to a = 3, after
		// which P can set y to 2.
		{"next counts skipped steps", "<> (y == 1 && X (y == 1))", trace.Holds, false},
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.pml")
	if err := os.WriteFile(path, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), runBudget(t))
			defer cancel()
			for _, extra := range [][]string{nil, {"--no-merge"}, {"--no-reduce"}, {"--fairness", "weak"}} {
				args := append([]string{"check", path, "--ltl-formula", c.formula}, extra...)
				rep, code, stderr := runFtmc(ctx, args)
				if rep == nil || len(rep.Verdicts) != 1 {
					t.Fatalf("%v: exit %d: %s", extra, code, stderr)
				}
				if got := rep.Verdicts[0].Verdict; got != c.want {
					t.Errorf("%v: %s, want %s", extra, got, c.want)
				}
				merged := c.merged && (extra == nil || extra[0] == "--no-reduce")
				if rep.Stats.Merging != merged {
					t.Errorf("%v: the report says merging %v, want %v", extra, rep.Stats.Merging, merged)
				}
			}
		})
	}
}
