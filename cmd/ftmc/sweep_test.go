package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ftmc/trace"
)

// fakeCheck answers check command lines like a model whose verdict depends
// on its macros: CHAN=B deadlocks, CHAN=R overflows, CHAN=I holds; BUF=x
// gives 1000*x states. It records the command lines it saw.
type fakeCheck struct {
	mu      sync.Mutex
	seen    []string
	running atomic.Int32
	most    atomic.Int32
	gate    chan struct{} // when set, every run waits for it
}

func (f *fakeCheck) check(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	n := f.running.Add(1)
	defer f.running.Add(-1)
	for {
		m := f.most.Load()
		if n <= m || f.most.CompareAndSwap(m, n) {
			break
		}
	}
	if f.gate != nil {
		<-f.gate
	}
	f.mu.Lock()
	f.seen = append(f.seen, strings.Join(args, " "))
	f.mu.Unlock()
	defs := map[string]string{}
	for i, a := range args {
		if a == "-D" {
			k, v, _ := strings.Cut(args[i+1], "=")
			defs[k] = v
		}
	}
	if defs["CHAN"] == "X" {
		fmt.Fprintf(stderr, "model.pml:12:5: CHAN must be B, R or I\nmore\n")
		return trace.ExitUsage
	}
	var buf int64 = 1
	fmt.Sscan(defs["BUF"], &buf)
	res := trace.Result{Property: "safety", Verdict: trace.Holds}
	switch defs["CHAN"] {
	case "B":
		res = trace.Result{Property: "safety", Verdict: trace.Violated, Kind: "invalid end state",
			Counterexample: &trace.Counterexample{Kind: "invalid end state", LoopStart: -1, Steps: make([]trace.Step, 7)}}
	case "R":
		res = trace.Result{Property: "safety", Verdict: trace.Violated, Kind: "assertion",
			Counterexample: &trace.Counterexample{Kind: "assertion", LoopStart: -1, Steps: make([]trace.Step, 3)}}
	case "T":
		res = trace.Result{Property: "safety", Verdict: trace.Unknown, Reason: "time limit 1s reached after 5 states"}
	}
	rep := &trace.Report{Model: "model.pml", Verdicts: []trace.Result{res},
		Stats: trace.Stats{States: 1000 * buf, Transitions: 2500 * buf, Seconds: 0.5, MemoryBytes: 3e6, Complete: res.Verdict == trace.Holds}}
	trace.WriteJSON(stdout, rep)
	return trace.ExitCode(rep.Verdicts)
}

func sweepModel(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "model.pml")
	if err := os.WriteFile(path, []byte("init { skip }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runSweep(t *testing.T, f *fakeCheck, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}
	code := sweep(e, args, f.check)
	return stdout.String(), stderr.String(), code
}

func TestSweepCrossProductInOrder(t *testing.T) {
	f := &fakeCheck{}
	model := sweepModel(t)
	out, errs, code := runSweep(t, f, model, "-D", "CHAN=B,R,I", "-DBUF=1,2", "-D", "N=3", "--time", "1m")
	if code != trace.ExitViolated {
		t.Errorf("exit code = %d, want %d (a combination is violated)\n%s", code, trace.ExitViolated, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2+6 {
		t.Fatalf("want the model, a header and 6 rows:\n%s", out)
	}
	if !strings.HasPrefix(lines[1], "CHAN  BUF  N  verdict") {
		t.Errorf("header = %q", lines[1])
	}
	want := []string{
		"B     1    3  violated  invalid end state  1000  2500  7",
		"B     2    3  violated  invalid end state  2000  5000  7",
		"R     1    3  violated  assertion          1000  2500  3",
		"R     2    3  violated  assertion          2000  5000  3",
		"I     1    3  holds                        1000  2500",
		"I     2    3  holds                        2000  5000",
	}
	for i, w := range want {
		if got := strings.Join(strings.Fields(lines[2+i]), " "); !strings.HasPrefix(got, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("row %d = %q, want it to start with %q", i+1, lines[2+i], w)
		}
	}
	if len(f.seen) != 6 {
		t.Fatalf("ran %d checks, want 6", len(f.seen))
	}
	if got, want := f.seen[1], "check "+model+" --json -D CHAN=B -D BUF=2 -D N=3 --time 1m0s"; got != want {
		t.Errorf("second check = %q, want %q", got, want)
	}
}

func TestSweepParallelKeepsOrder(t *testing.T) {
	f := &fakeCheck{gate: make(chan struct{})}
	model := sweepModel(t)
	go func() {
		// Let the runs go once two of them are running at once (or after
		// a while, and the test fails).
		deadline := time.Now().Add(10 * time.Second)
		for f.most.Load() < 2 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		close(f.gate)
	}()
	out, _, code := runSweep(t, f, model, "-D", "CHAN=I,B,R", "-D", "BUF=1,2", "-j", "2", "--csv")
	if code != trace.ExitViolated {
		t.Errorf("exit code = %d", code)
	}
	if f.most.Load() != 2 {
		t.Errorf("%d checks ran at once with -j 2, want 2", f.most.Load())
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 7 {
		t.Fatalf("csv has %d records, want a header and 6 rows:\n%s", len(recs), out)
	}
	if strings.Join(recs[0][:5], ",") != "CHAN,BUF,verdict,kind,reason" {
		t.Errorf("csv header = %v", recs[0])
	}
	var order []string
	for _, r := range recs[1:] {
		order = append(order, r[0]+r[1]+":"+r[2])
	}
	if got, want := strings.Join(order, " "), "I1:holds I2:holds B1:violated B2:violated R1:violated R2:violated"; got != want {
		t.Errorf("rows = %s, want %s", got, want)
	}
}

func TestSweepJSONAndTrails(t *testing.T) {
	f := &fakeCheck{}
	model := sweepModel(t)
	dir := filepath.Join(t.TempDir(), "trails")
	out, _, code := runSweep(t, f, model, "-D", "CHAN=B,I", "--json", "--trails", dir)
	if code != trace.ExitViolated {
		t.Errorf("exit code = %d", code)
	}
	var got struct {
		Model  string
		Macros []string
		Rows   []sweepRow
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(got.Rows) != 2 || got.Rows[0].Verdict != trace.Violated || got.Rows[0].Depth != 7 || got.Rows[1].Verdict != trace.Holds || !got.Rows[1].Complete {
		t.Errorf("rows = %+v", got.Rows)
	}
	if got.Rows[0].Defines["CHAN"] != "B" || got.Rows[0].StatesPerSec != 2000 {
		t.Errorf("first row = %+v", got.Rows[0])
	}
	data, err := os.ReadFile(filepath.Join(dir, "model_CHAN=B.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := trace.ParseReport("trail", data)
	if err != nil || rep.Verdicts[0].Counterexample == nil {
		t.Errorf("trail: %v %+v", err, rep)
	}
}

func TestSweepErrorsAndUnknown(t *testing.T) {
	f := &fakeCheck{}
	model := sweepModel(t)
	out, errs, code := runSweep(t, f, model, "-D", "CHAN=I,X")
	if code != trace.ExitUsage {
		t.Errorf("exit code = %d, want 2 for a combination that is bad input", code)
	}
	if !strings.Contains(out, "model.pml:12:5: CHAN must be B, R or I") || !strings.Contains(errs, "CHAN=X: model.pml:12:5") {
		t.Errorf("the failing combination does not say why:\n%s\n%s", out, errs)
	}
	out, _, code = runSweep(t, f, model, "-D", "CHAN=I,T")
	if code != trace.ExitUnknown || !strings.Contains(out, "time limit 1s ") || strings.Contains(out, "reached after") {
		t.Errorf("unknown run: code %d (the text table says which limit, its states column how far)\n%s", code, out)
	}
	out, _, _ = runSweep(t, f, model, "-D", "CHAN=T", "--csv")
	if !strings.Contains(out, "time limit 1s reached after") {
		t.Errorf("the CSV lost the reason of an unknown run:\n%s", out)
	}
	for _, args := range [][]string{
		{},
		{model, "-D", "CHAN=B,,R"},
		{model, "--csv", "--json"},
		{model, "-j", "0"},
		{filepath.Join(t.TempDir(), "missing.pml")},
		{model, model},
	} {
		if _, _, code := runSweep(t, f, args...); code != trace.ExitUsage {
			t.Errorf("sweep %q: exit code %d, want 2", args, code)
		}
	}
}

func TestSweepWithoutMacros(t *testing.T) {
	f := &fakeCheck{}
	out, _, code := runSweep(t, f, sweepModel(t))
	if code != trace.ExitHolds || len(f.seen) != 1 || !strings.Contains(out, "holds") {
		t.Errorf("a sweep without -D is one check: code %d, %d checks\n%s", code, len(f.seen), out)
	}
}

// TestMain lets the test binary stand in for ftmc when a sweep runs its
// checks as child processes (FTMC_AS_MAIN=1).
func TestMain(m *testing.M) {
	if os.Getenv("FTMC_AS_MAIN") == "1" {
		os.Exit(run(&env{ctx: context.Background(), stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// TestSweepChildProcesses runs the checks of a sweep as processes of their
// own, on a Promela model.
func TestSweepChildProcesses(t *testing.T) {
	t.Setenv("FTMC_AS_MAIN", "1")
	model := filepath.Join(t.TempDir(), "count.pml")
	src := "byte x;\nactive proctype P() { do :: x < N -> x++; assert(x != BAD) :: x == N -> break od }\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}
	code := sweep(e, []string{model, "-D", "N=3,5", "-D", "BAD=4,9", "--json", "-j", "2"}, nil)
	var got struct{ Rows []sweepRow }
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("exit %d, %v:\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	want := []trace.Verdict{trace.Holds, trace.Holds, trace.Violated, trace.Holds}
	if code != trace.ExitViolated || len(got.Rows) != 4 {
		t.Fatalf("exit %d, rows %+v\n%s", code, got.Rows, stderr.String())
	}
	for i, r := range got.Rows {
		if r.Verdict != want[i] || r.States == 0 || r.MemoryBytes == 0 {
			t.Errorf("row %d = %+v, want verdict %s with states and memory", i, r, want[i])
		}
	}
}
