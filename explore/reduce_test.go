package explore

import (
	"context"
	"testing"

	"ftmc/state"
	"ftmc/trace"
)

// toggler is two processes: process 0 flips a bit forever (a local step,
// always an ample set), process 1 sets a flag once, after which it fails
// an assertion. Only the cycle proviso makes a reduced search move
// process 1.
type toggler struct{ buf []byte }

func (m *toggler) Name() string                        { return "toggler" }
func (m *toggler) Initial(emit func([]byte)) error     { emit([]byte{0, 0}); return nil }
func (m *toggler) ValidEnd([]byte) bool                { return true }
func (m *toggler) Decode([]byte) []trace.Var           { return nil }
func (m *toggler) Fork() state.Model                   { return &toggler{} }
func (m *toggler) Ample(_ []byte, buf []int32) []int32 { return append(buf, 0) }
func (m *toggler) Explain(t state.Trans, _, _ []byte) trace.Step {
	return trace.Step{Pid: int(t.Proc)}
}

func (m *toggler) Next(s []byte, sink state.Sink) {
	m.buf = append(m.buf[:0], s...)
	m.buf[0] ^= 1
	sink.Succ(state.Trans{Proc: 0}, m.buf)
	m.buf[0] ^= 1
	if s[1] == 0 {
		m.buf[1] = 1
		sink.Succ(state.Trans{Proc: 1}, m.buf)
	} else {
		sink.Fail(state.Trans{Proc: 1}, state.KindAssertion, "assertion violated")
	}
}

// reducedCounters are counters whose increments are all independent: every
// process that can move is an ample set.
type reducedCounters struct{ counters }

func (c *reducedCounters) Fork() state.Model { d := *c; return &d }

// plainFork is reducedCounters whose forks are plain counters.
type plainFork struct{ reducedCounters }

func (c *plainFork) Fork() state.Model { d := c.counters; return &d }

func (c *reducedCounters) Ample(s []byte, buf []int32) []int32 {
	for i := len(s) - 1; i >= 0; i-- {
		buf = append(buf, int32(i))
	}
	return buf
}

func TestReductionProviso(t *testing.T) {
	for _, order := range []Order{BreadthFirst, DepthFirst} {
		r, st, err := Run(context.Background(), &toggler{}, Options{Order: order, Reduce: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Violated || r.Kind != state.KindAssertion {
			t.Errorf("%v: %s (%s), want the assertion violated", order, r.Verdict, r.Kind)
		}
		if st.Reduction != "partial-order" || st.AmpleStates == 0 {
			t.Errorf("%v: reduction %q, %d ample states", order, st.Reduction, st.AmpleStates)
		}
	}
}

func TestReductionKeepsDeadlock(t *testing.T) {
	for _, order := range []Order{BreadthFirst, DepthFirst} {
		m := &reducedCounters{counters{k: 3, n: 4}}
		r, st, err := Run(context.Background(), m, Options{Order: order, Reduce: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Violated || r.Kind != state.KindInvalidEnd {
			t.Errorf("%v: %s (%s), want the invalid end state", order, r.Verdict, r.Kind)
		}
		// One counter at a time: 3*3+1 states instead of 4^3.
		if st.States != 10 {
			t.Errorf("%v: %d states, want 10", order, st.States)
		}
		m.endOK = true
		r, st, _ = Run(context.Background(), m, Options{Order: order})
		if r.Verdict != trace.Holds || st.States != 64 || st.Reduction != "" {
			t.Errorf("%v without reduction: %s, %d states, reduction %q; want holds, 64, none", order, r.Verdict, st.States, st.Reduction)
		}
	}
}

// TestReductionParallel: the parallel search reduces as the sequential one
// does where no ample set closes a cycle, and its proviso makes it move the
// process that only a full expansion reaches, with any number of workers.
func TestReductionParallel(t *testing.T) {
	for _, workers := range []int{2, 3} {
		m := &reducedCounters{counters{k: 3, n: 4, endOK: true}}
		r, st, err := Run(context.Background(), m, Options{Workers: workers, Reduce: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Holds || st.States != 10 || st.Reduction != "partial-order" || st.AmpleStates != 9 {
			t.Errorf("%d workers: %s, %d states, reduction %q, %d ample states; want holds, 10, partial-order, 9", workers, r.Verdict, st.States, st.Reduction, st.AmpleStates)
		}
		// A worker whose model does not reduce makes them all expand fully:
		// they take the same rounds.
		r, st, err = Run(context.Background(), &plainFork{reducedCounters{counters{k: 3, n: 4, endOK: true}}}, Options{Workers: workers, Reduce: true})
		if err != nil || r.Verdict != trace.Holds || st.States != 64 || st.Reduction != "none" {
			t.Errorf("%d workers, forks that do not reduce: %s, %d states, reduction %q, %v; want holds, 64, none", workers, r.Verdict, st.States, st.Reduction, err)
		}
		r, st, err = Run(context.Background(), &toggler{}, Options{Workers: workers, Reduce: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Violated || r.Kind != state.KindAssertion {
			t.Fatalf("%d workers: toggler %s (%s), want the assertion violated", workers, r.Verdict, r.Kind)
		}
		// (0,0) -0-> (1,0), whose ample successor (0,0) is old: expanded
		// fully, -1-> (1,1), where process 1's assertion fails.
		if n := len(r.Counterexample.Steps); n != 3 || st.AmpleStates != 2 {
			t.Errorf("%d workers: toggler counterexample of %d steps, %d ample states; want 3 and 2", workers, n, st.AmpleStates)
		}
	}
}

// turns are k processes that each count from 0 to m in local steps of one
// or two, then wait for their turn to reset the count and pass the turn
// on (the last byte of the vector). The candidates of an ample set are the
// processes, the last first, that can only count or wait: one that waits
// for a turn that is not its own is a candidate without a successor. A
// step of two reaches a state that two steps of one reach a level later,
// so a candidate fails the proviso and the next is tried. With first, Ample
// returns only the first candidate with a successor: a state whose first
// candidate fails is expanded fully.
type turns struct {
	k, m  int
	first bool
	buf   []byte
}

func (j *turns) Name() string                    { return "turns" }
func (j *turns) Initial(emit func([]byte)) error { emit(make([]byte, j.k+1)); return nil }
func (j *turns) ValidEnd([]byte) bool            { return true }
func (j *turns) Decode([]byte) []trace.Var       { return nil }
func (j *turns) Fork() state.Model               { d := *j; d.buf = nil; return &d }
func (j *turns) Explain(t state.Trans, _, _ []byte) trace.Step {
	return trace.Step{Pid: int(t.Proc)}
}

func (j *turns) Next(s []byte, sink state.Sink) {
	turn := int(s[j.k])
	for i := range j.k {
		j.buf = append(j.buf[:0], s...)
		switch {
		case int(s[i]) < j.m:
			for d := 1; d <= 2 && int(s[i])+d <= j.m; d++ {
				j.buf[i] = s[i] + byte(d)
				sink.Succ(state.Trans{Proc: int32(i), ID: int32(d)}, j.buf)
			}
		case turn == i:
			j.buf[i], j.buf[j.k] = 0, byte((turn+1)%j.k)
			sink.Succ(state.Trans{Proc: int32(i)}, j.buf)
		}
	}
}

func (j *turns) Ample(s []byte, buf []int32) []int32 {
	for i := j.k - 1; i >= 0; i-- {
		switch {
		case int(s[i]) < j.m:
			buf = append(buf, int32(i))
			if j.first {
				return buf
			}
		case int(s[j.k]) != i && !j.first:
			buf = append(buf, int32(i))
		}
	}
	return buf
}

// TestReductionParallelSameAsSequential: the parallel search chooses the
// sequential search's ample sets, trying the candidates in order in rounds
// of a level: it stores the same states, counts the same transitions and
// ample sets and reaches the same depth, at every run, with plain and
// compressed stores, whichever worker expands which state. On turns
// that is fewer states than expanding fully the states whose first
// candidate fails.
func TestReductionParallelSameAsSequential(t *testing.T) {
	models := []struct {
		name string
		m    func() state.Model
	}{
		{"turns", func() state.Model { return &turns{k: 4, m: 3} }},
		{"turns-5", func() state.Model { return &turns{k: 5, m: 4} }},
		{"counters-wrap", func() state.Model { return &reducedCounters{counters{k: 4, n: 6, wrap: true}} }},
	}
	for _, mc := range models {
		t.Run(mc.name, func(t *testing.T) {
			want, wst := run(t, mc.m(), Options{Reduce: true})
			if want.Verdict != trace.Holds || wst.AmpleStates == 0 {
				t.Fatalf("sequential: %s, %d ample states", want.Verdict, wst.AmpleStates)
			}
			if j, ok := mc.m().(*turns); ok {
				j.first = true
				_, fst := run(t, j, Options{Reduce: true})
				if wst.States >= fst.States {
					t.Errorf("%d states, %d with the first candidate only: want fewer", wst.States, fst.States)
				}
				t.Logf("%d states, %d with the first candidate only", wst.States, fst.States)
			}
			for _, workers := range []int{2, 3, 4} {
				for _, compress := range []bool{false, true} {
					for range 3 {
						got, gst := run(t, mc.m(), Options{Reduce: true, Workers: workers, Compress: compress})
						if got.Verdict != want.Verdict || gst.States != wst.States || gst.Transitions != wst.Transitions ||
							gst.Matched != wst.Matched || gst.Depth != wst.Depth || gst.Expanded != wst.Expanded || gst.AmpleStates != wst.AmpleStates {
							t.Fatalf("%d workers, compress %v: %s, %d states %d transitions %d matched depth %d, %d expanded, %d ample; want %s, %d %d %d %d, %d, %d",
								workers, compress, got.Verdict, gst.States, gst.Transitions, gst.Matched, gst.Depth, gst.Expanded, gst.AmpleStates,
								want.Verdict, wst.States, wst.Transitions, wst.Matched, wst.Depth, wst.Expanded, wst.AmpleStates)
						}
					}
				}
			}
		})
	}
}
