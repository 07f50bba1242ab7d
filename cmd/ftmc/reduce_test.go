package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/internal/spin"
	"ftmc/internal/testenv"
	"ftmc/trace"
)

// benchReduceRuns are the explicit benchmarks at sizes a test can afford,
// for TestReductionVerdicts.
var benchReduceRuns = []struct {
	file string
	defs []string
}{
	{"peterson.pml", []string{"N=3"}},
	{"leader.pml", []string{"N=4", "C=2"}},
	{"swp.pml", []string{"W=2", "C=2"}},
}

// TestReductionVerdicts runs every Promela run of the corpus, of examples/
// and of the explicit benchmarks breadth-first and depth-first, with
// partial-order reduction and without, and requires the same verdicts; a
// reduced complete search must not store more states than the full one.
func TestReductionVerdicts(t *testing.T) {
	jobs := promelaCheckRuns(t)
	reduced := 0
	for _, j := range jobs {
		for _, order := range []string{"--bfs", "--dfs"} {
			if hasOrder(j.args) && order == "--dfs" {
				continue // the run chooses its order itself
			}
			args := j.args
			if !hasOrder(j.args) {
				args = append(append([]string(nil), j.args...), order)
			}
			t.Run(j.where+" "+order, func(t *testing.T) {
				if compareReduction(t, j.where+" "+order, args) {
					reduced++
				}
			})
		}
	}
	// The reduction must actually take place on the models made for it.
	if reduced < 20 {
		t.Errorf("the reduction applied in %d searches, want at least 20", reduced)
	}
}

// checkRun is a check of a Promela model: where it comes from (file:line
// of its expect line, or the benchmark and its macros) and its arguments.
type checkRun struct {
	where string
	args  []string
}

// promelaCheckRuns lists the check runs of the Promela models of the
// corpus, of examples/ and of the explicit benchmarks (benchReduceRuns),
// but not the runs that check LTL properties only.
func promelaCheckRuns(t *testing.T) []checkRun {
	var jobs []checkRun
	for _, m := range exampleModels(t) {
		if filepath.Ext(m.path) != ".pml" {
			continue
		}
		for _, r := range m.runs {
			if r.Args[0] != "check" || r.Slow && !slowEnabled() || ltlOnly(r.Args) {
				continue
			}
			jobs = append(jobs, checkRun{fmt.Sprintf("%s:%d", m.rel, r.Line), runArgs(m.path, r)})
		}
	}
	root := testenv.RepoRoot(t)
	for _, b := range benchReduceRuns {
		args := []string{"check", filepath.Join(root, "bench", "explicit", "models", b.file)}
		for _, d := range b.defs {
			args = append(args, "-D", d)
		}
		jobs = append(jobs, checkRun{"bench/explicit/models/" + b.file + " " + strings.Join(b.defs, " "), args})
	}
	if len(jobs) < 50 {
		t.Fatalf("found %d Promela runs, want at least 50", len(jobs))
	}
	return jobs
}

// compareReduction runs check with args with reduction and without, and
// compares. It reports whether the reduction applied.
func compareReduction(t *testing.T, where string, args []string) bool {
	budget := runBudget(t)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	// Without statement merging, which takes most local steps before the
	// reduction sees them (TestMergeVerdicts compares the two together).
	args = append(append([]string(nil), args...), "--no-merge")
	on, codeOn, errOn := runFtmc(ctx, args)
	if on != nil && on.Stats.AmpleStates == 0 {
		// Without an ample set the search was the full one.
		return false
	}
	off, codeOff, errOff := runFtmc(ctx, append(args, "--no-reduce"))
	if ctx.Err() != nil {
		t.Fatal(overBudget(where, budget))
	}
	if on == nil || off == nil {
		t.Fatalf("%s: no report: exit %d: %s; exit %d: %s", where, codeOn, errOn, codeOff, errOff)
	}
	if codeOn != codeOff {
		t.Errorf("%s: exit %d with reduction, %d without", where, codeOn, codeOff)
	}
	if got, want := verdictList(on.Verdicts), verdictList(off.Verdicts); got != want {
		t.Errorf("%s: with reduction %s, without %s", where, got, want)
	}
	if on.Stats.Complete && off.Stats.Complete && on.Stats.States > off.Stats.States {
		t.Errorf("%s: %d states with reduction, %d without", where, on.Stats.States, off.Stats.States)
	}
	if off.Stats.Reduction != "" || off.Stats.AmpleStates != 0 {
		t.Errorf("%s: --no-reduce reports reduction %q, %d ample states", where, off.Stats.Reduction, off.Stats.AmpleStates)
	}
	if on.Stats.Reduction != "partial-order" {
		t.Errorf("%s: %d ample states, but the reduction is %q", where, on.Stats.AmpleStates, on.Stats.Reduction)
	}
	return true
}

// ltlOnly reports whether a check run's flags select LTL properties only,
// whose nested depth-first search does no reduction.
func ltlOnly(args []string) bool {
	for _, a := range args {
		for _, f := range []string{"--ltl", "--ltl-formula", "--fairness", "--non-progress", "--assume"} {
			if a == f || strings.HasPrefix(a, f+"=") {
				return true
			}
		}
	}
	return false
}

func hasOrder(args []string) bool {
	for _, a := range args {
		if a == "--bfs" || a == "--dfs" {
			return true
		}
	}
	return false
}

// verdictList is the properties' verdicts, for comparison: the verdict of
// each property and, for violations, whether one was found (the kind of the
// first violation found may differ with the order of the search).
func verdictList(rs []trace.Result) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s: %s; ", r.Property, r.Verdict)
	}
	return b.String()
}

// TestReductionKeepsErrors checks models whose errors partial-order
// reduction must not hide, breadth-first and depth-first: each has states
// where a process has only local steps (so an ample set exists: the
// search must report ample states) and an error that shows only in some
// interleavings.
func TestReductionKeepsErrors(t *testing.T) {
	cases := []struct {
		name, src, kind string
	}{
		{"interleaved assertion", `
byte x;
active proctype P() { byte a; a = 1; a++; x = a }
active proctype Q() { byte b; b = 1; b++; assert(x != 2) }
`, "assertion"},
		{"interleaved deadlock", `
bit m1, m2;
active proctype P() { byte a; a++; atomic { m1 == 0 -> m1 = 1 }; a++; atomic { m2 == 0 -> m2 = 1 }; m2 = 0; m1 = 0 }
active proctype Q() { byte b; b++; atomic { m2 == 0 -> m2 = 1 }; b++; atomic { m1 == 0 -> m1 = 1 }; m1 = 0; m2 = 0 }
`, "invalid end state"},
		{"else and timeout", `
byte x;
active proctype P() { byte a; do :: a < 3 -> a++ :: else -> break od; x = 1 }
active proctype Q() { byte b; b++; if :: x == 1 -> b++ :: else -> b = 0 fi; timeout -> assert(b != 2) }
`, "assertion"},
		{"atomic", `
byte x;
active proctype P() { byte a; atomic { a = 1; a = 2 }; x = 1; atomic { a = 3; x = 0 } }
active proctype Q() { byte b; atomic { b = 1; b = 2 }; b++; assert(x == 0) }
`, "assertion"},
		// The atomic sequence starts with a local step but writes x: it
		// must not be an ample set, or Q would only find x == 1 and
		// block where it may end.
		{"atomic with a global step", `
byte x;
active proctype P() { byte a; a++; atomic { a = 1; x = 1 } }
active proctype Q() { end: x == 0 -> assert(false) }
`, "assertion"},
		// Without the cycle proviso the search would follow P's local
		// loop alone, back to the initial state, and never move Q.
		{"cycle proviso", `
byte x;
active proctype P() { bit i; do :: i = 1 - i od }
active proctype Q() { x = 1; assert(false) }
`, "assertion"},
	}
	dir := t.TempDir()
	for k, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("m%d.pml", k))
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, order := range []string{"--bfs", "--dfs"} {
			t.Run(c.name+" "+order, func(t *testing.T) {
				// Without statement merging the reduction must apply; with
				// it (the default) the error must still be found.
				for _, merge := range []bool{false, true} {
					args := []string{"check", path, order}
					if !merge {
						args = append(args, "--no-merge")
					}
					rep, code, stderr := runFtmc(context.Background(), args)
					if rep == nil {
						t.Fatalf("exit %d: %s", code, stderr)
					}
					if !merge && (rep.Stats.Reduction != "partial-order" || rep.Stats.AmpleStates == 0) {
						t.Errorf("reduction %q with %d ample states: the model is meant to be reduced", rep.Stats.Reduction, rep.Stats.AmpleStates)
					}
					if len(rep.Verdicts) != 1 || rep.Verdicts[0].Verdict != trace.Violated || rep.Verdicts[0].Kind != c.kind {
						t.Errorf("merging %v: verdicts %s, want violated (%s)", merge, verdictList(rep.Verdicts), c.kind)
					}
				}
			})
		}
	}
}

// TestReductionStoresFewer checks that the reduction pays where it should:
// processes that do local work before a global step.
func TestReductionStoresFewer(t *testing.T) {
	src := `
byte done;
active [3] proctype P() { byte a; a++; a++; a++; a++; done++ }
`
	path := filepath.Join(t.TempDir(), "local.pml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, order := range []string{"--bfs", "--dfs"} {
		on, _, errOn := runFtmc(context.Background(), []string{"check", path, order, "--no-merge"})
		off, _, errOff := runFtmc(context.Background(), []string{"check", path, order, "--no-reduce", "--no-merge"})
		if on == nil || off == nil {
			t.Fatalf("%s: no report: %s %s", order, errOn, errOff)
		}
		// Full: more than 6^3 states (5 locations and the end, per
		// process). Reduced: the local steps of one process at a time.
		if off.Stats.States < 216 || on.Stats.States >= off.Stats.States/2 {
			t.Errorf("%s: %d states reduced, %d full; want at least 216 full and less than half of it reduced", order, on.Stats.States, off.Stats.States)
		}
		if on.Verdicts[0].Verdict != trace.Holds || off.Verdicts[0].Verdict != trace.Holds {
			t.Errorf("%s: verdicts %s and %s, want holds", order, verdictList(on.Verdicts), verdictList(off.Verdicts))
		}
	}
}

// TestReductionAgainstSpin compares the states ftmc's reduced depth-first
// search stores with those of Spin's reduced search (pan without
// -DNOREDUCE; both without statement merging) on small models. The
// reductions differ (Spin also reduces sends and receives on channels one
// process owns, which ftmc does not), so the counts are logged, not
// required equal; the verdicts must agree, and ftmc's reduced search must
// use ample sets and store no more than its full one.
func TestReductionAgainstSpin(t *testing.T) {
	needOracle(t)
	root := testenv.RepoRoot(t)
	cases := []struct {
		file string
		defs []string
	}{
		{"testdata/corpus/philosophers.pml", []string{"N=4", "ORDERED"}},
		{"testdata/corpus/atomic_mutex.pml", []string{"N=3"}},
		{"testdata/corpus/leader_ring.pml", []string{"N=4"}},
		{"bench/explicit/models/peterson.pml", []string{"N=2"}},
		{"bench/explicit/models/leader.pml", []string{"N=3", "C=2"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(root, c.file)
			ctx, cancel := context.WithTimeout(context.Background(), runBudget(t))
			defer cancel()
			opts := spinOptions(c.defs)
			opts.Reduce = true
			want, err := spin.Run(ctx, path, opts)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"check", path, "--dfs", "--no-merge"}
			for _, d := range c.defs {
				args = append(args, "-D", d)
			}
			on, _, errOn := runFtmc(ctx, args)
			off, _, errOff := runFtmc(ctx, append(args, "--no-reduce"))
			if on == nil || off == nil {
				t.Fatalf("no report: %s %s", errOn, errOff)
			}
			t.Logf("%s %v: ftmc %d states reduced (%d full), Spin %d reduced", c.file, c.defs, on.Stats.States, off.Stats.States, want.States)
			if got := on.Verdicts[0].Verdict; got != want.Verdict {
				t.Errorf("ftmc says %s with reduction, Spin %s", got, want.Verdict)
			}
			if on.Stats.AmpleStates == 0 || on.Stats.States > off.Stats.States {
				t.Errorf("%d states reduced (%d ample), %d full: the reduction did not apply", on.Stats.States, on.Stats.AmpleStates, off.Stats.States)
			}
		})
	}
}
