package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"ftmc/internal/expect"
	"ftmc/internal/testenv"
	"ftmc/trace"
)

// exampleTrees are the directories (relative to the repository root) whose
// models state their expected verdicts; every model in them is a test.
var exampleTrees = []string{"examples", "testdata/corpus"}

// modelCommand is the default command for a model file, by extension;
// files with other extensions (included headers, notes) are not models.
var modelCommand = map[string]string{
	".pml":  "check",
	".ta":   "verify",
	".mcmt": "verify",
	".in":   "verify",
	".cub":  "verify",
}

// unimplemented lists the commands that do not work on a kind of model
// yet, as "command .ext". Their runs are reported as skipped with this
// reason, never passed; remove an entry as soon as the command works, and
// the runs become tests.
var unimplemented = map[string]string{}

// exampleModel is one model file and the runs it declares.
type exampleModel struct {
	path string // absolute
	rel  string // relative to the repository root, for messages
	runs []expect.Run
}

// exampleModels walks the example trees and reads every model's runs. A
// model without any expectation is an error: adding a model is adding a test.
func exampleModels(t *testing.T) []exampleModel {
	t.Helper()
	return exampleModelsIn(t, exampleTrees)
}

// exampleModelsIn is exampleModels for the trees given (relative to the
// repository root).
func exampleModelsIn(t *testing.T, trees []string) []exampleModel {
	t.Helper()
	root := testenv.RepoRoot(t)
	var models []exampleModel
	for _, tree := range trees {
		dir := filepath.Join(root, tree)
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			cmd, ok := modelCommand[filepath.Ext(path)]
			if d.IsDir() || !ok {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			runs, err := expect.Parse(f, cmd)
			f.Close()
			if err != nil {
				t.Errorf("%s: %v", rel, err)
				return nil
			}
			if len(runs) == 0 {
				t.Errorf("%s:1: the model states no expectation (add e.g. \"expect: holds\" to its header)", rel)
				return nil
			}
			models = append(models, exampleModel{path: path, rel: rel, runs: runs})
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	sort.Slice(models, func(i, j int) bool { return models[i].rel < models[j].rel })
	return models
}

// runFtmc runs ftmc in-process with --json and returns its report, exit
// code and error output.
func runFtmc(ctx context.Context, args []string) (*trace.Report, int, string) {
	var stdout, stderr bytes.Buffer
	e := &env{ctx: ctx, stdout: &stdout, stderr: &stderr}
	code := run(e, append(args, "--json"))
	if code == trace.ExitUsage {
		return nil, code, stderr.String()
	}
	var rep trace.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		return nil, code, fmt.Sprintf("the output is not one JSON report (%v):\n%s\n%s", err, stdout.String(), stderr.String())
	}
	return &rep, code, stderr.String()
}

// runArgs is the ftmc command line of a run on model: the command, the
// model, then the run's arguments (ftmc accepts flags after positional
// arguments, and verify takes its property names after the model).
func runArgs(model string, r expect.Run) []string {
	args := []string{r.Args[0], model}
	return append(args, r.Args[1:]...)
}

// overall is the outcome of a whole run: violated (with the kind of the
// first violation) if any property is violated, else unknown if any is
// unknown, else holds.
func overall(rs []trace.Result) expect.Outcome {
	out := expect.Outcome{Verdict: string(trace.Holds)}
	for _, r := range rs {
		switch r.Verdict {
		case trace.Violated:
			return expect.Outcome{Verdict: string(trace.Violated), Kind: r.Kind}
		case trace.Unknown:
			out = expect.Outcome{Verdict: string(trace.Unknown)}
		}
	}
	return out
}

// matches reports whether got satisfies want; a want without a kind
// accepts any kind.
func matches(want, got expect.Outcome) bool {
	return want.Verdict == got.Verdict && (want.Kind == "" || want.Kind == got.Kind)
}

// describe prints a result with what explains it: the kind, the reason of
// an unknown, the failure message.
func describe(r trace.Result) string {
	s := expect.Outcome{Verdict: string(r.Verdict), Kind: r.Kind}.String()
	if r.Reason != "" {
		s += ": " + r.Reason
	}
	if r.Counterexample != nil && r.Counterexample.Message != "" {
		s += ": " + r.Counterexample.Message
	}
	return s
}

func slowEnabled() bool { return os.Getenv("FTMC_SLOW") == "1" }

// runBudget bounds one run, so that a model too large for the default test
// run fails with advice instead of holding up the whole test. It is a
// guard against runaway runs, not a performance test: FTMC_RUN_BUDGET (a
// duration) changes it, and with FTMC_SLOW=1 it is an hour.
func runBudget(t *testing.T) time.Duration {
	if v := os.Getenv("FTMC_RUN_BUDGET"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("FTMC_RUN_BUDGET=%q: expected a duration such as 5m", v)
		}
		return d
	}
	if slowEnabled() {
		return time.Hour
	}
	return 3 * time.Minute
}

// overBudget is the failure message of a run that ran out of its budget.
func overBudget(where string, budget time.Duration) string {
	return fmt.Sprintf("%s: the run did not finish within %v: mark it \"expect: slow\" or make the model smaller (FTMC_RUN_BUDGET raises the bound)", where, budget)
}

// TestExamples runs every model of examples/ and testdata/corpus/ as its
// header says and compares ftmc's verdicts with the expected ones. Runs
// marked "expect: slow" run only with FTMC_SLOW=1.
func TestExamples(t *testing.T) {
	models := exampleModels(t)
	if len(models) == 0 {
		t.Fatal("no models found under", exampleTrees)
	}
	for _, m := range models {
		for _, r := range m.runs {
			name := fmt.Sprintf("%s:%d", m.rel, r.Line)
			t.Run(name, func(t *testing.T) {
				where := fmt.Sprintf("%s:%d", m.rel, r.Line)
				key := r.Args[0] + " " + filepath.Ext(m.path)
				if why, ok := unimplemented[key]; ok {
					t.Skipf("%s: %s", where, why)
				}
				if r.Slow && !slowEnabled() {
					t.Skipf("%s: marked slow; set FTMC_SLOW=1 to run it", where)
				}
				t.Parallel()
				args := runArgs(m.path, r)
				budget := runBudget(t)
				ctx, cancel := context.WithTimeout(context.Background(), budget)
				defer cancel()
				rep, code, stderr := runFtmc(ctx, args)
				if ctx.Err() != nil {
					t.Fatal(overBudget(where, budget))
				}
				if rep == nil {
					t.Fatalf("%s: ftmc %s exited %d:\n%s", where, strings.Join(args, " "), code, stderr)
				}
				if len(rep.Verdicts) == 0 {
					t.Fatalf("%s: ftmc %s reported no verdict", where, strings.Join(args, " "))
				}
				if want := trace.ExitCode(rep.Verdicts); code != want {
					t.Errorf("%s: exit code %d, but the verdicts call for %d", where, code, want)
				}
				if r.Overall != nil {
					if got := overall(rep.Verdicts); !matches(*r.Overall, got) {
						var all []string
						for _, v := range rep.Verdicts {
							all = append(all, v.Property+": "+describe(v))
						}
						t.Errorf("%s: expected %s, got %s (%s)", where, r.Overall, got, strings.Join(all, "; "))
					}
				}
				for _, p := range r.Props {
					line := fmt.Sprintf("%s:%d", m.rel, p.Line)
					var found *trace.Result
					for i := range rep.Verdicts {
						if rep.Verdicts[i].Property == p.Name {
							found = &rep.Verdicts[i]
							break
						}
					}
					if found == nil {
						var names []string
						for _, v := range rep.Verdicts {
							names = append(names, v.Property)
						}
						t.Errorf("%s: expected property %s to be %s, but ftmc reported no verdict for it (only %s)", line, p.Name, p.Outcome, strings.Join(names, ", "))
						continue
					}
					if got := (expect.Outcome{Verdict: string(found.Verdict), Kind: found.Kind}); !matches(p.Outcome, got) {
						t.Errorf("%s: expected %s: %s, got %s", line, p.Name, p.Outcome, describe(*found))
					}
				}
			})
		}
	}
}

// TestExampleOutcomes keeps the helpers of TestExamples honest.
func TestExampleOutcomes(t *testing.T) {
	v := func(verdict trace.Verdict, kind string) trace.Result {
		return trace.Result{Verdict: verdict, Kind: kind}
	}
	for _, c := range []struct {
		rs   []trace.Result
		want string
	}{
		{nil, "holds"},
		{[]trace.Result{v(trace.Holds, ""), v(trace.Holds, "")}, "holds"},
		{[]trace.Result{v(trace.Holds, ""), v(trace.Unknown, "")}, "unknown"},
		{[]trace.Result{v(trace.Unknown, ""), v(trace.Violated, "assertion"), v(trace.Violated, "invalid end state")}, "violated (assertion)"},
	} {
		if got := overall(c.rs).String(); got != c.want {
			t.Errorf("overall(%v) = %s, want %s", c.rs, got, c.want)
		}
	}
	a := expect.Outcome{Verdict: "violated", Kind: "assertion"}
	if !matches(expect.Outcome{Verdict: "violated"}, a) || !matches(a, a) ||
		matches(expect.Outcome{Verdict: "violated", Kind: "invalid end state"}, a) || matches(expect.Outcome{Verdict: "holds"}, a) {
		t.Error("matches accepts or rejects the wrong outcomes")
	}
	r := expect.Run{Args: []string{"verify", "all", "--time", "1m"}}
	if got := strings.Join(runArgs("m.ta", r), " "); got != "verify m.ta all --time 1m" {
		t.Errorf("runArgs = %s", got)
	}
}
