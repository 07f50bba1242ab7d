package explore

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// checkAgainstMap inserts vectors from gen into a Store and a Go map and
// checks that both agree on newness and indices, then reads every state back.
func checkAgainstMap(t *testing.T, s *Store, n int, gen func(i int) []byte) {
	t.Helper()
	ref := map[string]Index{}
	var order []string
	for i := 0; i < n; i++ {
		v := gen(i)
		idx, isNew := s.Insert(v)
		want, seen := ref[string(v)]
		if isNew == seen {
			t.Fatalf("insert %d (%x): isNew=%v, but seen before=%v", i, v, isNew, seen)
		}
		if seen && idx != want {
			t.Fatalf("insert %d: index %d, want %d", i, idx, want)
		}
		if !seen {
			if int(idx) != len(order) {
				t.Fatalf("insert %d: new index %d, want %d", i, idx, len(order))
			}
			ref[string(v)] = idx
			order = append(order, string(v))
		}
	}
	if s.Len() != len(order) {
		t.Fatalf("Len = %d, want %d", s.Len(), len(order))
	}
	for i, v := range order {
		if got := s.Get(Index(i)); string(got) != v {
			t.Fatalf("Get(%d) = %x, want %x", i, got, v)
		}
	}
}

func TestStoreFixedWidth(t *testing.T) {
	s := NewStore(0)
	defer s.Free()
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 1_000_000
	// Values from a range smaller than n, so about half the inserts repeat.
	checkAgainstMap(t, s, n, func(int) []byte {
		var b [12]byte
		binary.LittleEndian.PutUint64(b[:], rng.Uint64N(n))
		return b[:]
	})
	if s.width != 12 {
		t.Errorf("width = %d, want fixed width 12", s.width)
	}
	if got := s.MaxVector(); got != 12 {
		t.Errorf("MaxVector = %d, want 12", got)
	}
}

// randomLengths gives the i-th of n vectors: 20 bytes for the first 1000,
// then lengths 0..300, with about half of them repeating an earlier one.
func randomLengths(rng *rand.Rand, n int) func(i int) []byte {
	return func(i int) []byte {
		l := 20
		if i >= 1000 {
			l = int(rng.Uint64N(301))
		}
		b := make([]byte, l)
		x := rng.Uint64N(uint64(n / 2))
		for j := range b {
			b[j] = byte(x >> (8 * (j % 4)))
		}
		return b
	}
}

func TestStoreVariableLength(t *testing.T) {
	s := NewStore(0)
	defer s.Free()
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 500_000
	// Lengths 0..300 (some records need a two-byte length prefix, and
	// records straddle the end of arena chunks); the first 1000 inserts all
	// have the same length, so the arena starts fixed-width and is converted.
	checkAgainstMap(t, s, n, randomLengths(rng, n))
	if s.width != -1 {
		t.Errorf("width = %d, want variable (-1)", s.width)
	}
	if len(s.vars.chunks) < 2 {
		t.Errorf("only %d arena chunks: the test does not cross chunk ends", len(s.vars.chunks))
	}
}

// TestStoreCollisions gives every vector the same hash: each lookup must then
// compare vectors, and nothing may be confused.
func TestStoreCollisions(t *testing.T) {
	s := NewStore(0)
	defer s.Free()
	const n = 3000
	for round := 0; round < 2; round++ {
		for i := 0; i < n; i++ {
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], uint32(i))
			idx, isNew := s.InsertHash(b[:], 0xdeadbeef_00000000)
			if isNew != (round == 0) || idx != Index(i) {
				t.Fatalf("round %d, vector %d: got (%d, %v)", round, i, idx, isNew)
			}
		}
	}
	// Same tag, different home slots after growth: still all found.
	if s.Len() != n {
		t.Fatalf("Len = %d, want %d", s.Len(), n)
	}
}

// TestStoreEmptyVector: a model whose state is empty has exactly one state.
func TestStoreEmptyVector(t *testing.T) {
	s := NewStore(0)
	defer s.Free()
	if _, isNew := s.Insert(nil); !isNew {
		t.Fatal("first empty vector not new")
	}
	if _, isNew := s.Insert([]byte{}); isNew {
		t.Fatal("second empty vector new")
	}
	if i, isNew := s.Insert([]byte{0}); !isNew || i != 1 {
		t.Fatalf("vector {0} = (%d, %v), want (1, true)", i, isNew)
	}
	if len(s.Get(0)) != 0 || string(s.Get(1)) != "\x00" {
		t.Fatalf("Get = %q, %q", s.Get(0), s.Get(1))
	}
}

func TestStoreLimit(t *testing.T) {
	s := NewStore(0)
	defer s.Free()
	const limit = 16 << 20
	s.SetLimit(limit)
	var b [32]byte
	i := 0
	for ; i < 10_000_000; i++ {
		binary.LittleEndian.PutUint64(b[:], uint64(i))
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
	// Everything stored before the limit is still there.
	for j := 0; j < s.Len(); j++ {
		binary.LittleEndian.PutUint64(b[:], uint64(j))
		if idx, isNew := s.Insert(b[:]); isNew || idx != Index(j) {
			t.Fatalf("state %d after full: (%d, %v)", j, idx, isNew)
		}
	}
	t.Logf("%d states in %d bytes before the limit", s.Len(), s.Bytes())
}

func TestHashSpread(t *testing.T) {
	// Vectors that differ in one counter: the top 16 bits (slot numbers of a
	// 64Ki table) must be close to uniform.
	const n = 1 << 20
	var buckets [1 << 16]int
	var b [40]byte
	for i := 0; i < n; i++ {
		b[7] = byte(i)
		b[21] = byte(i >> 8)
		b[39] = byte(i >> 16)
		buckets[Hash(b[:])>>48]++
	}
	max := 0
	for _, c := range buckets {
		max = maxInt(max, c)
	}
	// Expected 16 per bucket; a Poisson tail above 45 has probability ~1e-8.
	if max > 45 {
		t.Errorf("fullest bucket has %d entries, expected about 16", max)
	}
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func BenchmarkHash40(b *testing.B) {
	v := make([]byte, 40)
	b.SetBytes(40)
	var sink uint64
	for i := 0; i < b.N; i++ {
		v[0] = byte(i)
		sink += Hash(v)
	}
	_ = sink
}

// BenchmarkStoreInsert inserts b.N distinct 40-byte vectors, then looks each
// up once more (a matched state); ns/op is per insert+lookup pair.
func BenchmarkStoreInsert(b *testing.B) {
	s := NewStore(0)
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

// TestStoreExceptions: the first vectors are short (a Promela init before it
// has started the processes), then nearly all have one length, with a few of
// other lengths among them. The store must settle on the common length as
// its fixed width and keep the others as exceptions.
func TestStoreExceptions(t *testing.T) {
	s := NewStore(0)
	defer s.Free()
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 300_000
	checkAgainstMap(t, s, n, func(i int) []byte {
		l := 20
		switch {
		case i < 10:
			l = 2 + i // the start-up states, all different
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
	if s.width != 20 || s.nexc == 0 || s.nexc > s.Len()/100 {
		t.Errorf("width %d with %d exceptions in %d states; want width 20 and a few exceptions", s.width, s.nexc, s.Len())
	}
}
