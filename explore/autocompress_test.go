package explore

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestStoreCompress: a plain store compressed in place keeps every state
// under its index, of every length, and goes on numbering new ones; one
// whose limit cannot take the compressed tables stays as it was.
func TestStoreCompress(t *testing.T) {
	s := NewStore(0)
	defer s.Free()
	rng := rand.New(rand.NewPCG(3, 4))
	var vecs [][]byte
	for len(vecs) < 20000 {
		v := make([]byte, 24, 40)
		if rng.IntN(10) == 0 {
			v = v[:5+rng.IntN(30)] // exceptions
		}
		for k := range v {
			v[k] = byte(rng.IntN(3))
		}
		if _, isNew := s.Insert(v); isNew {
			vecs = append(vecs, v)
		}
	}
	small := NewStore(0)
	defer small.Free()
	for _, v := range vecs {
		small.Insert(v)
	}
	small.SetLimit(small.Bytes() + 1000)
	if small.Compress() || small.tree != nil || small.Len() != len(vecs) || string(small.Get(7)) != string(vecs[7]) {
		t.Fatalf("a compression over the limit: tree %v, %d states", small.tree != nil, small.Len())
	}
	if !s.Compress() || s.tree == nil || s.Len() != len(vecs) {
		t.Fatalf("Compress: tree %v, %d states, want %d", s.tree != nil, s.Len(), len(vecs))
	}
	for i, v := range vecs {
		if got := s.Get(Index(i)); string(got) != string(v) {
			t.Fatalf("state %d: %x, want %x", i, got, v)
		}
		if j, isNew := s.Insert(v); j != Index(i) || isNew {
			t.Fatalf("Insert(state %d) = %d, %v", i, j, isNew)
		}
	}
	if i, isNew := s.Insert([]byte("a new state of its own")); i != Index(len(vecs)) || !isNew {
		t.Errorf("a new state after the compression: %d, %v", i, isNew)
	}
}

// TestAutoCompress: with AutoCompress, a search whose plain store does not
// fit the memory limit compresses it when it takes half of it and goes on
// to the end, with the counts of the search without limit; one that fits
// is not compressed.
func TestAutoCompress(t *testing.T) {
	// Stores of tens of megabytes, so that what the searches hold beside
	// them does not decide whether they fit.
	m := func() *counters { return &counters{k: 7, n: 8, endOK: true} }
	for _, o := range []Options{{}, {Order: DepthFirst}, {Workers: 2}, {Order: DepthFirst, Workers: 2}} {
		r0, st0 := run(t, m(), o)
		c := o
		c.Compress = true
		_, stc := run(t, m(), c)
		limited := o
		limited.MemoryLimit = memoryLimit((st0.StoreBytes + stc.StoreBytes) / 2)
		r1, _ := run(t, m(), limited)
		limited.AutoCompress = true
		r2, st2 := run(t, m(), limited)
		name := o.Order.String()
		if o.Workers > 1 {
			name += ", 2 workers"
		}
		t.Logf("%s: %d states: plain %.1f bytes per state, compressed %.1f; limited %s, auto %s %.1f", name, st0.States, st0.BytesPerState, stc.BytesPerState, r1.Verdict, r2.Verdict, st2.BytesPerState)
		if r1.Verdict != "unknown" || !strings.HasPrefix(r1.Reason, "memory limit") {
			t.Errorf("%s: the plain store fits the limit (%s): the test proves nothing", name, r1.Verdict)
		}
		if r2.Verdict != r0.Verdict || st2.States != st0.States || st2.Transitions != st0.Transitions || st2.Depth != st0.Depth {
			t.Errorf("%s: auto-compressed %s (%s) %+v\nunlimited %s %+v", name, r2.Verdict, r2.Reason, st2, r0.Verdict, st0)
		}
		if len(st2.Extra) == 0 || st2.Extra[len(st2.Extra)-1] != compressedFigure(int64(st2.Extra[len(st2.Extra)-1].Value)) {
			t.Errorf("%s: the statistics do not say when the store was compressed: %+v", name, st2.Extra)
		}
		o.AutoCompress = true
		if _, st := run(t, m(), o); len(st.Extra) > 0 && st.Extra[len(st.Extra)-1].Name == compressedFigure(0).Name {
			t.Errorf("%s: compressed without a memory limit", name)
		}
	}
}

// TestAutoCompressDue: a plain store turns compressed when the store and
// its compressed copy, estimated once from a sample, no longer fit nine
// tenths of the limit, and the doubled table with them near a doubling;
// not before it takes half of the limit.
func TestAutoCompressDue(t *testing.T) {
	var a autoCompress
	samples := 0
	sample := func() float64 { samples++; return 20 }
	const l = 1000 << 20
	if a.due(1<<20, l/2, 16<<20, l, false, sample) || samples != 0 {
		t.Errorf("due at half the limit, or sampled there (%d samples)", samples)
	}
	// 600 MB plain and 20 bytes for each of 10 million states: 800 MB.
	if a.due(10_000_000, 600<<20, 64<<20, l, false, sample) {
		t.Error("due with room for the copy")
	}
	// Near a doubling of its 64 MB table: 928 MB, over nine tenths.
	if !a.due(10_000_000, 600<<20, 64<<20, l, true, sample) {
		t.Error("not due with no room for the copy and the doubled table")
	}
	if !a.due(20_000_000, 600<<20, 64<<20, l, false, sample) {
		t.Error("not due with no room for the copy of 20 million states")
	}
	if samples != 1 {
		t.Errorf("%d samples, want 1", samples)
	}
	// The doubling's clause of a store below half of its limit: 300 MB,
	// the doubled table 400 MB more and the copy 240 MB.
	var b autoCompress
	if b.due(12_000_000, 300<<20, 200<<20, l, false, sample) || !b.due(12_000_000, 300<<20, 200<<20, l, true, sample) {
		t.Error("the doubled table not counted, or counted far from a doubling")
	}
}

// TestAutoCompressSample: the sampled bytes per state of the compressed
// copy are at least what the whole store takes compressed.
func TestAutoCompressSample(t *testing.T) {
	m := &counters{k: 7, n: 8, endOK: true}
	_, stc := run(t, m, Options{Compress: true})
	s := NewStore(0)
	defer s.Free()
	// The model's states: every vector of k digits below n.
	v := make([]byte, 7)
	for i := range m.states() {
		x := i
		for k := range v {
			v[k], x = byte(x%8), x/8
		}
		s.Insert(v)
	}
	est := compressedPerState(s.Len(), func(i int) []byte { return s.Get(Index(i)) })
	t.Logf("%d states: compressed %.1f bytes per state, the sample's estimate %.1f", stc.States, stc.BytesPerState, est)
	if s.Len() != int(stc.States) || est < stc.BytesPerState {
		t.Errorf("%d states (want %d): the estimate %.1f is below the store's %.1f bytes per state", s.Len(), stc.States, est, stc.BytesPerState)
	}
}

// TestAutoCompressLate: a store that fits its limit with room for its
// compressed copy stays plain past half of the limit. The counters lie 9
// bytes apart in vectors of 55, whose zeros the compressed store shares.
func TestAutoCompressLate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's memory is counted against the limit")
	}
	m := func() *counters { return &counters{k: 7, n: 8, endOK: true, stride: 9} }
	for _, o := range []Options{{}, {Workers: 2}, {Order: DepthFirst, Workers: 2}} {
		r0, st0 := run(t, m(), o)
		limited := o
		limited.AutoCompress = true
		limited.MemoryLimit = memoryLimit(st0.StoreBytes * 9 / 5)
		r, st := run(t, m(), limited)
		name := fmt.Sprintf("%s, %d workers", o.Order, max(1, o.Workers))
		t.Logf("%s: %d states, plain %.1f bytes per state (%s), under %s: %.1f, %+v", name, st0.States, st0.BytesPerState, FormatBytes(st0.StoreBytes), FormatBytes(limited.MemoryLimit), st.BytesPerState, st.Extra)
		if r.Verdict != r0.Verdict || st.States != st0.States {
			t.Errorf("%s: %s with %d states, want %s with %d", name, r.Verdict, st.States, r0.Verdict, st0.States)
		}
		if len(st.Extra) > 0 && st.Extra[len(st.Extra)-1].Name == compressedFigure(0).Name {
			t.Errorf("%s: compressed at %.0f of %d states, the plain store at five ninths of the limit", name, st.Extra[len(st.Extra)-1].Value, st.States)
		}
	}
}
