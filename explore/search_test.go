package explore

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"ftmc/state"
	"ftmc/trace"
)

func run(t *testing.T, m state.Model, opts Options) (trace.Result, trace.Stats) {
	t.Helper()
	r, st, err := Run(context.Background(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r, st
}

var orders = []Order{BreadthFirst, DepthFirst}

func TestCountersHold(t *testing.T) {
	for _, o := range orders {
		t.Run(o.String(), func(t *testing.T) {
			m := &counters{k: 4, n: 10, endOK: true}
			r, st := run(t, m, Options{Order: o})
			if r.Verdict != trace.Holds || r.Property != DefaultProperty {
				t.Fatalf("result %+v, want safety: holds", r)
			}
			transitions := int64(4 * 1000 * 9) // k * n^(k-1) * (n-1)
			if st.States != m.states() || st.Transitions != transitions || st.Matched != transitions-(st.States-1) {
				t.Errorf("states %d transitions %d matched %d, want %d %d %d", st.States, st.Transitions, st.Matched, m.states(), transitions, transitions-(m.states()-1))
			}
			if !st.Complete || st.VectorBytes != 4 || st.StoreBytes <= 0 || st.BytesPerState <= 0 {
				t.Errorf("stats %+v", st)
			}
			// The state with every counter at 9 is 36 steps from the start:
			// the BFS's last level; a DFS path to it is no shorter.
			if o == BreadthFirst && st.Depth != 36 || o == DepthFirst && st.Depth < 36 {
				t.Errorf("depth %d", st.Depth)
			}
		})
	}
}

func TestCountersWrapNoTerminalState(t *testing.T) {
	for _, o := range orders {
		m := &counters{k: 3, n: 7, wrap: true}
		r, st := run(t, m, Options{Order: o})
		if r.Verdict != trace.Holds || st.States != 343 || st.Transitions != 3*343 {
			t.Errorf("%v: %s, %d states, %d transitions; want holds, 343, 1029", o, r.Verdict, st.States, st.Transitions)
		}
	}
}

func TestInvalidEndState(t *testing.T) {
	m := &counters{k: 3, n: 5}
	r, st := run(t, m, Options{})
	c := checkViolation(t, r, state.KindInvalidEnd)
	if len(c.Steps) != 12 {
		t.Errorf("%d steps, want the shortest path, 12", len(c.Steps))
	}
	if got := varString(c.Final); got != "c0=4 c1=4 c2=4" {
		t.Errorf("final state %s", got)
	}
	if st.Complete {
		t.Error("a search stopped at a violation is not complete")
	}
}

func TestPhilosophersDeadlock(t *testing.T) {
	for _, o := range orders {
		t.Run(o.String(), func(t *testing.T) {
			m := &philosophers{n: 5}
			r, _ := run(t, m, Options{Order: o})
			c := checkViolation(t, r, state.KindInvalidEnd)
			if o == BreadthFirst && len(c.Steps) != 5 || len(c.Steps) < 5 {
				t.Errorf("%d steps", len(c.Steps))
			}
			want := "phil[0]=1 phil[1]=1 phil[2]=1 phil[3]=1 phil[4]=1 fork[0]=1 fork[1]=2 fork[2]=3 fork[3]=4 fork[4]=5"
			if got := varString(c.Final); got != want {
				t.Errorf("final state %s, want %s", got, want)
			}
			// Each step's changes were filled in from Decode.
			for _, s := range c.Steps {
				if len(s.Changes) == 0 || s.Proc != "phil" || s.Stmt == "" {
					t.Errorf("step %+v", s)
				}
			}
		})
	}
}

func TestAssertion(t *testing.T) {
	for _, o := range orders {
		m := &ring{m: 7, target: 3, laps: 2}
		r, st := run(t, m, Options{Order: o})
		c := checkViolation(t, r, state.KindAssertion)
		// 16 moves, then the 17th fails.
		if len(c.Steps) != 17 || st.States != 17 {
			t.Fatalf("%v: %d steps, %d states; want 17, 17", o, len(c.Steps), st.States)
		}
		last := c.Steps[16]
		if last.Stmt != "assert(token != target)" || last.Note != c.Message || last.Pid != 2 || len(last.Changes) != 0 {
			t.Errorf("failing step %+v", last)
		}
		if got := varString(c.Final); got != "token=2 lap=2" {
			t.Errorf("final %s", got)
		}
		if got := varString(c.Steps[0].Changes); got != "token=1" {
			t.Errorf("first step changes %s", got)
		}
	}
}

func TestInvariant(t *testing.T) {
	for _, o := range orders {
		m := &checkedCounters{counters{k: 3, n: 5, endOK: true, bad: []byte{3, 2, 1}}}
		r, _ := run(t, m, Options{Order: o})
		c := checkViolation(t, r, state.KindInvariant)
		if o == BreadthFirst && len(c.Steps) != 6 || len(c.Steps) < 6 {
			t.Errorf("%v: %d steps", o, len(c.Steps))
		}
		if got := varString(c.Final); got != "c0=3 c1=2 c2=1" {
			t.Errorf("%v: final %s", o, got)
		}
		if c.Steps[len(c.Steps)-1].Note != c.Message {
			t.Errorf("%v: last step has no note", o)
		}
	}
}

// TestInvariantInitial: a bad initial state is a counterexample of no steps.
func TestInvariantInitial(t *testing.T) {
	m := &checkedCounters{counters{k: 2, n: 3, endOK: true, bad: []byte{0, 0}}}
	r, st := run(t, m, Options{})
	c := checkViolation(t, r, state.KindInvariant)
	if len(c.Steps) != 0 || varString(c.Final) != "c0=0 c1=0" || st.States != 1 {
		t.Errorf("counterexample %+v, %d states", c, st.States)
	}
}

func TestGrowingVectors(t *testing.T) {
	for _, o := range orders {
		m := &spawner{p: 4, c: 5}
		r, st := run(t, m, Options{Order: o})
		if r.Verdict != trace.Holds || st.States != m.states() || st.VectorBytes != 4 {
			t.Errorf("%v: %s, %d states (want %d), vector %d", o, r.Verdict, st.States, m.states(), st.VectorBytes)
		}
	}
	m := &spawner{p: 6, c: 10}
	r, st := run(t, m, Options{})
	if r.Verdict != trace.Holds || st.States != m.states() {
		t.Errorf("%s, %d states, want holds, %d", r.Verdict, st.States, m.states())
	}
}

func TestTimeLimit(t *testing.T) {
	var reports int
	m := &counters{k: 8, n: 16, wrap: true} // 4 billion states
	r, st := run(t, m, Options{TimeLimit: 300 * time.Millisecond, ProgressInterval: time.Millisecond,
		Progress: func(p Progress) {
			reports++
			if p.States <= 0 || p.Queue <= 0 || p.Elapsed <= 0 {
				t.Errorf("progress %+v", p)
			}
		}})
	if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "time limit 300ms reached after ") || st.Complete {
		t.Errorf("result %+v, complete %v", r, st.Complete)
	}
	if st.States == 0 || st.Seconds < 0.3 {
		t.Errorf("stats so far %+v", st)
	}
	if reports == 0 {
		t.Error("no progress reports")
	}
}

// memoryLimit returns a memory limit that leaves a search about store bytes
// beyond what the test process holds already (the limit covers the whole
// process, and earlier tests leave memory behind).
func memoryLimit(store int64) int64 {
	debug.FreeOSMemory()
	var m MemorySampler
	return m.RuntimeBytes() + store
}

func TestMemoryLimit(t *testing.T) {
	for _, o := range orders {
		m := &counters{k: 8, n: 16, wrap: true}
		const store = 48 << 20
		limit := memoryLimit(store)
		r, st := run(t, m, Options{Order: o, MemoryLimit: limit})
		if r.Verdict != trace.Unknown || r.Reason != fmt.Sprintf("memory limit %s reached after %d states", FormatBytes(limit), st.States) {
			t.Errorf("%v: result %+v, %d states", o, r, st.States)
		}
		// Parent indices grow between checks of the limit: a little over
		// it is fine.
		if st.StoreBytes > store*21/20 || st.States < 100000 {
			t.Errorf("%v: %d states in %d bytes", o, st.States, st.StoreBytes)
		}
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	r, _, err := Run(ctx, &counters{k: 8, n: 16, wrap: true}, Options{Order: DepthFirst})
	if err != nil || r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "interrupted after ") {
		t.Errorf("result %+v, %v", r, err)
	}
}

func TestMaxDepth(t *testing.T) {
	for _, o := range orders {
		r, st := run(t, &counters{k: 3, n: 10, wrap: true}, Options{Order: o, MaxDepth: 5})
		if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "depth limit 5 reached") || st.Complete || st.Depth != 5 {
			t.Errorf("%v: %+v, depth %d", o, r, st.Depth)
		}
		// A bound the search never reaches changes nothing.
		r, st = run(t, &counters{k: 2, n: 3, endOK: true}, Options{Order: o, MaxDepth: 10})
		if r.Verdict != trace.Holds || st.States != 9 {
			t.Errorf("%v: %+v", o, r)
		}
	}
}

// A violation found before a limit is a violation.
func TestViolationBeatsLimit(t *testing.T) {
	r, _ := run(t, &philosophers{n: 3}, Options{MaxDepth: 4})
	checkViolation(t, r, state.KindInvalidEnd)
}

func checkViolation(t *testing.T, r trace.Result, kind string) *trace.Counterexample {
	t.Helper()
	if r.Verdict != trace.Violated || r.Kind != kind {
		t.Fatalf("result %+v, want violated (%s)", r, kind)
	}
	c := r.Counterexample
	if c == nil || c.Kind != kind || c.Message == "" || c.LoopStart != -1 || len(c.Initial) == 0 || len(c.Final) == 0 {
		t.Fatalf("counterexample %+v", c)
	}
	for i, s := range c.Steps {
		if s.Num != i+1 {
			t.Fatalf("step %d numbered %d", i, s.Num)
		}
	}
	return c
}

func varString(vs []trace.Var) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, v.Name+"="+v.Value)
	}
	return strings.Join(parts, " ")
}

// zeroTag is a model of two states whose second has a hash with tag 0 (its
// upper 32 bits), the value of an empty slot of the store's table.
type zeroTag struct{}

var zeroTagVec = []byte{0x29, 0x91, 0x61, 0x7e, 0, 0, 0, 0}

func (zeroTag) Name() string { return "zero-tag" }
func (zeroTag) Initial(emit func([]byte)) error {
	emit(make([]byte, 8))
	return nil
}
func (zeroTag) Next(s []byte, sink state.Sink) {
	if string(s) != string(zeroTagVec) {
		sink.Succ(state.Trans{Proc: 0}, zeroTagVec)
	}
}
func (zeroTag) ValidEnd([]byte) bool { return true }
func (zeroTag) Explain(state.Trans, []byte, []byte) trace.Step {
	return trace.Step{Pid: 0, Proc: "p", Stmt: "step"}
}
func (zeroTag) Decode(s []byte) []trace.Var { return nil }
func (z zeroTag) Fork() state.Model         { return z }

// A successor whose hash has tag 0 and whose home slot is empty is a new
// state, not a match with the empty slot (the search read a stored state
// at index -1 and panicked).
func TestZeroTagSuccessor(t *testing.T) {
	if Hash(zeroTagVec)>>32 != 0 {
		t.Fatalf("the test vector's tag is %#x, not 0: the hash changed; find another", Hash(zeroTagVec)>>32)
	}
	for _, o := range []Options{{}, {Workers: 2}, {Order: DepthFirst}} {
		r, st, err := Run(context.Background(), zeroTag{}, o)
		if err != nil || r.Verdict != trace.Holds || st.States != 2 {
			t.Errorf("%+v: %s, %d states, %v", o, r.Verdict, st.States, err)
		}
	}
}
