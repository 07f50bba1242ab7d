package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// The shared array-based models through the command line, as a reader runs
// them: the Chandra-Toueg seed and the benchmarks are safe (exit 0), the
// seed's suggested invariants are all proved, and the bounded checks of the
// seed agree for 2 and 3 processes.
func TestVerifyMCMTShared(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	shared := testenv.Shared(t)
	seed := filepath.Join(shared, "seeds/002_89f49e16422360b2.txt")
	for _, c := range []struct {
		args   []string
		engine string
	}{
		{[]string{"verify", "--lang", "mcmt", seed}, "backreach"},
		{[]string{"verify", "--lang", "mcmt", "--bounded", "2", seed}, "explicit"},
		{[]string{"verify", "--lang", "mcmt", "--bounded", "3", seed}, "explicit"},
		{[]string{"verify", filepath.Join(shared, "benchmarks/mcmt/crash.in")}, "backreach"},
		{[]string{"verify", filepath.Join(shared, "benchmarks/mcmt/crash.cub")}, "backreach"},
		{[]string{"verify", filepath.Join(shared, "benchmarks/mcmt/mutex.cub")}, "backreach"},
		{[]string{"verify", "--brab", "0", filepath.Join(shared, "benchmarks/mcmt/crash.cub")}, "backreach"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		rep, code, stderr := runFtmc(ctx, c.args)
		cancel()
		if rep == nil {
			t.Fatalf("ftmc %v: exit %d: %s", c.args, code, stderr)
		}
		if code != trace.ExitHolds || len(rep.Verdicts) != 1 || rep.Verdicts[0].Verdict != trace.Holds {
			t.Errorf("ftmc %v: exit %d, verdicts %+v; want one verdict holds, exit 0", c.args, code, rep.Verdicts)
			continue
		}
		if rep.Engine != c.engine || !rep.Stats.Complete {
			t.Errorf("ftmc %v: engine %s, complete %v; want %s, complete", c.args, rep.Engine, rep.Stats.Complete, c.engine)
		}
		if c.engine == "backreach" && c.args[len(c.args)-1] == seed {
			if rep.Verdicts[0].Property != "AGREEMENT" {
				t.Errorf("seed: property %q, want AGREEMENT", rep.Verdicts[0].Property)
			}
			figs := map[string]float64{}
			for _, f := range rep.Stats.Extra {
				figs[f.Name] = f.Value
			}
			if figs["invariants"] != 7 || figs["refuted_candidates"] != 0 {
				t.Errorf("seed: %v suggested invariants proved, %v refuted; want 7 and 0", figs["invariants"], figs["refuted_candidates"])
			}
			if figs["nodes"] == 0 || figs["lemmas"] == 0 {
				t.Errorf("seed: %v nodes, %v lemmas; the proof visits cubes and needs lemmas", figs["nodes"], figs["lemmas"])
			}
		}
	}
}
