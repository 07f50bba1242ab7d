package backreach

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/mcmt"
	"ftmc/mcmt/system"
	"ftmc/smt"
	"ftmc/state"
	"ftmc/trace"
)

func parse(t *testing.T, name, src string) *system.System {
	t.Helper()
	s, err := mcmt.Parse(name, []byte(src), "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sharedModel(t *testing.T, rel string) (string, []byte) {
	t.Helper()
	path := filepath.Join(testenv.Shared(t), rel)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, src
}

// crossChecked has a second solver confirm every unsat answer of the
// fixpoint checks, when the tests have one (testenv.CrossCheck).
func crossChecked(o Options) Options {
	if s := testenv.CrossCheck(); s != "" {
		o.Solver.CrossCheck = &smt.Options{Name: s, Timeout: o.Solver.Timeout}
	}
	return o
}

func verify(t *testing.T, s *system.System, opts Options) *Result {
	t.Helper()
	testenv.NeedBinary(t, "z3")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if opts.MaxNodes == 0 {
		opts.MaxNodes = 20000
	}
	r, err := Verify(ctx, s, crossChecked(opts))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The benchmarks of ../shared/benchmarks/mcmt are safe, with plain
// backward reachability and with invariants found from an instance.
func TestBenchmarks(t *testing.T) {
	for _, rel := range []string{"benchmarks/mcmt/crash.in", "benchmarks/mcmt/crash.cub", "benchmarks/mcmt/mutex.cub"} {
		path, src := sharedModel(t, rel)
		s, err := mcmt.Parse(path, src, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, approx := range []int{0, 2, 3} {
			r := verify(t, s, Options{Approx: approx})
			if r.Verdict != trace.Holds {
				t.Errorf("%s (approx %d): %s %s, want holds", rel, approx, r.Verdict, r.Reason)
			}
			if approx == 0 && rel != "benchmarks/mcmt/mutex.cub" && r.Stats.Nodes < 50 {
				t.Errorf("%s: %d nodes; plain backward reachability needs about a hundred", rel, r.Stats.Nodes)
			}
		}
	}
}

// replays checks a counterexample on an instance of the system (see
// checkTrace).
func replays(t *testing.T, s *system.System, cx *trace.Counterexample) {
	t.Helper()
	if err := checkTrace(s, cx); err != nil {
		t.Fatal(err)
	}
}

type sinkFunc func(state.Trans, []byte)

func (f sinkFunc) Succ(t state.Trans, s []byte)         { f(t, s) }
func (f sinkFunc) Fail(t state.Trans, kind, msg string) {}

func sameVars(a, b []trace.Var) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

const lockBug = `
type loc = Idle | Want | Crit
var Lock : bool
array Pc[proc] : loc
init (i) { Pc[i] = Idle && Lock = False }
unsafe (i j) { Pc[i] = Crit && Pc[j] = Crit }
transition request (i) requires { Pc[i] = Idle } { Pc[i] := Want }
transition enter (i) requires { Pc[i] = Want && Lock = False } { Pc[i] := Crit; Lock := True }
transition barge (i j) requires { Pc[i] = Want && Pc[j] = Crit } { Pc[i] := Crit }
transition leave (i) requires { Pc[i] = Crit } { Pc[i] := Idle; Lock := False }
`

func TestViolationReplays(t *testing.T) {
	s := parse(t, "bug.cub", lockBug)
	r := verify(t, s, Options{})
	if r.Verdict != trace.Violated || r.Trace == nil {
		t.Fatalf("verdict %s (%s), want violated with a trace", r.Verdict, r.Reason)
	}
	if len(r.Trace.Steps) != 4 || r.Trace.Params["processes"] != 2 {
		t.Errorf("trace of %d steps on %d processes, want the shortest: 4 steps on 2", len(r.Trace.Steps), r.Trace.Params["processes"])
	}
	replays(t, s, r.Trace)
}

// A universal guard is over-approximated backwards: here the only way to
// the unsafe state needs a process to pass "every other process is idle"
// while another one is busy, which no instance allows. Backward
// reachability finds the path anyway; it must not replay, and the verdict
// must be unknown, not violated.
func TestSpuriousPathIsUnknown(t *testing.T) {
	s := parse(t, "spurious.cub", `
type loc = Idle | Busy | Done
array Pc[proc] : loc
init (i) { Pc[i] = Idle }
unsafe (i j) { Pc[i] = Done && Pc[j] = Busy }
transition start (i) requires { Pc[i] = Idle } { Pc[i] := Busy }
transition finish (i) requires { Pc[i] = Busy && forall_other k. Pc[k] = Idle } { Pc[i] := Done }
transition stop (i) requires { Pc[i] = Done } { Pc[i] := Idle }
`)
	// In every instance, when i finishes all others are idle, and nobody
	// becomes busy while some process is done... except by start. So the
	// unsafe state IS reachable: i finishes, then j starts.
	r := verify(t, s, Options{})
	if r.Verdict != trace.Violated {
		t.Fatalf("verdict %s (%s), want violated", r.Verdict, r.Reason)
	}
	replays(t, s, r.Trace)

	// go needs the lock taken and no other process holding it: never
	// enabled, since only a holder takes the lock. Backwards, the universal
	// guard is checked only on the processes of the cube, which misses the
	// holder.
	s = parse(t, "spurious.cub", `
type loc = Idle | Holder | Done
var Lock : bool
array Pc[proc] : loc
init (i) { Pc[i] = Idle && Lock = False }
unsafe (i) { Pc[i] = Done }
transition lock (i) requires { Pc[i] = Idle && Lock = False } { Pc[i] := Holder; Lock := True }
transition go (i) requires { Pc[i] = Idle && Lock = True && forall_other k. Pc[k] <> Holder } { Pc[i] := Done }
`)
	for _, approx := range []int{0, 3} {
		r = verify(t, s, Options{Approx: approx})
		if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "not enabled") {
			t.Errorf("approx %d: verdict %s (%s), want unknown because the path does not replay", approx, r.Verdict, r.Reason)
		}
	}
}

func TestNodeLimitIsUnknown(t *testing.T) {
	path, src := sharedModel(t, "benchmarks/mcmt/crash.cub")
	s, err := mcmt.Parse(path, src, "")
	if err != nil {
		t.Fatal(err)
	}
	r := verify(t, s, Options{MaxNodes: 10})
	if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "node limit") {
		t.Errorf("verdict %s (%s), want unknown at the node limit", r.Verdict, r.Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err = Verify(ctx, s, Options{})
	if err != nil || r.Verdict != trace.Unknown {
		t.Errorf("cancelled: %v %v, want unknown", r.Verdict, err)
	}
}

// seed returns the Chandra-Toueg seed's text, to make mutants of.
func seed(t *testing.T) string {
	_, src := sharedModel(t, "seeds/002_89f49e16422360b2.txt")
	return string(src)
}

func mutate(t *testing.T, src, old, new string) string {
	t.Helper()
	if strings.Count(src, old) != 1 {
		t.Fatalf("mutation: %q occurs %d times in the seed", old, strings.Count(src, old))
	}
	return strings.Replace(src, old, new, 1)
}

// A weakened guard: transition 21 lets an undecided process decide its
// estimate in any round, not only in round 5. Two correct processes with
// different initial estimates then decide differently: AGREEMENT is
// violated, and the run replays on two processes.
func TestSeedMutantWeakGuard(t *testing.T) {
	src := mutate(t, seed(t), "guard: (round[x] = 5) AND (done[x] = false) AND (state[x] = false) AND (coord[y] = true) update: state[x] := true;",
		"guard: (done[x] = false) AND (state[x] = false) AND (coord[y] = true) update: state[x] := true;")
	s := parse(t, "weak21.mcmt", src)
	for _, approx := range []int{0, 3} {
		r := verify(t, s, Options{Approx: approx})
		if r.Verdict != trace.Violated || r.Trace == nil {
			t.Fatalf("approx %d: verdict %s (%s), want violated with a trace", approx, r.Verdict, r.Reason)
		}
		replays(t, s, r.Trace)
	}
}

func TestSolver(t *testing.T) {
	s := parse(t, "v.cub", "var X : int\nvar Y : int\narray B[proc] : bool\nunsafe (i) { B[i] = True }")
	voc := &vocabulary{sys: s, doms: []domain{{-inf, inf}, {-inf, inf}, {0, 1}}}
	sv := newSolver(voc)
	x, y, b0, b1, b2 := globalAtom(0), globalAtom(1), readAtom(2, 0), readAtom(2, 1), readAtom(2, 2)
	for _, tc := range []struct {
		lits []lit
		want status
	}{
		{[]lit{{x: x, op: opLe, c: 3}, {x: x, op: opGe, c: 3}, {x: x, op: opNe, c: 3}}, unsat},
		{[]lit{{x: x, y: y, op: opLe, c: -1}, {x: y, y: x, op: opLe, c: -1}}, unsat},
		{[]lit{{x: x, y: y, op: opLe, c: 0}, {x: x, y: y, op: opNe, c: 0}, {x: y, op: opLe, c: 5}}, sat},
		// Three Booleans pairwise different: pigeonhole.
		{[]lit{{x: b0, y: b1, op: opNe}, {x: b1, y: b2, op: opNe}, {x: b0, y: b2, op: opNe}}, unsat},
		{[]lit{{x: b0, y: b1, op: opNe}, {x: b1, y: b2, op: opNe}}, sat},
		// Identifiers of distinct processes differ.
		{[]lit{{x: procAtom(0), y: x, op: opEq}, {x: procAtom(1), y: x, op: opEq}}, unsat},
	} {
		if got, _ := sv.check(tc.lits, false); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.lits, got, tc.want)
		}
	}
}

// The local solver against enumeration: random conjunctions of difference
// constraints and disequalities over four atoms with values 0..3 (and two
// process identifiers, which differ and are compared with each other and
// with constants only, so that 0..7 holds a solution if any) are
// satisfiable exactly when some assignment satisfies them; a model it
// returns is one. Case splits relax their new edge incrementally; the
// disequalities here nest them several deep.
func TestSolverRandom(t *testing.T) {
	s := parse(t, "v.cub", "array A[proc] : int\nunsafe (i) { A[i] = 0 }")
	voc := &vocabulary{sys: s, doms: []domain{{0, 3}}}
	sv := newSolver(voc)
	atoms := []atom{readAtom(0, 0), readAtom(0, 1), readAtom(0, 2), readAtom(0, 3), procAtom(0), procAtom(1)}
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[status]int{}
	for iter := 0; iter < 5000; iter++ {
		var lits []lit
		for range 1 + r.IntN(7) {
			x := atoms[r.IntN(len(atoms))]
			l := lit{x: x, op: lop(r.IntN(4)), c: int64(r.IntN(7) - 3)}
			if r.IntN(3) > 0 {
				y := atoms[r.IntN(len(atoms))]
				if y == x || x.isProc() != y.isProc() {
					continue
				}
				l.y = y
				if l.op == opGe {
					l.op = opLe
				}
				if (l.op == opEq || l.op == opNe) && l.x > l.y {
					l.x, l.y, l.c = l.y, l.x, -l.c
				}
			}
			lits = append(lits, l)
		}
		got, model := sv.check(lits, true)
		counts[got]++
		if got == undecided {
			continue
		}
		// Enumerate: array entries 0..3, identifiers 0..7.
		want := unsat
		val := make(map[atom]int64)
		var rec func(i int) bool
		rec = func(i int) bool {
			if i == len(atoms) {
				if val[atoms[4]] == val[atoms[5]] {
					return false
				}
				for _, l := range lits {
					y := int64(0)
					if l.y != 0 {
						y = val[l.y]
					}
					if !holdsLit(l, val[l.x], y) {
						return false
					}
				}
				return true
			}
			hi := int64(3)
			if atoms[i].isProc() {
				hi = 7
			}
			for v := int64(0); v <= hi; v++ {
				val[atoms[i]] = v
				if rec(i + 1) {
					return true
				}
			}
			return false
		}
		if rec(0) {
			want = sat
		}
		if got != want {
			t.Fatalf("%v: %v, enumeration says %v", lits, got, want)
		}
		if got == sat {
			for _, l := range lits {
				y := int64(0)
				if l.y != 0 {
					y = model[l.y]
				}
				if !holdsLit(l, model[l.x], y) {
					t.Fatalf("%v: model %v falsifies %v", lits, model, l)
				}
			}
		}
	}
	// Seven literals never need the 256 splits of the budget.
	if counts[sat] < 500 || counts[unsat] < 500 || counts[undecided] > 0 {
		t.Errorf("answers %v: want many sat and unsat, no undecided", counts)
	}
}

// A lemma removed: Lemma 2.1 is a consequence of the protocol, not an
// assumption about it, so without it the instances are as safe as before,
// and backward reachability must not report a violation. Plain backward
// reachability stops at its node limit (as for the seed itself); with the
// invariant search the proof goes through without the lemma.
func TestSeedMutantLemmaRemoved(t *testing.T) {
	src := seed(t)
	i := strings.Index(src, "/* LEMMA 2.1 */")
	j := strings.Index(src, "/* LEMMA 2.2 */")
	if i < 0 || j < i {
		t.Fatal("Lemma 2.1 not found in the seed")
	}
	s := parse(t, "nolemma21.mcmt", src[:i]+src[j:])
	if len(s.Axioms) != 3 {
		t.Fatalf("%d axioms, want 3", len(s.Axioms))
	}
	for k := 2; k <= 3; k++ {
		in, err := system.NewInstance(s, k)
		if err != nil {
			t.Fatal(err)
		}
		res, err := system.Explore(t.Context(), in, system.ExploreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete || res.Unsafe != nil || res.Axiom >= 0 {
			t.Errorf("%d processes: complete %v, unsafe %v, broken axiom %d", k, res.Complete, res.Unsafe != nil, res.Axiom)
		}
	}
	r := verify(t, s, Options{MaxNodes: 200})
	if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "node limit") {
		t.Errorf("without invariant search: verdict %s (%s), want unknown at the node limit", r.Verdict, r.Reason)
	}
	r = verify(t, s, Options{Approx: 3})
	if r.Verdict != trace.Holds {
		t.Errorf("with invariant search: verdict %s (%s), want holds", r.Verdict, r.Reason)
	}
}

// The seed itself: AGREEMENT holds for any number of processes. Plain
// backward reachability does not converge; the invariant search finds
// the missing invariants (the seven suggested ones are proved first and
// do not suffice), proves each by a bounded backward search, and the
// property's search reaches a fixpoint.
func TestSeed(t *testing.T) {
	s := parse(t, "seed.mcmt", seed(t))
	r := verify(t, s, Options{Approx: 3})
	if r.Verdict != trace.Holds {
		t.Fatalf("verdict %s (%s), want holds", r.Verdict, r.Reason)
	}
	if len(r.Proved) != 7 || len(r.Refuted) != 0 {
		t.Errorf("%d suggested invariants proved, %d refuted; want all 7 proved", len(r.Proved), len(r.Refuted))
	}
	if r.Stats.Lemmas == 0 || len(r.Lemmas) != r.Stats.Lemmas {
		t.Errorf("%d lemmas found (%d listed); the proof needs invariants the file does not state", r.Stats.Lemmas, len(r.Lemmas))
	}
	// Without the suggested invariants the same search does not converge
	// within a small budget: they are part of the proof.
	r = verify(t, s, Options{Approx: 3, IgnoreCandidates: true, MaxNodes: 300})
	if r.Verdict == trace.Violated {
		t.Errorf("without the suggested invariants: violated; want holds or unknown")
	}
}

// A false lemma: an axiom that no process ever decides makes AGREEMENT
// hold vacuously for backward reachability, which trusts axioms. The
// bounded check is what catches it: the axiom is false on two processes.
func TestSeedMutantFalseLemma(t *testing.T) {
	src := mutate(t, seed(t), "/* LEMMA 2.3 */", "/* LEMMA 2.3 */ system_axiom (universal x:nat) { (NOT (state[x] = true)) }")
	s := parse(t, "falselemma.mcmt", src)
	r := verify(t, s, Options{})
	if r.Verdict != trace.Holds {
		t.Errorf("verdict %s (%s), want holds relative to the (false) axioms", r.Verdict, r.Reason)
	}
	in, err := system.NewInstance(s, 2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := system.Explore(t.Context(), in, system.ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Axiom != 3 || res.AxiomRun == nil {
		t.Errorf("broken axiom %d, want the added one (4)", res.Axiom+1)
	}
}
