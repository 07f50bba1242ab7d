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
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ftmc/explore"
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
	memory := ""
	for i, a := range args {
		if a == "--memory" {
			memory = args[i+1]
		}
	}
	switch defs["CHAN"] {
	case "X":
		fmt.Fprintf(stderr, "model.pml:12:5: CHAN must be B, R or I\nmore\n")
		return trace.ExitUsage
	case "OOM": // dies as a Go program out of memory does
		fmt.Fprint(stderr, "progress: states=1000 transitions=2000 depth=3 memory_bytes=5000000 seconds=1.000\n")
		fmt.Fprint(stderr, "progress: states=4000 transitions=9000 depth=5 memory_bytes=9000000 seconds=2.000\n")
		fmt.Fprint(stderr, "runtime: out of memory: cannot allocate 4194304-byte block (259620864 in use)\nfatal error: out of memory\n\ngoroutine 1 [running]:\n")
		return trace.ExitUsage
	case "KILL": // killed by the system
		fmt.Fprint(stderr, "progress: states=7000 transitions=8000 depth=9 memory_bytes=6000000 seconds=2.000\n")
		fmt.Fprint(stderr, "ftmc check: signal: killed\n")
		return exitKilled
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
	case "M":
		var limit byteSize
		limit.Set(memory)
		res = trace.Result{Property: "safety", Verdict: trace.Unknown, Reason: "memory limit " + explore.FormatBytes(int64(limit)) + " reached after 5 states"}
	case "D":
		res = trace.Result{Property: "safety", Verdict: trace.Unknown, Reason: "depth limit 10 reached after 5 states: deeper states were not explored"}
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
	fixedMemory(t, 8e9)
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
	if got, want := f.seen[1], "check "+model+" --json -D CHAN=B -D BUF=2 -D N=3 --time 1m0s --memory 8000000000B"; got != want {
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
	got, err := parseSweepJSON([]byte(out))
	if err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(got) != 2 || got[0].Verdict != trace.Violated || got[0].Depth != 7 || got[1].Verdict != trace.Holds || !got[1].Complete {
		t.Errorf("rows = %+v", got)
	}
	if got[0].Defines["CHAN"] != "B" || got[0].StatesPerSec != 2000 {
		t.Errorf("first row = %+v", got[0])
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
	if !strings.Contains(errs, "CHAN=X: model.pml:12:5: CHAN must be B, R or I") {
		t.Errorf("the failing combination does not say why:\n%s\n%s", out, errs)
	}
	out, _, code = runSweep(t, f, model, "-D", "CHAN=I,T")
	if code != trace.ExitUnknown || !strings.Contains(out, "time limit 1s ") || !strings.Contains(out, "\nCHAN=T: time limit 1s reached after 5 states\n") {
		t.Errorf("unknown run: code %d (the text table says which limit, its states column how far, and the reason below)\n%s", code, out)
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

// TestSweepTableColumns: what does not fit the kind column (errors, long
// reasons) goes below the table, and the columns stay aligned.
func TestSweepTableColumns(t *testing.T) {
	f := &fakeCheck{}
	out, errs, _ := runSweep(t, f, sweepModel(t), "-D", "CHAN=B,X,D,OOM,I", "--memory", "4GB")
	lines := strings.Split(out, "\n")
	if len(lines) < 7 {
		t.Fatalf("want a header and 5 rows:\n%s", out)
	}
	states := strings.Index(lines[1], "      states")
	for _, l := range []string{lines[2], lines[4], lines[5], lines[6]} {
		if len(l) < states+12 || l[states+11] != '0' {
			t.Errorf("row %q: its states column is not under the header's\n%s", l, out)
		}
	}
	if strings.TrimSpace(lines[3]) != "X     error" {
		t.Errorf("an error row has figures or a kind: %q\n%s", lines[3], out)
	}
	for _, want := range []string{
		"D     unknown   depth limit 10  ",
		"OOM   unknown   out of memory  ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the table:\n%s", want, out)
		}
	}
	if strings.Contains(lines[3], "CHAN must be") {
		t.Errorf("an error row carries its message in the kind column:\n%s", out)
	}
	if !strings.Contains(errs, "CHAN=X: model.pml:12:5: CHAN must be B, R or I") {
		t.Errorf("the error is not on stderr: %q", errs)
	}
	if !strings.Contains(out, "\n\nCHAN=D: depth limit 10 reached after 5 states: deeper states were not explored\nCHAN=OOM: out of memory after 4000 states") {
		t.Errorf("the reasons of unknown rows are not below the table:\n%s", out)
	}
}

// TestSweepDefines: each macro once, each value once; -D NAME is NAME=1.
func TestSweepDefines(t *testing.T) {
	model := sweepModel(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-D", "CHAN=B", "-D", "CHAN=R"}, "ftmc sweep: CHAN given twice: use -D CHAN=B,R\n"},
		{[]string{"-D", "CHAN=B,R", "-D", "BUF=1", "-DCHAN=I"}, "ftmc sweep: CHAN given twice: use -D CHAN=B,R,I\n"},
		{[]string{"-D", "CHAN=B,B"}, "ftmc sweep: -D CHAN=B,B: B given twice"},
		{[]string{"-D", "CHAN=B, R,R "}, "R given twice"},
		{[]string{"-D", "CHAN", "-D", "CHAN=1"}, "CHAN given twice: use -D CHAN=1,1"},
	} {
		f := &fakeCheck{}
		_, errs, code := runSweep(t, f, append([]string{model}, tc.args...)...)
		if code != trace.ExitUsage || !strings.Contains(errs, tc.want) || len(f.seen) != 0 {
			t.Errorf("sweep %q: exit %d, %d checks, stderr %q; want 2, no check and %q", tc.args, code, len(f.seen), errs, tc.want)
		}
	}
	f := &fakeCheck{}
	out, _, code := runSweep(t, f, model, "-D", "CHAN=I", "-D", "DEBUG")
	if code != trace.ExitHolds || len(f.seen) != 1 || !strings.Contains(f.seen[0], "-D CHAN=I -D DEBUG=1") || !strings.Contains(out, "CHAN  DEBUG") {
		t.Errorf("-D DEBUG: exit %d, checks %q\n%s", code, f.seen, out)
	}
}

// TestSweepFlagChecks: bad flags are one usage error before any check runs.
func TestSweepFlagChecks(t *testing.T) {
	model := sweepModel(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dfs", "--bfs"}, "--bfs and --dfs exclude each other"},
		{[]string{"--time", "-1s"}, "must not be negative"},
		{[]string{"--depth", "-3"}, "must not be negative"},
		{[]string{"--memory", "-1GB"}, "expected a size"},
		// 2^65 combinations: refused before any is made (they used to
		// fill memory first).
		{manyMacros(65), "more than 100000 combinations"},
	} {
		f := &fakeCheck{}
		out, errs, code := runSweep(t, f, append([]string{model, "-D", "CHAN=B,I"}, tc.args...)...)
		if code != trace.ExitUsage || !strings.Contains(errs, tc.want) || len(f.seen) != 0 || out != "" {
			t.Errorf("sweep %q: exit %d, %d checks, stderr %q, stdout %q; want 2, no check and %q", tc.args, code, len(f.seen), errs, out, tc.want)
		}
	}
}

// manyMacros is -D M1=1,2 ... -D Mn=1,2.
func manyMacros(n int) []string {
	var args []string
	for i := 1; i <= n; i++ {
		args = append(args, "-D", fmt.Sprintf("M%d=1,2", i))
	}
	return args
}

// TestSweepMemoryLimit: without --memory each check gets the machine's
// default divided among the checks that run at once; --memory 0 is no
// limit; a row stopped by the default says where it comes from.
func TestSweepMemoryLimit(t *testing.T) {
	fixedMemory(t, 8e9)
	model := sweepModel(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-D", "CHAN=B,I"}, "--memory 8000000000B"},
		{[]string{"-D", "CHAN=B,I,R", "-j", "2"}, "--memory 4000000000B"},
		{[]string{"-D", "CHAN=B,I", "-j", "8"}, "--memory 4000000000B"},
		{[]string{"-D", "CHAN=B,I", "--memory", "1GB"}, "--memory 1000000000B"},
		{[]string{"-D", "CHAN=B,I", "--memory", "0"}, "--memory 0"},
	} {
		f := &fakeCheck{}
		runSweep(t, f, append([]string{model}, tc.args...)...)
		for _, c := range f.seen {
			if !strings.HasSuffix(c, " "+tc.want) {
				t.Errorf("sweep %q ran %q, want %q", tc.args, c, tc.want)
			}
		}
	}
	f := &fakeCheck{}
	out, _, code := runSweep(t, f, model, "-D", "CHAN=M,I", "-j", "2", "--json")
	got, err := parseSweepJSON([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if want := "memory limit 4 GB (85% of physical memory shared by 2 jobs) reached after 5 states"; code != trace.ExitUnknown || got[0].Reason != want {
		t.Errorf("exit %d, reason %q, want 3 and %q", code, got[0].Reason, want)
	}
	out, _, _ = runSweep(t, f, model, "-D", "CHAN=M", "--memory", "2GB", "--csv")
	if !strings.Contains(out, "memory limit 2 GB reached after 5 states") {
		t.Errorf("a given limit is said as it is:\n%s", out)
	}
}

// TestSweepDiedChecks: a check that runs out of memory and dies, or is
// killed, is an unknown row that says so, with the figures of its last
// progress line.
func TestSweepDiedChecks(t *testing.T) {
	f := &fakeCheck{}
	out, errs, code := runSweep(t, f, sweepModel(t), "-D", "CHAN=OOM,KILL", "--json")
	got, err := parseSweepJSON([]byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if code != trace.ExitUnknown || len(got) != 2 || errs != "" {
		t.Fatalf("exit %d, rows %+v, stderr %q; want 3, two unknown rows and no error", code, got, errs)
	}
	oom, killed := got[0], got[1]
	if oom.Verdict != trace.Unknown || oom.Reason != "out of memory after 4000 states (the check died: fatal error: out of memory)" ||
		oom.States != 4000 || oom.Transitions != 9000 || oom.MemoryBytes != 9e6 || oom.Seconds != 2 || oom.StatesPerSec != 2000 || oom.Complete {
		t.Errorf("out of memory: %+v", oom)
	}
	if killed.Verdict != trace.Unknown || killed.Reason != "killed after 7000 states (signal: killed; likely the system out of memory)" || killed.States != 7000 {
		t.Errorf("killed: %+v", killed)
	}
}

func TestSweepWithoutMacros(t *testing.T) {
	f := &fakeCheck{}
	out, _, code := runSweep(t, f, sweepModel(t))
	if code != trace.ExitHolds || len(f.seen) != 1 || !strings.Contains(out, "holds") {
		t.Errorf("a sweep without -D is one check: code %d, %d checks\n%s", code, len(f.seen), out)
	}
}

// childSetup is what the test binary does before it stands in for ftmc
// (limits, deaths: the tests of a system's file set it).
var childSetup []func()

// TestMain lets the test binary stand in for ftmc when a sweep runs its
// checks as child processes (FTMC_AS_MAIN=1).
func TestMain(m *testing.M) {
	if os.Getenv("FTMC_AS_MAIN") == "1" {
		for _, f := range childSetup {
			f()
		}
		ctx, stop := signalContext()
		code := run(&env{ctx: ctx, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
		stop()
		os.Exit(code)
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
	got, err := parseSweepJSON(stdout.Bytes())
	if err != nil {
		t.Fatalf("exit %d, %v:\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	want := []trace.Verdict{trace.Holds, trace.Holds, trace.Violated, trace.Holds}
	if code != trace.ExitViolated || len(got) != 4 {
		t.Fatalf("exit %d, rows %+v\n%s", code, got, stderr.String())
	}
	for i, r := range got {
		if r.Verdict != want[i] || r.States == 0 || r.MemoryBytes == 0 {
			t.Errorf("row %d = %+v, want verdict %s with states and memory", i, r, want[i])
		}
	}
}

// TestSweepErrorNamesRow: a check that fails is reported with its
// combination, and without a name when the sweep has no -D.
func TestSweepErrorNamesRow(t *testing.T) {
	fail := func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		fmt.Fprintln(stderr, "m.pml:1:1: no process runs")
		return trace.ExitUsage
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "ftmc sweep: m.pml:1:1: no process runs\n"},
		{[]string{"-D", "N=1"}, "ftmc sweep: N=1: m.pml:1:1: no process runs\n"},
	} {
		var stdout, stderr bytes.Buffer
		e := &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}
		sweep(e, append([]string{sweepModel(t)}, c.args...), fail)
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("sweep %q: stderr %q, want %q", c.args, stderr.String(), c.want)
		}
	}
}

// parseSweepJSON reads what ftmc sweep --json prints, a JSON array of
// reports in the format of ftmc check --json, back into rows, so that the
// tests compare each row's figures.
func parseSweepJSON(data []byte) ([]sweepRow, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, err
	}
	rows := make([]sweepRow, len(raws))
	for i, raw := range raws {
		rep, err := trace.ParseReport(fmt.Sprintf("report %d", i+1), raw)
		if err != nil {
			return nil, err
		}
		if rep.Format != trace.FormatVersion {
			return nil, fmt.Errorf("report %d: format %q, want %q", i+1, rep.Format, trace.FormatVersion)
		}
		rows[i].Defines = rep.Defines
		rows[i].Params = rep.Params
		rows[i].fromReport(rep)
		if rep.Error != "" {
			rows[i].Verdict, rows[i].Reason = "error", rep.Error
		}
	}
	return rows, nil
}

// TestSweepParamsAndLTL: --param values are dimensions as -D values are,
// and the LTL flags go to each check.
func TestSweepParamsAndLTL(t *testing.T) {
	f := &fakeCheck{}
	model := sweepModel(t)
	out, errs, code := runSweep(t, f, model, "--param", "N=3,4,5", "-D", "CHAN=I", "--param", "T=1", "--memory", "1GB",
		"--ltl", "agree", "--fairness", "weak", "--assume", "fairness", "--json")
	if code != trace.ExitHolds || len(f.seen) != 3 {
		t.Fatalf("exit %d, checks %q, stderr %q; want 0 and 3 checks", code, f.seen, errs)
	}
	if got, want := f.seen[1], "check "+model+" --json --param N=4 -D CHAN=I --param T=1 --memory 1000000000B --ltl agree --fairness weak --assume fairness"; got != want {
		t.Errorf("second check = %q, want %q", got, want)
	}
	got, err := parseSweepJSON([]byte(out))
	if err != nil || len(got) != 3 {
		t.Fatalf("%v:\n%s", err, out)
	}
	for i, r := range got {
		if r.Params["N"] != int64(3+i) || r.Params["T"] != 1 || len(r.Params) != 2 || r.Defines["CHAN"] != "I" || len(r.Defines) != 1 {
			t.Errorf("row %d: params %v, defines %v; want N=%d T=1 and CHAN=I", i+1, r.Params, r.Defines, 3+i)
		}
	}
	out, _, _ = runSweep(t, &fakeCheck{}, model, "--param", "N=3,4,T=1", "--ltl-formula", "[]p", "--non-progress", "--assume", "a,b")
	if lines := strings.Split(out, "\n"); len(lines) < 4 || !strings.HasPrefix(lines[1], "N  T  verdict") || !strings.HasPrefix(lines[3], "4  1  holds") {
		t.Errorf("--param N=3,4,T=1: want columns N and T, rows 3 1 and 4 1:\n%s", out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--param", "N=a"}, `"a" is not an integer`},
		{[]string{"--param", "3,4"}, "expected NAME=V1,V2,..."},
		{[]string{"--param", "N=3", "--param", "N=4"}, "N given twice: use --param N=3,4"},
		{[]string{"--param", "N=3,T=1,N=4"}, "N given twice: use --param N=3,4"},
		{[]string{"--param", "N=3,3"}, "3 given twice"},
		{[]string{"--param", "N=3,,4"}, "without empty values"},
		{[]string{"-D", "N=1", "--param", "N=2"}, "N given as a macro (-D) and as a parameter (--param)"},
		{[]string{"--fairness", "strong"}, "--fairness strong: expected weak or none"},
		{[]string{"--assume", "a b"}, "is not a name"},
	} {
		f := &fakeCheck{}
		_, errs, code := runSweep(t, f, append([]string{model}, tc.args...)...)
		if code != trace.ExitUsage || !strings.Contains(errs, tc.want) || len(f.seen) != 0 {
			t.Errorf("sweep %q: exit %d, %d checks, stderr %q; want 2, no check and %q", tc.args, code, len(f.seen), errs, tc.want)
		}
	}
}

// TestSweepChildParams runs a parametric (ByMC) model with --param values
// and one LTL property under an assumption, each check in a process of its
// own.
func TestSweepChildParams(t *testing.T) {
	t.Setenv("FTMC_AS_MAIN", "1")
	var stdout, stderr bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}
	code := sweep(e, []string{"../../examples/bymc/fbc.pml", "--param", "N=2,3", "--ltl", "unforg", "--assume", "fairness", "--json", "--memory", "1GB"}, nil)
	var reps []trace.Report
	if err := json.Unmarshal(stdout.Bytes(), &reps); err != nil || code != trace.ExitHolds || len(reps) != 2 {
		t.Fatalf("exit %d, %v:\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	for i, rep := range reps {
		if rep.Params["N"] != int64(2+i) || len(rep.Verdicts) != 1 || rep.Verdicts[0].Property != "unforg" || rep.Verdicts[0].Verdict != trace.Holds || rep.Stats.States == 0 {
			t.Errorf("report %d: params %v, verdicts %+v, %d states; want N=%d, unforg holds alone, with states", i+1, rep.Params, rep.Verdicts, rep.Stats.States, 2+i)
		}
	}
}

// TestSweepInterruptedRows: a row whose check the interrupt stopped keeps
// the figures it reached; a row with no figures (not started, or stopped
// before its first progress line) says so and shows none, not 0 states;
// the rows after it are not started.
func TestSweepInterruptedRows(t *testing.T) {
	model := sweepModel(t)
	sweepStopped := func(args ...string) (string, int, int) {
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		runs := 0
		check := func(_ context.Context, args []string, stdout, stderr io.Writer) int {
			runs++
			if strings.Contains(strings.Join(args, " "), "A=1") {
				fmt.Fprint(stderr, "progress: states=1234 transitions=2345 depth=5 memory_bytes=7000000 seconds=2.000\n")
			}
			cancel(explore.ErrInterrupted)
			fmt.Fprintln(stderr, "ftmc check: signal: killed")
			return exitKilled
		}
		var stdout, stderr bytes.Buffer
		e := &env{ctx: ctx, stdout: &stdout, stderr: &stderr}
		code := sweep(e, append([]string{model}, args...), check)
		return stdout.String(), code, runs
	}
	out, code, runs := sweepStopped("-D", "A=1,2,3")
	lines := strings.Split(out, "\n")
	if code != trace.ExitUnknown || runs != 1 || len(lines) < 5 {
		t.Fatalf("exit %d, %d checks; want 3 and one check:\n%s", code, runs, out)
	}
	if got := strings.Fields(lines[2]); len(got) < 5 || got[1] != "unknown" || got[2] != "interrupted" || got[3] != "1234" || got[4] != "2345" {
		t.Errorf("the interrupted row lost its figures: %q\n%s", lines[2], out)
	}
	for _, l := range lines[3:5] {
		if got := strings.Join(strings.Fields(l), " "); got != l[:1]+" unknown interrupted" {
			t.Errorf("a row not started = %q, want %q: no figures", l, l[:1]+" unknown interrupted")
		}
	}
	if !strings.Contains(out, "\nA=1: interrupted after 1234 states (") || !strings.Contains(out, "\nA=2: interrupted (not started)\n") {
		t.Errorf("the reasons below the table:\n%s", out)
	}
	out, _, _ = sweepStopped("-D", "A=7")
	if l := strings.Split(out, "\n")[2]; strings.Join(strings.Fields(l), " ") != "7 unknown interrupted" || !strings.Contains(out, "\nA=7: interrupted (") || strings.Contains(out, "0 states") {
		t.Errorf("a check stopped before its first progress line shows figures it did not reach:\n%s", out)
	}
	out, _, _ = sweepStopped("-D", "A=7", "--csv")
	if recs, err := csv.NewReader(strings.NewReader(out)).ReadAll(); err != nil || len(recs) != 2 || recs[1][4] != "" || recs[1][5] != "" || recs[1][7] != "" {
		t.Errorf("the CSV of a row without figures: %v %q", err, recs)
	}
}

// syncBuffer is a bytes.Buffer that a sweep's progress line and the test
// use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSweepProgressLine: on a terminal the sweep draws the rows that run,
// with their time and the states of their last progress line, on one line
// of stderr redrawn in place and cleared at the end; without a terminal,
// or with --quiet, stderr stays empty.
func TestSweepProgressLine(t *testing.T) {
	defer func(d time.Duration) { sweepProgressEvery = d }(sweepProgressEvery)
	sweepProgressEvery = 5 * time.Millisecond
	progressSweep := func(terminal bool, args ...string) (string, string, int) {
		drawn := terminal && len(args) == 0
		var stdout bytes.Buffer
		var stderr syncBuffer
		check := func(ctx context.Context, args []string, out, errw io.Writer) int {
			fmt.Fprint(errw, "progress: states=4321 transitions=9000 depth=5 memory_bytes=7000000 seconds=1.000\n")
			if drawn {
				// Wait for the line that shows this row with its
				// states (or a while, and the test fails).
				row := "[1/2] CHAN=B "
				if strings.Contains(strings.Join(args, " "), "CHAN=I") {
					row = "[2/2] CHAN=I "
				}
				for deadline := time.Now().Add(10 * time.Second); !regexp.MustCompile(regexp.QuoteMeta(row)+`\S+ 4321 states`).MatchString(stderr.String()) && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
			} else {
				time.Sleep(50 * time.Millisecond) // several ticks
			}
			trace.WriteJSON(out, &trace.Report{Model: "model.pml", Verdicts: []trace.Result{{Property: "safety", Verdict: trace.Holds}}})
			return trace.ExitHolds
		}
		e := &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr, terminal: terminal}
		code := sweep(e, append([]string{sweepModel(t), "-D", "CHAN=B,I"}, args...), check)
		return stdout.String(), stderr.String(), code
	}
	out, errs, code := progressSweep(true)
	if code != trace.ExitHolds || strings.Count(out, "holds") != 2 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{`\r\033\[K\[1/2\] CHAN=B \d+s 4321 states 7 MB`, `\r\033\[K\[2/2\] CHAN=I \d+s 4321 states 7 MB`} {
		if !regexp.MustCompile(want).MatchString(errs) {
			t.Errorf("no %q in the progress line: %q", want, errs)
		}
	}
	if !strings.HasSuffix(errs, "\r\033[K") || strings.Contains(errs, "\n") {
		t.Errorf("the progress line is not one line, cleared at the end: %q", errs)
	}
	for _, args := range [][]string{nil, {"--json"}} {
		if _, errs, _ := progressSweep(false, args...); errs != "" {
			t.Errorf("sweep %q without a terminal: stderr %q, want nothing", args, errs)
		}
	}
	if _, errs, _ := progressSweep(true, "-q"); errs != "" {
		t.Errorf("sweep -q on a terminal: stderr %q, want nothing", errs)
	}
}

// TestSweepThresholdAutomaton: the specifications named after a .ta model
// go to each check, as check takes them; the flags a .ta check does not
// have (-D, the LTL flags) and specifications after a Promela model are
// one usage error before any check runs.
func TestSweepThresholdAutomaton(t *testing.T) {
	ta := filepath.Join(t.TempDir(), "m.ta")
	if err := os.WriteFile(ta, []byte("skel Proc {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &fakeCheck{}
	_, errs, code := runSweep(t, f, ta, "unforg", "corr", "--param", "N=4,5,T=1", "--memory", "1GB")
	if code != trace.ExitHolds || len(f.seen) != 2 || f.seen[1] != "check "+ta+" unforg corr --json --param N=5 --param T=1 --memory 1000000000B" {
		t.Errorf("exit %d, checks %q, stderr %q", code, f.seen, errs)
	}
	for _, args := range [][]string{
		{ta, "--param", "N=4", "-D", "X=1"},
		{ta, "--param", "N=4", "--ltl", "p"},
		{sweepModel(t), "unforg"},
	} {
		f := &fakeCheck{}
		if _, _, code := runSweep(t, f, args...); code != trace.ExitUsage || len(f.seen) != 0 {
			t.Errorf("sweep %q: exit %d, %d checks; want 2 and none", args, code, len(f.seen))
		}
	}

	t.Setenv("FTMC_AS_MAIN", "1")
	var stdout, stderr bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}
	code = sweep(e, []string{"../../examples/threshold/st-byz.ta", "unforg", "--param", "N=4,5,T=1,F=1", "--json", "--memory", "1GB"}, nil)
	var reps []trace.Report
	if err := json.Unmarshal(stdout.Bytes(), &reps); err != nil || code != trace.ExitHolds || len(reps) != 2 {
		t.Fatalf("exit %d, %v:\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	for i, rep := range reps {
		if rep.Params["N"] != int64(4+i) || len(rep.Verdicts) != 1 || rep.Verdicts[0].Property != "unforg" || rep.Verdicts[0].Verdict != trace.Holds {
			t.Errorf("report %d: params %v, verdicts %+v; want N=%d and unforg holds alone", i+1, rep.Params, rep.Verdicts, 4+i)
		}
	}
}

// TestSweepSharesCores: the checks a sweep runs at once share the cores:
// each gets -j with its part of them, so that sweep -j N does not start N
// checks of as many workers as there are cores each; a check that runs
// alone takes check's default.
func TestSweepSharesCores(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	for _, tc := range []struct {
		args []string
		want string // the -j of each check, "" for none
	}{
		{[]string{"-D", "CHAN=B,I"}, ""},
		{[]string{"-D", "CHAN=B,I", "-j", "2"}, fmt.Sprint(max(1, cores/2))},
		{[]string{"-D", "CHAN=B,I", "-j", "8"}, fmt.Sprint(max(1, cores/2))},
		{[]string{"-D", "CHAN=B,I,M", "-j", "3"}, fmt.Sprint(max(1, cores/3))},
		{[]string{"-D", "CHAN=I", "-j", "4"}, ""},
	} {
		f := &fakeCheck{}
		runSweep(t, f, append([]string{sweepModel(t)}, tc.args...)...)
		if len(f.seen) == 0 {
			t.Fatalf("sweep %q ran no check", tc.args)
		}
		for _, c := range f.seen {
			j := ""
			if _, rest, ok := strings.Cut(c, " -j "); ok {
				j, _, _ = strings.Cut(rest, " ")
			}
			if j != tc.want {
				t.Errorf("sweep %q ran %q: -j %q, want %q", tc.args, c, j, tc.want)
			}
		}
	}
}
