package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ftmc/explore"
	"ftmc/trace"
)

func init() { childSetup = append(childSetup, limitAddressSpace, killSelf, ignoreStop) }

// limitAddressSpace gives the process FTMC_TEST_ADDRESS_SPACE bytes of
// address space beyond what it holds (ulimit -v), so that it runs out of
// memory soon.
func limitAddressSpace() {
	n, err := strconv.ParseInt(os.Getenv("FTMC_TEST_ADDRESS_SPACE"), 10, 64)
	if err != nil {
		return
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		panic(err)
	}
	var used int64
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmSize:" {
			used, _ = strconv.ParseInt(f[1], 10, 64)
			used *= 1024
		}
	}
	lim := uint64(used + n)
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
		panic(err)
	}
}

// killSelf dies as the system's out-of-memory killer kills a check, after
// a progress line (FTMC_TEST_KILL=1).
func killSelf() {
	if os.Getenv("FTMC_TEST_KILL") != "1" {
		return
	}
	fmt.Fprintln(os.Stderr, "progress: states=300 transitions=400 depth=5 memory_bytes=7000000 seconds=1.000")
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

// ignoreStop stands for a check that does not stop at SIGINT or SIGTERM,
// after a progress line (FTMC_TEST_IGNORE_STOP=1).
func ignoreStop() {
	if os.Getenv("FTMC_TEST_IGNORE_STOP") != "1" {
		return
	}
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	fmt.Fprintln(os.Stderr, "progress: states=300 transitions=400 depth=5 memory_bytes=7000000 seconds=1.000")
	time.Sleep(time.Hour)
	os.Exit(0)
}

// growModel is a Promela model whose states take memory fast: a chain of
// states of 200-odd bytes each.
func growModel(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "grow.pml")
	src := "byte a[200];\nint x;\nactive proctype P() {\n\tdo\n\t:: x < 100000000 -> x++; a[x % 200] = x % 251\n\tod\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCheckDefaultMemoryLimitUlimit: without --memory a check under
// ulimit -v stops with unknown at the default limit, before the runtime
// runs out of memory.
func TestCheckDefaultMemoryLimitUlimit(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe, "check", growModel(t), "--quiet")
	cmd.Env = append(os.Environ(), "FTMC_AS_MAIN=1", "FTMC_TEST_ADDRESS_SPACE=400000000")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if code != trace.ExitUnknown || !strings.HasPrefix(stdout.String(), "safety: unknown: memory limit ") ||
		!strings.Contains(stdout.String(), "(85% of half the address space ulimit -v leaves) reached after ") {
		t.Errorf("exit %d (%v), want 3 and the default limit:\n%s\n%.2000s", code, err, stdout.String(), stderr.String())
	}
}

// TestSweepChildOutOfMemory: a check without a limit that dies out of
// memory, and one that is killed, are unknown rows with the figures of
// their last progress lines.
func TestSweepChildOutOfMemory(t *testing.T) {
	t.Setenv("FTMC_AS_MAIN", "1")
	t.Setenv("FTMC_TEST_ADDRESS_SPACE", "400000000")
	t.Setenv(progressEnv, "100ms")
	model := growModel(t)
	sweepRows := func(args ...string) (int, []sweepRow, string) {
		var stdout, stderr bytes.Buffer
		e := &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}
		code := sweep(e, append([]string{model, "--json"}, args...), nil)
		got, err := parseSweepJSON(stdout.Bytes())
		if err != nil {
			t.Fatalf("exit %d, %v:\n%s\n%s", code, err, stdout.String(), stderr.String())
		}
		return code, got, stderr.String()
	}
	code, rows, errs := sweepRows("--memory", "0")
	if len(rows) != 1 {
		t.Fatalf("rows %+v", rows)
	}
	r := rows[0]
	if code != trace.ExitUnknown || r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "out of memory after ") ||
		!strings.HasSuffix(r.Reason, " (the check died: fatal error: out of memory)") || r.States == 0 || r.MemoryBytes == 0 {
		t.Errorf("exit %d, row %+v, stderr %q; want an unknown row, out of memory, with figures", code, r, errs)
	}

	t.Setenv("FTMC_TEST_KILL", "1")
	code, rows, _ = sweepRows("-D", "N=1")
	if want := "killed after 300 states (signal: killed; likely the system out of memory)"; code != trace.ExitUnknown || len(rows) != 1 || rows[0].Reason != want || rows[0].States != 300 {
		t.Errorf("exit %d, rows %+v; want an unknown row: %s", code, rows, want)
	}
}

// stoppedSweep runs a sweep of three combinations of a search that does
// not end, two at a time, and stops it with cause after a second, as
// SIGINT or SIGTERM does. It returns the exit code, the rows, and how long
// the sweep took.
func stoppedSweep(t *testing.T, cause error) (int, []sweepRow, time.Duration) {
	t.Helper()
	model := filepath.Join(t.TempDir(), "forever.pml")
	src := "int x;\nactive proctype P() { do :: x < 2000000000 -> x++ od }\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	timer := time.AfterFunc(time.Second, func() { cancel(cause) })
	defer timer.Stop()
	var stdout, stderr bytes.Buffer
	e := &env{ctx: ctx, stdout: &stdout, stderr: &stderr}
	start := time.Now()
	code := sweep(e, []string{model, "-D", "A=1,2,3", "-j", "2", "--json", "--memory", "1GB"}, nil)
	took := time.Since(start)
	got, err := parseSweepJSON(stdout.Bytes())
	if err != nil || len(got) != 3 {
		t.Fatalf("exit %d, %v:\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	return code, got, took
}

// TestSweepSignalStopsChecks: a sweep stopped by SIGTERM or SIGINT passes
// the signal on to the checks that run and waits for their reports: their
// rows are unknown, terminated or interrupted, with the figures they
// reached; the row not started says so.
func TestSweepSignalStopsChecks(t *testing.T) {
	t.Setenv("FTMC_AS_MAIN", "1")
	t.Setenv(progressEnv, "100ms")
	for _, tc := range []struct {
		cause error
		why   string
	}{{explore.ErrTerminated, "terminated"}, {explore.ErrInterrupted, "interrupted"}} {
		code, rows, took := stoppedSweep(t, tc.cause)
		if code != trace.ExitUnknown || took > 20*time.Second {
			t.Errorf("%s: exit %d after %v, want 3 soon", tc.why, code, took)
		}
		for _, r := range rows[:2] {
			// The check's own report: its reason has no details of a
			// check that died.
			if r.Verdict != trace.Unknown || !regexp.MustCompile(`^`+tc.why+` after \d+ states$`).MatchString(r.Reason) || r.States == 0 || r.Transitions == 0 || r.MemoryBytes == 0 {
				t.Errorf("%s: row %+v, want unknown, %s after N states, with the figures reached", tc.why, r, tc.why)
			}
		}
		if r := rows[2]; r.Verdict != trace.Unknown || r.Reason != tc.why+" (not started)" || r.States != 0 || r.Defines["A"] != "3" {
			t.Errorf("%s: row not started %+v", tc.why, r)
		}
	}
}

// TestSweepSignalKillsStubbornChecks: a check that does not stop within
// the grace period after the signal is killed; its row has the figures of
// its last progress line.
func TestSweepSignalKillsStubbornChecks(t *testing.T) {
	t.Setenv("FTMC_AS_MAIN", "1")
	t.Setenv("FTMC_TEST_IGNORE_STOP", "1")
	defer func(d time.Duration) { stopGrace = d }(stopGrace)
	stopGrace = 300 * time.Millisecond
	code, rows, took := stoppedSweep(t, explore.ErrInterrupted)
	want := "interrupted after 300 states (no report within 300ms of the signal: killed)"
	if code != trace.ExitUnknown || took > 20*time.Second || rows[0].Reason != want || rows[0].States != 300 || rows[1].Reason != want {
		t.Errorf("exit %d after %v, rows %+v; want 3 soon and rows %q", code, took, rows, want)
	}
}

// A check that the sweep was stopped before it started is unknown, not an
// error.
func TestSweepStoppedBeforeCheckStarts(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(explore.ErrTerminated)
	o := sweepOptions{model: sweepModel(t)}
	r := o.checkOne(ctx, combination{{"A", "1"}})
	if r.Verdict != trace.Unknown || r.Reason != "terminated (not started)" || r.code != trace.ExitUnknown || r.figures {
		t.Errorf("row %+v, want unknown: terminated (not started), no figures", r)
	}
}
