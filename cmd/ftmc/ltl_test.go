package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/internal/expect"
	"ftmc/internal/testenv"
	"ftmc/state"
	"ftmc/trace"
)

// TestLTLModels runs ftmc on the models of ltl/testdata as their headers
// say and compares each property's verdict with the expected one. Those
// expectations are Spin's verdicts (pan -a, -a -f, -l): package ltl's
// TestModelsAgreeWithSpin checks them against Spin, so together the two
// tests compare ftmc with Spin.
func TestLTLModels(t *testing.T) {
	dir := filepath.Join(testenv.RepoRoot(t), "ltl", "testdata")
	files, err := filepath.Glob(filepath.Join(dir, "*.pml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("only %d models in %s", len(files), dir)
	}
	props := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := expect.Parse(f, "check")
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		rel, _ := filepath.Rel(testenv.RepoRoot(t), file)
		for _, r := range runs {
			props += len(r.Props)
			where := fmt.Sprintf("%s:%d", rel, r.Line)
			t.Run(where, func(t *testing.T) {
				t.Parallel()
				args := runArgs(file, r)
				rep, code, stderr := runFtmc(context.Background(), args)
				if rep == nil {
					t.Fatalf("%s: ftmc %s exited %d:\n%s", where, strings.Join(args, " "), code, stderr)
				}
				if want := trace.ExitCode(rep.Verdicts); code != want {
					t.Errorf("%s: exit code %d, but the verdicts call for %d", where, code, want)
				}
				if r.Overall != nil {
					if got := overall(rep.Verdicts); !matches(*r.Overall, got) {
						t.Errorf("%s: expected %s, got %s", where, r.Overall, got)
					}
				}
				for _, p := range r.Props {
					var found *trace.Result
					for i := range rep.Verdicts {
						if rep.Verdicts[i].Property == p.Name {
							found = &rep.Verdicts[i]
						}
					}
					line := fmt.Sprintf("%s:%d", rel, p.Line)
					if found == nil {
						t.Errorf("%s: no verdict for %s", line, p.Name)
						continue
					}
					if got := (expect.Outcome{Verdict: string(found.Verdict), Kind: found.Kind}); !matches(p.Outcome, got) {
						t.Errorf("%s: expected %s: %s, got %s", line, p.Name, p.Outcome, describe(*found))
					}
					checkLasso(t, line, found)
				}
			})
		}
	}
	if props < 60 {
		t.Errorf("only %d property runs", props)
	}
}

// checkLasso checks the shape of a violation's counterexample: numbered
// steps, and a cycle that starts inside the run (or after its last step,
// when the final state repeats).
func checkLasso(t *testing.T, where string, r *trace.Result) {
	t.Helper()
	if r.Verdict != trace.Violated {
		if r.Counterexample != nil {
			t.Errorf("%s: %s has a counterexample", where, r.Verdict)
		}
		return
	}
	c := r.Counterexample
	if c == nil {
		t.Errorf("%s: a violation without a counterexample", where)
		return
	}
	// A bad prefix (the property's automaton accepts whatever follows)
	// has no cycle, nor has a failing step or proposition.
	prefix := strings.HasPrefix(c.Message, "every run that begins with these steps") ||
		(r.Kind != state.KindAcceptCycle && r.Kind != state.KindNonProgress)
	if (c.LoopStart < 0 && !prefix) || c.LoopStart > len(c.Steps) {
		t.Errorf("%s: loop start %d with %d steps (%s)", where, c.LoopStart, len(c.Steps), c.Message)
	}
	for k, s := range c.Steps {
		if s.Num != k+1 || s.Proc == "" {
			t.Errorf("%s: step %d is %+v", where, k+1, s)
		}
	}
	if len(c.Initial) == 0 || len(c.Final) == 0 {
		t.Errorf("%s: the counterexample lacks its initial or final state", where)
	}
}

func TestLTLCommandLine(t *testing.T) {
	root := testenv.RepoRoot(t)
	model := filepath.Join(root, "ltl", "testdata", "counter_cycle.pml")
	bad := filepath.Join(root, "ltl", "testdata", "fair_toggle.pml")
	for _, c := range []struct {
		args []string
		code int
		out  string // in stdout (text) or stderr
	}{
		{[]string{"check", model, "--ltl", "recur"}, 0, "recur: holds"},
		{[]string{"check", model, "--ltl", "persist"}, 1, "<<<<< START OF CYCLE >>>>>"},
		{[]string{"check", model, "--ltl", "persist"}, 1, "this run violates ltl persist (counter_cycle.pml:"},
		{[]string{"check", model, "--ltl-formula", "[]<>(x == 2)"}, 0, "formula: holds"},
		{[]string{"check", model, "--ltl-formula", "<>[](x == 2)"}, 1, "formula: violated (acceptance cycle)"},
		{[]string{"check", model, "--ltl-formula", "[] (y > 2)"}, 2, "--ltl-formula:1:5"},
		{[]string{"check", model, "--ltl-formula", "[] (x >"}, 2, "--ltl-formula: at the end: expected an expression, found the end of the formula"},
		{[]string{"check", model, "--ltl-formula", "[] (x == 1 &&\n y > 2)"}, 2, "--ltl-formula:2:2: undeclared variable y"},
		{[]string{"check", model, "--ltl-formula", " "}, 2, "expected an LTL formula"},
		{[]string{"check", model, "--ltl-formula", "[](x >= 0) } active proctype Z() { assert(false) } ltl y { true"}, 2, "--ltl-formula:1:12: expected an LTL formula, found '}'"},
		{[]string{"check", model, "--ltl-formula", "[](x >= 0)\n#define x 3"}, 2, "--ltl-formula:2:1: expected an LTL formula, found '#'"},
		{[]string{"check", model, "--ltl", "nosuch"}, 2, "recur"},
		{[]string{"check", model, "--ltl", "recur", "--fairness", "strong"}, 2, "expected weak or none"},
		{[]string{"check", model, "--non-progress", "--ltl", "recur"}, 2, "excludes"},
		{[]string{"check", model, "--ltl", "recur", "--assume", "nosuch"}, 2, "no ltl block nosuch"},
		{[]string{"check", model, "--ltl", "recur", "--assume", "order"}, 0, "recur: holds"},
		{[]string{"check", bad, "--ltl", "eventually_f", "--fairness", "weak", "--quiet"}, 0, "eventually_f: holds"},
		{[]string{"check", bad, "--ltl", "eventually_f", "--quiet"}, 1, "eventually_f: violated (acceptance cycle)"},
		{[]string{"check", model}, 1, "safety: holds"},
		{[]string{"check", model, "--non-progress"}, 1, "non-progress: violated (non-progress cycle)"},
		{[]string{"check", model, "--ltl", "recur", "--time", "1ns"}, 3, "recur: unknown: time limit 1ns reached"},
	} {
		var stdout, stderr bytes.Buffer
		e := &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}
		code := run(e, c.args)
		all := stdout.String() + stderr.String()
		if code != c.code || !strings.Contains(all, c.out) {
			t.Errorf("ftmc %s: exit %d, want %d with %q in\n%s", strings.Join(c.args[2:], " "), code, c.code, c.out, all)
		}
	}
}

// TestTable21 checks the verdicts of Table 2.1 of Gmeiner's thesis: the
// Srikanth–Toueg broadcast under four fault models, on ByMC's models, with
// the fairness block assumed: all 21 rows, about 6 s together
// (bench/table21 times them next to the thesis and Spin).
func TestTable21(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "fmcad13")
	for _, r := range []struct {
		id, model, params, spec string
		holds                   bool
	}{
		{"B1", "bcast-byz", "N=7,T=2,F=2", "unforg", true},
		{"B2", "bcast-byz", "N=7,T=2,F=2", "corr", true},
		{"B3", "bcast-byz", "N=7,T=2,F=2", "relay", true},
		{"B4", "bcast-byz", "N=7,T=3,F=2", "unforg", true},
		{"B5", "bcast-byz", "N=7,T=3,F=2", "corr", true},
		{"B6", "bcast-byz", "N=7,T=3,F=2", "relay", false},
		{"O1", "bcast-omit", "N=5,To=2,Fo=2", "unforg", true},
		{"O2", "bcast-omit", "N=5,To=2,Fo=2", "corr", true},
		{"O3", "bcast-omit", "N=5,To=2,Fo=2", "relay", true},
		{"O4", "bcast-omit", "N=5,To=2,Fo=3", "unforg", true},
		{"O5", "bcast-omit", "N=5,To=2,Fo=3", "corr", false},
		{"O6", "bcast-omit", "N=5,To=2,Fo=3", "relay", false},
		{"S1", "bcast-symm", "N=5,T=1,Fp=1,Fs=0", "unforg", true},
		{"S2", "bcast-symm", "N=5,T=1,Fp=1,Fs=0", "corr", true},
		{"S3", "bcast-symm", "N=5,T=1,Fp=1,Fs=0", "relay", true},
		{"S4", "bcast-symm", "N=5,T=3,Fp=3,Fs=1", "unforg", true},
		{"S5", "bcast-symm", "N=5,T=3,Fp=3,Fs=1", "corr", false},
		{"S6", "bcast-symm", "N=5,T=3,Fp=3,Fs=1", "relay", true},
		{"C1", "bcast-clean", "N=3,Tc=2,Fc=2,Fnc=0", "unforg", true},
		{"C2", "bcast-clean", "N=3,Tc=2,Fc=2,Fnc=0", "corr", true},
		{"C3", "bcast-clean", "N=3,Tc=2,Fc=2,Fnc=0", "relay", true},
	} {
		t.Run(r.id, func(t *testing.T) {
			t.Parallel()
			args := []string{"check", filepath.Join(dir, r.model+".pml"), "--param", r.params, "--ltl", r.spec, "--assume", "fairness"}
			rep, code, stderr := runFtmc(context.Background(), args)
			if rep == nil || len(rep.Verdicts) != 1 {
				t.Fatalf("%s: ftmc %s exited %d:\n%s", r.id, strings.Join(args[1:], " "), code, stderr)
			}
			v := rep.Verdicts[0]
			want := map[bool]trace.Verdict{true: trace.Holds, false: trace.Violated}[r.holds]
			if v.Verdict != want {
				t.Errorf("%s (%s %s %s): %s, the thesis says %s", r.id, r.model, r.params, r.spec, describe(v), want)
			}
			checkLasso(t, r.id, &v)
		})
	}
}

// A ByMC model is checked as ByMC reads it: its properties are evaluated
// after every process has run its initialisation. Evaluated in Promela's
// initial state (every pc still 0, that is V0), strb's unforg
// (prec_unforg -> [](!ex_acc)) would be violated by a process that takes
// V1 in its initialisation.
func TestByMCInitialisation(t *testing.T) {
	model := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "promela", "strb.pml")
	out, errs, code := runText(t, "check", model, "--param", "N=4,T=1,F=1", "--assume", "fairness", "--quiet")
	if code != 0 || out != "relay: holds\ncorr: holds\nunforg: holds\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// With one fault more than the model allows (BUG1), unforg is violated,
	// and the counterexample says where it starts.
	rep, code, stderr := runFtmc(t.Context(), []string{"check", model, "-D", "BUG1", "--param", "N=4,T=1,F=2", "--ltl", "unforg", "--assume", "fairness"})
	if rep == nil || len(rep.Verdicts) != 1 || rep.Verdicts[0].Counterexample == nil {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	c := rep.Verdicts[0].Counterexample
	if !strings.Contains(c.Message, "it starts where every process has run its initialisation (the statements of Proc before line 78)") || !strings.Contains(rep.Engine, "ByMC's semantics") || !strings.Contains(rep.Engine, "; 4 initial states") {
		t.Errorf("message %q, engine %q", c.Message, rep.Engine)
	}
	for _, v := range c.Initial {
		if v.Name == "Proc[0]@" && !strings.Contains(v.Value, "line 78") {
			t.Errorf("the run starts with Proc[0] at %s, not at its main loop (line 78)", v.Value)
		}
	}
}

// A parameter given twice is a usage error, not the last value silently.
func TestParamGivenTwice(t *testing.T) {
	model := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "fmcad13", "bcast-byz.pml")
	for _, args := range [][]string{
		{"--param", "N=7,T=2,F=2,F=3"},
		{"--param", "N=7,T=2", "--param", "F=2,T=1"},
	} {
		_, errs, code := runText(t, append([]string{"check", model, "--ltl", "corr"}, args...)...)
		if code != trace.ExitUsage || !strings.Contains(errs, "given twice") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// An atomic sequence that loops until the step bound fails as one step;
// its text lists the first and last statements, not the hundred thousand
// in between.
func TestLongAtomicStepText(t *testing.T) {
	model := filepath.Join(t.TempDir(), "loop.pml")
	src := "byte x;\nactive proctype A() { atomic { do :: x = 1 - x od } }\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runText(t, "check", model)
	if code != 1 || !strings.Contains(out, "statements ...; x = 1 - x") || len(out) > 20000 {
		t.Errorf("exit %d, %d bytes:\n%.2000s", code, len(out), out)
	}
}

// --quiet keeps the verdict lines on standard output and the warnings that
// qualify them (here: the parameters violate the model's assume) on
// standard error.
func TestQuietKeepsWarnings(t *testing.T) {
	model := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "fmcad13", "bcast-byz.pml")
	out, errs, code := runText(t, "check", model, "--param", "N=3,T=1,F=1", "--ltl", "corr", "--assume", "fairness", "--quiet")
	if code != 0 || out != "corr: holds\n" || !strings.Contains(errs, "warning: ") || !strings.Contains(errs, "violates assume(N > 3 * T)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestTimeLimitCoversTheRun: --time bounds the whole run, not each
// property's search: with three ltl blocks on a model too large for the
// limit, the searches together stop at it.
func TestTimeLimitCoversTheRun(t *testing.T) {
	model := filepath.Join(t.TempDir(), "grow.pml")
	src := "int x;\nactive proctype P() { do :: x < 100000000 -> x++ od }\n" +
		"ltl p1 { [] (x >= 0) }\nltl p2 { [] (x >= 0) }\nltl p3 { <> (x < 0) }\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, code, stderr := runFtmc(context.Background(), []string{"check", model, "--time", "1s", "--memory", "0"})
	if rep == nil || code != trace.ExitUnknown || len(rep.Verdicts) != 4 {
		t.Fatalf("exit %d, want 3 and four verdicts:\n%s", code, stderr)
	}
	total := 0.0
	for _, v := range rep.Verdicts {
		if v.Verdict != trace.Unknown || !strings.HasPrefix(v.Reason, "time limit 1s reached") {
			t.Errorf("%s: %s, want unknown: time limit 1s reached", v.Property, describe(v))
		}
		total += v.Stats.Seconds
	}
	// Each search alone would take the whole second.
	if total > 2.5 {
		t.Errorf("the searches took %.2f s together under --time 1s", total)
	}
}

// A model in which no process runs is an error at a position (exit 2), as
// Spin refuses it, for the safety search, an ltl block and a sweep alike:
// never holds with nothing checked.
func TestCheckNoProcess(t *testing.T) {
	t.Setenv("FTMC_AS_MAIN", "1") // the sweep's checks run as this binary
	model := writeModel(t, "np.pml", "int x;\nproctype P() { assert(false) }\nltl t { [](x == 1) }\n")
	const want = "np.pml:2:1: no process runs"
	for _, args := range [][]string{{"check", model}, {"check", model, "--ltl", "t"}, {"check", model, "--json"}, {"sweep", model, "-D", "N=1,2"}} {
		out, errs, code := runText(t, args...)
		if code != trace.ExitUsage || !strings.Contains(errs, want) || holdsWord.MatchString(out) {
			t.Errorf("ftmc %s: exit %d, want 2 and %q:\n%s%s", strings.Join(args[:1], " "), code, want, out, errs)
		}
	}
	empty := writeModel(t, "empty.pml", "")
	if _, errs, code := runText(t, "check", empty); code != trace.ExitUsage || !strings.Contains(errs, "empty.pml:1:1: no process runs: the model has no active proctype and no init") {
		t.Errorf("empty model: exit %d, %q", code, errs)
	}
	// spin -a /dev/null: "no runable process".
	if out, errs, code := runText(t, "check", os.DevNull); code != trace.ExitUsage || !strings.HasPrefix(errs, os.DevNull+":1:1: no process runs") || holdsWord.MatchString(out) {
		t.Errorf("ftmc check %s: exit %d, %q%q; want 2 and %s:1:1: no process runs", os.DevNull, code, out, errs, os.DevNull)
	}
}
