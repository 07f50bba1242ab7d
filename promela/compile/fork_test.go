package compile

import (
	"os"
	"sync"
	"testing"

	"ftmc/promela"
	"ftmc/state"
)

// TestForkConcurrent runs forks of one model in parallel (run with -race):
// they share the compiled program and nothing else.
func TestForkConcurrent(t *testing.T) {
	src, err := os.ReadFile("testdata/models/rendezvous_many.pml")
	if err != nil {
		t.Fatal(err)
	}
	m := compileNamed(t, "m.pml", src, promela.Options{})
	want := explore(m, 0).states
	var wg sync.WaitGroup
	counts := make([]int, 4)
	for w := range counts {
		wg.Add(1)
		go func(f state.Model) {
			defer wg.Done()
			counts[w] = explore(f, 0).states
		}(m.Fork())
	}
	wg.Wait()
	for w, n := range counts {
		if n != want {
			t.Errorf("fork %d: %d states, want %d", w, n, want)
		}
	}
}
