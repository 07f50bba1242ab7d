package explore

import (
	"encoding/binary"
	"sync"
	"testing"
)

// TestSharedStoreConcurrent: workers inserting overlapping sets of vectors
// at once agree on every vector's index, each vector is stored once, and
// Get gives it back.
func TestSharedStoreConcurrent(t *testing.T) {
	for _, compress := range []bool{false, true} {
		s := NewSharedStore(0, compress)
		const n, workers = 20000, 4
		idx := make([][]Index, workers)
		news := make([]int, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				idx[w] = make([]Index, n)
				for k := range n {
					v := vec(k*7 + w%2) // workers 0, 2 and 1, 3 insert the same vectors
					i, isNew := s.Insert(v)
					if i == NoIndex {
						t.Error("store full")
						return
					}
					if isNew {
						news[w]++
					}
					idx[w][k] = i
				}
			})
		}
		wg.Wait()
		if got := news[0] + news[1] + news[2] + news[3]; got != 2*n || s.Len() != 2*n {
			t.Fatalf("compress %v: %d new, %d stored, want %d", compress, got, s.Len(), 2*n)
		}
		var buf []byte
		for w := range workers {
			for k, i := range idx[w] {
				if i != idx[w%2][k] {
					t.Fatalf("compress %v: worker %d has index %d for vector %d, worker %d %d", compress, w, i, k, w%2, idx[w%2][k])
				}
				if buf = s.Get(buf, i); string(buf) != string(vec(k*7+w%2)) {
					t.Fatalf("compress %v: Get(%d) = %v", compress, i, buf)
				}
			}
		}
		s.Free()
	}
}

func vec(k int) []byte {
	v := make([]byte, 12)
	binary.LittleEndian.PutUint64(v, uint64(k)*0x9e3779b97f4a7c15)
	return v
}
