package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

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
	type job struct {
		where string
		args  []string
	}
	var jobs []job
	for _, m := range exampleModels(t) {
		if filepath.Ext(m.path) != ".pml" {
			continue
		}
		for _, r := range m.runs {
			if r.Args[0] != "check" || r.Slow && !slowEnabled() || ltlOnly(r.Args) {
				continue
			}
			jobs = append(jobs, job{fmt.Sprintf("%s:%d", m.rel, r.Line), runArgs(m.path, r)})
		}
	}
	root := testenv.RepoRoot(t)
	for _, b := range benchReduceRuns {
		args := []string{"check", filepath.Join(root, "bench", "explicit", "models", b.file)}
		for _, d := range b.defs {
			args = append(args, "-D", d)
		}
		jobs = append(jobs, job{"bench/explicit/models/" + b.file + " " + strings.Join(b.defs, " "), args})
	}
	if len(jobs) < 50 {
		t.Fatalf("found %d Promela runs, want at least 50", len(jobs))
	}
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

// compareReduction runs check with args with reduction and without, and
// compares. It reports whether the reduction applied.
func compareReduction(t *testing.T, where string, args []string) bool {
	budget := runBudget(t)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
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
