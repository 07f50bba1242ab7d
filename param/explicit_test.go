package param

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ftmc/explore"
	"ftmc/internal/testenv"
	"ftmc/state"
	"ftmc/ta"
	"ftmc/trace"
)

// fbcChain is examples/threshold/fbc.ta with a specification whose
// negation is a chain of two witnesses: some process accepts, and later
// some process crashes.
func fbcChain(t *testing.T) *ta.File {
	t.Helper()
	path := filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "fbc.ta")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(src), "specifications (4) {", "specifications (5) {\n    chain: [](AC == 0 || [](CR == 0));", 1)
	f, err := ta.Parse("fbc-chain.ta", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The counterexamples of the explicit search are shortest and name the
// rules, without the steps of the witness stages.
func TestExplicitShortest(t *testing.T) {
	f := fbcChain(t)
	vals := map[string]int64{"N": 2, "T": 1, "F": 1}
	for _, c := range []struct {
		spec, kind string
		rules      []string // what the steps' statements contain
		loop       int
	}{
		// Rule 0 (V1 -> AC), then a crash of the other process.
		{"chain", state.KindInvariant, []string{"V1 -> AC", "V1 -> CR"}, -1},
		// Both crash (sending), then the crashed stay crashed.
		{"corr", state.KindAcceptCycle, []string{"V1 -> CR", "V1 -> CR", "CR -> CR"}, 2},
	} {
		r, st := Explicit(t.Context(), f, c.spec, vals, explore.Options{})
		if r.Verdict != trace.Violated || r.Kind != c.kind || r.Counterexample == nil {
			t.Fatalf("%s: %s %s (%s)", c.spec, r.Verdict, r.Kind, r.Reason)
		}
		cx := r.Counterexample
		var got []string
		for i, s := range cx.Steps {
			got = append(got, s.Stmt)
			if s.Num != i+1 || s.Pid == advancePid || s.Line == 0 {
				t.Errorf("%s: step %+v", c.spec, s)
			}
		}
		if len(cx.Steps) != len(c.rules) || cx.LoopStart != c.loop || cx.Kind != c.kind || cx.Params["N"] != 2 || cx.Message != "" {
			t.Errorf("%s: %d steps %q, loop at %d, kind %s, params %v, message %q; want %d steps %q, loop at %d",
				c.spec, len(cx.Steps), got, cx.LoopStart, cx.Kind, cx.Params, cx.Message, len(c.rules), c.rules, c.loop)
			continue
		}
		for i, want := range c.rules {
			if !strings.Contains(cx.Steps[i].Stmt, want) {
				t.Errorf("%s: step %d is %q, want %s", c.spec, i+1, cx.Steps[i].Stmt, want)
			}
		}
		if c.loop >= 0 && cx.Steps[c.loop].Note != "loop: repeats forever" {
			t.Errorf("%s: loop step %+v", c.spec, cx.Steps[c.loop])
		}
		if len(cx.Steps[0].Changes) == 0 || st.States == 0 || st.Complete {
			t.Errorf("%s: first step %+v, stats %+v", c.spec, cx.Steps[0], st)
		}
	}
}

// A search cut short says unknown with the reason, and the figures of what
// it did.
func TestExplicitStopped(t *testing.T) {
	f := parse(t, filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz.ta"))
	small := map[string]int64{"N": 4, "T": 1, "F": 1}
	r, full := Explicit(t.Context(), f, "relay", small, explore.Options{})
	if r.Verdict != trace.Holds || !full.Complete || full.States == 0 {
		t.Fatalf("relay: %s (%s), %+v", r.Verdict, r.Reason, full)
	}
	for _, c := range []struct {
		name string
		opts explore.Options
		want string
	}{
		{"states", explore.Options{MaxStates: 10}, "state limit 10 reached"},
		{"time", explore.Options{TimeLimit: time.Nanosecond}, "time limit 1ns reached after 0 states"},
		{"memory", explore.Options{MemoryLimit: 1}, "memory limit 1 B reached after 0 states"},
	} {
		r, st := Explicit(t.Context(), f, "relay", small, c.opts)
		if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, c.want) || st.Complete {
			t.Errorf("%s: %s (%s), complete %v; want unknown: %s", c.name, r.Verdict, r.Reason, st.Complete, c.want)
		}
		if c.name == "states" && (st.States < 10 || st.States >= full.States || st.Transitions == 0) {
			t.Errorf("%s: %+v; want the figures of the part explored", c.name, st)
		}
	}
	// A large instance (1.4 million states), interrupted while it is
	// explored.
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	go func() { time.Sleep(50 * time.Millisecond); cancel(explore.ErrInterrupted) }()
	done := make(chan struct{})
	var st trace.Stats
	go func() {
		defer close(done)
		r, st = Explicit(ctx, f, "relay", map[string]int64{"N": 300, "T": 99, "F": 99}, explore.Options{})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the interrupted search did not stop")
	}
	if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "interrupted after ") || st.States == 0 || st.Complete {
		t.Errorf("interrupted: %s (%s), %+v", r.Verdict, r.Reason, st)
	}
}

// CheckInstance gives a verdict per specification; a context already
// done leaves every one unknown.
func TestCheckInstance(t *testing.T) {
	f := fbcChain(t)
	vals := map[string]int64{"N": 2, "T": 1, "F": 1}
	specs := []string{"unforg", "corr", "relay", "agree", "chain"}
	rep, err := CheckInstance(t.Context(), f, vals, specs, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []trace.Verdict{trace.Holds, trace.Violated, trace.Holds, trace.Holds, trace.Violated}
	for i, r := range rep.Verdicts {
		if r.Property != specs[i] || r.Verdict != want[i] {
			t.Errorf("%s: %s (%s), want %s", specs[i], r.Verdict, r.Reason, want[i])
		}
	}
	if len(rep.Verdicts) != len(specs) || rep.Stats.States == 0 || rep.Stats.Complete {
		t.Errorf("%d verdicts, stats %+v", len(rep.Verdicts), rep.Stats)
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(errors.New("stop"))
	rep, err = CheckInstance(ctx, f, vals, specs, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Verdicts {
		if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "stop after 0 states") {
			t.Errorf("cancelled: %s: %s (%s)", r.Property, r.Verdict, r.Reason)
		}
	}
	if _, err := CheckInstance(t.Context(), f, vals, []string{"nope"}, explore.Options{}); err == nil || !strings.Contains(err.Error(), `no specification "nope"`) {
		t.Errorf("unknown specification: %v", err)
	}
}

// toggleTA has a cycle and no self-loop before C: every lasso that keeps
// C empty goes round A -> B -> A. x counts the rounds, so an instance has
// as many configurations as x has values.
const toggleTA = `thresholdAutomaton Toggle {
  local pc;
  shared x;
  parameters N;
  assumptions (0) { N >= 1; }
  locations (0) { A: [0]; B: [1]; C: [2]; }
  inits (0) { A == N; B == 0; C == 0; x == 0; }
  rules (0) {
    0: A -> B when (true) do { unchanged(x); };
    1: B -> A when (true) do { UPDATE };
    2: B -> C when (true) do { unchanged(x); };
    3: C -> C when (true) do { unchanged(x); };
  }
  specifications (0) {
    reach_c: <>(C != 0);
    toggles: [](C == 0) -> []<>(B != 0);
    safe: [](C <= N);
  }
}`

// On an automaton whose rules form cycles, the explicit check of an
// instance finds the lassos that go round them (reach_c: A -> B -> A for
// ever), and proves liveness there (toggles); a search cut by a counter's
// range says unknown rather than holds.
func TestExplicitCycles(t *testing.T) {
	parse := func(update string) *ta.File {
		f, err := ta.Parse("toggle.ta", []byte(strings.Replace(toggleTA, "UPDATE", update, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f := parse("unchanged(x);")
	vals := map[string]int64{"N": 2}
	r, _ := Explicit(t.Context(), f, "reach_c", vals, explore.Options{})
	if r.Verdict != trace.Violated || r.Kind != state.KindAcceptCycle || r.Counterexample == nil || r.Counterexample.LoopStart < 0 || r.Counterexample.Params["N"] != 2 {
		t.Fatalf("reach_c: %s %s (%s), %+v", r.Verdict, r.Kind, r.Reason, r.Counterexample)
	}
	loop := map[string]bool{}
	for _, s := range r.Counterexample.Steps[r.Counterexample.LoopStart:] {
		loop[s.Stmt] = true
	}
	if !loop["A -> B"] || !loop["B -> A"] || len(loop) != 2 {
		t.Errorf("reach_c: the loop takes %v, want A -> B and B -> A", loop)
	}
	for _, spec := range []string{"toggles", "safe"} {
		if r, st := Explicit(t.Context(), f, spec, vals, explore.Options{}); r.Verdict != trace.Holds || !st.Complete {
			t.Errorf("%s: %s (%s), complete %v", spec, r.Verdict, r.Reason, st.Complete)
		}
	}
	// Each round adds one to x, up to the instance's range.
	f = parse("x' == x + 1;")
	r, _ = Explicit(t.Context(), f, "toggles", map[string]int64{"N": 1}, explore.Options{})
	if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "out of range") {
		t.Errorf("toggles with rounds counted: %s (%s), want unknown at the counters' range", r.Verdict, r.Reason)
	}
}
