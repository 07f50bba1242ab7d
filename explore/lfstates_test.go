package explore

import (
	"encoding/binary"
	"sync"
	"testing"
	"time"
)

// TestLockFreeStoreGrows: workers that insert overlapping sets of vectors
// into a store whose table starts tiny get one index per vector, the
// same for every worker, and Get gives each vector back.
func TestLockFreeStoreGrows(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 4} {
		const n = 20_000
		s := NewLockFreeStore(workers, 0)
		got := make([][]Index, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				buf, ends := []byte{}, []int{}
				for k := range n {
					v := uint32((k*7919 + w*104729) % n)
					vec := binary.LittleEndian.AppendUint32(nil, v)
					if k%3 == 0 {
						i, _ := s.Insert(w, vec)
						got[w] = append(got[w], i)
						continue
					}
					buf = append(buf, vec...)
					ends = append(ends, len(buf))
					if len(ends) == 5 || k == n-1 {
						var ok bool
						if got[w], ok = s.InsertAll(w, buf, ends, got[w]); !ok {
							t.Error("full")
						}
						buf, ends = buf[:0], ends[:0]
					}
				}
			})
		}
		wg.Wait()
		if s.Len() != n {
			t.Fatalf("%d workers: %d states, want %d", workers, s.Len(), n)
		}
		for w := range workers {
			for _, i := range got[w] {
				if i == NoIndex || int(i) >= n<<s.Bits()+1<<s.Bits() {
					t.Fatalf("index %d", i)
				}
				if j, isNew := s.Insert(w, s.Get(nil, i)); j != i || isNew {
					t.Fatalf("%d workers: vector of %d is stored as %d (new %v)", workers, i, j, isNew)
				}
			}
		}
		s.Free()
	}
}

// TestLockFreeStoreUneven: workers that start storing when another has
// filled the table almost to its doubling each stay below their share
// of it; the table must double all the same rather than fill up (an
// insertion would then probe forever).
func TestLockFreeStoreUneven(t *testing.T) {
	s := NewLockFreeStore(4, 1000)
	vec := func(k int) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(k)) }
	k := 0
	for int64(s.Len()+1) < s.lf.table.Load().growAt {
		s.Insert(0, vec(k))
		k++
	}
	size := len(s.lf.table.Load().slots)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for end := k + 2*size; k < end; k++ {
			s.Insert(1+k%3, vec(k))
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("the insertions did not end: the table filled up at %d states", s.Len())
	}
	if s.Len() != k {
		t.Fatalf("%d states, want %d", s.Len(), k)
	}
	for j := range k {
		if i, isNew := s.Insert(j%4, vec(j)); isNew || string(s.Get(nil, i)) != string(vec(j)) {
			t.Fatalf("vector %d: index %d, new %v", j, i, isNew)
		}
	}
	s.Free()
}

// TestLFTableRefill: a table refilled on several goroutines holds every
// entry of the old one, each reachable from its home slot without an
// empty slot between, as one goroutine would leave it.
func TestLFTableRefill(t *testing.T) {
	const log = 18
	old := newLFTable(log)
	defer old.free()
	mask := uint64(len(old.slots) - 1)
	want := map[uint64]bool{}
	rng := uint64(88172645463325252)
	for len(want) < int(old.growAt) {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		e := rng&^(1<<32-1) | uint64(len(want)+1)
		if rng%4 == 0 {
			e &^= 0xff << 50 // clusters: homes in a few slots
		}
		if want[e] {
			continue
		}
		want[e] = true
		p := e >> 32 << 32 >> old.shift
		for old.slots[p].Load() != 0 {
			p = (p + 1) & mask
		}
		old.slots[p].Store(e)
	}
	for _, parts := range []int{1, 2, 3} {
		nt := newLFTable(log + 1)
		nt.refill(old, parts)
		m := uint64(len(nt.slots) - 1)
		got := 0
		for k := range nt.slots {
			e := nt.slots[k].Load()
			if e == 0 {
				continue
			}
			got++
			if !want[e] {
				t.Fatalf("%d goroutines: entry %x was not in the old table", parts, e)
			}
			for p := e >> 32 << 32 >> nt.shift; p != uint64(k); p = (p + 1) & m {
				if nt.slots[p].Load() == 0 {
					t.Fatalf("%d goroutines: entry %x at %d after the empty slot %d", parts, e, k, p)
				}
			}
		}
		if got != len(want) {
			t.Errorf("%d goroutines: %d entries, want %d", parts, got, len(want))
		}
		nt.free()
	}
}

// TestLFStoreWantGrowCountsStored: while the states stored are below the
// table's growAt, the workers' reserved quotas do not make the store ask
// to double (grow would refuse, and every worker that asked would have
// stopped for nothing); at growAt it asks, and grow doubles the table.
func TestLFStoreWantGrowCountsStored(t *testing.T) {
	s := newLFStore(2, 0)
	defer s.free()
	tab := s.table.Load()
	views := []lfView{{s, 0, nil}, {s, 1, nil}}
	for k := 0; int64(k) < tab.growAt; k++ {
		if s.wantGrow() {
			t.Fatalf("asks to double with %d states stored, %d reserved, growAt %d", s.Len(), s.reserved.Load(), tab.growAt)
		}
		vec := binary.LittleEndian.AppendUint32(nil, uint32(k))
		if _, isNew := views[k%2].insertFrom(vec, 0, NoIndex); !isNew {
			t.Fatalf("vector %d found stored", k)
		}
	}
	if s.reserved.Load() <= int64(s.Len()) {
		t.Fatalf("no quota reserved beyond the %d states: the test does not test", s.Len())
	}
	if !s.wantGrow() {
		t.Fatalf("does not ask to double at growAt (%d states)", s.Len())
	}
	s.grow()
	if s.table.Load() == tab {
		t.Fatal("grow did not double the table")
	}
}
