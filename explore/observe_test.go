package explore

import (
	"strings"
	"testing"

	"ftmc/state"
	"ftmc/trace"
)

// MaxStates stops a search that would store more states, and a space of
// exactly that many states is explored to the end.
func TestMaxStates(t *testing.T) {
	for _, o := range orders {
		r, st := run(t, &counters{k: 3, n: 10, wrap: true}, Options{Order: o, MaxStates: 50})
		if r.Verdict != trace.Unknown || r.Reason != "state limit 50 reached" || st.Complete || st.States != 51 {
			t.Errorf("%v: %+v, %d states", o, r, st.States)
		}
		if st.Expanded <= 0 || st.Expanded >= st.States {
			t.Errorf("%v: %d of %d states expanded", o, st.Expanded, st.States)
		}
		r, st = run(t, &counters{k: 2, n: 3, endOK: true}, Options{Order: o, MaxStates: 9})
		if r.Verdict != trace.Holds || st.States != 9 || st.Expanded != 9 {
			t.Errorf("%v: %+v, %d states, %d expanded", o, r, st.States, st.Expanded)
		}
	}
	// Workers do not apply: the bound is exact.
	r, st := run(t, &counters{k: 3, n: 10, wrap: true}, Options{MaxStates: 50, Workers: 4})
	if r.Verdict != trace.Unknown || st.States != 51 {
		t.Errorf("4 workers: %+v, %d states", r, st.States)
	}
}

// Visit sees every state once, and its counterexample is a shortest path
// to it breadth-first.
func TestVisit(t *testing.T) {
	seen := map[string]int{}
	var cex *trace.Counterexample
	m := &counters{k: 3, n: 4, endOK: true}
	r, st := run(t, m, Options{Workers: 4, Visit: func(v []byte, path func(kind, msg string) *trace.Counterexample) {
		seen[string(v)]++
		if string(v) == "\x03\x01\x02" {
			cex = path(state.KindInvariant, "here")
		}
	}})
	if r.Verdict != trace.Holds || int64(len(seen)) != st.States || st.States != m.states() {
		t.Fatalf("%s, %d states, %d seen", r.Verdict, st.States, len(seen))
	}
	for v, n := range seen {
		if n != 1 {
			t.Errorf("%q seen %d times", v, n)
		}
	}
	if cex == nil || len(cex.Steps) != 6 || varString(cex.Final) != "c0=3 c1=1 c2=2" || cex.Kind != state.KindInvariant || cex.Message != "here" {
		t.Fatalf("counterexample %+v", cex)
	}
	// The search goes on as before after a counterexample is built.
	if st.Transitions != int64(3*16*3) {
		t.Errorf("%d transitions", st.Transitions)
	}
}

// A state that violates a state property ends the search without a visit.
func TestVisitSkipsViolation(t *testing.T) {
	m := &checkedCounters{counters{k: 2, n: 3, endOK: true, bad: []byte{1, 1}}}
	r, _ := run(t, m, Options{Visit: func(v []byte, _ func(kind, msg string) *trace.Counterexample) {
		if string(v) == "\x01\x01" {
			t.Error("visited the bad state")
		}
	}})
	checkViolation(t, r, state.KindInvariant)
}

// overflow is counters whose increment past n-1 cannot be represented.
type overflow struct{ counters }

func (c *overflow) Next(s []byte, sink state.Sink) {
	for i := range c.k {
		if int(s[i]) == c.n-1 {
			sink.Fail(state.Trans{Proc: int32(i)}, state.KindLimitReached, "c"+string(rune('0'+i))+" leaves 0..n-1")
			return
		}
	}
	c.counters.Next(s, sink)
}

func (c *overflow) Fork() state.Model { return &overflow{*c.counters.Fork().(*counters)} }

// A failing transition of kind KindLimitReached ends the search with
// verdict unknown, the message its reason, and is no violation.
func TestLimitReachedFailure(t *testing.T) {
	for _, o := range orders {
		for _, w := range []int{1, 3} {
			r, st := run(t, &overflow{counters{k: 2, n: 4}}, Options{Order: o, Workers: w})
			if r.Verdict != trace.Unknown || !strings.HasSuffix(r.Reason, "leaves 0..n-1") || r.Counterexample != nil || st.Complete {
				t.Errorf("%v, %d workers: %+v", o, w, r)
			}
		}
	}
}
