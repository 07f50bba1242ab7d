package compile

import (
	"os"
	"path/filepath"
	"testing"

	"ftmc/promela"
)

// TestNextAllocates checks that computing successors allocates nothing
// once the scratch space has grown: atomic sequences, rendezvous, run,
// channels and d_steps included.
func TestNextAllocates(t *testing.T) {
	files, _ := filepath.Glob("testdata/models/*.pml")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := compileNamed(t, f, src, promela.Options{})
		s := explore(m, 500)
		var states [][]byte
		for v := range s.seen {
			states = append(states, []byte(v))
		}
		sink := nopSink{}
		next := func() {
			for _, v := range states {
				m.Next(v, sink)
			}
		}
		next()
		if n := testing.AllocsPerRun(5, next); n > 0 {
			t.Errorf("%s: %v allocations per round of %d states", f, n, len(states))
		}
	}
}
