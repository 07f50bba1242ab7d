package explore

import (
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
