package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// Model files that do not end (devices) are refused at the bound, with
// the file's name, whatever their language.
func TestCheckInputBounded(t *testing.T) {
	for _, args := range [][]string{
		{"check", "/dev/zero"},
		{"check", "--lang", "ta", "/dev/zero"},
		{"verify", "--lang", "mcmt", "/dev/zero"},
		{"verify", "--lang", "cubicle", "/dev/zero"},
		{"check", "--ltl-formula", "[] true", "/dev/zero"},
	} {
		_, errs, code := runCmd(args...)
		if code != trace.ExitUsage || !strings.Contains(errs, "/dev/zero: larger than 64 MB: too large for a model file") {
			t.Errorf("ftmc %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
	}
}

// --time bounds the reading of the model too: a reading it stops ends with
// verdict unknown, exit 3.
func TestCheckInputReadingTimeLimit(t *testing.T) {
	dir := t.TempDir()
	pml := filepath.Join(dir, "big.pml")
	os.WriteFile(pml, []byte("init {\n"+strings.Repeat("  skip;\n", 2000000)+"}\n"), 0o644)
	cub := filepath.Join(dir, "big.cub")
	os.WriteFile(cub, []byte("array A[proc] : bool\nunsafe (i) { A[i] = True"+strings.Repeat(" && A[i] = True", 1000000)+" }\n"), 0o644)
	for _, args := range [][]string{
		{"check", "--time", "1ms", pml},
		{"verify", "--time", "1ms", cub},
		{"check", "--time", "1ms", "--ltl-formula", "[] true", pml},
	} {
		_, errs, code := runCmd(args...)
		if code != trace.ExitUnknown || !strings.Contains(errs, "unknown: time limit 1ms reached while reading the model (stopped at "+args[len(args)-1]+":") {
			t.Errorf("ftmc %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
	}
}

// runStdin runs ftmc with args and stdin as its standard input.
func runStdin(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errs bytes.Buffer
	code = run(&env{ctx: t.Context(), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errs}, args)
	return out.String(), errs.String(), code
}

// TestStdinModel: "-" is standard input for a model, read once (check
// --ltl-formula parses the model twice) and named <stdin> in errors and
// in the report; its "file" #includes are found from the working
// directory. A model on standard input is Promela for check unless --lang
// says otherwise; verify needs --lang.
func TestStdinModel(t *testing.T) {
	root := testenv.RepoRoot(t)
	t.Chdir(t.TempDir())
	if err := os.WriteFile("defs.h", []byte("#define N 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const model = "#include \"defs.h\"\nint x;\ninit {\n  x = N;\n  assert(x == 3)\n}\nltl p { [] (x >= 0) }\n"
	out, errs, code := runStdin(t, model, "check", "-", "--json")
	rep, err := trace.ParseReport("out", []byte(out))
	if code != trace.ExitHolds || err != nil || rep.Model != stdinName || len(rep.Verdicts) != 2 {
		t.Errorf("ftmc check - --json: exit %d, %v, report %+v\n%s", code, err, rep, errs)
	}
	out, errs, code = runStdin(t, model, "check", "-", "--ltl-formula", "[] (x < 4)", "--json")
	rep, err = trace.ParseReport("out", []byte(out))
	if code != trace.ExitHolds || err != nil || len(rep.Verdicts) != 1 || rep.Verdicts[0].Formula != "[] (x < 4)" {
		t.Errorf("ftmc check - --ltl-formula: exit %d, %v, report %+v\n%s", code, err, rep, errs)
	}
	_, errs, code = runStdin(t, "int x;\ninit {\n  x = ;\n}\n", "check", "-")
	if code != trace.ExitUsage || !strings.HasPrefix(errs, "<stdin>:3:7: ") {
		t.Errorf("ftmc check - on a bad model: exit %d, stderr %q; want 2 and <stdin>:3:7: ...", code, errs)
	}
	// Empty: refused as Spin refuses it, at its position, whatever reads it.
	for _, args := range [][]string{{"check", "-"}, {"check", "--lang", "pml", "-"}, {"verify", "--lang", "pml", "-"}, {"verify", "--lang", "promela", "-"}} {
		_, errs, code = runStdin(t, "", args...)
		if code != trace.ExitUsage || !strings.HasPrefix(errs, "<stdin>:1:1: no process runs") {
			t.Errorf("ftmc %s on an empty input: exit %d, stderr %q; want 2 and <stdin>:1:1: no process runs", strings.Join(args, " "), code, errs)
		}
	}
	_, errs, code = runStdin(t, model, "check", "--lang", "foo", "-")
	if code != trace.ExitUsage || errs != "ftmc check: --lang foo: expected promela, pml or ta\n" {
		t.Errorf("ftmc check --lang foo -: exit %d, stderr %q; want 2 and one line", code, errs)
	}

	ta, err := os.ReadFile(filepath.Join(root, "examples/threshold/aba.ta"))
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code = runStdin(t, string(ta), "check", "--lang", "ta", "-", "unforg", "--param", "N=4,T=1,F=1", "--json")
	rep, err = trace.ParseReport("out", []byte(out))
	if code != trace.ExitHolds || err != nil || rep.Model != stdinName {
		t.Errorf("ftmc check --lang ta -: exit %d, %v, report %+v\n%s", code, err, rep, errs)
	}
	_, errs, code = runStdin(t, "skel Proc {\n  locations (L0);\n  bogus\n}\n", "check", "--lang", "ta", "-", "--param", "N=4")
	if code != trace.ExitUsage || !strings.Contains(errs, "ftmc check: <stdin>:2:14: expected a number") {
		t.Errorf("ftmc check --lang ta - on a bad automaton: exit %d, stderr %q; want 2 and <stdin>:2:14: ...", code, errs)
	}
	_, errs, code = runStdin(t, string(ta), "verify", "-")
	if code != trace.ExitUsage || !strings.Contains(errs, "--lang") || strings.Count(errs, "\n") != 1 {
		t.Errorf("ftmc verify - without --lang: exit %d, stderr %q; want 2 and one line asking for --lang", code, errs)
	}
	if _, err := exec.LookPath("z3"); err == nil {
		out, errs, code = runStdin(t, string(ta), "verify", "--lang", "ta", "-", "unforg", "--json")
		rep, err = trace.ParseReport("out", []byte(out))
		if code != trace.ExitHolds || err != nil || rep.Model != stdinName {
			t.Errorf("ftmc verify --lang ta -: exit %d, %v, report %+v\n%s", code, err, rep, errs)
		}
	}
	cub, err := os.ReadFile(filepath.Join(root, "examples/mcmt/lock.cub"))
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code = runStdin(t, string(cub), "verify", "--lang", "cubicle", "-", "--bounded", "2", "--json")
	rep, err = trace.ParseReport("out", []byte(out))
	if code != trace.ExitHolds || err != nil || rep.Model != stdinName {
		t.Errorf("ftmc verify --lang cubicle -: exit %d, %v, report %+v\n%s", code, err, rep, errs)
	}
}

// TestStdinReport: ftmc trace - reads the report from standard input.
func TestStdinReport(t *testing.T) {
	report, errs, code := runStdin(t, "init { assert(false) }\n", "check", "-", "--json")
	if code != trace.ExitViolated {
		t.Fatalf("ftmc check -: exit %d\n%s", code, errs)
	}
	text, errs, code := runStdin(t, report, "trace", "-", "--text")
	if code != 0 || !strings.Contains(text, "assert") {
		t.Errorf("ftmc trace -: exit %d, stdout %q, stderr %q", code, text, errs)
	}
	_, errs, code = runStdin(t, "{\"format\": \"ftmc-report/1\",\n \"verdicts\": 3}", "trace", "-")
	if code != trace.ExitUsage || !strings.HasPrefix(errs, "ftmc trace: <stdin>:2:") {
		t.Errorf("ftmc trace - on a bad report: exit %d, stderr %q; want 2 and <stdin>:2:...", code, errs)
	}
}

// TestStdinSweep: a sweep runs the model once per combination: standard
// input is refused in one line, exit 2, before any check.
func TestStdinSweep(t *testing.T) {
	_, errs, code := runStdin(t, "init { skip }\n", "sweep", "-", "-D", "N=1,2")
	if code != trace.ExitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "standard input") {
		t.Errorf("ftmc sweep -: exit %d, stderr %q; want 2 and one line", code, errs)
	}
}

// TestStdinNeverEnds: standard input whose writer never closes it holds
// the run up no longer than --time: unknown, exit 3, saying it was
// reading <stdin>.
func TestStdinNeverEnds(t *testing.T) {
	for _, args := range [][]string{
		{"check", "-", "--time", "100ms"},
		{"check", "--lang", "ta", "-", "--time", "100ms"},
		{"verify", "--lang", "cubicle", "-", "--time", "100ms"},
		{"verify", "--lang", "ta", "-", "--time", "100ms"},
	} {
		r, w := io.Pipe()
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		var out, errs bytes.Buffer
		code := run(&env{ctx: ctx, stdin: r, stdout: &out, stderr: &errs}, args)
		cancel()
		w.Close()
		if code != trace.ExitUnknown || !strings.Contains(errs.String(), "unknown: time limit 100ms reached while reading <stdin>") {
			t.Errorf("ftmc %s: exit %d, stderr %q; want 3 and the reading of <stdin> stopped", strings.Join(args, " "), code, errs.String())
		}
	}
}

// TestStdinVerifyPromela: verify --lang pml - replays the abstract
// counterexample on an instance of the model read once from standard
// input, not from a file of that name.
func TestStdinVerifyPromela(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	src, err := os.ReadFile(filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "promela", "frb.pml"))
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := runStdin(t, string(src), "verify", "--lang", "pml", "-", "unforg", "-D", "BUG1=1", "--json")
	rep, err := trace.ParseReport("out", []byte(out))
	if code != trace.ExitViolated || err != nil || rep.Model != stdinName || len(rep.Verdicts) != 1 || rep.Verdicts[0].Counterexample == nil {
		t.Errorf("ftmc verify --lang pml - unforg -D BUG1=1: exit %d, %v, report %+v\n%s", code, err, rep, errs)
	}
}
