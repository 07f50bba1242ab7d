package backreach

import (
	"strings"
	"testing"

	"ftmc/trace"
)

// Unsafe formulas without process variables (Cubicle's unsafe () { .. }
// and unsafe { .. }) are conditions on the globals. A run that reaches
// them, even one with no transition that names a process, is replayed on
// an instance with one process; an initial state that is already unsafe
// is a run of no step.
func TestUnsafeWithoutProcesses(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		steps     int
	}{
		{"glob.cub", `
var X : int
array A[proc] : bool
init (i) { X = 0 && A[i] = False }
unsafe () { X = 2 }
transition inc ()
requires { X < 5 }
{ X := X + 1 }
`, 2},
		{"glob2.cub", `
var X : bool
array A[proc] : bool
init (i) { X = False && A[i] = False }
unsafe () { X = True }
transition go (i)
requires { A[i] = False }
{ X := True }
`, 1},
		{"glob3.cub", `
var X : int
array A[proc] : bool
init (i) { X = 0 && A[i] = False }
unsafe { X = 2 }
transition inc ()
requires { X < 5 }
{ X := X + 1 }
`, 2},
		{"const.cub", `
const Lim : int
var Cnt : int
array Done[proc] : bool
init (i) { Done[i] = False && Cnt = 0 }
unsafe () { Cnt > Lim }
transition step (i)
requires { Done[i] = False && Cnt < Lim }
{ Done[i] := True; Cnt := Cnt + 1 }
transition bump ()
requires { Cnt = Lim }
{ Cnt := Cnt + 1 }
`, 0},
	} {
		s := parse(t, tc.name, tc.src)
		r := verify(t, s, Options{})
		if r.Verdict != trace.Violated || r.Trace == nil {
			t.Errorf("%s: verdict %s (%s), want violated with a trace", tc.name, r.Verdict, r.Reason)
			continue
		}
		if len(r.Trace.Steps) != tc.steps || r.Trace.Params["processes"] != 1 {
			t.Errorf("%s: a run of %d steps on %d processes, want %d steps on 1", tc.name, len(r.Trace.Steps), r.Trace.Params["processes"], tc.steps)
		}
		if tc.steps > 0 {
			// const.cub's instances have no finite set of initial
			// states (Lim is any integer) for the step-by-step check.
			replays(t, s, r.Trace)
		}
	}
}

// A global of the process sort names a process of the instance. Backwards,
// T <> #1 on a cube of one process means that T names another process: the
// run must be replayed on an instance that has it, or not at all, and never
// reported on one process with T naming a process it does not have.
func TestProcessValuedGlobal(t *testing.T) {
	// Safe for every number of processes: a process sets its flag only
	// when every other one has set it already, and the first one cannot.
	// Backwards, the universal guard is checked on the cube's process
	// only, and the path meets the initial states: it must not replay.
	s := parse(t, "turn.cub", `
var T : proc
array S[proc] : bool
init (i) { S[i] = False }
unsafe (x) { S[x] = True }
transition t (i)
requires { T <> i && forall_other k. S[k] = True }
{ S[i] := True }
`)
	for _, approx := range []int{0, 3} {
		r := verify(t, s, Options{Approx: approx})
		if r.Verdict == trace.Violated {
			t.Errorf("approx %d: violated on a safe model; trace on %d processes: %s", approx, r.Trace.Params["processes"], r.Trace.Message)
		} else if r.Verdict == trace.Unknown && !strings.Contains(r.Reason, "not enabled") {
			t.Errorf("approx %d: unknown (%s), want the reason that the path does not replay", approx, r.Reason)
		}
	}

	// Unsafe with two processes: T names the other one.
	s = parse(t, "turn2.cub", `
var T : proc
array S[proc] : bool
init (i) { S[i] = False }
unsafe (x) { S[x] = True }
transition t (i)
requires { T <> i }
{ S[i] := True }
`)
	for _, approx := range []int{0, 3} {
		r := verify(t, s, Options{Approx: approx})
		if r.Verdict != trace.Violated || r.Trace == nil {
			t.Fatalf("approx %d: verdict %s (%s), want violated with a trace", approx, r.Verdict, r.Reason)
		}
		if r.Trace.Params["processes"] != 2 {
			t.Errorf("approx %d: trace on %d processes, want 2", approx, r.Trace.Params["processes"])
		}
		replays(t, s, r.Trace)
	}
}
