package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"ftmc/trace"
)

// TestSignalsEndWithVerdict: SIGTERM, as SIGINT, stops a check with the
// verdict unknown, its reason and its statistics, and exit code 3, instead
// of killing the process at once.
func TestSignalsEndWithVerdict(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	model := growModel(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		word string
	}{{syscall.SIGTERM, "terminated"}, {syscall.SIGINT, "interrupted"}} {
		cmd := exec.Command(exe, "check", model, "--memory", "0")
		cmd.Env = append(os.Environ(), "FTMC_AS_MAIN=1", progressEnv+"=50ms")
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The first progress line says the search runs (and the signal
		// handler is in place).
		lines := bufio.NewScanner(stderr)
		if !lines.Scan() {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%v: no progress line", tc.sig)
		}
		cmd.Process.Signal(tc.sig)
		go func() {
			for lines.Scan() {
			}
		}()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: the check did not stop", tc.sig)
		}
		out := stdout.String()
		if code := cmd.ProcessState.ExitCode(); code != trace.ExitUnknown {
			t.Errorf("%v: exit %d, want %d:\n%s", tc.sig, code, trace.ExitUnknown, out)
		}
		if !strings.Contains(out, "safety: unknown: "+tc.word+" after ") || !strings.Contains(out, "states, stored") {
			t.Errorf("%v: want the verdict unknown (%s) and the statistics:\n%s", tc.sig, tc.word, out)
		}
	}
}
