package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
// and of the explicit benchmarks breadth-first (on one worker and on two)
// and depth-first, with partial-order reduction and without, and requires
// the same verdicts; a
// reduced complete search must not store more states than the full one.
// The runs of LTL properties (and of the models' ltl blocks) are in
// TestReductionLTLVerdicts.
func TestReductionVerdicts(t *testing.T) {
	jobs := promelaCheckRuns(t)
	reduced := 0
	for _, j := range jobs {
		for _, order := range []string{"--bfs -j 1", "--dfs", "--bfs -j 2"} {
			if hasOrder(j.args) && order == "--dfs" {
				continue // the run chooses its order itself
			}
			args := append(append([]string(nil), j.args...), strings.Fields(order)[1:]...)
			if !hasOrder(j.args) {
				args = append(args, strings.Fields(order)[0])
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

// TestReductionParallelCounts: on every breadth-first Promela run of
// promelaCheckRuns that ends with every property holding and uses ample
// sets, two workers choose the ample sets one worker does: the same
// states, transitions, matched states, depth and ample states, at every
// run and with compressed stores, whichever worker expands which state.
func TestReductionParallelCounts(t *testing.T) {
	compared := 0
	for _, j := range promelaCheckRuns(t) {
		if hasOrder(j.args) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), runBudget(t))
		want, _, _ := runFtmc(ctx, append(append([]string(nil), j.args...), "--bfs", "-j", "1"))
		if want == nil || !want.Stats.Complete || want.Stats.AmpleStates == 0 || overall(want.Verdicts).Verdict != string(trace.Holds) {
			cancel()
			continue
		}
		compared++
		w := want.Stats
		for _, extra := range [][]string{{}, {}, {"--compress"}} {
			args := append(append(append([]string(nil), j.args...), "--bfs", "-j", "2"), extra...)
			got, code, errs := runFtmc(ctx, args)
			if got == nil || code != trace.ExitHolds {
				t.Errorf("%s -j 2 %v: exit %d: %s", j.where, extra, code, errs)
				continue
			}
			g := got.Stats
			if g.States != w.States || g.Transitions != w.Transitions || g.Matched != w.Matched || g.Depth != w.Depth || g.AmpleStates != w.AmpleStates {
				t.Errorf("%s -j 2 %v: %d states %d transitions %d matched depth %d, %d ample; -j 1: %d %d %d %d, %d",
					j.where, extra, g.States, g.Transitions, g.Matched, g.Depth, g.AmpleStates, w.States, w.Transitions, w.Matched, w.Depth, w.AmpleStates)
			}
		}
		if ctx.Err() != nil {
			t.Fatal(overBudget(j.where, runBudget(t)))
		}
		cancel()
	}
	t.Logf("%d runs compared", compared)
	if compared < 15 {
		t.Errorf("%d runs compared, want at least 15", compared)
	}
}

// TestReductionLTLVerdicts runs every LTL, fairness and non-progress run
// of the corpus, of examples/ and of ltl/testdata, and the plain check
// runs of their models with ltl blocks or never claims, with
// partial-order reduction and without, and with statement merging and
// without, and requires the same verdicts (compareReduction,
// compareMerge). The nested depth-first search reduces and merges only
// for formulas without X whose propositions no safe step changes, and
// never under weak fairness nor for a never claim: some runs must reduce
// and merge all the same.
func TestReductionLTLVerdicts(t *testing.T) {
	jobs, args := ltlCheckRuns(t)
	reduced, merged := 0, 0
	for _, where := range jobs {
		t.Run(where, func(t *testing.T) {
			if compareReduction(t, where, args[where]) {
				reduced++
			}
			if compareMerge(t, where, args[where]) {
				merged++
			}
		})
	}
	t.Logf("%d of %d LTL runs reduced, %d merged", reduced, len(jobs), merged)
	if reduced < 5 {
		t.Errorf("the reduction applied in %d LTL runs, want at least 5", reduced)
	}
	if merged < 30 {
		t.Errorf("merging applied in %d LTL runs, want at least 30", merged)
	}
}

// compareMerge runs check with args with statement merging and without
// (with the default reduction both times), and compares: the same
// verdicts and, property by property, no more states with merging when
// both searches are complete. It reports whether merging applied in a
// search of an LTL property.
func compareMerge(t *testing.T, where string, args []string) bool {
	budget := runBudget(t)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	on, codeOn, errOn := runFtmc(ctx, args)
	off, codeOff, errOff := runFtmc(ctx, append(append([]string(nil), args...), "--no-merge"))
	if ctx.Err() != nil {
		t.Fatal(overBudget(where, budget))
	}
	sameOutcome(t, where, "merging", ftmcRun{on, codeOn, errOn}, ftmcRun{off, codeOff, errOff})
	if off.Stats.Merging {
		t.Errorf("%s: --no-merge reports merging", where)
	}
	merged := false
	for k, r := range on.Verdicts {
		if r.Stats == nil || k >= len(off.Verdicts) || off.Verdicts[k].Stats == nil {
			continue
		}
		if r.Stats.Merging && r.Property != "safety" {
			merged = true
		}
		if o := off.Verdicts[k].Stats; r.Stats.Complete && o.Complete && r.Stats.States > o.States {
			t.Errorf("%s: %s: %d states with merging, %d without", where, r.Property, r.Stats.States, o.States)
		}
	}
	return merged
}

// TestReductionLTLKeepsViolations checks LTL properties whose violations
// a careless reduction would hide: each run must find the violation, and
// where the property allows reduction the search must use ample sets.
func TestReductionLTLKeepsViolations(t *testing.T) {
	cases := []struct {
		name, src string
		reduced   bool
	}{
		// Without the stack proviso the outer search would follow P's
		// local loop alone and never let Q set y.
		{"cycle proviso", `
byte y;
active proctype P() { bit i; do :: i = 1 - i od }
active proctype Q() { y = 1 }
ltl p { <>[] (y == 0) }
`, true},
		// P's local steps are visible through the remote reference: an
		// ample P would pass a == 1 before Q could set y.
		{"a visible local change", `
byte y;
active proctype P() { byte a; a = 1; a = 2 }
active proctype Q() { y = 1 }
ltl p { [] !(P[0]:a == 1 && y == 1) || <> (y == 7) }
`, false},
		// X counts steps: an ample P would always move first.
		{"next", `
byte y;
active proctype P() { byte a; a++; a++ }
active proctype Q() { y = 1 }
ltl p { !X (y == 1) || <> (y == 7) }
`, false},
		// Progress labels are visible: were P's steps to and from its
		// progress state ample, P would always pass it before Q's loop
		// could run with P short of it.
		{"progress labels", `
active proctype Q() { bit b; do :: b = 1 - b od }
active proctype P() { bit a; do :: a = 1; progress: a = 0 od }
`, true},
		// A false xs claim: an ample send would always put 1 first.
		{"a false xs claim", `
chan c = [2] of { byte };
byte got;
active proctype P() { xs c; c!1 }
active proctype R() { c!2 }
active proctype Q() { xr c; byte b, v; b++; c?v; got = v }
ltl p { [] (got != 2) || <> (got == 7) }
`, true},
	}
	dir := t.TempDir()
	for k, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("l%d.pml", k))
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(c.name, func(t *testing.T) {
			args := []string{"check", path, "--ltl", "p"}
			if !strings.Contains(c.src, "ltl p") {
				args = []string{"check", path, "--non-progress"}
			}
			rep, code, stderr := runFtmc(context.Background(), args)
			if rep == nil {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if len(rep.Verdicts) != 1 || rep.Verdicts[0].Verdict != trace.Violated {
				t.Errorf("verdicts %s, want violated", verdictList(rep.Verdicts))
			}
			if got := rep.Stats.Reduction == "partial-order" && rep.Stats.AmpleStates > 0; got != c.reduced {
				t.Errorf("reduction %q with %d ample states, want reduced %v", rep.Stats.Reduction, rep.Stats.AmpleStates, c.reduced)
			}
		})
	}
	// Weak fairness counts the steps of every process: the search does
	// not reduce under it, and says so.
	rep, code, stderr := runFtmc(context.Background(), []string{"check", filepath.Join(dir, "l0.pml"), "--ltl", "p", "--fairness", "weak"})
	if rep == nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if rep.Stats.Reduction != "none" || rep.Stats.AmpleStates != 0 || rep.Verdicts[0].Verdict != trace.Violated {
		t.Errorf("under fairness: reduction %q with %d ample states, verdicts %s; want none, 0, violated", rep.Stats.Reduction, rep.Stats.AmpleStates, verdictList(rep.Verdicts))
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

// ftmcRun is what runFtmc returns: the report, the exit code, stderr.
type ftmcRun struct {
	rep    *trace.Report
	code   int
	stderr string
}

// sameOutcome requires that a check with a state-space reduction (named
// what) and the check without it both report, with the same exit code
// and verdicts, and that the reduced one, when both are complete, stores
// no more states.
func sameOutcome(t *testing.T, where, what string, on, off ftmcRun) {
	t.Helper()
	if on.rep == nil || off.rep == nil {
		t.Fatalf("%s: no report: exit %d: %s; exit %d: %s", where, on.code, on.stderr, off.code, off.stderr)
	}
	if on.code != off.code {
		t.Errorf("%s: exit %d with %s, %d without", where, on.code, what, off.code)
	}
	if got, want := verdictList(on.rep.Verdicts), verdictList(off.rep.Verdicts); got != want {
		t.Errorf("%s: with %s %s, without %s", where, what, got, want)
	}
	if on.rep.Stats.Complete && off.rep.Stats.Complete && on.rep.Stats.States > off.rep.Stats.States {
		t.Errorf("%s: %d states with %s, %d without", where, on.rep.Stats.States, what, off.rep.Stats.States)
	}
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
	sameOutcome(t, where, "reduction", ftmcRun{on, codeOn, errOn}, ftmcRun{off, codeOff, errOff})
	if off.Stats.Reduction != "" || off.Stats.AmpleStates != 0 {
		t.Errorf("%s: --no-reduce reports reduction %q, %d ample states", where, off.Stats.Reduction, off.Stats.AmpleStates)
	}
	if on.Stats.Reduction != "partial-order" {
		t.Errorf("%s: %d ample states, but the reduction is %q", where, on.Stats.AmpleStates, on.Stats.Reduction)
	}
	return true
}

// ltlCheckRuns are the LTL, fairness and non-progress runs of the corpus,
// of examples/ and of ltl/testdata, and the plain check runs of their
// models with ltl blocks or never claims: their places, and their
// arguments by place.
func ltlCheckRuns(t *testing.T) ([]string, map[string][]string) {
	var jobs []string
	args := map[string][]string{}
	for _, m := range exampleModelsIn(t, []string{"examples", "testdata/corpus", "ltl/testdata"}) {
		if filepath.Ext(m.path) != ".pml" {
			continue
		}
		src, err := os.ReadFile(m.path)
		if err != nil {
			t.Fatal(err)
		}
		props := strings.Contains(string(src), "\nltl ") || strings.Contains(string(src), "never ")
		for _, r := range m.runs {
			if r.Args[0] != "check" || r.Slow && !slowEnabled() || !ltlOnly(r.Args) && !props {
				continue
			}
			where := fmt.Sprintf("%s:%d", m.rel, r.Line)
			jobs = append(jobs, where)
			args[where] = runArgs(m.path, r)
		}
	}
	if len(jobs) < 40 {
		t.Fatalf("found %d LTL runs, want at least 40", len(jobs))
	}
	return jobs, args
}

// TestParallelLTLVerdicts runs every LTL run of ltlCheckRuns without
// partial-order reduction on one worker (the nested depth-first search)
// and on two (CNDFS), and requires the same exit codes and verdicts, and
// the same states when both searches are complete.
func TestParallelLTLVerdicts(t *testing.T) {
	jobs, args := ltlCheckRuns(t)
	parallel := 0
	for _, where := range jobs {
		t.Run(where, func(t *testing.T) {
			budget := runBudget(t)
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			base := append(append([]string(nil), args[where]...), "--no-reduce")
			one, codeOne, errOne := runFtmc(ctx, append(base, "-j", "1"))
			two, codeTwo, errTwo := runFtmc(ctx, append(base, "-j", "2"))
			if ctx.Err() != nil {
				t.Fatal(overBudget(where, budget))
			}
			if one == nil || two == nil {
				t.Fatalf("%s: no report: exit %d: %s; exit %d: %s", where, codeOne, errOne, codeTwo, errTwo)
			}
			if codeOne != codeTwo {
				t.Errorf("%s: exit %d on one worker, %d on two", where, codeOne, codeTwo)
			}
			if got, want := verdictList(two.Verdicts), verdictList(one.Verdicts); got != want {
				t.Errorf("%s: %s on two workers, %s on one", where, got, want)
			}
			if one.Stats.Complete && two.Stats.Complete && one.Stats.States != two.Stats.States {
				t.Errorf("%s: %d states on two workers, %d on one", where, two.Stats.States, one.Stats.States)
			}
			if strings.Contains(two.Engine, "CNDFS") {
				parallel++
			}
		})
	}
	if parallel < 40 {
		t.Errorf("CNDFS ran in %d runs, want at least 40", parallel)
	}
}

// ltlOnly reports whether a check run's flags select LTL properties only.
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
		// The else is safe, its neighbour reads x: the location is not,
		// or P would take the else before Q sets x.
		{"else beside a global guard", `
byte x;
active proctype P() { byte a; a++; if :: x == 1 -> assert(false) :: else -> a = 0 fi }
active proctype Q() { byte b; b++; x = 1 }
`, "assertion"},
		// P's end is safe only without run and _nr_pr: here R gets pid 2
		// only if init runs it before P ends, and Q sees two processes
		// only before P ends.
		{"end and run", `
proctype R() { assert(_pid != 2) }
init { byte b; b++; run R() }
active proctype P() { byte a; a++ }
`, "assertion"},
		{"end and _nr_pr", `
byte x;
active proctype Q() { byte b; b++; x = _nr_pr; assert(x != 2) }
active proctype P() { byte a; a++ }
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
		for _, order := range []string{"--bfs -j 1", "--dfs", "--bfs -j 2"} {
			t.Run(c.name+" "+order, func(t *testing.T) {
				// Without statement merging the reduction must apply; with
				// it (the default) the error must still be found.
				for _, merge := range []bool{false, true} {
					args := append([]string{"check", path}, strings.Fields(order)...)
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

// TestReductionExclusiveChannels checks models whose xs or xr claims are
// false (another process sends, receives or tests the channel, or the
// claiming proctype has two instances): the claimed operations must stay
// unsafe, or the reduction would fix the order of the sends and receives
// and hide the violation. Spin finds these by checking the claims during
// its search; ftmc refuses the claims it cannot prove. The last model's
// claims hold, and its channel operations must be reduced.
func TestReductionExclusiveChannels(t *testing.T) {
	cases := []struct {
		name, src string
		violated  bool
	}{
		// An ample xs send would always put 1 before 2.
		{"another sender", `
chan c = [2] of { byte };
active proctype P() { xs c; c!1 }
active proctype R() { c!2 }
active proctype Q() { xr c; byte b, v; b++; c?v; assert(v == 1) }
`, true},
		// An ample xr receive would always take 1 before R could.
		{"another receiver", `
chan c = [2] of { byte };
active proctype P() { c!1; c!2 }
active proctype Q() { xr c; byte a, v; a++; c?v; c?v }
active proctype R() { byte w; end: c?w; assert(w != 1) }
`, true},
		// An ample xs send would always come before Q's test.
		{"another process tests the channel", `
chan c = [2] of { byte };
active proctype P() { xs c; c!1 }
active proctype Q() { byte b; b++; if :: len(c) == 0 -> assert(false) :: else -> skip fi }
`, true},
		// Two instances of the claiming proctype send in either order; an
		// ample send would always let the last one go first.
		{"two instances", `
chan c = [2] of { byte };
active [2] proctype P() { xs c; c!_pid }
active proctype Q() { xr c; byte b, v; b++; c?v; assert(v == 1) }
`, true},
		// The claim is passed on: Q sends through a parameter.
		{"a channel passed to another process", `
chan c = [2] of { byte };
active proctype P() { xs c; c!1 }
proctype S(chan q) { q!2 }
init { run S(c) }
active proctype Q() { xr c; byte b, v; b++; c?v; assert(v == 1) }
`, true},
		{"claims that hold", `
chan c = [2] of { byte };
active proctype P() { xs c; c!1; c!2 }
active proctype Q() { xr c; byte b, v; b++; c?v; assert(v == 1); c?v; assert(v == 2) }
`, false},
	}
	for k, c := range cases {
		path := writeModel(t, fmt.Sprintf("x%d.pml", k), c.src)
		for _, order := range []string{"--bfs", "--dfs"} {
			t.Run(c.name+" "+order, func(t *testing.T) {
				rep, code, stderr := runFtmc(context.Background(), []string{"check", path, order})
				if rep == nil {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if rep.Stats.Reduction != "partial-order" || rep.Stats.AmpleStates == 0 {
					t.Errorf("reduction %q with %d ample states: the model is meant to be reduced", rep.Stats.Reduction, rep.Stats.AmpleStates)
				}
				want := trace.Holds
				if c.violated {
					want = trace.Violated
				}
				if len(rep.Verdicts) != 1 || rep.Verdicts[0].Verdict != want {
					t.Errorf("verdicts %s, want %s", verdictList(rep.Verdicts), want)
				}
				if !c.violated {
					// Without the claims only the local steps are
					// reduced: the claims must save states.
					bare := strings.NewReplacer("xs c;", "", "xr c;", "").Replace(c.src)
					path := writeModel(t, fmt.Sprintf("bare%d.pml", k), bare)
					off, code, stderr := runFtmc(context.Background(), []string{"check", path, order})
					if off == nil {
						t.Fatalf("exit %d: %s", code, stderr)
					}
					if rep.Stats.States >= off.Stats.States {
						t.Errorf("%d states with the claims, %d without: the channel operations were not reduced", rep.Stats.States, off.Stats.States)
					}
				}
			})
		}
	}
}

// TestReductionChannelParameters checks models whose processes get their
// channels as run parameters. A send or receive through such a parameter
// is safe only where no other process can reach the channel on that side,
// now or later: in each violated model a careless proof (one that
// overlooked another process's parameter, its use of the channel by name,
// a process still to be run, or a channel received in a message) would
// let the operation be an ample set, fix the order of the channel's
// messages and hide the violation. The ring election, whose channels are
// exclusive once init has run its nodes, must be reduced far below the
// full search.
func TestReductionChannelParameters(t *testing.T) {
	cases := []struct {
		name, src string
	}{
		// An ample receive by the last R would always take 1.
		{"another receiver's parameter", `
chan c = [2] of { byte };
proctype R(chan q; byte me) { byte a; q?a; if :: a == 1 -> assert(me != 1) :: else -> skip fi }
init { c!1; c!2; atomic { run R(c, 1); run R(c, 2) } }
`},
		// Ample sends would always fill c before T's test. (The failure
		// is a step away from the test: a failing step is reported
		// whichever process the ample set holds.)
		{"a test by name", `
chan c = [2] of { byte };
byte seen;
proctype S(chan q) { q!1; q!2 }
active proctype T() { byte b; b++; if :: len(c) == 1 -> seen = 1 :: else -> skip fi; assert(seen == 0) }
init { atomic { run S(c) } }
`},
		// Ample sends would always fill c before init runs T.
		{"a process still to run", `
chan c = [2] of { byte };
proctype S(chan q) { q!1; q!2 }
proctype T(chan q) { if :: len(q) == 1 -> assert(false) :: else -> skip fi }
init { run S(c); run T(c) }
`},
		// Ample sends would always fill c before U gets it.
		{"a received channel", `
chan c = [2] of { byte };
chan g = [1] of { chan };
proctype S(chan q) { q!1; q!2 }
active proctype U() { chan x; g?x; if :: len(x) == 1 -> assert(false) :: else -> skip fi }
init { atomic { run S(c) }; g!c }
`},
	}
	for k, c := range cases {
		path := writeModel(t, fmt.Sprintf("p%d.pml", k), c.src)
		for _, order := range []string{"--bfs", "--dfs"} {
			t.Run(c.name+" "+order, func(t *testing.T) {
				rep, code, stderr := runFtmc(context.Background(), []string{"check", path, order})
				if rep == nil {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if len(rep.Verdicts) != 1 || rep.Verdicts[0].Verdict != trace.Violated || rep.Verdicts[0].Kind != "assertion" {
					t.Errorf("verdicts %s, want violated (assertion)", verdictList(rep.Verdicts))
				}
			})
		}
	}
	for _, order := range []string{"--bfs", "--dfs"} {
		args := []string{"check", filepath.Join("..", "..", "testdata", "corpus", "leader_ring.pml"), "-D", "N=5", order}
		on, _, errOn := runFtmc(context.Background(), args)
		off, _, errOff := runFtmc(context.Background(), append(args, "--no-reduce"))
		if on == nil || off == nil {
			t.Fatalf("%s: no report: %s %s", order, errOn, errOff)
		}
		if on.Verdicts[0].Verdict != trace.Holds || off.Verdicts[0].Verdict != trace.Holds {
			t.Errorf("%s: verdicts %s and %s, want holds", order, verdictList(on.Verdicts), verdictList(off.Verdicts))
		}
		if on.Stats.States*4 > off.Stats.States {
			t.Errorf("%s: %d states reduced, %d full: the ring's channel operations were not reduced", order, on.Stats.States, off.Stats.States)
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
// reductions differ (Spin trusts xr/xs claims that ftmc must prove), so
// the counts are logged, not required equal; the verdicts must agree, and ftmc's reduced search must
// use ample sets and store no more than its full one.
func TestReductionAgainstSpin(t *testing.T) {
	cases := append(spinCases, spinCase{"testdata/corpus/exclusive_chans.pml", nil})
	againstSpin(t, cases, func(o *spin.Options) { o.Reduce = true }, "--no-merge", "--no-reduce",
		func(t *testing.T, c spinCase, on, off *trace.Report, want *spin.Result) {
			t.Logf("%s %v: ftmc %d states reduced (%d full), Spin %d reduced", c.file, c.defs, on.Stats.States, off.Stats.States, want.States)
			if got := on.Verdicts[0].Verdict; got != want.Verdict {
				t.Errorf("ftmc says %s with reduction, Spin %s", got, want.Verdict)
			}
			if on.Stats.AmpleStates == 0 || on.Stats.States > off.Stats.States {
				t.Errorf("%d states reduced (%d ample), %d full: the reduction did not apply", on.Stats.States, on.Stats.AmpleStates, off.Stats.States)
			}
		})
}

// spinCase is a small model, with its macros, that ftmc and Spin both
// search in the tests that set a reduction of ftmc's beside Spin's.
type spinCase struct {
	file string
	defs []string
}

var spinCases = []spinCase{
	{"testdata/corpus/philosophers.pml", []string{"N=4", "ORDERED"}},
	{"testdata/corpus/atomic_mutex.pml", []string{"N=3"}},
	{"testdata/corpus/leader_ring.pml", []string{"N=4"}},
	{"bench/explicit/models/peterson.pml", []string{"N=2"}},
	{"bench/explicit/models/leader.pml", []string{"N=3", "C=2"}},
}

// againstSpin runs Spin's pan on each case with the options tune sets, and
// ftmc's depth-first check with the flag fixed, once as it is (on) and
// once with the flag off too, and passes the three to check.
func againstSpin(t *testing.T, cases []spinCase, tune func(*spin.Options), fixed, off string, check func(t *testing.T, c spinCase, on, off *trace.Report, want *spin.Result)) {
	needOracle(t)
	root := testenv.RepoRoot(t)
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(root, c.file)
			ctx, cancel := context.WithTimeout(context.Background(), runBudget(t))
			defer cancel()
			opts := spinOptions(c.defs)
			tune(&opts)
			want, err := spin.Run(ctx, path, opts)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"check", path, "--dfs", fixed}
			for _, d := range c.defs {
				args = append(args, "-D", d)
			}
			repOn, _, errOn := runFtmc(ctx, args)
			repOff, _, errOff := runFtmc(ctx, append(args, off))
			if repOn == nil || repOff == nil {
				t.Fatalf("no report: %s %s", errOn, errOff)
			}
			check(t, c, repOn, repOff, want)
		})
	}
}

// TestReductionLTLAgainstSpin logs the states ftmc's reduced nested search
// stores next to Spin's reduced pan -a (or -l) on LTL runs that reduce,
// and checks that the verdicts agree and that the reduction applied.
func TestReductionLTLAgainstSpin(t *testing.T) {
	needOracle(t)
	root := testenv.RepoRoot(t)
	cases := []struct {
		file string
		defs []string
		prop string // the ltl block; empty: non-progress cycles
	}{
		{"ltl/testdata/dynamic_run.pml", nil, "all_done"},
		{"ltl/testdata/philosophers.pml", []string{"ASYM"}, "no_deadlock"},
		{"ltl/testdata/rendezvous_ltl.pml", nil, "granted"},
		{"ltl/testdata/progress_pair.pml", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.file+" "+c.prop, func(t *testing.T) {
			path := filepath.Join(root, c.file)
			ctx, cancel := context.WithTimeout(context.Background(), runBudget(t))
			defer cancel()
			opts := spinOptions(c.defs)
			opts.Reduce = true
			args := []string{"check", path}
			if c.prop == "" {
				opts.Mode = spin.NonProgress
				args = append(args, "--non-progress")
			} else {
				opts.Mode, opts.LTL = spin.Acceptance, c.prop
				args = append(args, "--ltl", c.prop)
			}
			want, err := spin.Run(ctx, path, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range c.defs {
				args = append(args, "-D", d)
			}
			on, _, errOn := runFtmc(ctx, args)
			off, _, errOff := runFtmc(ctx, append(args, "--no-reduce"))
			if on == nil || off == nil {
				t.Fatalf("no report: %s %s", errOn, errOff)
			}
			t.Logf("%s %v %s: ftmc %d states reduced (%d full), Spin %d reduced", c.file, c.defs, c.prop, on.Stats.States, off.Stats.States, want.States)
			if got := on.Verdicts[0].Verdict; got != want.Verdict || got != off.Verdicts[0].Verdict {
				t.Errorf("ftmc says %s with reduction and %s without, Spin %s", got, off.Verdicts[0].Verdict, want.Verdict)
			}
			if on.Stats.AmpleStates == 0 {
				t.Errorf("%d states reduced (no ample set), %d full: the reduction did not apply", on.Stats.States, off.Stats.States)
			}
		})
	}
}

// TestReductionChannelParametersGenerated compares, on generated models
// whose processes get their channels as run parameters and also name them
// in every other way (by name, in tests, in messages, through processes
// run late), the verdict of the reduced search with the full one's. Every
// statement is a valid end state, so that the only errors are the
// assertions, which a wrong ample set would hide.
func TestReductionChannelParametersGenerated(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 11))
	reduced := 0
	for k := 0; k < 300; k++ {
		src := genChanModel(rng)
		path := filepath.Join(dir, fmt.Sprintf("g%d.pml", k))
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, order := range []string{"--bfs", "--dfs"} {
			on, code, stderr := runFtmc(context.Background(), []string{"check", path, order})
			off, code2, stderr2 := runFtmc(context.Background(), []string{"check", path, order, "--no-reduce"})
			if on == nil || off == nil {
				t.Fatalf("model %d: exit %d %d: %s %s\n%s", k, code, code2, stderr, stderr2, src)
			}
			if got, want := verdictList(on.Verdicts), verdictList(off.Verdicts); got != want {
				t.Errorf("model %d %s: reduced %s, full %s\n%s", k, order, got, want, src)
			}
			if on.Stats.States < off.Stats.States {
				reduced++
			}
		}
	}
	if reduced < 100 {
		t.Errorf("only %d of 600 searches stored fewer states with the reduction: the models do not exercise it", reduced)
	}
}

// genChanModel returns a model whose processes W get two of the channels
// c[0..2] as parameters; init and U reach them in other ways.
func genChanModel(rng *rand.Rand) string {
	var b strings.Builder
	label := 0
	stmt := func(s string) string {
		label++
		return fmt.Sprintf("end%d: %s", label, s)
	}
	fmt.Fprintf(&b, "chan c[3] = [%d] of { byte };\nchan g = [1] of { chan };\nbyte seen;\n", 2)
	b.WriteString("proctype W(chan a, b; byte me) {\n\tbyte v;\n")
	wstmts := []string{
		"a!me", "b!me", "a?v", "b?v", "if :: a?v :: b?v fi", "seen = v",
		"if :: len(a) > 0 -> seen = me :: else -> skip fi", "if :: v == me -> seen = 3 :: else -> skip fi",
		"assert(seen != 1)", "assert(seen != 2)", "assert(seen != 3)", "assert(v != 1)",
	}
	fmt.Fprintf(&b, "\t%s;\n", stmt([]string{"a!me", "b!me"}[rng.IntN(2)]))
	for i, n := 0, 2+rng.IntN(5); i < n; i++ {
		fmt.Fprintf(&b, "\t%s;\n", stmt(wstmts[rng.IntN(len(wstmts))]))
	}
	b.WriteString("}\n")
	withU := rng.IntN(3) == 0
	if withU {
		ustmts := []string{"x!3", "x?v", "seen = v", "if :: len(x) == 1 -> seen = 2 :: else -> skip fi", "assert(seen != 2)", "assert(v != 1)"}
		b.WriteString("active proctype U() {\n\tchan x; byte v;\n\t" + stmt("g?x") + ";\n")
		for i, n := 0, 1+rng.IntN(3); i < n; i++ {
			fmt.Fprintf(&b, "\t%s;\n", stmt(ustmts[rng.IntN(len(ustmts))]))
		}
		b.WriteString("}\n")
	}
	ch := func() string { return fmt.Sprintf("c[%d]", rng.IntN(3)) }
	run := func(me int) string { return fmt.Sprintf("run W(%s, %s, %d)", ch(), ch(), me) }
	b.WriteString("init {\n\tbyte v;\n")
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "\t%s;\n", stmt(ch()+"!2"))
	}
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "\t%s;\n", stmt("atomic { "+run(1)+"; "+run(2)+" }"))
	} else {
		fmt.Fprintf(&b, "\t%s;\n\t%s;\n", stmt(run(1)), stmt(run(2)))
	}
	if withU {
		fmt.Fprintf(&b, "\t%s;\n", stmt("g!"+ch()))
	}
	istmts := []string{run(3), "if :: len(" + ch() + ") == 1 -> seen = 3 :: else -> skip fi", ch() + "?v", "seen = v", ch() + "!3",
		"assert(seen != 1)", "assert(seen != 2)", "assert(seen != 3)", "assert(v != 1)"}
	for i, n := 0, rng.IntN(5); i < n; i++ {
		fmt.Fprintf(&b, "\t%s;\n", stmt(istmts[rng.IntN(len(istmts))]))
	}
	b.WriteString("}\n")
	return b.String()
}

// TestParallelLTLOnRequest: the LTL cycle search runs on several workers
// only when -j asks for them, and says so; its violation is the same.
func TestParallelLTLOnRequest(t *testing.T) {
	path := writeModel(t, "loop.pml", `byte x;
active proctype P() { do :: x = 1 - x od }
ltl p { <>[] (x == 1) }
`)
	for _, c := range []struct {
		args  []string
		cndfs bool
	}{
		{nil, false},
		{[]string{"-j", "1"}, false},
		{[]string{"-j", "2"}, true},
		{[]string{"-j", "2", "--fairness", "weak"}, true},
	} {
		args := append([]string{"check", path, "--ltl", "p", "--no-reduce"}, c.args...)
		rep, code, stderr := runFtmc(context.Background(), args)
		if rep == nil || code != trace.ExitViolated || len(rep.Verdicts) != 1 || rep.Verdicts[0].Counterexample == nil {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		if got := strings.Contains(rep.Engine, "CNDFS"); got != c.cndfs {
			t.Errorf("%v: engine %q, want CNDFS %v", c.args, rep.Engine, c.cndfs)
		}
		if cx := rep.Verdicts[0].Counterexample; cx.LoopStart < 0 || cx.LoopStart >= len(cx.Steps) {
			t.Errorf("%v: loop start %d with %d steps", c.args, cx.LoopStart, len(cx.Steps))
		}
	}
}

// TestParallelDFSVerdicts runs every Promela check run of the corpus, of
// examples/ and of the explicit benchmarks depth-first on one worker and,
// with -j 2, on two, with partial-order reduction and without: the
// verdicts are the same, and without reduction a complete search on two
// workers stores and counts the same states as on one.
func TestParallelDFSVerdicts(t *testing.T) {
	parallel := 0
	for _, j := range promelaCheckRuns(t) {
		if hasOrder(j.args) || slices.Contains(j.args, "--bitstate") || slices.Contains(j.args, "--hash-compact") {
			continue
		}
		t.Run(j.where, func(t *testing.T) {
			budget := runBudget(t)
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			defer cancel()
			base := append(append([]string(nil), j.args...), "--dfs")
			var runs [3]ftmcRun
			for k, extra := range [][]string{{"-j", "1", "--no-reduce"}, {"-j", "2", "--no-reduce"}, {"-j", "2"}} {
				rep, code, stderr := runFtmc(ctx, append(append([]string(nil), base...), extra...))
				runs[k] = ftmcRun{rep, code, stderr}
			}
			if ctx.Err() != nil {
				t.Fatal(overBudget(j.where, budget))
			}
			sameOutcome(t, j.where, "two workers", runs[1], runs[0])
			sameOutcome(t, j.where, "two workers and reduction", runs[2], runs[1])
			one, two := runs[0].rep.Stats, runs[1].rep.Stats
			if one.Complete && two.Complete && (one.States != two.States || one.Transitions != two.Transitions) {
				t.Errorf("%s: %d states and %d transitions on two workers, %d and %d on one", j.where, two.States, two.Transitions, one.States, one.Transitions)
			}
			if strings.Contains(runs[1].rep.Engine, "on 2 workers") {
				parallel++
			}
		})
	}
	if parallel < 40 {
		t.Errorf("the depth-first search ran on two workers in %d runs, want at least 40", parallel)
	}
}
