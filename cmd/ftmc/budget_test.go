package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ftmc/trace"
)

// TestCheckTAMemoryBudget: ftmc check MODEL.ta --param with a memory limit
// below what the process holds ends every specification unknown, the lasso
// searches of the liveness ones (param.Explicit) included.
func TestCheckTAMemoryBudget(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "threshold", "st-byz.ta")
	rep, code, stderr := runFtmc(context.Background(), []string{"check", model, "--param", "N=4,T=1,F=1", "--memory", "1B"})
	if rep == nil || code != trace.ExitUnknown || len(rep.Verdicts) != 3 {
		t.Fatalf("exit %d, want 3 and three verdicts:\n%s", code, stderr)
	}
	for _, v := range rep.Verdicts {
		if v.Verdict != trace.Unknown || !strings.HasPrefix(v.Reason, "memory limit 1 B reached") {
			t.Errorf("%s: %s, want unknown: memory limit 1 B reached", v.Property, describe(v))
		}
	}
}

// TestCheckTATimeCoversTheRun: --time bounds the whole of ftmc check
// MODEL.ta --param, not each specification: with two liveness
// specifications that each take longer than the limit, the first stops at
// it and the second is not started.
func TestCheckTATimeCoversTheRun(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "threshold", "st-byz.ta"))
	if err != nil {
		t.Fatal(err)
	}
	// A second copy of relay, whose search is as long as relay's.
	text := string(src)
	i := strings.Index(text, "    relay:")
	j := strings.LastIndex(text, "  }\n}")
	if i < 0 || j < i {
		t.Fatal("st-byz.ta has no relay specification before the end of its specifications")
	}
	text = text[:j] + strings.Replace(text[i:j], "relay:", "relay2:", 1) + text[j:]
	text = strings.Replace(text, "specifications (3)", "specifications (4)", 1)
	model := filepath.Join(t.TempDir(), "st-byz2.ta")
	if err := os.WriteFile(model, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep, code, stderr := runFtmc(ctx, []string{"check", model, "--param", "N=600,T=199,F=199", "relay", "relay2", "--time", "1s", "--memory", "0"})
	if ctx.Err() != nil {
		t.Fatal("ftmc check --time 1s ran for a minute")
	}
	if rep == nil || code != trace.ExitUnknown || len(rep.Verdicts) != 2 {
		t.Fatalf("exit %d, want 3 and two verdicts:\n%s", code, stderr)
	}
	for _, v := range rep.Verdicts {
		if v.Verdict != trace.Unknown || !strings.HasPrefix(v.Reason, "time limit 1s reached") {
			t.Errorf("%s: %s, want unknown: time limit 1s reached", v.Property, describe(v))
		}
	}
	if st := rep.Verdicts[1].Stats; st == nil || st.States != 0 {
		t.Errorf("relay2 started after the run's time was spent: %+v", st)
	}
}

// TestCheckTAStatsIncomplete: the statistics of ftmc check MODEL.ta
// --param are complete only when every search is: a safety specification
// checked in full and a liveness one stopped by --time make an incomplete
// run, and the stopped search has its figures.
func TestCheckTAStatsIncomplete(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "threshold", "st-byz.ta")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep, code, stderr := runFtmc(ctx, []string{"check", model, "--param", "N=600,T=199,F=199", "unforg", "relay", "--time", "1s"})
	if rep == nil || code != trace.ExitUnknown || len(rep.Verdicts) != 2 {
		t.Fatalf("exit %d, want 3 and two verdicts:\n%s", code, stderr)
	}
	unforg, relay := rep.Verdicts[0], rep.Verdicts[1]
	if unforg.Verdict != trace.Holds {
		t.Errorf("unforg: %s, want holds", describe(unforg))
	}
	if relay.Verdict != trace.Unknown || relay.Stats == nil || relay.Stats.Complete || relay.Stats.States == 0 {
		t.Fatalf("relay: %s, %+v; want unknown with the statistics reached", describe(relay), relay.Stats)
	}
	if rep.Stats.Complete || rep.Stats.States < relay.Stats.States {
		t.Errorf("the run's statistics %+v: want incomplete, with relay's states", rep.Stats)
	}
}

// TestVerifyMemoryBudget: verify with a memory limit below what the process
// holds ends unknown with the memory limit as the reason, on a threshold
// automaton (the schema engine), on one with resets (the counter
// abstraction; a liveness specification too) and on a Cubicle model
// (backward reachability), never holds.
func TestVerifyMemoryBudget(t *testing.T) {
	for _, model := range []string{
		filepath.Join("..", "..", "examples", "threshold", "st-byz.ta"),
		filepath.Join("..", "..", "ta", "testdata", "taco", "benchmarks", "reset-benchmarks", "rb-2x_reset.eta"),
		filepath.Join("..", "..", "examples", "mcmt", "lock.cub"),
		// A decrement: the counter abstraction with refinement runs.
		filepath.Join("..", "..", "examples", "threshold", "membership.ta"),
		// A sketch: the guard synthesis stops.
		filepath.Join("..", "..", "examples", "threshold", "st-byz-synth.ta"),
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		rep, code, stderr := runFtmc(ctx, []string{"verify", model, "--memory", "1B"})
		cancel()
		if rep == nil || code != trace.ExitUnknown || len(rep.Verdicts) == 0 {
			t.Errorf("%s: exit %d, want 3:\n%s", model, code, stderr)
			continue
		}
		for _, v := range rep.Verdicts {
			if v.Verdict != trace.Unknown || !strings.HasPrefix(v.Reason, "memory limit 1 B reached") {
				t.Errorf("%s: %s: %s, want unknown: memory limit 1 B reached", model, v.Property, describe(v))
			}
			if (strings.HasSuffix(model, ".eta") || strings.HasSuffix(model, "membership.ta")) && !strings.Contains(v.Reason, "counter abstraction") {
				t.Errorf("%s: %s: %s, want the counter abstraction named (no schemas run)", model, v.Property, describe(v))
			}
		}
	}
}

// TestCheckPropertiesNotStartedAfterTime: once the run's --time is spent,
// the properties left are unknown without a state explored.
func TestCheckPropertiesNotStartedAfterTime(t *testing.T) {
	model := filepath.Join(t.TempDir(), "grow.pml")
	src := "int x;\nactive proctype P() { do :: x < 100000000 -> x++ od }\n" +
		"ltl p1 { [] (x >= 0) }\nltl p2 { [] (x >= 0) }\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep, code, stderr := runFtmc(ctx, []string{"check", model, "--time", "1s", "--memory", "0"})
	if rep == nil || code != trace.ExitUnknown || len(rep.Verdicts) != 3 {
		t.Fatalf("exit %d, want 3 and three verdicts:\n%s", code, stderr)
	}
	for _, v := range rep.Verdicts {
		if v.Verdict != trace.Unknown || !strings.HasPrefix(v.Reason, "time limit 1s reached") {
			t.Errorf("%s: %s, want unknown: time limit 1s reached", v.Property, describe(v))
		}
	}
	for _, v := range rep.Verdicts[1:] {
		if v.Stats == nil || v.Stats.States != 0 {
			t.Errorf("%s started after the run's time was spent: %+v", v.Property, v.Stats)
		}
	}
}

// TestCheckLTLDefaultMemoryLimit: an LTL search (nested depth-first) that
// stops at the default memory limit says where the limit comes from, as
// the safety search does.
func TestCheckLTLDefaultMemoryLimit(t *testing.T) {
	fixedMemory(t, 64e6)
	model := filepath.Join(t.TempDir(), "grow.pml")
	src := "int x;\nactive proctype P() { do :: x < 100000000 -> x++ od }\nltl p { <> (x < 0) }\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rep, code, stderr := runFtmc(ctx, []string{"check", model, "--ltl", "p"})
	if rep == nil || code != trace.ExitUnknown || len(rep.Verdicts) != 1 {
		t.Fatalf("exit %d, want 3 and one verdict:\n%s", code, stderr)
	}
	if v := rep.Verdicts[0]; v.Verdict != trace.Unknown || !strings.HasPrefix(v.Reason, "memory limit 64 MB (85% of physical memory) reached after ") {
		t.Errorf("%s: %s, want unknown: memory limit 64 MB (85%% of physical memory) reached", v.Property, describe(v))
	}
}
