package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"ftmc/internal/expect"
	"ftmc/internal/testenv"
	"ftmc/ltl/pml"
	"ftmc/promela"
	"ftmc/trace"
)

// failingProcess is added to a model to give it an assertion that fails at
// its first step, whatever the other processes do.
const failingProcess = "active proctype failing_() { assert(false) }\n"

// TestPropertyRunsReportFailures runs every ltl block and never claim of
// every model with an LTL property (ltl/testdata, the examples, ByMC's
// fmcad13 models) on a copy with a failing assertion added, selecting the
// property as a user does (--ltl NAME), and expects violated: a property
// run also answers for the model's assertions, as Spin's pan -a -N does, so
// holds there would hide the failure. A property whose automaton blocks
// from the start ([] true, the negation of a property that holds
// initially) used to explore nothing and say holds.
func TestPropertyRunsReportFailures(t *testing.T) {
	root := testenv.RepoRoot(t)
	dir := t.TempDir()
	var models []string
	for _, tree := range []string{"ltl/testdata", "examples", "testdata/corpus"} {
		filepath.WalkDir(filepath.Join(root, tree), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(path) == ".pml" {
				models = append(models, path)
			}
			return nil
		})
	}
	type job struct {
		model string   // the copy
		rel   string   // the original, for messages
		args  []string // flags, without --ltl
		prop  string
	}
	var jobs []job
	seen := map[string]bool{}
	add := func(path, rel string, args []string) {
		// The run's macros and parameters, as ftmc check reads them.
		c, code := parsePMLCheck(&env{stderr: io.Discard}, append([]string{path}, args...))
		if c == nil {
			t.Fatalf("%s: ftmc check %q: exit %d", rel, args, code)
		}
		popts := promela.Options{Defines: c.defines.Map()}
		if len(c.params) > 0 {
			popts.Params = c.params
		}
		prog, err := promela.Load(path, popts)
		if err != nil {
			return // a run for another combination of macros
		}
		if len(prog.Params) > 0 && len(c.params) == 0 {
			return // a parametric model runs with --param only
		}
		props := pml.Names(prog)
		for _, n := range prog.Nevers {
			props = append(props, pml.ClaimName(n))
		}
		copyPath := filepath.Join(dir, strings.NewReplacer("/", "_").Replace(rel))
		if _, err := os.Stat(copyPath); err != nil {
			text := fmt.Sprintf("#include %q\n%s", path, failingProcess)
			if err := os.WriteFile(copyPath, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range props {
			key := rel + "\x00" + p + "\x00" + strings.Join(args, " ")
			if seen[key] {
				continue
			}
			seen[key] = true
			jobs = append(jobs, job{copyPath, rel, args, p})
		}
	}
	for _, path := range models {
		rel, _ := filepath.Rel(root, path)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := expect.Parse(f, "check")
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		argSets := [][]string{nil}
		for _, r := range runs {
			if len(r.Args) > 0 && r.Args[0] == "check" {
				argSets = append(argSets, propertyFlags(r.Args[1:]))
			}
		}
		for _, args := range argSets {
			add(path, rel, args)
		}
	}
	// ByMC's models, with the parameters of the thesis's Table 2.1.
	bymc := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "fmcad13")
	for model, params := range map[string]string{
		"bcast-byz": "N=7,T=2,F=2", "bcast-omit": "N=5,To=2,Fo=2",
		"bcast-symm": "N=5,T=1,Fp=1,Fs=0", "bcast-clean": "N=3,Tc=2,Fc=2,Fnc=0",
	} {
		path := filepath.Join(bymc, model+".pml")
		add(path, "fmcad13/"+model+".pml", []string{"--param", params, "--assume", "fairness"})
		add(path, "fmcad13/"+model+".pml", []string{"--param", params})
	}
	sort.Slice(jobs, func(i, j int) bool { return jobs[i].rel+jobs[i].prop < jobs[j].rel+jobs[j].prop })
	if len(jobs) < 50 {
		t.Fatalf("only %d property runs found; the corpus should have more", len(jobs))
	}
	for _, j := range jobs {
		args := append([]string{"check", j.model, "--ltl", j.prop, "--time", "2m"}, j.args...)
		if slices.Contains(j.args, "--assume") && j.prop == "fairness" {
			continue // assumed for itself: fairness -> fairness
		}
		name := j.rel + "/" + j.prop + "/" + strings.Join(j.args, "_")
		t.Run(name, func(t *testing.T) {
			rep, code, stderr := runFtmc(context.Background(), args)
			if rep == nil || len(rep.Verdicts) != 1 {
				t.Fatalf("ftmc %s exited %d:\n%s", strings.Join(args[1:], " "), code, stderr)
			}
			if v := rep.Verdicts[0]; v.Verdict != trace.Violated {
				t.Errorf("ftmc %s: %s, want violated: the added process fails an assertion at its first step", strings.Join(args[1:], " "), describe(v))
			}
		})
	}
	// The same through --ltl-formula, with formulas that simplify away.
	model := filepath.Join(dir, "plain.pml")
	if err := os.WriteFile(model, []byte("int x;\nactive proctype P() { x = 1 }\n"+failingProcess), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"true", "[] true", "<> true", "true U true", "[] (x >= 0)", "false -> [] (x == 3)"} {
		rep, code, stderr := runFtmc(context.Background(), []string{"check", model, "--ltl-formula", f})
		if rep == nil || len(rep.Verdicts) != 1 {
			t.Fatalf("--ltl-formula %q: exited %d:\n%s", f, code, stderr)
		}
		if v := rep.Verdicts[0]; v.Verdict != trace.Violated || v.Kind != "assertion" {
			t.Errorf("--ltl-formula %q: %s, want violated (assertion)", f, describe(v))
		}
	}
}

// propertyFlags keeps the flags of a run that choose how a property is
// checked (macros, parameters, fairness, assumptions) and drops those that
// choose which (--ltl, --ltl-formula, --non-progress) or how the search
// goes (--dfs, --depth, ...).
func propertyFlags(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-D" || a == "--param" || a == "--fairness" || a == "--assume":
			if i+1 < len(args) {
				out = append(out, a, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "-D"):
			out = append(out, "-D", a[2:])
		case a == "--ltl" || a == "--ltl-formula" || a == "--time" || a == "--depth" || a == "--memory":
			i++
		}
	}
	return out
}
