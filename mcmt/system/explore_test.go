package system_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/explore"
	"ftmc/internal/testenv"
	"ftmc/mcmt"
	"ftmc/mcmt/system"
	"ftmc/trace"
)

func instance(t *testing.T, name, src string, n int) *system.Instance {
	t.Helper()
	s, err := mcmt.Parse(name, []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	in, err := system.NewInstance(s, n)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// Five steps of inc reach the unsafe state, but the counterexample is a
// shortest run, explained step by step.
func TestExploreShortest(t *testing.T) {
	in := instance(t, "jump.cub", `
var X : int
array A[proc] : bool
init (i) { X = 0 && A[i] = False }
unsafe () { X = 5 }
transition inc ()
requires { X < 6 }
{ X := X + 1 }
transition jump (i)
requires { X < 4 && A[i] = False }
{ X := X + 2 }
`, 2)
	res, err := system.Explore(t.Context(), in, system.ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Unsafe
	if c == nil || res.Complete {
		t.Fatalf("no violation: %+v", res)
	}
	// 0 -> 1 -> 3 -> 5: three steps (inc comes first among transitions).
	var got []string
	for _, s := range c.Steps {
		got = append(got, s.Stmt)
	}
	if strings.Join(got, " ") != "inc() jump(i=#0) jump(i=#0)" {
		t.Fatalf("steps %q, want inc, jump, jump", got)
	}
	if s := c.Steps[0]; s.Pid != -1 || s.Proc != "system" || len(s.Changes) != 1 || s.Changes[0].Value != "1" || s.Num != 1 {
		t.Errorf("first step %+v", s)
	}
	if s := c.Steps[2]; s.Pid != 0 || s.Proc != "#0" || len(s.Events) != 1 || s.Events[0].Text != "jump" || s.Note != "" || s.Num != 3 ||
		len(s.Changes) != 1 || s.Changes[0].Value != "5" {
		t.Errorf("last step %+v", s)
	}
	if c.Params["processes"] != 2 || c.Message != "unsafe reached" || res.Stats.States != res.States || res.States == 0 {
		t.Errorf("counterexample %+v, stats %+v", c, res.Stats)
	}
}

// ring is 4^8 states: eight processes, each going round A..D.
const ring = `
type loc = A | B | C | D
array P[proc] : loc
init (i) { P[i] = A }
unsafe (i) { P[i] = A && P[i] <> A }
transition ab (i) requires { P[i] = A } { P[i] := B }
transition bc (i) requires { P[i] = B } { P[i] := C }
transition cd (i) requires { P[i] = C } { P[i] := D }
transition da (i) requires { P[i] = D } { P[i] := A }
`

// A search cut short by its context, its time or its memory says unknown
// with the reason, and the figures of what it did.
func TestExploreStopped(t *testing.T) {
	in := instance(t, "ring.cub", ring, 8)
	full, err := system.Explore(t.Context(), in, system.ExploreOptions{})
	if err != nil || !full.Complete || full.States != 65536 {
		t.Fatalf("full search: %+v %v", full, err)
	}
	for _, c := range []struct {
		name   string
		cause  error
		search explore.Options
		want   string
		some   bool // the search stored some states before it stopped
	}{
		{"interrupt", explore.ErrInterrupted, explore.Options{}, "interrupted after ", true},
		{"budget", &explore.LimitReached{Msg: "time limit 1s reached"}, explore.Options{}, "time limit 1s reached after ", true},
		{"time", nil, explore.Options{TimeLimit: 1}, "time limit 1ns reached after 0 states", false},
		{"memory", nil, explore.Options{MemoryLimit: 1}, "memory limit 1 B reached after 0 states", false},
	} {
		ctx, cancel := context.WithCancelCause(t.Context())
		var seen int
		res, err := system.Explore(ctx, in, system.ExploreOptions{Search: c.search, OnState: func([]byte) {
			// Stop after a few thousand states.
			if seen++; seen == 5000 && c.cause != nil {
				cancel(c.cause)
			}
		}})
		cancel(nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Complete || res.Stats.Complete || !strings.HasPrefix(res.Reason, c.want) || res.Unsafe != nil {
			t.Errorf("%s: complete %v, reason %q; want incomplete, %q", c.name, res.Complete, res.Reason, c.want)
		}
		if c.some && (res.States < 5000 || res.States >= full.States || res.Stats.Expanded >= res.States || res.Transitions == 0) {
			t.Errorf("%s: %d states, %d expanded, %d transitions; want the part explored", c.name, res.States, res.Stats.Expanded, res.Transitions)
		}
	}
}

// Bounded gives the verdicts: holds on a complete search, unknown with the
// reason when the search is cut short, with the statistics so far.
func TestBounded(t *testing.T) {
	s, err := mcmt.Parse("ring.cub", []byte(ring), "")
	if err != nil {
		t.Fatal(err)
	}
	r, st, warnings, err := system.Bounded(t.Context(), s, 8, system.ExploreOptions{})
	if err != nil || r.Verdict != trace.Holds || !st.Complete || st.States != 65536 || len(warnings) != 0 {
		t.Fatalf("%+v %+v %v %v", r, st, warnings, err)
	}
	r, st, _, err = system.Bounded(t.Context(), s, 8, system.ExploreOptions{MaxStates: 1000})
	if err != nil || r.Verdict != trace.Unknown || r.Reason != "state limit 1000 reached" || st.Complete || st.States != 1001 || st.Expanded == 0 {
		t.Errorf("--max-states 1000: %+v %+v %v", r, st, err)
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(errors.New("stop"))
	r, st, _, err = system.Bounded(ctx, s, 8, system.ExploreOptions{})
	if err != nil || r.Verdict != trace.Unknown || r.Reason != "stop after 0 states" || st.Complete {
		t.Errorf("cancelled: %+v %+v %v", r, st, err)
	}
}

// A state that breaks a system axiom is recorded with a shortest run to
// it, and the search goes on to its end; Bounded warns of it.
func TestExploreAxiomRun(t *testing.T) {
	path := filepath.Join(testenv.RepoRoot(t), "examples", "mcmt", "broadcast.mcmt")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Nobody ever sends: false once the source has been elected and sent.
	text := strings.Replace(string(src), "initial (", "system_axiom (universal x:nat) { (sent[x] = false) }\n\ninitial (", 1)
	s, err := mcmt.Parse("axiom.mcmt", []byte(text), "")
	if err != nil {
		t.Fatal(err)
	}
	in, err := system.NewInstance(s, 3)
	if err != nil {
		t.Fatal(err)
	}
	res, err := system.Explore(t.Context(), in, system.ExploreOptions{})
	if err != nil || !res.Complete || res.Unsafe != nil || res.States != 118 {
		t.Fatalf("%+v %v; want a complete search of the 118 states", res, err)
	}
	c := res.AxiomRun
	if res.Axiom != 0 || c == nil || len(c.Steps) != 2 || c.Kind != "invariant" || c.Message != "system axiom 1 is false here" ||
		c.Steps[1].Note != "" || c.Params["processes"] != 3 {
		t.Fatalf("axiom %d, run %+v; want axiom 1 broken after two steps", res.Axiom, c)
	}
	r, _, warnings, err := system.Bounded(t.Context(), s, 3, system.ExploreOptions{})
	if err != nil || r.Verdict != trace.Holds || len(warnings) != 1 || !strings.HasPrefix(warnings[0], "system axiom 1 (") ||
		!strings.HasSuffix(warnings[0], ") is false on 3 processes: the parameterized proof assumes it") {
		t.Errorf("%+v %q %v", r, warnings, err)
	}
}
