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
	forksFind(t, m, 4, explore(m, 0).states)
}

// forksFind explores n forks of m at once and fails t unless each finds
// want states.
func forksFind(t *testing.T, m state.Model, n, want int) {
	t.Helper()
	var wg sync.WaitGroup
	counts := make([]int, n)
	for w := range counts {
		wg.Add(1)
		go func(f state.Model) {
			defer wg.Done()
			counts[w] = explore(f, 0).states
		}(m.Fork())
	}
	wg.Wait()
	for w, c := range counts {
		if c != want {
			t.Errorf("fork %d: %d states, want %d", w, c, want)
		}
	}
}
