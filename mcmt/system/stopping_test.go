package system_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

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
	s, src := parseSeed(t)
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

// Where the stopping-failures semantics (what backward reachability
// computes) differs from the seed's 3-process instance: its states with
// all processes running are exactly the instance's, but seen through two
// processes (what a candidate invariant over two processes talks about) it
// reaches more, because a third process may stop and the universal guards
// then ignore it. A candidate excluding one of those views holds on the
// instance and cannot be proved backwards.
func TestStoppingSeedViews(t *testing.T) {
	s, _ := parseSeed(t)
	const k = 3
	c, err := system.Compile(s, k)
	if err != nil {
		t.Fatal(err)
	}
	// view is processes p and q (their identifiers are values a cube
	// compares), their entries and the globals.
	view := func(vals []int64, p, q int) string {
		out := []int64{int64(p), int64(q)}
		for _, v := range s.Vars {
			if v.Local {
				out = append(out, vals[c.Slot(v, p)], vals[c.Slot(v, q)])
			} else {
				out = append(out, vals[c.Slot(v, 0)])
			}
		}
		return fmt.Sprint(out)
	}
	in, err := system.NewInstance(s, k)
	if err != nil {
		t.Fatal(err)
	}
	plain, plainViews := map[string]bool{}, map[string]bool{}
	res, err := system.Explore(t.Context(), in, system.ExploreOptions{OnState: func(st []byte) {
		vals := in.Values(st)
		plain[fmt.Sprint(vals)] = true
		for p := 0; p < k; p++ {
			for q := 0; q < k; q++ {
				if p != q {
					plainViews[view(vals, p, q)] = true
				}
			}
		}
	}})
	if err != nil || !res.Complete {
		t.Fatalf("instance: %v %v", err, res)
	}
	all := uint64(1)<<k - 1
	full, fullPlain := 0, 0
	stopViews := map[string]bool{}
	r, err := system.ExploreStopping(t.Context(), s, k, system.StoppingOptions{Axioms: true, OnState: func(vals []int64, running uint64) {
		if running == all {
			full++
			if plain[fmt.Sprint(vals)] {
				fullPlain++
			}
		}
		for p := 0; p < k; p++ {
			for q := 0; q < k; q++ {
				if p != q && running&(1<<uint(p)) != 0 && running&(1<<uint(q)) != 0 {
					stopViews[view(vals, p, q)] = true
				}
			}
		}
	}})
	if err != nil || !r.Complete {
		t.Fatalf("stopping failures: %v %v", err, r)
	}
	if full != len(plain) || fullPlain != full {
		t.Errorf("%d states with every process running (%d of them in the instance); the instance has %d", full, fullPlain, len(plain))
	}
	extra := 0
	for v := range stopViews {
		if !plainViews[v] {
			extra++
		}
	}
	for v := range plainViews {
		if !stopViews[v] {
			t.Errorf("view %s of the instance is not reached with stopping failures", v)
			break
		}
	}
	if len(plainViews) != 40780 || len(stopViews) != 48024 || extra != 7244 {
		t.Errorf("two-process views: %d in the instance, %d with stopping failures, %d only there; want 40780, 48024, 7244",
			len(plainViews), len(stopViews), extra)
	}
}

// A false axiom prunes the states that break it, and only those: OnState
// sees every state the search keeps, none of which has a running process
// that decided, and the pruned search is as large as before it ran on
// explore's engine.
func TestStoppingAxiomPrunes(t *testing.T) {
	_, src := parseSeed(t)
	bad, err := mcmt.Parse("false.mcmt", []byte(strings.Replace(string(src), "/* LEMMA 2.3 */",
		"/* LEMMA 2.3 */ system_axiom (universal x:nat) { (NOT (state[x] = true)) }", 1)), "mcmt")
	if err != nil {
		t.Fatal(err)
	}
	const k = 2
	c, err := system.Compile(bad, k)
	if err != nil {
		t.Fatal(err)
	}
	decided := bad.Var("state")
	if decided == nil {
		t.Fatal("no variable state")
	}
	breaks := func(vals []int64, running uint64) bool {
		for p := 0; p < k; p++ {
			if running&(1<<uint(p)) != 0 && vals[c.Slot(decided, p)] == 1 {
				return true
			}
		}
		return false
	}
	for _, axioms := range []bool{false, true} {
		seen, broken := int64(0), 0
		r, err := system.ExploreStopping(t.Context(), bad, k, system.StoppingOptions{Axioms: axioms, OnState: func(vals []int64, running uint64) {
			seen++
			if breaks(vals, running) {
				broken++
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		want, wantBroken := int64(2634), true
		if axioms {
			want, wantBroken = 1940, false
		}
		if !r.Complete || r.States != seen || r.States != want || broken > 0 != wantBroken {
			t.Errorf("axioms %v: %d states (%d seen, %d breaking the axiom), complete %v; want %d, complete, some breaking it %v",
				axioms, r.States, seen, broken, r.Complete, want, wantBroken)
		}
	}
}

// A search over its state limit, or whose context is done, is incomplete
// and says why.
func TestStoppingCutShort(t *testing.T) {
	s, _ := parseSeed(t)
	n := int64(0)
	r, err := system.ExploreStopping(t.Context(), s, 3, system.StoppingOptions{MaxStates: 1000, Axioms: true, OnState: func([]int64, uint64) { n++ }})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Reason != "state limit 1000 reached" || r.States < 1000 || r.States >= 67536 || n != r.States {
		t.Errorf("state limit 1000: %+v, %d seen", r, n)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	r, err = system.ExploreStopping(ctx, s, 3, system.StoppingOptions{Axioms: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || !strings.HasPrefix(r.Reason, "interrupted") {
		t.Errorf("cancelled: %+v", r)
	}
}
