package explore

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestNodeTableShared: stores that share a node table, each on a goroutine
// of its own, put the same pairs at once, often the same pair at the same
// moment, while the table doubles many times: every pair gets one number,
// the same on every goroutine, distinct pairs distinct numbers, and each
// number reads back its pair.
func TestNodeTableShared(t *testing.T) {
	const workers, distinct, puts = 4, 1 << 17, 1 << 18
	stores := newSharedCompressedStores(workers, 0)
	pool := make([]uint64, distinct)
	seen := map[uint64]bool{}
	rng := rand.New(rand.NewPCG(21, 22))
	for k := range pool {
		for {
			p := rng.Uint64() &^ (1<<63 | 1<<31) // never noNode
			if !seen[p] {
				seen[p], pool[k] = true, p
				break
			}
		}
	}
	got := make([][]uint32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w] = make([]uint32, distinct)
		wg.Go(func() {
			tr := stores[w].tree
			// The same order on every goroutine, from a different start.
			for k := range puts {
				j := (k*7919 + w*distinct/workers) % distinct
				n, ok := tr.putNode(uint32(pool[j]>>32), uint32(pool[j]))
				if !ok {
					t.Errorf("putNode refused pair %d", j)
					return
				}
				if k >= distinct && got[w][j] != n {
					t.Errorf("worker %d: pair %d numbered %d, then %d", w, j, got[w][j], n)
					return
				}
				got[w][j] = n
			}
		})
	}
	wg.Wait()
	nt := stores[0].tree.nodes
	if nt.len() != distinct {
		t.Fatalf("%d nodes for %d distinct pairs", nt.len(), distinct)
	}
	used := make([]bool, distinct)
	for j, p := range pool {
		n := got[0][j]
		for w := 1; w < workers; w++ {
			if got[w][j] != n {
				t.Fatalf("pair %d: number %d on worker 0, %d on worker %d", j, n, got[w][j], w)
			}
		}
		if int(n) >= distinct || used[n] {
			t.Fatalf("pair %d: number %d out of range or given twice", j, n)
		}
		used[n] = true
		if nt.pair(n) != p {
			t.Fatalf("node %d reads %x, want %x", n, nt.pair(n), p)
		}
	}
	if stores[0].Bytes() <= stores[1].Bytes() {
		t.Errorf("the store that made the node table counts %d bytes, another %d", stores[0].Bytes(), stores[1].Bytes())
	}
}
