package system_test

import (
	"os"
	"path/filepath"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/mcmt"
	"ftmc/mcmt/system"
)

// The bounded cross-check of the Chandra-Toueg seed: on instances with 2,
// 3 and 4 processes (4 is a million states, a few seconds; left out with
// -short), AGREEMENT holds and so do the system axioms that the parameterized
// proof assumes (Lemmas 2.1-2.3 of the paper and the bounds on round, id
// and maxId).
func TestSeedBounded(t *testing.T) {
	s, _ := parseSeed(t)
	want := map[int]int64{2: 1852, 3: 40264, 4: 1131512}
	last := 4
	if testing.Short() {
		last = 3
	}
	for k := 2; k <= last; k++ {
		in, err := system.NewInstance(s, k)
		if err != nil {
			t.Fatal(err)
		}
		r, err := system.Explore(t.Context(), in, system.ExploreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Complete || r.Unsafe != nil {
			t.Fatalf("%d processes: complete %v, AGREEMENT violated %v", k, r.Complete, r.Unsafe != nil)
		}
		if r.Axiom >= 0 {
			t.Errorf("%d processes: system axiom %d is false in a reachable state", k, r.Axiom+1)
		}
		if r.States != want[k] {
			t.Errorf("%d processes: %d states, want %d", k, r.States, want[k])
		}
	}
}

// parseSeed parses the Chandra-Toueg seed of the shared corpus; src is its
// text.
func parseSeed(t *testing.T) (s *system.System, src []byte) {
	t.Helper()
	path := filepath.Join(testenv.Shared(t), "seeds/002_89f49e16422360b2.txt")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err = mcmt.Parse(path, src, "mcmt")
	if err != nil {
		t.Fatal(err)
	}
	return s, src
}
