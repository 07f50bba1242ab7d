package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// The tests run ftmc verify with every unsat answer confirmed by a second
// solver when one is installed (cvc5; CI installs it): --cross-check's
// default is $FTMC_CROSS_CHECK.
func init() {
	if os.Getenv("FTMC_CROSS_CHECK") == "" {
		if s := testenv.CrossCheck(); s != "" {
			os.Setenv("FTMC_CROSS_CHECK", s)
		}
	}
}

func runTA(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &out, stderr: &errb}
	code := run(e, args)
	return code, out.String(), errb.String()
}

func TestVerifyTAJSON(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz-n-ge-3t.ta")
	code, out, stderr := runTA(t, "verify", model, "unforg", "relay", "--json", "-j", "2")
	if code != trace.ExitViolated {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
	}
	var rep trace.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Verdicts) != 2 || rep.Verdicts[0].Verdict != trace.Holds || rep.Verdicts[1].Verdict != trace.Violated {
		t.Fatalf("verdicts %+v", rep.Verdicts)
	}
	c := rep.Verdicts[1].Counterexample
	if c == nil || c.LoopStart < 0 || c.Params["N"] < 3*c.Params["T"] || len(c.Steps) == 0 {
		t.Fatalf("counterexample %+v", c)
	}
	if c.Steps[0].Proc == "" || c.Steps[c.LoopStart].Proc == "" {
		t.Errorf("steps should name their rules: %+v", c.Steps)
	}
	// Every verdict says how many queries the solver answered and how
	// long it took over them. A proof needs queries; relay's violation
	// shows on the smallest instance, which the explicit check beside the
	// search may find before the first answer.
	for _, v := range rep.Verdicts {
		fig := map[string]float64{}
		for _, f := range v.Stats.Extra {
			fig[f.Name] = f.Value
		}
		_, hasQueries := fig["smt_queries"]
		_, hasTime := fig["solver_seconds"]
		proof := v.Verdict == trace.Holds
		if !hasQueries || !hasTime || proof && (fig["smt_queries"] <= 0 || fig["solver_seconds"] <= 0) || fig["solver_seconds"] > 2*v.Stats.Seconds+1 {
			t.Errorf("%s: %d queries, %g s of solver time in %g s", v.Property, int(fig["smt_queries"]), fig["solver_seconds"], v.Stats.Seconds)
		}
	}
}

func TestVerifyTAText(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz.ta")
	code, out, _ := runTA(t, "verify", model)
	if code != trace.ExitHolds {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{"unforg: nschemas = ", "> Spec relay holds", "corr: holds"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestVerifyTABadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.ta")
	os.WriteFile(bad, []byte("skel P {\n  local pc;\n  shared x\n}"), 0o644)
	code, _, stderr := runTA(t, "verify", bad)
	if code != trace.ExitUsage || !strings.Contains(stderr, "bad.ta:4:1: expected \";\"") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	cyc := filepath.Join(dir, "cycle.ta")
	os.WriteFile(cyc, []byte(`skel P { local pc; shared x; parameters N;
  assumptions (0) { N > 0; } locations (0) { a: [0]; b: [1]; }
  inits (0) { a == N; b == 0; x == 0; }
  rules (0) { 0: a -> b when (true) do { unchanged(x); }; 1: b -> a when (x < N) do { unchanged(x); }; }
  specifications (0) { s: [](b == 0); } }`), 0o644)
	// The specification observes both locations of the cycle, so the
	// contraction cannot remove it: unknown for the schemas, with the
	// cycle at its place; by default the counter abstraction with
	// refinement, or the smallest instances searched beside it, then find
	// the violation.
	code, out, stderr := runTA(t, "verify", cyc, "--engine", "schema")
	if code != trace.ExitUnknown || !strings.Contains(out, "cycle.ta:4:15: the rules form a cycle a -> (rule 0) b -> (rule 1) a") {
		t.Errorf("cyclic automaton: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = runTA(t, "verify", cyc)
	if code != trace.ExitViolated || !strings.Contains(out, "s: violated") || !strings.Contains(out, "counterexample: invariant") {
		t.Errorf("cyclic automaton by default: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz.ta")
	code, _, stderr = runTA(t, "verify", model, "nosuch")
	if code != trace.ExitUsage || !strings.Contains(stderr, "no specification \"nosuch\"") {
		t.Errorf("unknown spec: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runTA(t, "check", model, "--param", "N=3,T=1,F=0")
	if code != trace.ExitUsage || !strings.Contains(stderr, "violate the assumption") {
		t.Errorf("bad parameters: exit %d, stderr %q", code, stderr)
	}
}

func TestCheckTA(t *testing.T) {
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz-f-le-t1.ta")
	code, out, stderr := runTA(t, "check", model, "--param", "N=4,T=1,F=2", "unforg", "relay", "--quiet")
	if code != trace.ExitViolated {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	if !strings.Contains(out, "unforg: violated") || !strings.Contains(out, "relay: violated") {
		t.Errorf("output %q", out)
	}
	code, out, _ = runTA(t, "check", model, "--param", "N=4,T=1,F=1", "--quiet")
	if code != trace.ExitHolds {
		t.Errorf("N=4,T=1,F=1 satisfies the designed condition, every property should hold: exit %d\n%s", code, out)
	}
}

// TestVerifyTAJobs: -j must name at least one worker, and not more than
// the engine runs, as for check and .cub models.
func TestVerifyTAJobs(t *testing.T) {
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz.ta")
	for _, j := range []string{"0", "-3", "65"} {
		code, out, stderr := runTA(t, "verify", model, "-j", j)
		if code != trace.ExitUsage || !strings.Contains(stderr, "-j "+j+": expected 1 to 64 workers") {
			t.Errorf("-j %s: exit %d, stdout %q, stderr %q", j, code, out, stderr)
		}
	}
}

var holdsWord = regexp.MustCompile(`\bholds\b`)

// TestVerifyTANoRun: an automaton without a run (contradicting
// assumptions, or no initial configuration) gets unknown with the reason,
// exit 3, from verify; check on an instance without an initial state says
// the same for every specification.
func TestVerifyTANoRun(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	const src = `skel P { local pc; shared x; parameters N;
  assumptions (0) { N > 1; ASSUME }
  locations (0) { a: [0]; b: [1]; }
  inits (0) { a == N; b == 0; x == 0; INIT }
  rules (0) { 0: a -> b when (x >= 0) do { x' == x + 1; }; 1: b -> b when (true) do { unchanged(x); }; }
  specifications (0) {
    safe: (b == 0) -> [](x < N);
    live: <>[](a == 0) -> <>(b != 0);
  } }`
	dir := t.TempDir()
	write := func(name, assume, init string) string {
		path := filepath.Join(dir, name)
		text := strings.Replace(strings.Replace(src, "ASSUME", assume, 1), "INIT", init, 1)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	noParams := write("noparams.ta", "N < 1;", "")
	noInit := write("noinit.ta", "", "x == 1;")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", noParams}, "no parameter values satisfy the resilience condition"},
		{[]string{"verify", noInit}, "no initial configuration satisfies the initial condition"},
		{[]string{"check", noInit, "--param", "N=2"}, "the instance N=2 has no initial state"},
		{[]string{"check", noInit, "--param", "N=2", "safe"}, "the instance N=2 has no initial state"},
		{[]string{"check", noInit, "--param", "N=2", "live"}, "the instance N=2 has no initial state"},
	} {
		code, out, stderr := runTA(t, c.args...)
		if code != trace.ExitUnknown || holdsWord.MatchString(out) || !strings.Contains(out, c.want) {
			t.Errorf("ftmc %s: exit %d, want 3 and %q:\n%s%s", strings.Join(c.args, " "), code, c.want, out, stderr)
		}
	}
	// Values outside the resilience condition are bad input.
	code, _, stderr := runTA(t, "check", noParams, "--param", "N=2")
	if code != trace.ExitUsage || !strings.Contains(stderr, "violate the assumption N < 1") {
		t.Errorf("check outside the resilience condition: exit %d, stderr %q", code, stderr)
	}
}

// TestCheckTAHugeParams: parameter values near the int64 limit are too
// large for an instance (exit 2), never a run that checked nothing and
// says holds.
func TestCheckTAHugeParams(t *testing.T) {
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "aba-f-le-t1.ta")
	for _, n := range []string{"9223372036854775807", "9223372036854775806", "9223372036854775000"} {
		code, out, stderr := runTA(t, "check", model, "--param", "N="+n+",T=1,F=2", "--quiet")
		if code != trace.ExitUsage || !strings.Contains(stderr, "too large for an explicit instance") {
			t.Errorf("N=%s: exit %d, stdout %q, stderr %q", n, code, out, stderr)
		}
	}
}

// TestVerifyTAMemoryLimit: --memory bounds the run (unknown, exit 3), as
// its usage says, instead of being ignored.
func TestVerifyTAMemoryLimit(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz.ta")
	code, out, stderr := runTA(t, "verify", model, "unforg", "--memory", "1MB", "-q")
	if code != trace.ExitUnknown || !regexp.MustCompile(`^unforg: unknown: memory limit 1 MB reached before all schemas were checked\n$`).MatchString(out) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// A sketch (an automaton with unknowns) is synthesized: the report gives
// the solution and its verdicts, or says that no candidate survived; the
// text lists every candidate with what refuted it.
func TestVerifySynthesis(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	dir := filepath.Join(testenv.RepoRoot(t), "examples", "threshold")
	code, out, stderr := runTA(t, "verify", filepath.Join(dir, "st-byz-synth.ta"), "--json")
	if code != trace.ExitHolds {
		t.Fatalf("exit %d, want 0; stderr %s", code, stderr)
	}
	var rep trace.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.Synthesis
	if s == nil || len(s.Solution) != 6 || s.Candidates != s.Refuted+1 || s.Generalized != s.Refuted || s.Undecided != 0 {
		t.Fatalf("synthesis %+v", s)
	}
	if len(rep.Verdicts) != 4 {
		t.Fatalf("verdicts %+v", rep.Verdicts)
	}
	for _, v := range rep.Verdicts {
		if v.Verdict != trace.Holds {
			t.Errorf("%s: %s", v.Property, v.Verdict)
		}
	}
	// One specification: the first candidate that satisfies it.
	code, out, stderr = runTA(t, "verify", filepath.Join(dir, "st-byz-synth.ta"), "unforg")
	if code != trace.ExitHolds || !regexp.MustCompile(`(?m)^> synthesized: a1 = -?\d+, b1 = `).MatchString(out) || !strings.Contains(out, "unforg: holds") || strings.Contains(out, "relay") {
		t.Errorf("exit %d:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runTA(t, "verify", filepath.Join(dir, "st-byz-synth-n-ge-3t.ta"))
	if code != trace.ExitViolated || !regexp.MustCompile(`(?m)^candidate 1: a1 = .*: \w+ violated \(F=\d+, N=\d+, T=\d+\)$`).MatchString(out) ||
		!strings.Contains(out, "synthesis: violated (no solution): every candidate within the assumptions is refuted") {
		t.Errorf("exit %d:\n%s%s", code, out, stderr)
	}
}
