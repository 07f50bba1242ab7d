package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ftmc/explore"
	"ftmc/state"
	"ftmc/trace"
)

// tokenRing is a test model: n nodes pass a token; the node holding it may
// also stop, after which nothing moves. With stopOK the stopped state is a
// valid end; without, it is a deadlock, reached in one step.
type tokenRing struct {
	n      int
	stopOK bool
	buf    [2]byte
}

func (r *tokenRing) Name() string                    { return "ring.go" }
func (r *tokenRing) Initial(emit func([]byte)) error { emit([]byte{0, 0}); return nil }
func (r *tokenRing) ValidEnd([]byte) bool            { return r.stopOK }
func (r *tokenRing) Fork() state.Model               { q := *r; return &q }

func (r *tokenRing) Next(s []byte, sink state.Sink) {
	if s[1] == 1 {
		return
	}
	r.buf = [2]byte{byte((int(s[0]) + 1) % r.n), 0}
	sink.Succ(state.Trans{Proc: int32(s[0]), ID: 0}, r.buf[:])
	r.buf = [2]byte{s[0], 1}
	sink.Succ(state.Trans{Proc: int32(s[0]), ID: 1}, r.buf[:])
}

func (r *tokenRing) Explain(t state.Trans, from, to []byte) trace.Step {
	return trace.Step{Pid: int(t.Proc), Proc: "node", File: "ring.pml", Line: 3 + int(t.ID), Stmt: [...]string{"pass", "stop"}[t.ID]}
}

func (r *tokenRing) Decode(s []byte) []trace.Var {
	return []trace.Var{{Name: "token", Value: strconv.Itoa(int(s[0]))}, {Name: "stopped", Value: strconv.Itoa(int(s[1]))}}
}

func runExplicitArgs(t *testing.T, m state.Model, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &out, stderr: &errb}
	var opts explicitOptions
	fs := newFlags("check", &errb)
	opts.register(fs)
	if _, err := parseArgs(fs, args); err != nil {
		t.Fatal(err)
	}
	code := runExplicit(e, m, opts, &trace.Report{Model: m.Name()})
	return code, out.String(), errb.String()
}

func TestRunExplicitText(t *testing.T) {
	code, out, _ := runExplicitArgs(t, &tokenRing{n: 3})
	if code != trace.ExitViolated {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"State-vector 2 byte, depth reached 1",
		"safety: violated (invalid end state)\n",
		"counterexample: invalid end state (1 step)\ninitial state:\n\ttoken = 0\n\tstopped = 0\n  1: node(0) ring.pml:4 [stop]\n\tstopped = 1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestRunExplicitHolds(t *testing.T) {
	for _, order := range []string{"--bfs", "--dfs"} {
		code, out, _ := runExplicitArgs(t, &tokenRing{n: 4, stopOK: true}, order, "--quiet")
		if code != trace.ExitHolds || out != "safety: holds\n" {
			t.Errorf("%s: exit %d, output %q", order, code, out)
		}
	}
}

func TestRunExplicitJSONAndTrail(t *testing.T) {
	trail := filepath.Join(t.TempDir(), "r.json")
	code, out, _ := runExplicitArgs(t, &tokenRing{n: 5}, "--json", "--dfs", "--trail", trail)
	if code != trace.ExitViolated {
		t.Fatalf("exit %d", code)
	}
	var rep trace.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if rep.Engine != "explicit dfs" || len(rep.Verdicts) != 1 || rep.Verdicts[0].Counterexample == nil || rep.Stats.States < 1 {
		t.Errorf("report %+v", rep)
	}
	data, err := os.ReadFile(trail)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := trace.ParseReport(trail, data)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Verdicts[0].Counterexample.Kind != state.KindInvalidEnd {
		t.Errorf("trail %+v", saved.Verdicts[0])
	}
}

func TestRunExplicitUsage(t *testing.T) {
	code, _, errs := runExplicitArgs(t, &tokenRing{n: 3}, "--bfs", "--dfs")
	if code != trace.ExitUsage || !strings.Contains(errs, "--bfs and --dfs exclude each other") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestRunExplicitDepthLimitIsUnknown(t *testing.T) {
	code, out, _ := runExplicitArgs(t, &tokenRing{n: 50, stopOK: true}, "--depth", "10", "--quiet")
	if code != trace.ExitUnknown || !strings.HasPrefix(out, "safety: unknown: depth limit 10 reached") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestRunExplicitParallel(t *testing.T) {
	code, out, _ := runExplicitArgs(t, &tokenRing{n: 40}, "-j", "2", "--json")
	var rep trace.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if code != trace.ExitViolated || rep.Verdicts[0].Kind != state.KindInvalidEnd || len(rep.Verdicts[0].Counterexample.Steps) != 1 {
		t.Errorf("exit %d, report %+v", code, rep.Verdicts)
	}
	if code, _, errs := runExplicitArgs(t, &tokenRing{n: 3}, "-j", "0"); code != trace.ExitUsage || !strings.Contains(errs, "-j 0: expected 1 to 16 workers") {
		t.Errorf("-j 0: exit %d, %q", code, errs)
	}
}

// fixedMemory makes the default memory limit of a check limit bytes (of
// "physical memory"), shared among jobs.
func fixedMemory(t *testing.T, limit int64) {
	old := defaultMemoryLimit
	t.Cleanup(func() { defaultMemoryLimit = old })
	defaultMemoryLimit = func(jobs int) (int64, string) {
		if jobs > 1 {
			return limit / int64(jobs), fmt.Sprintf("85%% of physical memory shared by %d jobs", jobs)
		}
		return limit, "85% of physical memory"
	}
}

// TestRunExplicitDefaultMemoryLimit: without --memory a search stops at
// the machine's default and says so; --memory 0 is no limit.
func TestRunExplicitDefaultMemoryLimit(t *testing.T) {
	fixedMemory(t, 1e6)
	code, out, _ := runExplicitArgs(t, &tokenRing{n: 50, stopOK: true}, "--quiet")
	if code != trace.ExitUnknown || !strings.HasPrefix(out, "safety: unknown: memory limit 1 MB (85% of physical memory) reached after ") {
		t.Errorf("default: exit %d, %q; want 3 and the default limit", code, out)
	}
	code, out, _ = runExplicitArgs(t, &tokenRing{n: 50, stopOK: true}, "--quiet", "--memory", "2MB")
	if code != trace.ExitUnknown || !strings.HasPrefix(out, "safety: unknown: memory limit 2 MB reached after ") {
		t.Errorf("--memory 2MB: exit %d, %q", code, out)
	}
	code, out, _ = runExplicitArgs(t, &tokenRing{n: 50, stopOK: true}, "--quiet", "--memory", "0")
	if code != trace.ExitHolds || out != "safety: holds\n" {
		t.Errorf("--memory 0: exit %d, %q; want no limit", code, out)
	}
}

// TestProgressLines: the progress lines a check writes for ftmc sweep
// read back as they were written.
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	writeProgress(&b, explore.Progress{States: 12345, Transitions: 67890, Depth: 17, MemoryBytes: 4e9, Elapsed: 1500 * time.Millisecond})
	writeProgress(&b, explore.Progress{States: 23456, Transitions: 78901, Depth: 18, MemoryBytes: 5e9, Elapsed: 2500 * time.Millisecond})
	b.WriteString("fatal error: out of memory\n")
	p := readProgress(b.String())
	if p.States != 23456 || p.Transitions != 78901 || p.Depth != 18 || p.MemoryBytes != 5e9 || p.Elapsed != 2500*time.Millisecond {
		t.Errorf("read back %+v from\n%s", p, b.String())
	}
	for _, tc := range []struct {
		env  string
		want time.Duration
	}{{"", 0}, {"1", time.Second}, {"250ms", 250 * time.Millisecond}, {"no", 0}, {"-1s", 0}} {
		t.Setenv(progressEnv, tc.env)
		if got := progressLines(); got != tc.want {
			t.Errorf("%s=%q: every %v, want %v", progressEnv, tc.env, got, tc.want)
		}
	}
}
