package main

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"ftmc/trace"
)

// TestSignalsEndWithVerdict: SIGTERM, as SIGINT, stops a check with the
// verdict unknown, its reason and its statistics, and exit code 3, instead
// of killing the process at once. (TestSignalEveryEngine sends SIGINT to
// every engine.)
func TestSignalsEndWithVerdict(t *testing.T) {
	model := growModel(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		word string
	}{{syscall.SIGTERM, "terminated"}, {syscall.SIGINT, "interrupted"}} {
		r := runChild(t, []string{"check", model, "--memory", "0"}, tc.sig, 300*time.Millisecond, false)
		if r.code != trace.ExitUnknown {
			t.Errorf("%v: exit %d, want %d:\n%s", tc.sig, r.code, trace.ExitUnknown, r.stdout)
		}
		if !strings.Contains(r.stdout, "safety: unknown: "+tc.word+" after ") || !strings.Contains(r.stdout, "states, stored") {
			t.Errorf("%v: want the verdict unknown (%s) and the statistics:\n%s", tc.sig, tc.word, r.stdout)
		}
	}
}
