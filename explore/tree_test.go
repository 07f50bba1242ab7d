package explore

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"ftmc/state"
	"ftmc/trace"
)

// neighbours returns vectors as a search makes them: each is a stored one
// (a random earlier vector) with a word or two changed, and now and then a
// process started (four bytes more) or a vector of a random length.
func neighbours(seed uint64, values uint32) func(i int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var seen [][]byte
	return func(i int) []byte {
		var v []byte
		switch {
		case len(seen) == 0 || rng.IntN(500) == 0:
			v = make([]byte, rng.IntN(200))
			for k := range v {
				v[k] = byte(rng.IntN(3))
			}
		default:
			v = append([]byte(nil), seen[rng.IntN(len(seen))]...)
			if len(v) < 300 && rng.IntN(100) == 0 {
				v = append(v, 1, 2, 3, 4)
			}
			for range 1 + rng.IntN(2) {
				if len(v) > 0 {
					k := rng.IntN(len(v))
					v[k] = byte(rng.Uint32N(values))
				}
			}
		}
		seen = append(seen, v)
		return v
	}
}

func TestCompressedStoreRoundTrip(t *testing.T) {
	s := NewCompressedStore(0)
	defer s.Free()
	checkAgainstMap(t, s, 400_000, neighbours(7, 5))
	if s.tree == nil || s.table != nil {
		t.Fatal("the compressed store is not compressed")
	}
	if got, want := s.MaxVector(), 0; got <= want {
		t.Errorf("MaxVector = %d", got)
	}
}

func TestCompressedStoreRandomLengths(t *testing.T) {
	s := NewCompressedStore(0)
	defer s.Free()
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 300_000
	// As TestStoreVariableLength: lengths 0..300, half the inserts repeat;
	// after the first 1000 no length dominates, so every length is kept.
	checkAgainstMap(t, s, n, randomLengths(rng, n))
	if !s.tree.lens.perState {
		t.Errorf("lengths kept as %d exceptions to %d, want per state", s.tree.lens.nexc, s.tree.lens.common)
	}
}

// TestCompressedStoreGetBetween reads states back between insertions, in
// random order, so that Get's reuse of the previous vector's subtrees and
// Insert's reuse of the previous insertion's meet every change of shape.
func TestCompressedStoreGetBetween(t *testing.T) {
	s := NewCompressedStore(0)
	defer s.Free()
	gen := neighbours(11, 3)
	rng := rand.New(rand.NewPCG(1, 1))
	var order []string
	ref := map[string]Index{}
	for i := range 100_000 {
		v := gen(i)
		idx, isNew := s.Insert(v)
		if want, seen := ref[string(v)]; seen == isNew || seen && idx != want {
			t.Fatalf("insert %d: (%d, %v), stored before as %d: %v", i, idx, isNew, want, seen)
		}
		if isNew {
			ref[string(v)] = idx
			order = append(order, string(v))
		}
		for range rng.IntN(3) {
			j := rng.IntN(len(order))
			if got := s.Get(Index(j)); string(got) != order[j] {
				t.Fatalf("after insert %d: Get(%d) = %x, want %x", i, j, got, order[j])
			}
		}
	}
}

// TestCompressedStorePadding: vectors whose words are the same once padded
// (a trailing zero byte or not) are different states.
func TestCompressedStorePadding(t *testing.T) {
	s := NewCompressedStore(0)
	defer s.Free()
	vecs := [][]byte{nil, {0}, {0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0, 0}, {1}, {1, 0}, {1, 0, 0, 0, 0}}
	for round := range 2 {
		for k, v := range vecs {
			i, isNew := s.Insert(v)
			if isNew != (round == 0) || i != Index(k) {
				t.Fatalf("round %d: Insert(%x) = (%d, %v), want (%d, %v)", round, v, i, isNew, k, round == 0)
			}
		}
	}
	for k, v := range vecs {
		if got := s.Get(Index(k)); string(got) != string(v) {
			t.Errorf("Get(%d) = %x, want %x", k, got, v)
		}
	}
}

// TestCompressedStoreExceptions: as TestStoreExceptions, the common length
// is kept once and the others as exceptions.
func TestCompressedStoreExceptions(t *testing.T) {
	s := NewCompressedStore(0)
	defer s.Free()
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 300_000
	checkAgainstMap(t, s, n, func(i int) []byte {
		l := 20
		switch {
		case i < 10:
			l = 2 + i
		case rng.Uint64N(1000) == 0:
			l = 7
		}
		b := make([]byte, l)
		x := rng.Uint64N(n)
		if i < 10 {
			x = 0
		}
		for j := range b {
			b[j] = byte(x >> (8 * (j % 8)))
		}
		return b
	})
	if l := &s.tree.lens; l.perState || l.common != 20 || l.nexc == 0 || l.nexc > s.Len()/100 {
		t.Errorf("common length %d (per state: %v) with %d exceptions in %d states; want 20 and a few", l.common, l.perState, l.nexc, s.Len())
	}
}

// TestCompressedStoreSmaller: on vectors that differ from one another in a
// word or two, as a model's states do, the compressed store takes a small
// fraction of the plain one's memory.
func TestCompressedStoreSmaller(t *testing.T) {
	plain, tree := NewStore(0), NewCompressedStore(0)
	defer plain.Free()
	defer tree.Free()
	rng := rand.New(rand.NewPCG(9, 9))
	v := make([]byte, 96)
	for tree.Len() < 500_000 {
		binary.LittleEndian.PutUint32(v[4*rng.IntN(24):], rng.Uint32N(8))
		plain.Insert(v)
		tree.Insert(v)
	}
	if plain.Len() != tree.Len() {
		t.Fatalf("%d states plain, %d compressed", plain.Len(), tree.Len())
	}
	p, c := float64(plain.Bytes())/float64(plain.Len()), float64(tree.Bytes())/float64(tree.Len())
	t.Logf("bytes per state: %.1f plain, %.1f compressed", p, c)
	if c > p/3 {
		t.Errorf("compressed %.1f bytes per state, plain %.1f: want a third or less", c, p)
	}
}

func TestCompressedStoreLimit(t *testing.T) {
	s := NewCompressedStore(0)
	defer s.Free()
	const limit = 4 << 20
	s.SetLimit(limit)
	var b [32]byte
	for i := range 10_000_000 {
		binary.LittleEndian.PutUint64(b[:], uint64(i)*0x9e3779b97f4a7c15)
		idx, isNew := s.Insert(b[:])
		if !isNew {
			if idx != NoIndex || !s.Full() {
				t.Fatalf("insert %d: (%d, %v), Full=%v", i, idx, isNew, s.Full())
			}
			break
		}
	}
	if !s.Full() {
		t.Fatal("store never became full")
	}
	if s.Bytes() > limit {
		t.Errorf("Bytes = %d, over the limit %d", s.Bytes(), limit)
	}
	for j := range s.Len() {
		binary.LittleEndian.PutUint64(b[:], uint64(j)*0x9e3779b97f4a7c15)
		if idx, isNew := s.Insert(b[:]); isNew || idx != Index(j) {
			t.Fatalf("state %d after full: (%d, %v)", j, idx, isNew)
		}
		if got := s.Get(Index(j)); string(got) != string(b[:]) {
			t.Fatalf("Get(%d) after full = %x", j, got)
		}
	}
	t.Logf("%d states in %d bytes before the limit", s.Len(), s.Bytes())
}

func BenchmarkCompressedStoreInsert(b *testing.B) {
	s := NewCompressedStore(0)
	defer s.Free()
	v := make([]byte, 40)
	for i := 0; i < b.N; i++ {
		binary.LittleEndian.PutUint64(v, uint64(i)*0x9e3779b97f4a7c15)
		s.Insert(v)
	}
	for i := 0; i < b.N; i++ {
		binary.LittleEndian.PutUint64(v, uint64(i)*0x9e3779b97f4a7c15)
		if _, isNew := s.Insert(v); isNew {
			b.Fatal("lost a state")
		}
	}
	b.ReportMetric(float64(s.Bytes())/float64(s.Len()), "B/state")
}

// TestCompressedStoreLengthCollision: two vectors with the same words once
// padded, whose roots' hashes agree in all the bits the table reads (found
// by search), are still two states: the table compares lengths.
func TestCompressedStoreLengthCollision(t *testing.T) {
	a := []byte{0x8f, 0x2c, 0x23, 0x03}
	b := []byte{0x8f, 0x2c, 0x23, 0x03, 0, 0, 0}
	p := uint64(binary.LittleEndian.Uint32(a)) << 32
	if rootHash(p, len(a))>>32 != rootHash(p, len(b))>>32 {
		t.Fatal("the roots' hashes no longer collide: the hash changed, search for another pair of lengths")
	}
	s := NewCompressedStore(0)
	defer s.Free()
	for round := range 2 {
		for k, v := range [][]byte{a, b} {
			if i, isNew := s.Insert(v); i != Index(k) || isNew != (round == 0) {
				t.Fatalf("round %d: Insert(%x) = (%d, %v)", round, v, i, isNew)
			}
		}
	}
	if string(s.Get(0)) != string(a) || string(s.Get(1)) != string(b) {
		t.Fatalf("Get = %x, %x", s.Get(0), s.Get(1))
	}
}

// TestCompressedSearch: a search on a compressed store finds the same
// states, transitions, depth, verdict and counterexample as on a plain one,
// breadth-first and depth-first, on models that hold, deadlock, fail an
// assertion, violate an invariant and grow their vectors.
func TestCompressedSearch(t *testing.T) {
	models := map[string]func() state.Model{
		"counters":     func() state.Model { return &counters{k: 4, n: 10, endOK: true} },
		"philosophers": func() state.Model { return &philosophers{n: 5} },
		"ring":         func() state.Model { return &ring{m: 7, target: 3, laps: 2} },
		"invariant":    func() state.Model { return &checkedCounters{counters{k: 3, n: 6, endOK: true, bad: []byte{3, 2, 1}}} },
		"spawner":      func() state.Model { return &spawner{p: 5, c: 6} },
	}
	for name, mk := range models {
		for _, o := range orders {
			t.Run(name+"/"+o.String(), func(t *testing.T) {
				r0, st0 := run(t, mk(), Options{Order: o})
				r1, st1 := run(t, mk(), Options{Order: o, Compress: true})
				if !reflect.DeepEqual(r0, r1) {
					t.Errorf("result plain %+v\ncompressed %+v", r0, r1)
				}
				if st0.States != st1.States || st0.Transitions != st1.Transitions || st0.Matched != st1.Matched ||
					st0.Depth != st1.Depth || st0.VectorBytes != st1.VectorBytes || st0.Complete != st1.Complete {
					t.Errorf("stats plain %+v\ncompressed %+v", st0, st1)
				}
				if st1.StoreBytes <= 0 || st1.BytesPerState <= 0 {
					t.Errorf("compressed store bytes %d, %.1f per state", st1.StoreBytes, st1.BytesPerState)
				}
			})
		}
	}
}

func TestCompressedMemoryLimit(t *testing.T) {
	for _, o := range orders {
		m := &counters{k: 8, n: 16, wrap: true}
		const store = 24 << 20
		limit := memoryLimit(store)
		r, st := run(t, m, Options{Order: o, MemoryLimit: limit, Compress: true})
		if r.Verdict != trace.Unknown || r.Reason != fmt.Sprintf("memory limit %s reached after %d states", FormatBytes(limit), st.States) {
			t.Errorf("%v: result %+v, %d states", o, r, st.States)
		}
		if st.StoreBytes > store*21/20 || st.States < 100000 {
			t.Errorf("%v: %d states in %d bytes", o, st.States, st.StoreBytes)
		}
		t.Logf("%v: %d states, %.1f bytes per state", o, st.States, st.BytesPerState)
	}
}

// TestCompressedParallel: each worker of the parallel search keeps its
// states compressed: the same counts as the plain parallel search, about
// the sequential compressed search's bytes per state, and under the memory
// limit too.
func TestCompressedParallel(t *testing.T) {
	m := func() state.Model { return &wideCounters{counters: counters{k: 6, n: 8, wrap: true}, pad: 64} }
	_, st0 := run(t, m(), Options{Workers: 2})
	_, seq := run(t, m(), Options{Compress: true})
	r, st1 := run(t, m(), Options{Workers: 2, Compress: true})
	if r.Verdict != trace.Holds || st1.States != st0.States || st1.Transitions != st0.Transitions || st1.Depth != st0.Depth {
		t.Errorf("compressed %s: %+v\nplain %+v", r.Verdict, st1, st0)
	}
	if st1.BytesPerState > seq.BytesPerState*1.2 {
		t.Errorf("compressed %.1f bytes per state with two workers, %.1f with one", st1.BytesPerState, seq.BytesPerState)
	}
	const store = 24 << 20
	limit := memoryLimit(store)
	r, st := run(t, &counters{k: 8, n: 16, wrap: true}, Options{Workers: 2, MemoryLimit: limit, Compress: true})
	if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, fmt.Sprintf("memory limit %s reached after ", FormatBytes(limit))) {
		t.Errorf("memory limit: result %+v, %d states", r, st.States)
	}
	if st.StoreBytes > store*21/20 || st.States < 100000 {
		t.Errorf("memory limit: %d states in %d bytes", st.States, st.StoreBytes)
	}
	t.Logf("%d states, %.1f bytes per state; one worker %.1f", st0.States, st1.BytesPerState, seq.BytesPerState)
}

// modelLike inserts into s, breadth-first, successors of each stored state
// as a model makes them (its vector with a word or two set to a small
// value) until s holds n states or no state is left to expand, calling each
// after every insertion.
func modelLike(s *Store, n int, each func()) {
	rng := rand.New(rand.NewPCG(3, 4))
	v := make([]byte, 66)
	s.Insert(v)
	for i := 0; i < s.Len() && s.Len() < n; i++ {
		for range 9 {
			copy(v, s.Get(Index(i)))
			for range 1 + rng.IntN(2) {
				binary.LittleEndian.PutUint32(v[4*rng.IntN(16):], rng.Uint32N(3))
			}
			s.Insert(v)
			each()
		}
	}
}

// TestCompressedStoreBytesPerState: on a model's stream of states, the
// compressed store holds at most 16 bytes a state wherever in the growth
// of its tables the search ends, from the size where the tables' fixed
// start no longer counts.
func TestCompressedStoreBytesPerState(t *testing.T) {
	s := NewCompressedStore(0)
	defer s.Free()
	worst, at, growths, size := 0.0, 0, 0, len(s.tree.roots.slots)
	modelLike(s, 1_500_000, func() {
		if n := len(s.tree.roots.slots); n != size {
			growths, size = growths+1, n
		}
		if s.Len() < 50_000 {
			return
		}
		if b := float64(s.Bytes()) / float64(s.Len()); b > worst {
			worst, at = b, s.Len()
		}
	})
	t.Logf("%d states, %d nodes, %d growths of the roots' table: at most %.2f bytes a state (at %d states), %.2f at the end",
		s.Len(), s.tree.nodes.len(), growths, worst, at, float64(s.Bytes())/float64(s.Len()))
	if s.Len() < 1_500_000 || growths < 10 {
		t.Fatalf("%d states, %d growths: the stream is too short to cross the growth cycle", s.Len(), growths)
	}
	if worst > 16 {
		t.Errorf("%.2f bytes a state at %d states, want at most 16", worst, at)
	}
}

// BenchmarkCompressedStoreModel inserts a model's stream of states, a
// million of them, into a new compressed store.
func BenchmarkCompressedStoreModel(b *testing.B) {
	var bytes float64
	cpu0 := cpuTime()
	for b.Loop() {
		s := NewCompressedStore(0)
		modelLike(s, 1_000_000, func() {})
		bytes = float64(s.Bytes()) / float64(s.Len())
		s.Free()
	}
	b.ReportMetric(bytes, "B/state")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/1e6, "cpu-ns/state")
}

// TestPackedPairs: the roots' pairs read back as appended while their
// values widen from one bit to 32 over several chunks, take twice the bits
// of the widest value, and a widening the memory refuses leaves the column
// as it was.
func TestPackedPairs(t *testing.T) {
	var c packedPairs
	rng := rand.New(rand.NewPCG(5, 6))
	var want [][2]uint32
	yes := func(int64) bool { return true }
	for w := uint(1); w <= 32; w++ {
		top := uint32(1<<w - 1)
		for range 3000 {
			l, r := rng.Uint32()&top, rng.Uint32()&top
			if !c.append(l, r, yes) {
				t.Fatal("append refused")
			}
			want = append(want, [2]uint32{l, r})
		}
		if !c.append(top, top, yes) {
			t.Fatal("append refused")
		}
		want = append(want, [2]uint32{top, top})
		if c.w != w {
			t.Fatalf("values of %d bits packed in %d", w, c.w)
		}
		if words := (len(want) + 1<<packedShift - 1) >> packedShift * packedWords(w); c.bytes() != int64(words)*8 {
			t.Fatalf("%d pairs of %d bits in %d bytes, want %d", len(want), w, c.bytes(), words*8)
		}
		for i, p := range want {
			if l, r := c.at(i); l != p[0] || r != p[1] {
				t.Fatalf("width %d: pair %d = (%d, %d), want %v", w, i, l, r, p)
			}
		}
		if w == 20 {
			before := c.bytes()
			if c.append(1<<w, 0, func(int64) bool { return false }) || c.w != w || c.n != len(want) || c.bytes() != before {
				t.Fatalf("a refused widening: w=%d n=%d, %d bytes (were %d)", c.w, c.n, c.bytes(), before)
			}
		}
	}
}

// TestCompressedBatchLooksUpChangedPaths: the successors in a batch of
// states expanded one after another, each a word away from its state,
// look up only the nodes above that word (four, in a tree of 17 words),
// though their states and their neighbours in the batch differ in many
// words; and they are stored as in a plain store.
func TestCompressedBatchLooksUpChangedPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	s, plain := NewCompressedStore(0), NewStore(0)
	defer s.Free()
	defer plain.Free()
	randVec := func() []byte {
		v := make([]byte, 66)
		for k := range v {
			v[k] = byte(rng.IntN(4))
		}
		return v
	}
	for range 200 {
		v := randVec()
		s.Insert(v)
		plain.Insert(v)
	}
	for round := range 20 {
		var b batch
		for range batchStates {
			from := Index(rng.IntN(s.Len()))
			v := append([]byte(nil), s.Get(from)...)
			for range 8 {
				w := append([]byte(nil), v...)
				binary.LittleEndian.PutUint32(w[4*rng.IntN(16):], 100+rng.Uint32N(1000))
				b.succ(from, w)
			}
		}
		before := s.tree.lookups
		s.tree.prefetch(&b)
		succs := len(b.events)
		if got := s.tree.lookups - before; got > 4*succs {
			t.Fatalf("round %d: %d node lookups for %d successors a word away from their states, want at most %d", round, got, succs, 4*succs)
		}
		for _, e := range b.events {
			v := b.data[e.off : e.off+e.len]
			i, isNew := s.Insert(v)
			j, plainNew := plain.Insert(v)
			if i != j || isNew != plainNew {
				t.Fatalf("round %d: Insert = (%d, %v), plain (%d, %v)", round, i, isNew, j, plainNew)
			}
			if s.tree.next > len(s.tree.ready) || !s.tree.ready[s.tree.next-1].ok {
				t.Fatalf("round %d: the insertion did not use the prepared root", round)
			}
		}
	}
	for i := range s.Len() {
		if string(s.Get(Index(i))) != string(plain.Get(Index(i))) {
			t.Fatalf("Get(%d) = %x, want %x", i, s.Get(Index(i)), plain.Get(Index(i)))
		}
	}
}

// TestCompressedBatchAgrees: successors prepared a batch at a time are
// stored as when inserted one at a time and as in a plain store, those
// stored before the batch are found as it is prepared, and every
// node is one of a stored state's; in batches that mix successors of kept Gets, of states the store
// does not know (another worker's) and of other lengths, some of more than
// 64 words.
func TestCompressedBatchAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	s, one, plain := NewCompressedStore(0), NewCompressedStore(0), NewStore(0)
	defer s.Free()
	defer one.Free()
	defer plain.Free()
	lengths := []int{8, 66, 67, 300}
	for _, n := range lengths {
		v := make([]byte, n)
		s.Insert(v)
		one.Insert(v)
		plain.Insert(v)
	}
	for round := range 300 {
		var b batch
		for range batchStates {
			from := Index(rng.IntN(s.Len()))
			v := append([]byte(nil), s.Get(from)...)
			foreign := rng.IntN(3) == 0
			if foreign {
				from = Index(rng.IntN(4))
			}
			for range 1 + rng.IntN(12) {
				w := append([]byte(nil), v...)
				switch rng.IntN(20) {
				case 0:
					w = make([]byte, lengths[rng.IntN(len(lengths))])
					copy(w, v)
				case 1:
					w = append(w, 1, 2, 3, 4)
				}
				for range 1 + rng.IntN(3) {
					w[rng.IntN(len(w))] = byte(rng.IntN(4))
				}
				b.succ(from, w)
				b.events[len(b.events)-1].foreign = foreign
			}
		}
		s.tree.prefetch(&b)
		before := Index(s.Len())
		for _, e := range b.events {
			v := b.data[e.off : e.off+e.len]
			i, isNew := s.Insert(v)
			j, oneNew := one.Insert(v)
			k, plainNew := plain.Insert(v)
			if i != j || i != k || isNew != oneNew || isNew != plainNew {
				t.Fatalf("round %d: Insert = (%d, %v), one at a time (%d, %v), plain (%d, %v)", round, i, isNew, j, oneNew, k, plainNew)
			}
			r := &s.tree.ready[s.tree.next-1]
			if !r.ok {
				t.Fatalf("round %d: the insertion did not use the prepared root", round)
			}
			// A state stored before the batch is found as the batch is
			// prepared; the others are looked up as they are inserted.
			want := uint32(0)
			if !isNew && i < before {
				want = uint32(i) + 1
			}
			if r.found != want {
				t.Fatalf("round %d: state %d (new: %v, %d stored before the batch) prepared as found %d, want %d", round, i, isNew, before, r.found, want)
			}
		}
	}
	if s.Len() < 20000 {
		t.Fatalf("%d states: the batches found too few new ones", s.Len())
	}
	used := make([]bool, s.tree.nodes.len())
	var walk func(v uint32, lo, hi int)
	walk = func(v uint32, lo, hi int) {
		if hi-lo == 1 {
			return
		}
		used[v] = true
		p := s.tree.nodes.pair(v)
		mid := lo + (hi-lo+1)/2
		walk(uint32(p>>32), lo, mid)
		walk(uint32(p), mid, hi)
	}
	for i := range s.Len() {
		if string(s.Get(Index(i))) != string(plain.Get(Index(i))) {
			t.Fatalf("Get(%d) = %x, want %x", i, s.Get(Index(i)), plain.Get(Index(i)))
		}
		m := treeWords(s.tree.lens.of(Index(i)))
		l, r := s.tree.roots.pair(Index(i))
		walk(l, 0, (m+1)/2)
		walk(r, (m+1)/2, m)
	}
	for n, u := range used {
		if !u {
			t.Fatalf("node %d (%x) is no stored state's", n, s.tree.nodes.pair(uint32(n)))
		}
	}
}

// TestCompressedStoreChunkBlocks: with the pairs' chunks taken from
// mapped blocks from the start, the store keeps its states as a plain one
// does across the roots' widenings, each widening releases the old blocks
// (the roots' blocks never hold more than their pairs and one block), and
// the blocks count as mapped memory.
func TestCompressedStoreChunkBlocks(t *testing.T) {
	s := NewCompressedStore(0)
	defer s.Free()
	tr := s.tree
	tr.rootBlocks.from = 0
	widths := map[uint]bool{}
	gen := neighbours(13, 1000)
	checkAgainstMap(t, s, 300_000, func(i int) []byte {
		widths[tr.roots.pairs.w] = true
		if rb := &tr.rootBlocks; rb.mapped() > tr.roots.pairs.bytes()+blockWords*8 {
			t.Fatalf("after %d insertions: the roots' blocks map %d bytes for %d bytes of pairs", i, rb.mapped(), tr.roots.pairs.bytes())
		}
		return gen(i)
	})
	if len(tr.rootBlocks.maps) == 0 || len(widths) < 5 {
		t.Fatalf("%d root blocks, %d widths of the roots' pairs", len(tr.rootBlocks.maps), len(widths))
	}
	if got, want := tr.mapped(), tr.roots.mapped()+int64(len(tr.rootBlocks.maps))*blockWords*8; got != want {
		t.Errorf("mapped %d bytes, want %d", got, want)
	}
	recent := int64(0)
	if tr.recent != nil {
		recent = recentBytes
	}
	if got, want := tr.bytes(), tr.nodes.bytes.Load()+tr.roots.bytes()+tr.lens.bytes()+tr.rootBlocks.unused()+recent; got != want {
		t.Errorf("%d bytes, want %d", got, want)
	}
	s.Free()
	if tr.rootBlocks.maps != nil {
		t.Error("Free kept the blocks")
	}
}

// TestCompressedNodesRecent: once the node table is large, the nodes last
// looked up are kept in recent, by their hash, and a lookup that finds its
// pair there returns the pair's number without reading the table; the
// store still holds its states as a plain one does.
func TestCompressedNodesRecent(t *testing.T) {
	s, plain := NewCompressedStore(0), NewStore(0)
	defer s.Free()
	defer plain.Free()
	rng := rand.New(rand.NewPCG(5, 6))
	v := make([]byte, 96)
	for s.tree.nodes.len() < 2*recentFrom {
		binary.LittleEndian.PutUint32(v[4*rng.IntN(24):], rng.Uint32N(64))
		i, isNew := s.Insert(v)
		j, plainNew := plain.Insert(v)
		if i != j || isNew != plainNew {
			t.Fatalf("Insert = (%d, %v), plain (%d, %v)", i, isNew, j, plainNew)
		}
	}
	tr, nt := s.tree, s.tree.nodes
	if len(tr.recent) != 1<<recentLog {
		t.Fatalf("%d nodes, %d recent, want %d", nt.len(), len(tr.recent), 1<<recentLog)
	}
	held := 0
	for _, c := range tr.recent {
		if c.i == 0 {
			continue
		}
		held++
		if got := nt.pair(uint32(c.i - 1)); got != c.p {
			t.Fatalf("recent holds %x as node %d, whose pair is %x", c.p, c.i-1, got)
		}
	}
	if held < len(tr.recent)/2 {
		t.Errorf("recent holds %d of %d", held, len(tr.recent))
	}
	for range 1000 {
		k := uint32(rng.IntN(nt.len()))
		p := nt.pair(k)
		if got, ok := tr.putNode(uint32(p>>32), uint32(p)); !ok || got != k {
			t.Fatalf("putNode(%x) = %d, %v; want %d", p, got, ok, k)
		}
		// Now in recent, where the table is not read: with its slots
		// gone, the lookup still answers.
		tab := nt.tab.Load()
		nt.tab.Store(&nodeSlots{})
		got, ok := tr.putNode(uint32(p>>32), uint32(p))
		nt.tab.Store(tab)
		if !ok || got != k {
			t.Fatalf("putNode(%x) from recent = %d, %v; want %d", p, got, ok, k)
		}
	}
	for i := range s.Len() {
		if string(s.Get(Index(i))) != string(plain.Get(Index(i))) {
			t.Fatalf("Get(%d) differs", i)
		}
	}
}

// TestCompressedStoreBatch: vectors inserted a batch at a time
// (prepareBatch) get the indices of one-by-one insertions, the roots the
// batch found, and come back whole; a vector whose bytes differ from the
// batch's falls back to a lookup of its own.
func TestCompressedStoreBatch(t *testing.T) {
	one, batched := NewCompressedStore(0), NewCompressedStore(0)
	defer one.Free()
	defer batched.Free()
	next := neighbours(11, 6)
	var b treeBatch
	var vs [][]byte
	lookups := 0
	for round := range 3000 {
		vs = vs[:0]
		for range 1 + round%97 {
			vs = append(vs, next(0))
		}
		b.reset()
		for _, v := range vs {
			batched.tree.addBatch(&b, v)
		}
		batched.tree.prepareBatch(&b)
		for k := range b.vecs {
			if b.vecs[k].state != 1 {
				t.Fatalf("round %d: vector %d was not built", round, k)
			}
		}
		before := batched.tree.lookups
		for k, v := range vs {
			if round%10 == 9 && k == 0 {
				v = append([]byte{7}, v...) // not the batch's
			}
			i, isNew := one.Insert(v)
			j, isNewB := batched.Insert(v)
			if i != j || isNew != isNewB {
				t.Fatalf("round %d: vector %d is %d (new %v) one by one, %d (new %v) in a batch", round, k, i, isNew, j, isNewB)
			}
		}
		lookups += batched.tree.lookups - before
	}
	for i := range one.Len() {
		if got, want := batched.Get(Index(i)), one.Get(Index(i)); string(got) != string(want) {
			t.Fatalf("state %d: %v, want %v", i, got, want)
		}
	}
	// Only the vectors that were not the batch's were looked up again.
	if lookups == 0 || lookups > 300*treeWords(400) {
		t.Errorf("%d node lookups at insertion", lookups)
	}
}
