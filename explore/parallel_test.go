package explore

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"

	"ftmc/state"
	"ftmc/trace"
)

// parallelTestModels are the models the parallel searches are compared
// with the sequential ones on: some hold, some do not.
var parallelTestModels = []struct {
	name string
	m    func() state.Model
}{
	{"counters", func() state.Model { return &counters{k: 4, n: 10, endOK: true} }},
	{"counters-wrap", func() state.Model { return &counters{k: 3, n: 20, wrap: true} }},
	{"spawner", func() state.Model { return &spawner{p: 5, c: 6} }},
	{"philosophers", func() state.Model { return &philosophers{n: 6} }},
	{"ring", func() state.Model { return &ring{m: 7, target: 3, laps: 2} }},
	{"invariant", func() state.Model {
		return &checkedCounters{counters{k: 3, n: 9, endOK: true, bad: []byte{5, 0, 7}}}
	}},
}

// The parallel search must store the same states, count the same
// transitions and reach the same depth as the sequential one, and its
// counterexamples must be as short, with plain stores and compressed ones.
func TestParallelSameAsSequential(t *testing.T) {
	for _, mc := range parallelTestModels {
		t.Run(mc.name, func(t *testing.T) {
			want, wst := run(t, mc.m(), Options{})
			for _, c := range []struct {
				workers  int
				compress bool
			}{{2, false}, {3, false}, {4, false}, {2, true}, {3, true}} {
				workers := c.workers
				got, gst := run(t, mc.m(), Options{Workers: workers, Compress: c.compress})
				if got.Verdict != want.Verdict || got.Kind != want.Kind {
					t.Fatalf("%d workers: %s (%s), want %s (%s)", workers, got.Verdict, got.Kind, want.Verdict, want.Kind)
				}
				if want.Verdict == trace.Holds {
					if gst.States != wst.States || gst.Transitions != wst.Transitions || gst.Matched != wst.Matched || gst.Depth != wst.Depth || !gst.Complete {
						t.Errorf("%d workers: %d states %d transitions %d matched depth %d; want %d %d %d %d",
							workers, gst.States, gst.Transitions, gst.Matched, gst.Depth, wst.States, wst.Transitions, wst.Matched, wst.Depth)
					}
					// Each state is expanded once, by whichever worker took it.
					if gst.Expanded != wst.Expanded {
						t.Errorf("%d workers: %d states expanded, want %d", workers, gst.Expanded, wst.Expanded)
					}
					continue
				}
				c := checkViolation(t, got, want.Kind)
				if len(c.Steps) != len(want.Counterexample.Steps) {
					t.Errorf("%d workers: counterexample of %d steps, want %d", workers, len(c.Steps), len(want.Counterexample.Steps))
				}
				if varString(c.Final) != varString(want.Counterexample.Final) && mc.name != "philosophers" {
					t.Errorf("%d workers: final %s, want %s", workers, varString(c.Final), varString(want.Counterexample.Final))
				}
			}
		})
	}
}

// A worker that has expanded its own share of a level goes on with the
// chunks the others have not taken yet, but not with those of a worker
// whose store is compressed, whose chunks hold no vectors: that worker
// expands them itself. Each state is expanded once, and a worker keeps
// no more than maxFree chunks for reuse.
func TestParallelSharesLevel(t *testing.T) {
	for _, compress := range []bool{false, true} {
		// Counters over 0..0: no state has a successor, so no chunk is reused.
		p := newParallel(context.Background(), &counters{k: 4, n: 1, endOK: true}, Options{Workers: 2, Compress: compress})
		w0, w1 := p.workers[0], p.workers[1]
		const chunks = maxFree + 2
		const n = (chunks-1)*chunkStates + 1
		for i := range n {
			v := []byte{byte(i % 20), byte(i / 20 % 20), byte(i / 400), 0}
			if _, isNew := w1.insert(v, Hash(v), NoIndex); !isNew {
				t.Fatalf("state %v not new", v)
			}
		}
		w0.shareLevel(0)
		w1.shareLevel(0)
		if got := len(p.work[0][1].chunks); got != chunks {
			t.Fatalf("compress %v: %d chunks, want %d", compress, got, chunks)
		}
		w0.expandLevel(p.work[0])
		want := int64(n)
		if compress {
			want = 0
		}
		if w0.expanded != want || w1.expanded != 0 {
			t.Errorf("compress %v: the idle worker expanded %d states, want %d", compress, w0.expanded, want)
		}
		w1.expandLevel(p.work[0])
		if w0.expanded+w1.expanded != n {
			t.Errorf("compress %v: %d+%d states expanded, want %d", compress, w0.expanded, w1.expanded, n)
		}
		if len(w0.free) > maxFree || len(w1.free) > maxFree {
			t.Errorf("compress %v: %d and %d chunks kept for reuse, want at most %d", compress, len(w0.free), len(w1.free), maxFree)
		}
		for _, w := range p.workers {
			w.store.Free()
		}
	}
}

func TestParallelLimits(t *testing.T) {
	big := func() state.Model { return &counters{k: 8, n: 16, wrap: true} }
	r, st := run(t, big(), Options{Workers: 2, TimeLimit: 200 * time.Millisecond})
	if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "time limit 200ms reached after ") || st.Complete || st.States == 0 {
		t.Errorf("time: %+v", r)
	}
	// The limit is checked every few milliseconds: the store may pass it by
	// what a few milliseconds add, not more.
	r, st = run(t, big(), Options{Workers: 2, MemoryLimit: memoryLimit(48 << 20)})
	if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "memory limit ") || st.StoreBytes > 48<<20*21/20 || st.States < 100000 {
		t.Errorf("memory: %+v, store %d bytes", r, st.StoreBytes)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	r, _, err := Run(ctx, big(), Options{Workers: 3})
	if err != nil || r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "interrupted after ") {
		t.Errorf("cancel: %+v %v", r, err)
	}
	r, st = run(t, &counters{k: 3, n: 10, wrap: true}, Options{Workers: 2, MaxDepth: 5})
	if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "depth limit 5 reached") || st.Depth != 5 {
		t.Errorf("depth: %+v, depth %d", r, st.Depth)
	}
	// A search whose time is spent, whose context is done or whose memory
	// is over the limit before it starts stores nothing, however small
	// the model, as the sequential search.
	small := func() state.Model { return &counters{k: 2, n: 3, endOK: true} }
	r, st = run(t, small(), Options{Workers: 2, TimeLimit: time.Second, Since: time.Now().Add(-2 * time.Second)})
	if r.Verdict != trace.Unknown || r.Reason != "time limit 1s reached after 0 states" || st.States != 0 {
		t.Errorf("time spent: %+v, %d states", r, st.States)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	r, st, _ = Run(ctx, small(), Options{Workers: 2})
	if r.Verdict != trace.Unknown || r.Reason != "interrupted after 0 states" || st.States != 0 {
		t.Errorf("cancelled: %+v, %d states", r, st.States)
	}
	r, st = run(t, small(), Options{Workers: 2, MemoryLimit: 1 << 20})
	if r.Verdict != trace.Unknown || r.Reason != "memory limit 1.05 MB reached after 0 states" || st.States != 0 {
		t.Errorf("memory: %+v, %d states", r, st.States)
	}
}

func TestParallelProgress(t *testing.T) {
	var reports, queued int
	r, _ := run(t, &counters{k: 8, n: 16, wrap: true}, Options{Workers: 2, TimeLimit: 300 * time.Millisecond,
		ProgressInterval: time.Millisecond, Progress: func(p Progress) {
			reports++
			if p.States <= 0 || p.Elapsed <= 0 || p.Queue < 0 || p.Queue > p.States {
				t.Errorf("progress %+v", p)
			}
			if p.Queue > 0 {
				queued++
			}
		}})
	// The search is cut short in the middle of a level: states wait.
	if r.Verdict != trace.Unknown || reports == 0 || queued == 0 {
		t.Errorf("%+v after %d reports, %d with states queued", r, reports, queued)
	}
}

// TestCompressedParallelSendsRoots: with compressed stores, which share
// their nodes, the worker that expands a state builds its successors'
// trees against the state's, a few node lookups each whichever worker owns
// them, and the owner looks up their roots and no node; the owner then
// holds the successors.
func TestCompressedParallelSendsRoots(t *testing.T) {
	p := newParallel(context.Background(), &counters{k: 2, n: 3}, Options{Workers: 2, Compress: true})
	if !p.rooted {
		t.Fatal("compressed workers do not share their nodes")
	}
	w0, w1 := p.workers[0], p.workers[1]
	rng := rand.New(rand.NewPCG(13, 14))
	for range 200 {
		v := make([]byte, 66) // 17 words: 16 nodes, 4 above a word
		for k := range v {
			v[k] = byte(rng.IntN(4))
		}
		w0.insert(v, Hash(v), NoIndex)
	}
	for round := range 10 {
		var succs [][]byte
		before := w0.store.tree.lookups
		for range 16 {
			local := rng.IntN(w0.store.Len())
			v := append([]byte(nil), w0.store.Get(Index(local))...)
			w0.cur = gid(local, 0)
			for range 4 {
				u := append([]byte(nil), v...)
				binary.LittleEndian.PutUint32(u[4*rng.IntN(16):], 100+rng.Uint32N(1000))
				w0.send(1, Hash(u), u, -1, false)
				succs = append(succs, u)
			}
		}
		if got, want := w0.store.tree.lookups-before, 4*len(succs); got > want {
			t.Errorf("round %d: %d node lookups to send %d successors, want at most %d", round, got, len(succs), want)
		}
		msg := w0.out[1]
		w0.out[1] = nil
		before = w1.store.tree.lookups
		w1.process(msg)
		if got := w1.store.tree.lookups - before; got != 0 {
			t.Errorf("round %d: the owner looked up %d nodes", round, got)
		}
		for _, u := range succs {
			i := w1.store.Lookup(u, Hash(u))
			if i == NoIndex || string(w1.store.Get(i)) != string(u) {
				t.Fatalf("round %d: the owner does not hold a successor it was sent", round)
			}
		}
	}
}

// A message's entry is 24 bytes: the messages' bytes are what goes from
// one core to another.
func TestParallelMessageEntry(t *testing.T) {
	if n := unsafe.Sizeof(msgEntry{}); n != 24 {
		t.Errorf("a message entry takes %d bytes, want 24", n)
	}
}

// TestCompressedParallelDiffsAgainstParents: a worker's compressed store
// looks up only the nodes above the changed word of a successor of a state
// it stores, diffed against the state's Get that its expansion kept,
// though the states' successors come one state after another.
func TestCompressedParallelDiffsAgainstParents(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	w := &pworker{p: &parallel{}, id: 1, store: NewCompressedStore(0)}
	defer w.store.Free()
	randVec := func() []byte {
		v := make([]byte, 66) // 17 words: 16 nodes, 4 above a word
		for k := range v {
			v[k] = byte(rng.IntN(4))
		}
		return v
	}
	for range 200 {
		w.store.Insert(randVec())
	}
	succ := func(msg *message, parent Index, v []byte) {
		u := append([]byte(nil), v...)
		binary.LittleEndian.PutUint32(u[4*rng.IntN(16):], 100+rng.Uint32N(1000))
		msg.ents = append(msg.ents, msgEntry{parent: parent, len: uint32(len(u)), ample: -1})
		msg.data = append(msg.data, u...)
	}
	lookups := func(msg *message) int {
		before := w.store.tree.lookups
		w.prefetch(msg)
		n := w.store.tree.lookups - before
		off := uint32(0)
		for _, e := range msg.ents {
			w.store.Insert(msg.data[off : off+e.len])
			off += e.len
		}
		return n
	}
	for round := range 10 {
		// Successors of states of this worker, expanded one after another.
		var own message
		for range 16 {
			local := Index(rng.IntN(w.store.Len()))
			v := append([]byte(nil), w.store.Get(local)...)
			for range 4 {
				succ(&own, gid(int(local), w.id), v)
			}
		}
		if got, want := lookups(&own), 4*len(own.ents); got > want {
			t.Errorf("round %d: %d node lookups for %d successors of this worker's states, want at most %d", round, got, len(own.ents), want)
		}
	}
}
