package explore

import (
	"encoding/binary"
	"sync"
	"testing"
	"time"
)

// lfVec is vector k of length n: k's bytes, then filler.
func lfVec(k, n int) []byte {
	v := binary.LittleEndian.AppendUint32(nil, uint32(k))
	for len(v) < n {
		v = append(v, byte(k*31+len(v)))
	}
	return v[:n]
}

// TestLFStoreFixedWidth: an arena keeps the vectors of a block's common
// length at a fixed width and the others by position; every vector comes
// back with its parent, the first block and the one after a block of
// mostly other lengths keep every vector by position, and vectors of one
// length take their bytes and the parent's 4 per state, not a position
// besides.
func TestLFStoreFixedWidth(t *testing.T) {
	length := func(k int) int {
		switch {
		case k < 100:
			return 5 // before every process runs
		case k>>lfBlockLog == 6 && k%3 != 0:
			return 24
		case k%1000 == 999:
			return 20
		}
		return 16
	}
	const n = 12 << lfBlockLog
	s := newLFStore(2, 0)
	v := lfView{s, 0, nil}
	idx := make([]Index, n)
	for k := range n {
		parent := NoIndex
		if k > 0 {
			parent = idx[k/2]
		}
		i, isNew := v.insertFrom(lfVec(k, length(k)), 0, parent)
		if !isNew {
			t.Fatalf("vector %d found stored", k)
		}
		idx[k] = i
		if s.wantGrow() {
			s.grow()
		}
	}
	a := &s.arenas[0]
	for b, want := range map[int]int{0: -1, 1: 16, 5: 16, 6: 16, 7: -1, 8: 16, 11: 16} {
		if got := a.blocks[b].width; got != want {
			t.Errorf("block %d: width %d, want %d", b, got, want)
		}
	}
	if a.blocks[1].pos.Load() == nil || a.blocks[6].pos.Load() == nil {
		t.Error("no positions for the vectors of other lengths")
	}
	for k := range n {
		vec := lfVec(k, length(k))
		if got := s.get(idx[k]); string(got) != string(vec) {
			t.Fatalf("vector %d: %v, want %v", k, got, vec)
		}
		if i, isNew := v.insertFrom(vec, 0, NoIndex); i != idx[k] || isNew {
			t.Fatalf("vector %d stored again as %d (new %v), want %d", k, i, isNew, idx[k])
		}
		if k > 0 && s.parent(idx[k]) != idx[k/2] {
			t.Fatalf("vector %d: parent %d, want %d", k, s.parent(idx[k]), idx[k/2])
		}
	}
	if s.MaxVector() != 24 {
		t.Errorf("longest vector %d, want 24", s.MaxVector())
	}

	// Vectors of one length: 16 bytes and a parent per state, beyond the
	// first block's positions and chunk.
	s = newLFStore(1, 0)
	v = lfView{s, 0, nil}
	const m = 20 << lfBlockLog
	for k := range m {
		v.insertFrom(lfVec(k, 16), 0, NoIndex)
		if s.wantGrow() {
			s.grow()
		}
	}
	if got, bound := s.Bytes()-s.tableBytes(), int64(m*(16+4)+1<<lfChunkLog+8<<lfBlockLog); s.Len() != m || got > bound {
		t.Errorf("%d states take %d bytes besides the table, want at most %d", s.Len(), got, bound)
	}
}

// TestLockFreeStoreLengths: workers that insert overlapping sets of
// vectors of mixed lengths, many blocks' worth each, get one index per
// vector and every vector back.
func TestLockFreeStoreLengths(t *testing.T) {
	const n = 3 << lfBlockLog
	length := func(k int) int {
		switch {
		case k%97 == 0:
			return 9
		case k>>12%5 == 3:
			return 40
		}
		return 16
	}
	const workers = 2
	s := NewLockFreeStore(workers, 0)
	defer s.Free()
	got := make([][]Index, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := range n {
				x := (k*7919 + w*104729) % n
				i, _ := s.Insert(w, lfVec(x, length(x)))
				got[w] = append(got[w], i)
				if k%101 == 0 {
					// A vector the other worker may have just stored.
					y := (k*7919 + (1-w)*104729) % n
					if j, isNew := s.Insert(w, lfVec(y, length(y))); j == NoIndex {
						t.Error("full")
					} else if g := s.Get(nil, j); string(g) != string(lfVec(y, length(y))) || isNew && j>>s.Bits() > n {
						t.Errorf("vector %d: %v", y, g)
					}
				}
			}
		})
	}
	wg.Wait()
	if s.Len() != n {
		t.Fatalf("%d states, want %d", s.Len(), n)
	}
	for w := range workers {
		for k, i := range got[w] {
			x := (k*7919 + w*104729) % n
			if g := s.Get(nil, i); string(g) != string(lfVec(x, length(x))) {
				t.Fatalf("vector %d: %v", x, g)
			}
		}
	}
}

// TestLFStoreManyLightWorkers: the table of the parallel searches never
// fills up when many workers each store little. One worker stores close
// to the doubling's hard limit, then 63 others each store 900 states, each
// below its share of the limit: counted by each worker's own estimate,
// none of them looked at the table's count, and the insertions went on
// until no slot was empty and the next one probed for ever. Counted
// exactly, an insertion past the hard limit asks for the doubling.
func TestLFStoreManyLightWorkers(t *testing.T) {
	const workers = 64
	s := newLFStore(workers, 0)
	hard := s.table.Load().hard
	done := make(chan lfResult, 1)
	go func() {
		k := 0
		add := func(w, n int) lfResult {
			for range n {
				v := lfVec(k, 8)
				k++
				if _, r := s.insert(w, v, Hash(v), NoIndex); r != lfNew {
					return r
				}
			}
			return lfNew
		}
		if r := add(0, int(hard)-1000); r != lfNew {
			done <- r
			return
		}
		for w := 1; w < workers; w++ {
			if r := add(w, 900); r != lfNew {
				done <- r
				return
			}
		}
		done <- lfNew
	}()
	select {
	case r := <-done:
		s.free()
		if r != lfWait {
			t.Fatalf("insertions past the hard limit (%d states) said %d, want lfWait (%d)", hard, r, lfWait)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("an insertion did not end within 20 s: the table filled up")
	}
}
