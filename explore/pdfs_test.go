package explore

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"ftmc/state"
	"ftmc/trace"
)

// The depth-first search on several workers stores, counts and expands
// the same states as on one, whatever the race, with plain and compressed
// stores; its counterexamples are paths from an initial state to a state
// with the violation the one-worker search finds.
func TestParallelDFSSameAsSequential(t *testing.T) {
	for _, mc := range parallelTestModels {
		t.Run(mc.name, func(t *testing.T) {
			want, wst := run(t, mc.m(), Options{Order: DepthFirst})
			for _, c := range []struct {
				workers  int
				compress bool
			}{{2, false}, {3, false}, {4, false}, {2, true}, {3, true}} {
				got, gst := run(t, mc.m(), Options{Order: DepthFirst, Workers: c.workers, Compress: c.compress})
				if got.Verdict != want.Verdict || got.Kind != want.Kind {
					t.Fatalf("%d workers: %s (%s), want %s (%s)", c.workers, got.Verdict, got.Kind, want.Verdict, want.Kind)
				}
				if want.Verdict == trace.Holds {
					if gst.States != wst.States || gst.Transitions != wst.Transitions || gst.Matched != wst.Matched || gst.Expanded != wst.Expanded || !gst.Complete {
						t.Errorf("%d workers: %d states %d transitions %d matched %d expanded complete %v; want %d %d %d %d",
							c.workers, gst.States, gst.Transitions, gst.Matched, gst.Expanded, gst.Complete, wst.States, wst.Transitions, wst.Matched, wst.Expanded)
					}
					continue
				}
				checkViolation(t, got, want.Kind)
				if gst.Complete {
					t.Errorf("%d workers: a search that found a violation says it is complete", c.workers)
				}
			}
		})
	}
}

// A hungry worker gets the bottom half of the next busy worker's stack,
// and the search is over when every worker waits with nothing given.
func TestParallelDFSGivesAndEnds(t *testing.T) {
	p := &pdfs{}
	p.cond = sync.NewCond(&p.mu)
	w0, w1 := &search{pd: p}, &search{pd: p}
	p.workers = []*search{w0, w1}
	w0.stack = []pitem{{i: 1}, {i: 2}, {i: 3}, {i: 4}, {i: 5}}
	took := make(chan bool)
	go func() { took <- p.take(w1) }()
	for p.hungry.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	p.give(w0)
	if !<-took {
		t.Fatal("the hungry worker got nothing")
	}
	if len(w1.stack) != 2 || w1.stack[0].i != 1 || w1.stack[1].i != 2 || len(w0.stack) != 3 || w0.stack[0].i != 3 {
		t.Fatalf("stacks %v and %v, want [1 2] given and [3 4 5] kept", w1.stack, w0.stack)
	}
	// Nobody hungry: nothing is given.
	p.give(w0)
	if len(w0.stack) != 3 || len(p.pool) != 0 {
		t.Fatalf("gave %v without a hungry worker", p.pool)
	}
	go func() { took <- p.take(w1) }()
	if p.take(w0) || <-took || !p.over {
		t.Fatal("two workers waiting with nothing given: the search should be over")
	}
}

// The reduction keeps the deadlock and the assertion that only its proviso
// reaches, on several workers.
func TestParallelDFSReduction(t *testing.T) {
	for _, workers := range []int{2, 3} {
		r, st, err := Run(context.Background(), &toggler{}, Options{Order: DepthFirst, Workers: workers, Reduce: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Violated || r.Kind != state.KindAssertion || st.Reduction != "partial-order" || st.AmpleStates == 0 {
			t.Errorf("%d workers: toggler %s (%s), reduction %q with %d ample states; want the assertion violated, reduced", workers, r.Verdict, r.Kind, st.Reduction, st.AmpleStates)
		}
		m := &reducedCounters{counters{k: 3, n: 4, endOK: true}}
		r, st, err = Run(context.Background(), m, Options{Order: DepthFirst, Workers: workers, Reduce: true})
		if err != nil || r.Verdict != trace.Holds || st.States >= 64 || st.AmpleStates == 0 {
			t.Errorf("%d workers: counters %s, %d states, %d ample states, %v; want holds, fewer than 64, reduced", workers, r.Verdict, st.States, st.AmpleStates, err)
		}
		m.endOK = false
		r, _, _ = Run(context.Background(), m, Options{Order: DepthFirst, Workers: workers, Reduce: true})
		if r.Verdict != trace.Violated || r.Kind != state.KindInvalidEnd {
			t.Errorf("%d workers: counters %s (%s), want the invalid end state", workers, r.Verdict, r.Kind)
		}
		r, st, _ = Run(context.Background(), &plainFork{reducedCounters{counters{k: 3, n: 4, endOK: true}}}, Options{Order: DepthFirst, Workers: workers, Reduce: true})
		if r.Verdict != trace.Holds || st.States != 64 || st.Reduction != "none" {
			t.Errorf("%d workers, forks that do not reduce: %s, %d states, reduction %q; want holds, 64, none", workers, r.Verdict, st.States, st.Reduction)
		}
	}
}

// A search cut short by its time, its memory or its context says unknown
// and why.
func TestParallelDFSLimits(t *testing.T) {
	big := func() state.Model { return &counters{k: 8, n: 200, endOK: true} }
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		opts Options
		want string
	}{
		{"time", context.Background(), Options{TimeLimit: 50 * time.Millisecond}, "time limit"},
		{"memory", context.Background(), Options{MemoryLimit: 1 << 20}, "memory limit"},
		{"cancelled", ctx, Options{}, "after"},
	} {
		c.opts.Order, c.opts.Workers = DepthFirst, 2
		r, st, err := Run(c.ctx, big(), c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, c.want) || st.Complete {
			t.Errorf("%s: %s (%q), complete %v; want unknown with %q", c.name, r.Verdict, r.Reason, st.Complete, c.want)
		}
	}
}

// The lock-free table doubles while the workers wait outside it, several
// times in a search, and loses no state: the counts are the one-worker
// search's. With a memory limit that refuses the doubling the search
// stops with unknown instead of filling the table.
func TestParallelDFSTableGrows(t *testing.T) {
	m := func() state.Model { return &counters{k: 5, n: 12, endOK: true} } // 248,832 states
	want, wst := run(t, m(), Options{Order: DepthFirst})
	if wst.States < 4<<lfMinLog*7/10 {
		t.Fatalf("%d states: too few to double the table twice", wst.States)
	}
	for _, workers := range []int{2, 3, 4} {
		got, gst := run(t, m(), Options{Order: DepthFirst, Workers: workers})
		if got.Verdict != want.Verdict || gst.States != wst.States || gst.Transitions != wst.Transitions || gst.Expanded != wst.Expanded {
			t.Errorf("%d workers: %s, %d states %d transitions %d expanded; want %s, %d %d %d", workers, got.Verdict, gst.States, gst.Transitions, gst.Expanded, want.Verdict, wst.States, wst.Transitions, wst.Expanded)
		}
	}
	s := newLFStore(2, 0)
	s.SetLimit(s.Bytes() + 1<<lfChunkLog + 12<<lfPosLog) // the first chunks, not a larger table
	v := lfView{s, 0, nil}
	full := false
	for k := 0; k < 1<<lfMinLog && !full; k++ {
		vec := []byte{byte(k), byte(k >> 8), byte(k >> 16), 1}
		i, isNew := v.insertFrom(vec, 0, NoIndex)
		if i == NoIndex {
			full = true
			break
		}
		if !isNew {
			t.Fatalf("vector %d found stored", k)
		}
		if s.wantGrow() {
			s.grow()
		}
	}
	if !full || s.Len() > len(s.table.Load().slots)/10*9 || !s.full.Load() {
		t.Errorf("a table the limit does not let double: full %v with %d states in %d slots", full, s.Len(), len(s.table.Load().slots))
	}
}

// An lfStore turned compressed keeps every state, under a new index, with
// its parent renumbered the same way.
func TestLFStoreCompressed(t *testing.T) {
	s := newLFStore(3, 0)
	views := []lfView{{s, 0, nil}, {s, 1, nil}, {s, 2, nil}}
	var olds []Index
	parents := map[Index]Index{}
	for k := range 5000 {
		parent := NoIndex
		if k > 0 {
			parent = olds[(k*7919)%k]
		}
		i, isNew := views[k%3].insertFrom([]byte{byte(k), byte(k >> 8), 9, byte(k % 5)}, 0, parent)
		if !isNew {
			t.Fatalf("vector %d found stored", k)
		}
		olds = append(olds, i)
		parents[i] = parent
		if s.wantGrow() {
			s.grow()
		}
	}
	ss, renumber := s.compressed()
	if ss == nil {
		t.Fatal("no compressed store without a limit")
	}
	defer ss.Free()
	if ss.Len() != len(olds) {
		t.Fatalf("%d states compressed, want %d", ss.Len(), len(olds))
	}
	seen := map[Index]bool{}
	for _, old := range olds {
		i := renumber(old)
		if seen[i] {
			t.Fatalf("two states renumbered %d", i)
		}
		seen[i] = true
		if got, want := ss.Get(nil, i), s.get(old); string(got) != string(want) {
			t.Fatalf("state %d (was %d): %v, want %v", i, old, got, want)
		}
		if got, want := ss.Parent(i), renumber(parents[old]); got != want {
			t.Fatalf("state %d (was %d): parent %d, want %d", i, old, got, want)
		}
	}
	// A limit that does not take the compressed copy leaves the store plain.
	s.SetLimit(s.Bytes() + 1)
	if ss, _ := s.compressed(); ss != nil {
		t.Error("compressed beyond the limit")
	}
}

// A violation found after the store turned compressed has a counterexample
// that the renumbered parents lead to.
func TestParallelDFSViolationAfterCompressing(t *testing.T) {
	_, plain := run(t, &counters{k: 7, n: 8, endOK: true}, Options{Order: DepthFirst, Workers: 2})
	after := 0
	for _, bad := range [][]byte{{7, 7, 7, 7, 7, 7, 7}, {0, 0, 0, 0, 0, 0, 7}, {3, 4, 5, 6, 7, 0, 1}, {7, 0, 7, 0, 7, 0, 7}, {1, 2, 3, 4, 5, 6, 7}} {
		m := &checkedCounters{counters{k: 7, n: 8, endOK: true, bad: bad}}
		limit := memoryLimit(plain.StoreBytes * 3 / 4)
		r, st := run(t, m, Options{Order: DepthFirst, Workers: 2, MemoryLimit: limit, AutoCompress: true})
		c := checkViolation(t, r, state.KindInvariant)
		if varString(c.Final) != varString(m.Decode(bad)) {
			t.Errorf("counterexample ends in %s, want %s", varString(c.Final), varString(m.Decode(bad)))
		}
		for _, s := range c.Steps {
			if strings.Contains(s.Note, "not deterministic") {
				t.Fatalf("bad %v: a step of the counterexample is no transition: %+v", bad, s)
			}
		}
		if len(st.Extra) > 0 && st.Extra[len(st.Extra)-1].Name == compressedFigure(0).Name {
			after++
		}
	}
	if after == 0 {
		t.Error("no violation was found after the store turned compressed: the test proves nothing")
	}
}
