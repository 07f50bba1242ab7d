//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// ftmc verify with solvers that lie, die, hang or stop reading: every run
// ends, within the limits it was given, with one verdict line per property
// that says unknown and names the solver. The fake solvers are the shell
// scripts of smt/testdata/solvers; each appends its pid to
// $FAKE_SOLVER_PIDS, so that the tests can check none is left running.

// fakeSolver and solverGone are testenv's fake solvers.
var fakeSolver, solverGone = testenv.FakeSolver, testenv.SolversGone

// runGuarded runs ftmc in this process with a generous bound that tells a
// hang from a slow machine: a run that the bound ends fails the test.
func runGuarded(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeoutCause(t.Context(), 90*time.Second, fmt.Errorf("the test's guard of 90 s"))
	defer cancel()
	var out, errs bytes.Buffer
	code = run(&env{ctx: ctx, stdout: &out, stderr: &errs}, args)
	if ctx.Err() != nil {
		t.Fatalf("ftmc %v hangs:\n%s%s", args, out.String(), errs.String())
	}
	return out.String(), errs.String(), code
}

// verdictLines checks that out ends each property's verdict line with
// "unknown: " and a reason matching want, and that the exit code is 3.
func verdictLines(t *testing.T, args []string, out, errs string, code int, props []string, want *regexp.Regexp) {
	t.Helper()
	if code != trace.ExitUnknown {
		t.Errorf("ftmc %v: exit %d, want 3\n%s%s", args, code, out, errs)
	}
	for _, p := range props {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(p) + `: unknown: (.*)$`)
		m := re.FindAllStringSubmatch(out, -1)
		if len(m) != 1 || !want.MatchString(m[0][1]) {
			t.Errorf("ftmc %v: want one line %q with a reason matching %s:\n%s%s", args, p+": unknown: ...", want, out, errs)
		}
	}
}

func seedModel(t *testing.T) string {
	return filepath.Join(testenv.Shared(t), "seeds", "002_89f49e16422360b2.txt")
}

var taProps = []string{"unforg", "corr", "relay"}

// A solver that answers unsat to everything makes every property of
// aba-f-le-t1.ta hold (all three are violated); the cross-check catches it.
func TestVerifyCrossCheckCatchesLyingSolver(t *testing.T) {
	testenv.NeedBinary(t, "cvc5")
	liar, pids := fakeSolver(t, "liar")
	cvc5, _ := exec.LookPath("cvc5")
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "aba-f-le-t1.ta")
	args := []string{"verify", model, "all", "-q", "--solver-path", liar, "--cross-check", "cvc5"}
	out, errs, code := runGuarded(t, args...)
	disagree := regexp.MustCompile(`^solvers disagree: z3 \(` + regexp.QuoteMeta(liar) + `\) answered unsat, cvc5 \(` + regexp.QuoteMeta(cvc5) + `\) sat`)
	verdictLines(t, args, out, errs, code, taProps, disagree)
	solverGone(t, pids())

	// The array-based engine's fixpoint checks: the seed.
	args = []string{"verify", "--lang", "mcmt", seedModel(t), "--solver-path", liar, "--cross-check", "cvc5"}
	out, errs, code = runGuarded(t, args...)
	verdictLines(t, args, out, errs, code, []string{"AGREEMENT"}, disagree)
	solverGone(t, pids())
}

// A solver that exits at once is named in the verdict, with its exit
// status and what it wrote to standard error, and the search does not go
// on retrying it.
func TestVerifySolverExits(t *testing.T) {
	dead, pids := fakeSolver(t, "dead")
	exited := regexp.MustCompile(`^solver z3 \(` + regexp.QuoteMeta(dead) + `\) exited: exit status 1: fake solver: no licence$`)
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "aba.ta")
	args := []string{"verify", model, "-q", "--solver-path", dead, "-j", "2"}
	out, errs, code := runGuarded(t, args...)
	verdictLines(t, args, out, errs, code, taProps, exited)

	args = []string{"verify", "--lang", "mcmt", seedModel(t), "--solver-path", dead, "--json"}
	rep, code, errs := runFtmc(t.Context(), args[:len(args)-1])
	if rep == nil || code != trace.ExitUnknown || len(rep.Verdicts) != 1 || !exited.MatchString(rep.Verdicts[0].Reason) {
		t.Fatalf("ftmc %v: exit %d, %+v %s", args, code, rep, errs)
	}
	for _, f := range rep.Stats.Extra {
		if f.Name == "smt_calls" && f.Value > 0 {
			t.Errorf("%g fixpoint checks went to a solver that could not start", f.Value)
		}
	}
	solverGone(t, pids())
}

// A solver that never answers, or that answers sat and then stalls, or
// that answers what is not SMT-LIB: the run ends at the solver timeout
// or the time limit, with the verdict unknown and a reason that says so
// (for a Parametric Promela model, of every specification when the
// abstraction they rest on could not be computed).
func TestVerifySolverHangs(t *testing.T) {
	root := testenv.RepoRoot(t)
	aba := filepath.Join(root, "examples", "threshold", "aba.ta")
	for _, c := range []struct {
		fake  string
		args  []string
		props []string
		want  string
	}{
		{"silent", []string{aba, "--solver-timeout", "1s"}, taProps, `^solver z3 \(PATH\) did not acknowledge its commands within 1s$`},
		{"silent", []string{aba, "--time", "1s"}, taProps, `^time limit 1s reached before all schemas were checked$`},
		{"silent", []string{filepath.Join(root, "examples", "bymc", "fbc.pml"), "--time", "1s"}, []string{"unforg", "corr", "relay", "agree"}, `^time limit 1s reached while the abstraction was computed$`},
		{"stall-get-value", []string{aba, "--solver-timeout", "1s"}, taProps, `^solver z3 \(PATH\) did not answer \(get-value \(.*\)\) within 1s$`},
		{"stall-get-value", []string{aba, "--time", "2s"}, taProps, `^time limit 2s reached before all schemas were checked$`},
		{"deaf", []string{aba, "--solver-timeout", "1s"}, taProps, `^solver z3 \(PATH\) did not acknowledge its commands within 1s \(3 failures in a row, given up\)$`},
		{"deep", []string{aba}, taProps, `^solver z3 \(PATH\) wrote an answer nested deeper than 1000 levels$`},
		{"silent", []string{"--lang", "mcmt", "SEED", "--solver-timeout", "1s"}, []string{"AGREEMENT"}, `^solver z3 \(PATH\) did not acknowledge its commands within 1s$`},
		{"garbage", []string{"--lang", "mcmt", "SEED"}, []string{"AGREEMENT"}, `^solver z3 \(PATH\) answered sat to a command that answers success$`},
	} {
		path, pids := fakeSolver(t, c.fake)
		args := []string{"verify"}
		for _, a := range c.args {
			if a == "SEED" {
				a = seedModel(t)
			}
			args = append(args, a)
		}
		args = append(args, "--solver-path", path, "-q")
		out, errs, code := runGuarded(t, args...)
		verdictLines(t, args, out, errs, code, c.props, regexp.MustCompile(strings.ReplaceAll(c.want, "PATH", regexp.QuoteMeta(path))))
		solverGone(t, pids())
	}
}

// Without the solver installed, ftmc verify says so once, with exit 2.
func TestVerifyNoSolver(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	model := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "aba.ta")
	for _, args := range [][]string{
		{"verify", model},
		{"verify", model, "--solver", "cvc5"},
		{"verify", model, "--solver-path", "/nonexistent/z3"},
		{"verify", filepath.Join(testenv.RepoRoot(t), "examples", "mcmt", "lock.cub"), "--solver", "cvc5"},
		{"verify", filepath.Join(testenv.RepoRoot(t), "examples", "mcmt", "lock.cub"), "--cross-check", "cvc5"},
	} {
		out, errs, code := runText(t, args...)
		if code != trace.ExitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "SMT solver not found") {
			t.Errorf("ftmc %v: exit %d, stdout %q, stderr %q; want exit 2 and one error", args, code, out, errs)
		}
	}
}

// buildFtmc builds the ftmc binary, for the tests that send it signals.
func buildFtmc(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "ftmc")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(testenv.RepoRoot(t), "cmd", "ftmc")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("cannot build ftmc: %v\n%s", err, out)
	}
	return bin
}

// SIGTERM and SIGINT during a solver's query: the verdicts say unknown
// and which signal, the exit code is 3, and the solver is gone.
func TestVerifySignalStopsSolvers(t *testing.T) {
	bin := buildFtmc(t)
	root := testenv.RepoRoot(t)
	for _, c := range []struct {
		sig   syscall.Signal
		args  []string
		props []string
		want  string
	}{
		{syscall.SIGTERM, []string{filepath.Join(root, "examples", "threshold", "aba.ta"), "-j", "2"}, taProps, `^terminated before all schemas were checked$`},
		{syscall.SIGINT, []string{filepath.Join(root, "examples", "threshold", "aba.ta")}, taProps, `^interrupted before all schemas were checked$`},
		{syscall.SIGTERM, []string{"--lang", "mcmt", seedModel(t)}, []string{"AGREEMENT"}, `^terminated after \d+ cubes$`},
	} {
		path, pids := fakeSolver(t, "stall-check")
		args := append([]string{"verify"}, c.args...)
		args = append(args, "--solver-path", path, "-q")
		cmd := exec.Command(bin, args...)
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The solver has started, and answers its first check-sat never.
		for deadline := time.Now().Add(60 * time.Second); len(pids()) == 0; {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("ftmc %v never started the solver", args)
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		cmd.Process.Signal(c.sig)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("ftmc %v did not stop on %v", args, c.sig)
		}
		verdictLines(t, args, out.String(), errs.String(), cmd.ProcessState.ExitCode(), c.props, regexp.MustCompile(c.want))
		solverGone(t, pids())
	}
}

// Without z3, every verify path (.ta, .pml with its several
// specifications, .cub with the solver named) says so in one error, exit
// 2, before any specification runs: how to install z3, and that cvc5, on
// PATH, would do.
func TestVerifyNoSolverHint(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	if err := os.WriteFile(filepath.Join(dir, "cvc5"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := testenv.RepoRoot(t)
	for _, args := range [][]string{
		{"verify", filepath.Join(root, "examples", "threshold", "aba.ta")},
		{"verify", filepath.Join(root, "examples", "bymc", "cbc.pml")},
		{"verify", filepath.Join(root, "examples", "bymc", "cbc.pml"), "all"},
		{"verify", filepath.Join(root, "examples", "mcmt", "lock.cub"), "--solver", "z3"},
	} {
		out, errs, code := runText(t, args...)
		if code != trace.ExitUsage || out != "" || strings.Count(errs, "\n") != 1 ||
			!strings.Contains(errs, "SMT solver not found: z3 is not on PATH; install it (Debian: apt-get install z3); or use cvc5, which is on PATH (--solver cvc5)") {
			t.Errorf("ftmc %v: exit %d, stdout %q, stderr %q; want exit 2 and one error with the hints", args[1:], code, out, errs)
		}
	}
}
