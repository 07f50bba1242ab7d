package param

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"ftmc/explore"
	"ftmc/internal/testenv"
	"ftmc/ta"
	"ftmc/trace"
)

// randomHeader writes the declarations of a random automaton with nloc
// locations and nsh shared variables, up to its first rule: the processes
// start in l0 and l1, the variables at 0.
func randomHeader(b *strings.Builder, nloc, nsh int) {
	b.WriteString("skel R {\n local pc;\n shared ")
	for v := 0; v < nsh; v++ {
		if v > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "x%d", v)
	}
	b.WriteString(";\n parameters N, T, F;\n")
	b.WriteString(" assumptions (0) { N > 2 * T; T >= F; F >= 0; T >= 1; }\n locations (0) {")
	for l := 0; l < nloc; l++ {
		fmt.Fprintf(b, " l%d: [%d];", l, l)
	}
	b.WriteString(" }\n inits (0) { l0 + l1 == N - F;")
	for l := 2; l < nloc; l++ {
		fmt.Fprintf(b, " l%d == 0;", l)
	}
	for v := 0; v < nsh; v++ {
		fmt.Fprintf(b, " x%d == 0;", v)
	}
	b.WriteString(" }\n rules (0) {\n")
}

// randomCount is the number of random automata a test checks: def, or
// FTMC_RANDOM_TA.
func randomCount(def int) int {
	if s := os.Getenv("FTMC_RANDOM_TA"); s != "" {
		n, _ := strconv.Atoi(s)
		return n
	}
	return def
}

// violatingInstance returns the first of params whose instance violates
// spec, by the explicit search (a million states each, 30 s in all), or
// nil.
func violatingInstance(f *ta.File, spec string, params []map[string]int64) map[string]int64 {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, p := range params {
		if e, _ := Explicit(ctx, f, spec, p, explore.Options{MaxStates: 1_000_000}); e.Verdict == trace.Violated {
			return p
		}
	}
	return nil
}

// randomTA writes a small acyclic threshold automaton with threshold guards
// over N and T, and safety and liveness specifications of the benchmark
// shapes.
func randomTA(r *rand.Rand) string {
	nloc := 3 + r.Intn(3)
	nsh := 1 + r.Intn(2)
	var b strings.Builder
	randomHeader(&b, nloc, nsh)
	thresholds := []string{"1", "T", "T + 1", "N - T", "N - T - F", "T + 1 - F", "2 * T"}
	guard := func() string {
		switch r.Intn(5) {
		case 0:
			return "true"
		case 1:
			return fmt.Sprintf("x%d < %s", r.Intn(nsh), thresholds[r.Intn(len(thresholds))])
		case 2:
			return fmt.Sprintf("x%d >= %s && x%d < %s", r.Intn(nsh), thresholds[r.Intn(len(thresholds))], r.Intn(nsh), thresholds[r.Intn(len(thresholds))])
		}
		return fmt.Sprintf("x%d + F >= %s", r.Intn(nsh), thresholds[r.Intn(len(thresholds))])
	}
	id := 0
	for l := 0; l < nloc; l++ {
		for d := l + 1; d < nloc; d++ {
			if r.Intn(3) == 0 && !(l == 0 && d == 1) {
				continue
			}
			upd := "unchanged(x0);"
			switch {
			case nsh == 2 && r.Intn(4) == 0: // both counters: invariants between them
				upd = "x0' == x0 + 1; x1' == x1 + 1;"
			case r.Intn(2) == 0:
				v := r.Intn(nsh)
				upd = fmt.Sprintf("x%d' == x%d + 1;", v, v)
			}
			fmt.Fprintf(&b, "  %d: l%d -> l%d when (%s) do { %s };\n", id, l, d, guard(), upd)
			id++
		}
		if l != 1 {
			fmt.Fprintf(&b, "  %d: l%d -> l%d when (true) do { unchanged(x0); };\n", id, l, l)
			id++
		}
	}
	last := nloc - 1
	fmt.Fprintf(&b, " }\n specifications (0) {\n")
	fmt.Fprintf(&b, "  safe1: l1 == 0 -> [](l%d == 0);\n", last)
	fmt.Fprintf(&b, "  safe2: [](x0 < N - T || l%d == 0);\n", last-1)
	fmt.Fprintf(&b, "  safe3: [](x%d < T + 1 || l%d == 0);\n", nsh-1, last)
	// Witnesses after witnesses: reachability with several cut points.
	fmt.Fprintf(&b, "  safe4: [](l%d != 0 -> [](l%d == 0));\n", last-1, last)
	fmt.Fprintf(&b, "  safe5: [](l2 != 0 -> [](x0 < T + 1 || [](l%d == 0)));\n", last)
	fmt.Fprintf(&b, "  live1: <>[](l1 == 0) -> <>(l0 == 0 && l1 == 0);\n")
	fmt.Fprintf(&b, "  live2: <>[](l1 == 0 && (x0 < %s || l0 == 0)) -> (l0 == 0 -> <>(l%d != 0));\n", thresholds[r.Intn(len(thresholds))], last)
	fmt.Fprintf(&b, "  live3: <>[](l1 == 0) -> [](l%d != 0 -> <>(l0 == 0 && l1 == 0 && l2 == 0));\n", last)
	// G conditions over shared variables in the premise: their atoms join
	// the milestones.
	fmt.Fprintf(&b, "  live4: ([](x0 < T + 1) && <>[](l1 == 0)) -> <>(l0 == 0 && l1 == 0);\n")
	fmt.Fprintf(&b, "  live5: ([](x%d < %s || l0 == 0) && <>[](l1 == 0)) -> <>(l%d != 0);\n", nsh-1, thresholds[r.Intn(len(thresholds))], last)
	// G k_l == 0, unconditional and or'ed with a threshold that only
	// turns true.
	fmt.Fprintf(&b, "  live6: <>[](l1 == 0) -> <>(l%d != 0);\n", last)
	fmt.Fprintf(&b, "  live7: <>[](l1 == 0) -> <>(x0 < 1 && l%d != 0);\n", last)
	b.WriteString(" }\n}\n")
	return b.String()
}

// TestRandomAgainstInstances compares the schema engine with explicit
// search on random automata: a verdict holds must agree with every small
// instance, and a violation on a small instance must be found. Set
// FTMC_RANDOM_TA=n for more automata.
func TestRandomAgainstInstances(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	n := randomCount(6)
	r := rand.New(rand.NewSource(20261122))
	count := map[trace.Verdict]int{}
	defer func() { t.Logf("verdicts over %d automata: %v", n, count) }()
	for i := 0; i < n; i++ {
		src := randomTA(r)
		f, err := ta.Parse(fmt.Sprintf("random%d.ta", i), []byte(src))
		if err != nil {
			t.Fatalf("generated automaton does not parse: %v\n%s", err, src)
		}
		params := smallParams(t, f, 5, 8)
		for _, s := range f.Specs {
			res := Verify(context.Background(), f, s.Name, crossChecked(Options{Jobs: 1}))
			count[res.Verdict]++
			if res.Verdict == trace.Unknown {
				t.Errorf("automaton %d %s: unknown (%s)\n%s", i, s.Name, res.Reason, src)
				continue
			}
			if res.Verdict == trace.Holds {
				if p := violatingInstance(f, s.Name, params); p != nil {
					t.Errorf("automaton %d %s: schema engine says holds, instance %v violates it\n%s", i, s.Name, p, src)
				}
			}
			if res.Verdict == trace.Violated {
				crossCheck(t, f, s.Name, res, 5, 1)
			}
		}
	}
}

// TestRandomSingleQuery checks the specifications of random automata with
// and without the single query (single.go): the verdicts
// must agree, a verdict holds must agree with the small instances, and
// the single query must have refuted some disjuncts (a query that drops
// runs, with too few segments or guards asked too strictly, turns some
// violations into holds here). FTMC_RANDOM_TA=n for more automata.
func TestRandomSingleQuery(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	n := randomCount(8)
	r := rand.New(rand.NewSource(20261127))
	count := map[trace.Verdict]int{}
	single := 0
	defer func() { t.Logf("verdicts over %d automata: %v, %d by the single query", n, count, single) }()
	for i := 0; i < n; i++ {
		src := randomTA(r)
		f, err := ta.Parse(fmt.Sprintf("random%d.ta", i), []byte(src))
		if err != nil {
			t.Fatalf("generated automaton does not parse: %v\n%s", err, src)
		}
		var params []map[string]int64
		for _, s := range f.Specs {
			res := Verify(context.Background(), f, s.Name, crossChecked(Options{Jobs: 1, SingleFirst: true}))
			count[res.Verdict]++
			if res.Single > 0 {
				single++
			}
			tree := Verify(context.Background(), f, s.Name, crossChecked(Options{Jobs: 1, NoSingle: true}))
			if tree.Single != 0 {
				t.Errorf("automaton %d %s: the single query ran with NoSingle", i, s.Name)
			}
			if res.Verdict == trace.Unknown || tree.Verdict != res.Verdict {
				t.Errorf("automaton %d %s: %s (%s), but %s without the single query\n%s", i, s.Name, res.Verdict, res.Reason, tree.Verdict, src)
				continue
			}
			if res.Verdict != trace.Holds {
				continue
			}
			if params == nil {
				params = smallParams(t, f, 5, 8)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			for _, p := range params {
				e, _ := Explicit(ctx, f, s.Name, p, explore.Options{MaxStates: 1_000_000})
				if e.Verdict == trace.Violated {
					t.Errorf("automaton %d %s: the schema engine says holds, instance %v violates it\n%s", i, s.Name, p, src)
					break
				}
			}
			cancel()
		}
	}
	if single == 0 {
		t.Errorf("the single query refuted no specification")
	}
}

// randomResetTA writes a small threshold automaton whose last locations
// lead back to the first ones and reset shared variables, as TACO's
// extended automata do, with safety specifications.
func randomResetTA(r *rand.Rand) string {
	nloc := 3 + r.Intn(3)
	var b strings.Builder
	randomHeader(&b, nloc, 2)
	thresholds := []string{"1", "T", "T + 1", "N - T", "N - T - F", "T + 1 - F", "2 * T"}
	guard := func() string {
		switch r.Intn(6) {
		case 0:
			return "true"
		case 1:
			return fmt.Sprintf("x%d < %s", r.Intn(2), thresholds[r.Intn(len(thresholds))])
		case 2:
			// Both variables in one atom: one group of the abstraction.
			return fmt.Sprintf("x0 + x1 >= %s", thresholds[r.Intn(len(thresholds))])
		case 3:
			return fmt.Sprintf("x0 + x1 < %s", thresholds[r.Intn(len(thresholds))])
		}
		return fmt.Sprintf("x%d >= %s", r.Intn(2), thresholds[r.Intn(len(thresholds))])
	}
	id := 0
	for l := 0; l < nloc; l++ {
		for d := l + 1; d < nloc; d++ {
			if r.Intn(3) == 0 && !(l == 0 && d == 1) {
				continue
			}
			upd := "unchanged(x0);"
			if r.Intn(3) > 0 {
				v := r.Intn(2)
				upd = fmt.Sprintf("x%d' == x%d + 1;", v, v)
			}
			fmt.Fprintf(&b, "  %d: l%d -> l%d when (%s) do { %s };\n", id, l, d, guard(), upd)
			id++
		}
	}
	for k := 0; k < 1+r.Intn(2); k++ {
		from, to := 2+r.Intn(nloc-2), r.Intn(2)
		upd := "x0' == 0; x1' == 0;"
		switch r.Intn(3) {
		case 0:
			upd = "x0' == 0;"
		case 1:
			upd = "x1' == 0; x0' == x0 + 1;"
		}
		fmt.Fprintf(&b, "  %d: l%d -> l%d when (%s) do { %s };\n", id, from, to, guard(), upd)
		id++
	}
	last := nloc - 1
	fmt.Fprintf(&b, " }\n specifications (0) {\n")
	fmt.Fprintf(&b, "  safe1: l1 == 0 -> [](l%d == 0);\n", last)
	fmt.Fprintf(&b, "  safe2: [](x0 < N - T || l%d == 0);\n", last-1)
	fmt.Fprintf(&b, "  safe3: [](x1 < T + 1 || l%d == 0);\n", last)
	fmt.Fprintf(&b, "  safe4: l0 == 0 -> [](x0 < 1);\n")
	b.WriteString(" }\n}\n")
	return b.String()
}

// TestRandomResetsAgainstInstances checks random automata with resets on
// the counter abstraction: a verdict holds must agree with every small
// instance, a violation is an instance's (replayed), and the run must
// prove some specifications and refute others. FTMC_RANDOM_TA=n for more
// automata.
func TestRandomResetsAgainstInstances(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	n := randomCount(12)
	r := rand.New(rand.NewSource(20261127))
	count := map[trace.Verdict]int{}
	concretized := 0
	for i := 0; i < n; i++ {
		src := randomResetTA(r)
		f, err := ta.Parse(fmt.Sprintf("reset%d.eta", i), []byte(src))
		if err != nil {
			t.Fatalf("generated automaton does not parse: %v\n%s", err, src)
		}
		if !HasResets(f) {
			t.Fatalf("automaton %d has no reset\n%s", i, src)
		}
		params := smallParams(t, f, 5, 8)
		for _, s := range f.Specs {
			res := Verify(context.Background(), f, s.Name, Options{Jobs: 1})
			count[res.Verdict]++
			// Without the hunt, a violation comes from the abstract
			// path's rules, fired on an instance the solver chose.
			if nh := Verify(context.Background(), f, s.Name, Options{Jobs: 1, NoHunt: true}); nh.Verdict == trace.Violated {
				concretized++
				crossCheck(t, f, s.Name, nh, 5, 1)
			} else if nh.Verdict != res.Verdict && res.Verdict != trace.Violated {
				t.Errorf("automaton %d %s: %s without the hunt, %s with it", i, s.Name, nh.Verdict, res.Verdict)
			}
			switch res.Verdict {
			case trace.Holds:
				if p := violatingInstance(f, s.Name, params); p != nil {
					t.Errorf("automaton %d %s: the abstraction says holds, instance %v violates it\n%s", i, s.Name, p, src)
				}
			case trace.Violated:
				crossCheck(t, f, s.Name, res, 5, 1)
			}
		}
	}
	t.Logf("verdicts over %d automata: %v, %d violations concretized from the abstract path", n, count, concretized)
	if count[trace.Holds] == 0 || count[trace.Violated] == 0 || concretized == 0 {
		t.Errorf("verdicts %v, %d concretized: want some of each of holds and violated, some concretized", count, concretized)
	}
}

// randomCycleTA writes a small threshold automaton outside the schema
// engine's class: rules back to earlier locations, some of which decrease
// a shared variable (guarded, so that it stays non-negative), with safety
// and liveness specifications.
func randomCycleTA(r *rand.Rand) string {
	src := randomTA(r)
	i := strings.Index(src, " }\n specifications")
	nloc := strings.Count(src[:strings.Index(src, "inits")], ": [")
	var b strings.Builder
	b.WriteString(src[:i])
	for k := 0; k < 1+r.Intn(2); k++ {
		from, to := 1+r.Intn(nloc-1), 0
		if from > 1 {
			to = r.Intn(from)
		}
		v := r.Intn(2)
		if !strings.Contains(src, "x1") {
			v = 0
		}
		upd, guard := "unchanged(x0);", "true"
		if r.Intn(3) > 0 {
			upd, guard = fmt.Sprintf("x%d' == x%d - 1;", v, v), fmt.Sprintf("x%d >= 1", v)
		}
		fmt.Fprintf(&b, "  %d: l%d -> l%d when (%s) do { %s };\n", 100+k, from, to, guard, upd)
	}
	b.WriteString(src[i:])
	return b.String()
}

// TestRandomCEGAR checks the counter abstraction with refinement on
// random automata, acyclic, with resets, and with cycles and decrements,
// against the other engine (where it decides) and
// against instances: a verdict holds must agree with the other engine and
// with every small instance, a violation is an instance's (replayed), and
// the run must prove some specifications, refute others and refine.
// FTMC_RANDOM_TA=n for more automata of each kind.
func TestRandomCEGAR(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	n := randomCount(6)
	r := rand.New(rand.NewSource(20261128))
	count := map[trace.Verdict]int{}
	refinements := 0
	for i := 0; i < 3*n; i++ {
		src, name := randomTA(r), fmt.Sprintf("random%d.ta", i)
		switch i % 3 {
		case 1:
			src, name = randomResetTA(r), fmt.Sprintf("reset%d.eta", i)
		case 2:
			src, name = randomCycleTA(r), fmt.Sprintf("cycle%d.ta", i)
		}
		f, err := ta.Parse(name, []byte(src))
		if err != nil {
			t.Fatalf("generated automaton does not parse: %v\n%s", err, src)
		}
		params := smallParams(t, f, 5, 8)
		for _, s := range f.Specs {
			res := Verify(context.Background(), f, s.Name, Options{Jobs: 1, Engine: "cegar"})
			other := Verify(context.Background(), f, s.Name, Options{Jobs: 1})
			count[res.Verdict]++
			if res.CEGAR == nil {
				t.Fatalf("%s %s: no figures of the refinement", name, s.Name)
			}
			refinements += res.CEGAR.Refinements
			if res.Verdict != trace.Unknown && other.Verdict != trace.Unknown && res.Verdict != other.Verdict {
				t.Errorf("%s %s: %s with refinement, %s without\n%s", name, s.Name, res.Verdict, other.Verdict, src)
			}
			switch res.Verdict {
			case trace.Holds:
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				for _, p := range params {
					if e := explicitAny(ctx, f, s.Name, p); e.Verdict == trace.Violated {
						t.Errorf("%s %s: the refinement says holds, instance %v violates it\n%s", name, s.Name, p, src)
						break
					}
				}
				cancel()
			case trace.Violated:
				crossCheck(t, f, s.Name, res, 5, 1)
			}
		}
	}
	t.Logf("verdicts over %d automata: %v, %d refinements", 3*n, count, refinements)
	if count[trace.Holds] == 0 || count[trace.Violated] == 0 || refinements == 0 {
		t.Errorf("verdicts %v, %d refinements: want some of each of holds and violated, and some refinements", count, refinements)
	}
}
