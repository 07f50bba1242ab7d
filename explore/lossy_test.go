package explore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"ftmc/state"
	"ftmc/trace"
)

var lossyModes = []LossyMode{Bitstate, HashCompact}

// replays checks that c is a path of m: it starts in an initial state and
// each step is a transition of the model (buildCounterexample notes a step
// that is not).
func replays(t *testing.T, m state.Model, c *trace.Counterexample) {
	t.Helper()
	var init []byte
	m.Initial(func(v []byte) {
		if init == nil {
			init = append([]byte(nil), v...)
		}
	})
	if got, want := varString(c.Initial), varString(m.Decode(init)); got != want {
		t.Errorf("counterexample starts in %s, want the initial state %s", got, want)
	}
	for _, s := range c.Steps {
		if strings.Contains(s.Note, "no transition") {
			t.Errorf("step %d is no transition of the model: %s", s.Num, s.Note)
		}
	}
}

// A lossy search reports the violations it finds, with the stack as the
// counterexample, as the exact depth-first search does.
func TestLossyViolations(t *testing.T) {
	for _, mode := range lossyModes {
		t.Run(mode.String(), func(t *testing.T) {
			phil := &philosophers{n: 5}
			r, st := run(t, phil, Options{Lossy: mode})
			c := checkViolation(t, r, state.KindInvalidEnd)
			replays(t, phil, c)
			want := "phil[0]=1 phil[1]=1 phil[2]=1 phil[3]=1 phil[4]=1 fork[0]=1 fork[1]=2 fork[2]=3 fork[3]=4 fork[4]=5"
			if got := varString(c.Final); got != want {
				t.Errorf("final state %s, want %s", got, want)
			}
			if st.Storage != mode.String() || st.Complete {
				t.Errorf("storage %q, complete %v", st.Storage, st.Complete)
			}

			ring := &ring{m: 7, target: 3, laps: 2}
			r, _ = run(t, ring, Options{Lossy: mode, LossyBits: 24})
			c = checkViolation(t, r, state.KindAssertion)
			replays(t, ring, c)
			if len(c.Steps) != 17 || varString(c.Final) != "token=2 lap=2" {
				t.Errorf("%d steps to %s, want 17 to token=2 lap=2", len(c.Steps), varString(c.Final))
			}

			inv := &checkedCounters{counters{k: 3, n: 5, endOK: true, bad: []byte{3, 2, 1}}}
			r, _ = run(t, inv, Options{Lossy: mode, LossyBits: 24})
			c = checkViolation(t, r, state.KindInvariant)
			replays(t, inv, c)
			if got := varString(c.Final); got != "c0=3 c1=2 c2=1" {
				t.Errorf("final %s", got)
			}
		})
	}
}

// A lossy search that finds no violation says unknown, with the states
// stored and the probability of a miss, never holds. On a model of 10^4
// states, 64-bit fingerprints and a bit array of 2^28 bits are expected
// to miss none (the estimates are about 10^-12 and 10^-8): the figures
// are those of the exact depth-first search.
func TestLossyNeverHolds(t *testing.T) {
	m := &counters{k: 4, n: 10, endOK: true}
	_, exact := run(t, m, Options{Order: DepthFirst})
	for _, mode := range lossyModes {
		t.Run(mode.String(), func(t *testing.T) {
			r, st := run(t, m, Options{Lossy: mode, LossyBits: 28})
			if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "probability") || !strings.Contains(r.Reason, "10000 states stored") {
				t.Fatalf("result %+v, want unknown with the states and the probability of a miss", r)
			}
			if st.States != exact.States || st.Transitions != exact.Transitions || st.Matched != exact.Matched || st.Depth != exact.Depth {
				t.Errorf("states %d transitions %d matched %d depth %d, want those of the exact search: %d %d %d %d",
					st.States, st.Transitions, st.Matched, st.Depth, exact.States, exact.Transitions, exact.Matched, exact.Depth)
			}
			if st.Complete || st.Storage != mode.String() {
				t.Errorf("complete %v, storage %q", st.Complete, st.Storage)
			}
		})
	}
}

// Growing vectors (a length that changes along a path) go through the
// arena as any others.
func TestLossyGrowingVectors(t *testing.T) {
	m := &spawner{p: 4, c: 5}
	r, st := run(t, m, Options{Lossy: HashCompact})
	if r.Verdict != trace.Unknown || st.States != m.states() || st.VectorBytes != 4 {
		t.Errorf("%s, %d states (want %d), vector %d", r.Verdict, st.States, m.states(), st.VectorBytes)
	}
}

// A bit array of 2^10 bits holds at most 1024 states (each sets a bit
// that was clear): on a model of 10^5 states the search stores far fewer,
// and still never says holds.
func TestBitstateTinyArray(t *testing.T) {
	m := &counters{k: 5, n: 10, endOK: true}
	r, st := run(t, m, Options{Lossy: Bitstate, LossyBits: 10})
	if st.States > 1<<10 || st.States == 0 {
		t.Errorf("%d states stored in 2^10 bits", st.States)
	}
	if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "probability that a state was missed ≤ 1 ") {
		t.Errorf("result %+v, want unknown with a probability of 1", r)
	}
}

// The arena keeps the vectors of the stack and of the pending states
// only: on the counters, at most the depth times the branching.
func TestLossyArenaReused(t *testing.T) {
	m := &counters{k: 4, n: 10, endOK: true}
	s := newSearch(context.Background(), m, Options{Order: DepthFirst, Lossy: HashCompact})
	defer s.store.Free()
	defer s.watch.Close()
	if err := s.initial(); err != nil {
		t.Fatal(err)
	}
	s.dfs()
	l := s.store.lossy
	if bound := int(s.depth+2) * (m.k + 1); l.arena.live > bound || s.store.Len() != 10000 {
		t.Errorf("the arena held %d vectors at once for %d states of depth %d, want at most %d", l.arena.live, s.store.Len(), s.depth, bound)
	}
	if l.arena.len() != 0 || len(l.arena.chunks) != 0 {
		t.Errorf("%d vectors in %d chunks left in the arena after the search", l.arena.len(), len(l.arena.chunks))
	}
}

// Partial-order reduction under lossy storage uses the proviso "every
// ample successor is new": the toggler's cycle of local steps does not
// hide process 1's assertion.
func TestLossyReductionProviso(t *testing.T) {
	for _, mode := range lossyModes {
		r, st, err := Run(context.Background(), &toggler{}, Options{Lossy: mode, Reduce: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Violated || r.Kind != state.KindAssertion {
			t.Errorf("%v: %s (%s), want the assertion violated", mode, r.Verdict, r.Kind)
		}
		if st.Reduction != "partial-order" || st.AmpleStates == 0 {
			t.Errorf("%v: reduction %q, %d ample states", mode, st.Reduction, st.AmpleStates)
		}
		m := &reducedCounters{counters{k: 3, n: 4}}
		r, st = run(t, m, Options{Lossy: mode, Reduce: true})
		c := checkViolation(t, r, state.KindInvalidEnd)
		replays(t, m, c)
		if st.AmpleStates == 0 {
			t.Errorf("%v: no state expanded with an ample set", mode)
		}
	}
}

func TestLossyCompressRefused(t *testing.T) {
	r, _, err := Run(context.Background(), &counters{k: 2, n: 3}, Options{Lossy: HashCompact, Compress: true})
	if !errors.Is(err, ErrLossyCompress) || r.Verdict != trace.Unknown {
		t.Errorf("%v, %s; want ErrLossyCompress, unknown", err, r.Verdict)
	}
}

// A lossy search is depth-first on one worker whatever the options say.
func TestLossyIsDepthFirst(t *testing.T) {
	r, _ := run(t, &ring{m: 7, target: 3, laps: 2}, Options{Lossy: Bitstate, Workers: 2})
	if r.Verdict != trace.Violated {
		t.Fatalf("%s", r.Verdict)
	}
	m := &counters{k: 3, n: 5}
	r, _ = run(t, m, Options{Lossy: Bitstate, Workers: 2, Order: BreadthFirst})
	c := checkViolation(t, r, state.KindInvalidEnd)
	// The breadth-first counterexample has 12 steps; the depth-first
	// stack follows counter 0 first and is no shorter.
	if len(c.Steps) < 12 {
		t.Errorf("%d steps", len(c.Steps))
	}
}

// The memory limit counts the bit array: one of 2^34 bits (2 GiB, mapped
// lazily) does not fit 1 GB.
func TestBitstateMemoryLimit(t *testing.T) {
	r, st := run(t, &counters{k: 2, n: 3, endOK: true}, Options{Lossy: Bitstate, LossyBits: 34, MemoryLimit: 1e9})
	if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "memory limit") {
		t.Errorf("result %+v, want unknown for the memory limit", r)
	}
	if st.StoreBytes < 1<<31 {
		t.Errorf("store bytes %d, want the bit array's 2 GiB", st.StoreBytes)
	}
}

func TestOmission(t *testing.T) {
	p, how := Omission(HashCompact, 0, 1<<20)
	if p != math.Exp2(-25) || !strings.Contains(how, "n²/2^65") {
		t.Errorf("hash compaction, 2^20 states: %g (%s), want 2^-25", p, how)
	}
	if p, _ := Omission(HashCompact, 0, 1<<40); p != 1 {
		t.Errorf("hash compaction, 2^40 states: %g, want 1", p)
	}
	exact := func(logBits int, n int64) float64 {
		m, sum := math.Exp2(float64(logBits)), 0.0
		for i := range n {
			sum += math.Pow(1-math.Exp(-3*float64(i)/m), 3)
		}
		return sum
	}
	// Small n: the sum term by term.
	if p, _ := Omission(Bitstate, 20, 1000); math.Abs(p-exact(20, 1000)) > 1e-12*exact(20, 1000) {
		t.Errorf("bitstate 2^20 bits, 1000 states: %g, want %g", p, exact(20, 1000))
	}
	// Large n: by blocks, an upper bound close to the sum.
	n := int64(3 << 20)
	want := exact(36, n)
	if p, _ := Omission(Bitstate, 36, n); p < want || p > 1.01*want {
		t.Errorf("bitstate 2^36 bits, %d states: %g, want at least %g and close", n, p, want)
	}
	if p, _ := Omission(Bitstate, 10, 1000); p != 1 {
		t.Errorf("bitstate 2^10 bits, 1000 states: %g, want 1", p)
	}
}

// The arena against a slice of vectors: random pushes of random lengths
// (some longer than a chunk) and cuts, every vector read back after each.
func TestVecArena(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var a vecArena
	var want [][]byte
	for step := range 20000 {
		if rng.IntN(4) == 0 && len(want) > 0 {
			n := rng.IntN(len(want) + 1)
			a.truncate(n)
			want = want[:n]
		} else {
			v := make([]byte, rng.IntN(200)+1)
			if rng.IntN(1000) == 0 {
				v = make([]byte, maxArenaChunk+rng.IntN(100))
			}
			for k := range v {
				v[k] = byte(rng.Uint32())
			}
			if i := a.push(v); int(i) != len(want) {
				t.Fatalf("step %d: pushed as %d, want %d", step, i, len(want))
			}
			want = append(want, v)
		}
		if a.len() != len(want) {
			t.Fatalf("step %d: %d vectors, want %d", step, a.len(), len(want))
		}
		if step%97 == 0 || a.len() < 50 {
			for i, v := range want {
				if string(a.get(Index(i))) != string(v) {
					t.Fatalf("step %d: vector %d differs", step, i)
				}
			}
		}
	}
	if a.bytes() <= 0 {
		t.Error("no bytes")
	}
}

// The store's bytes count the arena at its largest: 10^4 vectors of 100
// bytes, then cut back to none, still count 10^6 bytes.
func TestLossyBytesAtPeak(t *testing.T) {
	s := Options{Lossy: HashCompact}.searchStore()
	defer s.Free()
	v := make([]byte, 100)
	for i := range 10000 {
		v[0], v[1] = byte(i), byte(i>>8)
		if _, isNew := s.Insert(v); !isNew {
			t.Fatalf("vector %d is not new", i)
		}
	}
	s.lossy.release(nil, nil)
	if s.lossy.arena.len() != 0 || s.Len() != 10000 {
		t.Fatalf("%d vectors in the arena, %d states stored; want 0, 10000", s.lossy.arena.len(), s.Len())
	}
	if b := s.Bytes(); b < s.tableBytes()+10000*100 {
		t.Errorf("store bytes %d, want at least the table's %d and 10^6", b, s.tableBytes())
	}
}

// A bit array of a size out of bounds is an error of Run, not a panic.
func TestBitstateBitsRefused(t *testing.T) {
	for _, b := range []int{2, 41} {
		r, _, err := Run(context.Background(), &counters{k: 2, n: 3}, Options{Lossy: Bitstate, LossyBits: b})
		if err == nil || r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "expected 3 to 40") {
			t.Errorf("2^%d bits: %v, %+v; want an error", b, err, r)
		}
	}
}

// graph is a pseudo-random graph of n nodes with up to 4 edges each and
// three initial nodes; a node's vector is its number and as many padding
// bytes as the number modulo 3, so that lengths vary.
type graph struct {
	n   int
	buf []byte
}

func (g *graph) Name() string { return "graph" }

func (g *graph) vec(x int) []byte {
	g.buf = append(g.buf[:0], byte(x), byte(x>>8), byte(x>>16))
	for range x % 3 {
		g.buf = append(g.buf, 0xee)
	}
	return g.buf
}

func (g *graph) Initial(emit func([]byte)) error {
	for _, x := range []int{0, g.n / 3, g.n / 2} {
		emit(g.vec(x))
	}
	return nil
}

func (g *graph) Next(s []byte, sink state.Sink) {
	x := int(s[0]) | int(s[1])<<8 | int(s[2])<<16
	h := mix(uint64(x)+hk0, hk1)
	for j := range int(h % 5) {
		y := int(mix(h+uint64(j), hk2) % uint64(g.n))
		sink.Succ(state.Trans{Proc: int32(j)}, g.vec(y))
	}
}

func (g *graph) ValidEnd([]byte) bool                           { return true }
func (g *graph) Explain(state.Trans, []byte, []byte) trace.Step { return trace.Step{} }
func (g *graph) Decode(s []byte) []trace.Var                    { return []trace.Var{{Name: "x", Value: string(s)}} }
func (g *graph) Fork() state.Model                              { return &graph{n: g.n} }

// On pseudo-random graphs, with and without a depth bound, hash
// compaction (expected to miss nothing on 10^5 states) explores what the
// exact depth-first search explores: reused indices never give a vector
// that is not the state's.
func TestLossyRandomGraphs(t *testing.T) {
	for _, n := range []int{100, 5000, 100000} {
		for _, depth := range []int{0, 7} {
			m := &graph{n: n}
			r0, exact := run(t, m, Options{Order: DepthFirst, MaxDepth: depth})
			r1, st := run(t, m, Options{Lossy: HashCompact, MaxDepth: depth})
			if st.States != exact.States || st.Transitions != exact.Transitions || st.Matched != exact.Matched || st.Depth != exact.Depth || st.VectorBytes != exact.VectorBytes {
				t.Errorf("n %d depth %d: %+v\nexact %+v", n, depth, st, exact)
			}
			if r0.Verdict == trace.Violated || r1.Verdict != trace.Unknown {
				t.Errorf("n %d depth %d: exact %s, lossy %s", n, depth, r0.Verdict, r1.Verdict)
			}
			if n == 100000 && depth == 0 && exact.States < 10000 {
				t.Errorf("%d states: the graph is too small a test", exact.States)
			}
		}
	}
}

// The fingerprint table grows within the memory limit: a search of 8^8
// states (a shallow stack) with 8 MB to spare stops with the limit's
// reason, unknown, when its table of 2^19 slots (4 MiB) cannot double and
// is 90% full.
func TestHashCompactMemoryLimit(t *testing.T) {
	m := &counters{k: 8, n: 8, endOK: true}
	const store = 8 << 20
	limit := memoryLimit(store)
	r, st := run(t, m, Options{Lossy: HashCompact, MemoryLimit: limit})
	if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, fmt.Sprintf("memory limit %s reached after %d states", FormatBytes(limit), st.States)) {
		t.Errorf("result %+v, %d states", r, st.States)
	}
	if st.StoreBytes > store*21/20 || st.States != 1<<19/10*9 {
		t.Errorf("%d states in %d bytes; want %d", st.States, st.StoreBytes, 1<<19/10*9)
	}
}
