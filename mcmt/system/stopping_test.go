package system_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/mcmt"
	"ftmc/mcmt/system"
)

// key prints a state's values with its running processes.
func key(vals []int64, running uint64) string { return fmt.Sprint(vals, running) }

// In the stopping-failures semantics every state of the plain instance is
// reachable with all processes running, and more: a universal guard no
// longer sees a stopped process.
func TestStoppingContainsInstance(t *testing.T) {
	s, err := mcmt.Parse("spurious.cub", []byte(`
type loc = Idle | Holder | Done
var Lock : bool
array Pc[proc] : loc
init (i) { Pc[i] = Idle && Lock = False }
unsafe (i) { Pc[i] = Done }
transition lock (i) requires { Pc[i] = Idle && Lock = False } { Pc[i] := Holder; Lock := True }
transition go (i) requires { Pc[i] = Idle && Lock = True && forall_other k. Pc[k] <> Holder } { Pc[i] := Done }
`), "")
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		stopping := map[string]bool{}
		done := false
		res, err := system.ExploreStopping(t.Context(), s, n, system.StoppingOptions{OnState: func(vals []int64, running uint64) {
			stopping[key(vals, running)] = true
			// Pc[p] = Done for a running process p.
			for p := 0; p < n; p++ {
				if running&(1<<uint(p)) != 0 && vals[1+p] == 2 {
					done = true
				}
			}
		}})
		if err != nil || !res.Complete {
			t.Fatalf("%d processes: %v %v", n, err, res)
		}
		in, err := system.NewInstance(s, n)
		if err != nil {
			t.Fatal(err)
		}
		all := uint64(1)<<uint(n) - 1
		plain, err := system.Explore(t.Context(), in, system.ExploreOptions{OnState: func(st []byte) {
			if !stopping[key(in.Values(st), all)] {
				t.Errorf("%d processes: %v is reachable in the instance, not in the stopping-failures semantics", n, in.Values(st))
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if plain.Unsafe != nil {
			t.Errorf("%d processes: the instance reaches Done", n)
		}
		// With two processes, the holder may stop, and the other one goes.
		if want := n >= 2; done != want {
			t.Errorf("%d processes: Done reachable %v in the stopping-failures semantics, want %v", n, done, want)
		}
	}
}

// The seed's instances in the stopping-failures semantics (the oracle of
// the invariant search); the system axioms prune no state.
func TestStoppingSeed(t *testing.T) {
	path := filepath.Join(testenv.Shared(t), "seeds/002_89f49e16422360b2.txt")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mcmt.Parse(path, src, "mcmt")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]int64{2: 2634, 3: 67536} {
		for _, axioms := range []bool{false, true} {
			r, err := system.ExploreStopping(t.Context(), s, k, system.StoppingOptions{Axioms: axioms})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Complete || r.States != want {
				t.Errorf("%d processes (axioms %v): %d states, complete %v; want %d", k, axioms, r.States, r.Complete, want)
			}
		}
	}
	// An axiom that the system breaks ("nobody decides") prunes states.
	bad, err := mcmt.Parse("false.mcmt", []byte(strings.Replace(string(src), "/* LEMMA 2.3 */",
		"/* LEMMA 2.3 */ system_axiom (universal x:nat) { (NOT (state[x] = true)) }", 1)), "mcmt")
	if err != nil {
		t.Fatal(err)
	}
	r, err := system.ExploreStopping(t.Context(), bad, 2, system.StoppingOptions{Axioms: true})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.States >= 2634 {
		t.Errorf("a false axiom: %d states, want fewer than 2634", r.States)
	}
}
