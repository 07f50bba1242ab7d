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
