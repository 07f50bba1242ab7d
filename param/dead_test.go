package param

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/state"
	"ftmc/ta"
	"ftmc/trace"
)

// deadFiles have rules that no run fires: automata ByMC derived from
// Promela, and two of the random19 automata.
var deadFiles = []string{
	"../ta/testdata/bymc/random19/n-kset.ta",
	"../ta/testdata/bymc/random19/p-rs-bosco.ta",
	"../ta/testdata/taco/benchmarks/TACO/isola18/promela/bosco_case1.ta",
	"../ta/testdata/taco/benchmarks/TACO/isola18/promela/nbacg.ta",
	"../ta/testdata/taco/benchmarks/TACO/isola18/promela/cf1s_case1.ta",
	"../ta/testdata/taco/benchmarks/TACO/isola18/promela/cc_case2.ta",
}

// firedSink records the rules that fire.
type firedSink struct {
	fired map[int32]bool
	next  [][]byte
}

func (s *firedSink) Succ(t state.Trans, v []byte) {
	s.fired[t.ID] = true
	s.next = append(s.next, append([]byte(nil), v...))
}

func (s *firedSink) Fail(state.Trans, string, string) {}

// TestDeadRulesNeverFire explores the smallest instances of each file
// and checks that no rule the analysis drops ever fires there, while
// others do.
func TestDeadRulesNeverFire(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	for _, path := range deadFiles {
		f := parse(t, path)
		g, info, err := dropNeverFired(context.Background(), f, liaSolver(Options{}.Solver))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if info == nil {
			t.Errorf("%s: no rule dropped", path)
			continue
		}
		kept := map[*ta.Rule]bool{}
		for _, r := range g.Rules {
			kept[r] = true
		}
		if len(kept) != info.Kept || info.Rules != len(f.Rules) {
			t.Errorf("%s: %s, but %d rules kept of %d", path, info, len(kept), len(f.Rules))
		}
		for _, vals := range smallestParams(f, 8, 2) {
			in, err := ta.NewInstance(f, vals, ta.InstanceOptions{})
			if err != nil {
				t.Fatalf("%s %v: %v", path, vals, err)
			}
			sink := &firedSink{fired: map[int32]bool{}}
			seen := map[string]bool{}
			var queue [][]byte
			if err := in.Initial(func(s []byte) {
				queue = append(queue, append([]byte(nil), s...))
			}); err != nil {
				t.Fatalf("%s %v: %v", path, vals, err)
			}
			for len(queue) > 0 && len(seen) < 200_000 {
				s := queue[0]
				queue = queue[1:]
				if seen[string(s)] {
					continue
				}
				seen[string(s)] = true
				sink.next = sink.next[:0]
				in.Next(s, sink)
				queue = append(queue, sink.next...)
			}
			n := 0
			for id := range sink.fired {
				if !kept[f.Rules[id]] {
					t.Errorf("%s %v: rule %s was dropped, but it fires", filepath.Base(path), vals, f.Rules[id].ID)
				}
				n++
			}
			if n < 2 {
				t.Errorf("%s %v: %d rules fired in %d configurations: the check needs more", filepath.Base(path), vals, n, len(seen))
			}
		}
	}
}

// TestDeadKeepsVerdicts verifies the specifications of those files with
// and without the rules no run fires: the verdicts must agree.
func TestDeadKeepsVerdicts(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	if testing.Short() {
		t.Skip("verifies every specification twice")
	}
	dropped, decided := 0, 0
	for _, path := range deadFiles {
		f := parse(t, path)
		for _, s := range f.Specs {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			on := Verify(ctx, f, s.Name, Options{Jobs: 1, NoHunt: true})
			off := Verify(ctx, f, s.Name, Options{Jobs: 1, NoHunt: true, NoDead: true})
			cancel()
			if on.Dead == "" || !strings.Contains(on.Dead, "rules after dropping") {
				t.Errorf("%s %s: no rule dropped (%q)", filepath.Base(path), s.Name, on.Dead)
			} else {
				dropped++
			}
			if on.Verdict == trace.Unknown || off.Verdict == trace.Unknown {
				t.Logf("%s %s: %s with the analysis (%s), %s without (%s)", filepath.Base(path), s.Name, on.Verdict, on.Reason, off.Verdict, off.Reason)
				continue
			}
			if on.Verdict != off.Verdict {
				t.Errorf("%s %s: %s with the analysis (%s), %s without", filepath.Base(path), s.Name, on.Verdict, on.Dead, off.Verdict)
			}
			decided++
		}
	}
	if dropped < 10 || decided < 10 {
		t.Errorf("%d specifications with rules dropped, %d decided both ways: the comparison needs more", dropped, decided)
	}
}
