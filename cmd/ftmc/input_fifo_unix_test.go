//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ftmc/explore"
	"ftmc/internal/testenv"
	"ftmc/trace"
)

// fifoDir is testenv.FIFOs.
var fifoDir = testenv.FIFOs

// runWithin runs ftmc with ctx in this process and fails the test if it
// does not end within 20 s (it hangs).
func runWithin(t *testing.T, ctx context.Context, args ...string) (string, string, int) {
	t.Helper()
	type result struct {
		out, errs string
		code      int
	}
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run(&env{ctx: ctx, stdout: &stdout, stderr: &stderr}, args)
		done <- result{stdout.String(), stderr.String(), code}
	}()
	select {
	case r := <-done:
		return r.out, r.errs, r.code
	case <-time.After(20 * time.Second):
		t.Fatalf("ftmc %s: still running after 20 s", strings.Join(args, " "))
		return "", "", 0
	}
}

// A model, an #include file or a report that is a FIFO without a writer
// does not hold a run up: at --time, or when the run is interrupted, it
// ends with unknown (exit 3), saying which file it was reading.
func TestInputFIFOStops(t *testing.T) {
	dir := fifoDir(t, "ff.pml", "ff.ta", "ff.cub", "ff.mcmt", "ff.json")
	ff := func(ext string) string { return filepath.Join(dir, "ff."+ext) }
	inc := filepath.Join(dir, "inc.pml")
	if err := os.WriteFile(inc, []byte("byte x;\n#include \"ff.pml\"\ninit { skip }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	timeLimit := "unknown: time limit 200ms reached while reading "
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", ff("pml"), "--time", "200ms"}, timeLimit + ff("pml") + "\n"},
		{[]string{"check", ff("pml"), "--time", "200ms", "--ltl-formula", "[] true"}, timeLimit + ff("pml") + "\n"},
		{[]string{"check", inc, "--time", "200ms"}, timeLimit + ff("pml") + " (#include at " + inc + ":2:10)\n"},
		{[]string{"check", ff("ta"), "--param", "N=4,T=1,F=1", "--time", "200ms"}, timeLimit + ff("ta") + "\n"},
		{[]string{"verify", ff("ta"), "--time", "200ms"}, timeLimit + ff("ta") + "\n"},
		{[]string{"verify", ff("cub"), "--time", "200ms"}, timeLimit + ff("cub") + "\n"},
		{[]string{"verify", ff("mcmt"), "--time", "200ms"}, timeLimit + ff("mcmt") + "\n"},
		// Without --time, a signal (here its cancellation of the run's
		// context) ends the reading.
		{[]string{"check", ff("pml")}, "unknown: terminated while reading " + ff("pml") + "\n"},
		{[]string{"trace", ff("json")}, "unknown: terminated while reading " + ff("json") + "\n"},
		{[]string{"verify", ff("cub")}, "unknown: terminated while reading " + ff("cub") + "\n"},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		timer := time.AfterFunc(300*time.Millisecond, func() { cancel(explore.ErrTerminated) })
		out, errs, code := runWithin(t, ctx, tc.args...)
		timer.Stop()
		cancel(nil)
		want := "ftmc " + tc.args[0] + ": " + tc.want
		if code != trace.ExitUnknown || errs != want || out != "" {
			t.Errorf("ftmc %s: exit %d, stdout %q, stderr %q; want 3 and %q", strings.Join(tc.args, " "), code, out, errs, want)
		}
	}
}

// A FIFO whose writer writes part of a model and never closes it: the
// reading ends at --time.
func TestInputFIFOWriterNeverCloses(t *testing.T) {
	dir := fifoDir(t, "ff.pml")
	fifo := filepath.Join(dir, "ff.pml")
	release := make(chan struct{})
	defer close(release)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		w.Write([]byte("init {\n"))
		<-release
	}()
	_, errs, code := runWithin(t, context.Background(), "check", fifo, "--time", "200ms")
	if want := "ftmc check: unknown: time limit 200ms reached while reading " + fifo + "\n"; code != trace.ExitUnknown || errs != want {
		t.Errorf("exit %d, stderr %q; want 3 and %q", code, errs, want)
	}
}

// A model in a FIFO that its writer closes is read as a file.
func TestInputFIFOModelRead(t *testing.T) {
	dir := fifoDir(t, "ff.pml")
	fifo := filepath.Join(dir, "ff.pml")
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w.Write([]byte("int x;\nactive proctype P() { x = 1; assert(x == 2) }\n"))
			w.Close()
		}
	}()
	out, errs, code := runWithin(t, context.Background(), "check", fifo, "--time", "20s", "--quiet")
	if code != trace.ExitViolated || !strings.Contains(out, "safety: violated (assertion)") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the assertion violated", code, out, errs)
	}
}

// A sweep reads its model once for each combination: a FIFO is refused.
func TestSweepFIFOModelRefused(t *testing.T) {
	fifo := filepath.Join(fifoDir(t, "ff.pml"), "ff.pml")
	f := &fakeCheck{}
	_, errs, code := runSweep(t, f, fifo, "-D", "CHAN=B,I")
	if code != trace.ExitUsage || len(f.seen) != 0 || !strings.Contains(errs, fifo+": not a regular file") {
		t.Errorf("exit %d after %d checks, stderr %q; want 2 before any", code, len(f.seen), errs)
	}
}
