package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// budgetEngine is a run of one engine that goes on well past the limits of
// the budget tests, with what its report is expected to show once a limit
// or an interrupt stops it.
type budgetEngine struct {
	name string
	args []string
	// states: the engine counts states, and a stopped run has found some.
	states bool
	// memory: the run's Go memory grows past 50 MB. The SMT-based
	// engines keep theirs in the solver, which the budget counts with
	// ftmc's (explore.Budget).
	memory bool
	// solver: the engine runs z3, which must be gone once ftmc is.
	solver bool
	// shared: the model is one of ../shared (testenv.Shared).
	shared bool
}

// budgetEngines are the long runs of every engine: models written here,
// or the hard ones of ../shared.
func budgetEngines(t *testing.T) []budgetEngine {
	// A chain of a billion states; its negated property <>(x < 0) has no
	// sink, so the nested depth-first search checks it.
	chain := writeModel(t, "chain.pml", "int x;\nactive proctype P() { do :: x < 1000000000 -> x++ od }\n")
	chainLTL := writeModel(t, "chain-ltl.pml", "int x;\nactive proctype P() { do :: x < 1000000000 -> x++ od }\nltl p { <> (x < 0) }\n")
	stByz := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz.ta")
	engines := []budgetEngine{
		{name: "explicit", args: []string{"check", chain}, states: true, memory: true},
		{name: "ltl", args: []string{"check", chainLTL, "--ltl", "p"}, states: true, memory: true},
		{name: "ta-instance", args: []string{"check", stByz, "--param", "N=600,T=199,F=199", "relay"}, states: true, memory: true},
	}
	shared := filepath.Join(testenv.RepoRoot(t), "..", "shared")
	seed := filepath.Join(shared, "seeds", "002_89f49e16422360b2.txt")
	return append(engines,
		// Termination of ByMC's cc derived from Promela, case 4 (2,105
		// rules): its schema queries take seconds each, where cc_case1's
		// termination ends in half a second.
		budgetEngine{name: "ta-schema", args: []string{"verify", filepath.Join(testenv.RepoRoot(t), "ta", "testdata", "taco", "benchmarks", "TACO", "isola18", "promela", "cc_case4.ta"), "termination"}, solver: true},
		budgetEngine{name: "parametric-promela", args: []string{"verify", filepath.Join(shared, "benchmarks", "bymc", "isola18", "promela", "c1cs.pml"), "termination"}, solver: true, shared: true},
		budgetEngine{name: "backreach", args: []string{"verify", "--lang", "mcmt", seed, "--brab", "0"}, states: true, solver: true, shared: true},
		budgetEngine{name: "mcmt-bounded", args: []string{"verify", "--lang", "mcmt", seed, "--bounded", "5"}, states: true, memory: true, shared: true},
	)
}

// need skips t, or fails it under CI=true, when the engine's model or
// solver is missing.
func (e budgetEngine) need(t *testing.T) {
	t.Helper()
	if e.shared {
		testenv.Shared(t)
	}
	if e.solver {
		testenv.NeedBinary(t, "z3")
	}
}

// childRun is what runChild saw of a run of ftmc as a child process.
type childRun struct {
	code           int
	rep            *trace.Report // nil when stdout is not one JSON report
	stdout, stderr string
	wall           time.Duration
	maxRSS         int64 // bytes: the child's, or a solver's it waited for when larger
	solvers        []int // the solver processes (z3, cvc5) it was seen to run
}

// runChild runs ftmc (this test binary, FTMC_AS_MAIN=1) with args and,
// when sig is not 0, sends it sig once after has passed and, with
// waitSolver, a solver process of it has been seen. A run that has not
// ended after 20 s is killed and fails t: that is a hang, not slowness.
func runChild(t *testing.T, args []string, sig syscall.Signal, after time.Duration, waitSolver bool) childRun {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "FTMC_AS_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	seen := map[int]bool{}
	var r childRun
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	hang := time.After(20 * time.Second)
	sent := sig == 0
wait:
	for {
		select {
		case <-done:
			break wait
		case <-hang:
			cmd.Process.Kill()
			<-done
			t.Fatalf("ftmc %s did not end within 20 s:\n%.2000s", strings.Join(args, " "), stderr.String())
		case <-tick.C:
			for _, pid := range solverChildren(cmd.Process.Pid) {
				if !seen[pid] {
					seen[pid] = true
					r.solvers = append(r.solvers, pid)
				}
			}
			if !sent && time.Since(start) >= after && (!waitSolver || len(seen) > 0) {
				cmd.Process.Signal(sig)
				sent = true
			}
		}
	}
	r.wall = time.Since(start)
	r.code = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = ru.Maxrss * 1024
	}
	r.stdout, r.stderr = stdout.String(), stderr.String()
	var rep trace.Report
	if json.Unmarshal(stdout.Bytes(), &rep) == nil {
		r.rep = &rep
	}
	return r
}

// solverChildren are the processes named z3 or cvc5 whose parent is pid.
func solverChildren(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(s[close+1:])
		if len(f) < 2 || f[1] != strconv.Itoa(pid) {
			continue
		}
		if comm := s[open+1 : close]; comm == "z3" || comm == "cvc5" {
			pids = append(pids, n)
		}
	}
	return pids
}

// stopped checks the report of a run that a limit or an interrupt stopped:
// exit 3, the last verdict unknown with a reason that starts with why,
// with its statistics (states found, for an engine that counts them), and
// no holds for a property whose search was not complete; and the solver
// processes it was seen to start gone. It returns the stopped verdict's
// statistics.
func stopped(t *testing.T, e budgetEngine, r childRun, why string) trace.Stats {
	t.Helper()
	if r.rep == nil || len(r.rep.Verdicts) == 0 {
		t.Fatalf("exit %d, no report:\n%.2000s\n%.2000s", r.code, r.stdout, r.stderr)
	}
	if r.code != trace.ExitUnknown {
		t.Errorf("exit %d, want %d", r.code, trace.ExitUnknown)
	}
	for _, v := range r.rep.Verdicts {
		if v.Verdict == trace.Holds && v.Stats != nil && !v.Stats.Complete {
			t.Errorf("%s holds after an incomplete search: %+v", v.Property, v.Stats)
		}
	}
	last := r.rep.Verdicts[len(r.rep.Verdicts)-1]
	if last.Verdict != trace.Unknown || !strings.HasPrefix(last.Reason, why) {
		t.Errorf("%s: %s, want unknown: %s...", last.Property, describe(last), why)
	}
	st := r.rep.Stats
	if last.Stats != nil {
		st = *last.Stats
	}
	if st.Complete {
		t.Errorf("%s: the statistics say the search is complete: %+v", last.Property, st)
	}
	if e.states && st.States == 0 {
		t.Errorf("%s: no states in the statistics of the stopped search: %+v", last.Property, st)
	}
	if len(r.solvers) > 0 {
		testenv.SolversGone(t, r.solvers)
	}
	return st
}

// TestBudgetTimeEveryEngine: --time 1s ends a long run of every engine
// with verdict unknown, the time limit as the reason and the statistics
// reached; the overrun past the limit is logged (it is about 10 ms; the
// test fails only on a run that does not end at all).
func TestBudgetTimeEveryEngine(t *testing.T) {
	for _, e := range budgetEngines(t) {
		t.Run(e.name, func(t *testing.T) {
			e.need(t)
			r := runChild(t, append(e.args, "--time", "1s", "--json"), 0, 0, false)
			t.Logf("ftmc %s --time 1s: %v wall, %v past the limit", strings.Join(e.args, " "), r.wall.Round(time.Millisecond), (r.wall - time.Second).Round(time.Millisecond))
			stopped(t, e, r, "time limit 1s reached")
		})
	}
}

// TestBudgetMemoryEveryEngine: --memory 50MB ends a long run of every
// engine whose memory grows with verdict unknown, the memory limit as the
// reason and the statistics reached, with a memory peak (the largest
// resident set of the process, which the kernel counts) within 25% of the
// limit.
// solverShare reads the memory in use and the solvers' share of it from
// the reason of a memory limit reached while solvers ran.
var solverShare = regexp.MustCompile(`\(([0-9.]+) MB in use, ([0-9.]+) MB of it in solver processes\)`)

func TestBudgetMemoryEveryEngine(t *testing.T) {
	const limit = 50e6
	for _, e := range budgetEngines(t) {
		t.Run(e.name, func(t *testing.T) {
			e.need(t)
			r := runChild(t, append(e.args, "--memory", "50MB", "--json"), 0, 0, false)
			st := stopped(t, e, r, "memory limit 50 MB reached")
			reported := max(st.MemoryBytes, r.rep.Stats.MemoryBytes)
			// The solvers' share, which the reason gives when they hold
			// some, counts with ftmc's own.
			var inUse, solvers float64
			last := r.rep.Verdicts[len(r.rep.Verdicts)-1]
			if m := solverShare.FindStringSubmatch(last.Reason); m != nil {
				inUse, _ = strconv.ParseFloat(m[1], 64)
				solvers, _ = strconv.ParseFloat(m[2], 64)
				inUse, solvers = inUse*1e6, solvers*1e6
			}
			if !e.memory && solvers == 0 {
				t.Errorf("%s: the reason gives no solver share: %s", last.Property, last.Reason)
			}
			t.Logf("ftmc %s --memory 50MB: peak %s (the process's resident set), %s by the report, solvers %s, %v", strings.Join(e.args, " "),
				fmtMB(r.maxRSS), fmtMB(reported), fmtMB(int64(solvers)), r.wall.Round(time.Millisecond))
			if r.maxRSS > limit*5/4 {
				t.Errorf("memory peak %s, more than 25%% above the limit", fmtMB(r.maxRSS))
			}
			// With solvers, the budget's own figure when it stopped the run:
			// ftmc's Go memory and the solvers' own pages (not the pages of
			// the program text, which the resident set has).
			if inUse > limit*5/4 {
				t.Errorf("%s in use with the solvers' %s, more than 25%% above the limit", fmtMB(int64(inUse)), fmtMB(int64(solvers)))
			}
			if reported <= 0 || reported > limit*5/4 {
				t.Errorf("the report's memory figure is %s: want the peak, within 25%% of the limit", fmtMB(reported))
			}
		})
	}
}

// TestSignalEveryEngine: SIGINT ends a long run of every engine with
// verdict unknown (interrupted), the statistics reached and exit 3, and
// the solver processes it started are gone with it.
func TestSignalEveryEngine(t *testing.T) {
	for _, e := range budgetEngines(t) {
		t.Run(e.name, func(t *testing.T) {
			e.need(t)
			// The signal comes while a solver runs, for the engines that
			// have one.
			r := runChild(t, append(e.args, "--json"), syscall.SIGINT, 700*time.Millisecond, e.solver)
			t.Logf("ftmc %s, SIGINT: %v wall", strings.Join(e.args, " "), r.wall.Round(time.Millisecond))
			if e.solver && len(r.solvers) == 0 {
				t.Error("no solver process was seen")
			}
			stopped(t, e, r, "interrupted")
		})
	}
}

func fmtMB(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }
