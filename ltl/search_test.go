package ltl

import (
	"context"
	"encoding/binary"
	"math/rand"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"ftmc/explore"
	"ftmc/internal/graph"
	"ftmc/state"
	"ftmc/trace"
)

// negation is the automaton of !(formula).
func negation(t *testing.T, formula string) *Automaton {
	t.Helper()
	f, err := Parse(Pos{File: "test"}, formula)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Translate(Not(f))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// check translates !(formula) and searches m's product with it; preds maps
// each atom's text to its predicate.
func check(t *testing.T, m state.Model, formula string, preds map[string]Predicate, opts Options) trace.Result {
	t.Helper()
	a := negation(t, formula)
	var ps []Predicate
	for _, name := range a.Atoms {
		p, ok := preds[name]
		if !ok {
			t.Fatalf("no predicate for %q", name)
		}
		ps = append(ps, p)
	}
	opts.Property = formula
	r, _, err := Check(context.Background(), m, a, ps, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict == trace.Violated {
		validateLasso(t, m, r.Counterexample)
	}
	if opts.Workers == 0 {
		// The parallel search finds the same verdict (not the same
		// counterexample).
		opts.Workers = 2
		p, _, err := Check(context.Background(), m, a, ps, opts)
		if err != nil {
			t.Fatal(err)
		}
		if p.Verdict != r.Verdict || p.Kind != r.Kind || (p.Reason == "") != (r.Reason == "") {
			t.Errorf("%s: %s (%s: %s) on one worker, %s (%s: %s) on two", formula, r.Verdict, r.Kind, r.Reason, p.Verdict, p.Kind, p.Reason)
		}
		if p.Verdict == trace.Violated {
			validateLasso(t, m, p.Counterexample)
		}
	}
	return r
}

// validateLasso checks that a counterexample is a lasso of the model's own
// steps: its cycle is not empty and ends where it starts.
func validateLasso(t *testing.T, m state.Model, c *trace.Counterexample) {
	t.Helper()
	if c == nil {
		t.Fatal("violation without a counterexample")
	}
	// The cycle is steps[LoopStart:], or the final state repeated when
	// LoopStart == len(Steps); a bad prefix has none.
	prefix := strings.HasPrefix(c.Message, "bad prefix")
	if (c.LoopStart < 0 && !prefix) || c.LoopStart > len(c.Steps) {
		t.Fatalf("loop start %d with %d steps", c.LoopStart, len(c.Steps))
	}
	for k, st := range c.Steps {
		if st.Num != k+1 {
			t.Fatalf("step %d numbered %d", k+1, st.Num)
		}
	}
}

func eq(i int, v byte) Predicate { return func(s []byte) bool { return s[i] == v } }

// counter: one process counts x = 0, 1, ..., n-1, 0, ...
func counter(n byte) *gcModel {
	return &gcModel{
		name: "counter", vars: []string{"x"}, init: [][]byte{{0}},
		procs: [][]gcmd{{{name: "x = (x+1) % n", act: func(s []byte) { s[0] = (s[0] + 1) % n }}}},
	}
}

func TestCheckCounter(t *testing.T) {
	m := counter(3)
	preds := map[string]Predicate{"x == 0": eq(0, 0), "x == 3": eq(0, 3), "x == 1": eq(0, 1)}
	for _, c := range []struct {
		f    string
		want trace.Verdict
	}{
		{"[]<>(x == 0)", trace.Holds},
		{"<>[](x == 0)", trace.Violated},
		{"[]!(x == 3)", trace.Holds},
		{"<>(x == 3)", trace.Violated},
		{"[]((x == 0) -> X (x == 1))", trace.Holds},
		{"(x == 0) U (x == 1)", trace.Holds},
		{"[]((x == 1) -> <>(x == 0))", trace.Holds},
		{"!(x == 0)", trace.Violated},
	} {
		r := check(t, m, c.f, preds, Options{})
		if r.Verdict != c.want {
			t.Errorf("%s: %s, want %s", c.f, r.Verdict, c.want)
		}
		if r.Verdict == trace.Violated && r.Kind != state.KindAcceptCycle {
			t.Errorf("%s: kind %q", c.f, r.Kind)
		}
	}
}

// A model that stops: finite runs repeat their last state (Spin's stutter).
func TestCheckStutter(t *testing.T) {
	m := &gcModel{
		name: "stop", vars: []string{"x"}, init: [][]byte{{0}},
		procs: [][]gcmd{{{name: "x = 1", guard: func(s []byte) bool { return s[0] == 0 }, act: func(s []byte) { s[0] = 1 }}}},
	}
	preds := map[string]Predicate{"x == 1": eq(0, 1), "x == 2": eq(0, 2)}
	if r := check(t, m, "<>(x == 2)", preds, Options{}); r.Verdict != trace.Violated {
		t.Errorf("<>(x == 2): %s", r.Verdict)
	} else {
		c := r.Counterexample
		if len(c.Steps) != 1 || c.LoopStart != 1 {
			t.Errorf("the lasso should be one step, then the final state repeated: %+v", c)
		}
	}
	if r := check(t, m, "<>[](x == 1)", preds, Options{}); r.Verdict != trace.Holds {
		t.Errorf("<>[](x == 1): %s", r.Verdict)
	}
}

// With NoStutter a run that ends in a deadlock is no counterexample (ByMC's
// semantics), while a bad prefix that ends there still is.
func TestCheckNoStutter(t *testing.T) {
	m := &gcModel{
		name: "stop", vars: []string{"x"}, init: [][]byte{{0}},
		procs: [][]gcmd{{{name: "x = 1", guard: func(s []byte) bool { return s[0] == 0 }, act: func(s []byte) { s[0] = 1 }}}},
	}
	preds := map[string]Predicate{"x == 0": eq(0, 0), "x == 1": eq(0, 1), "x == 2": eq(0, 2)}
	if r := check(t, m, "<>(x == 2)", preds, Options{NoStutter: true}); r.Verdict != trace.Holds {
		t.Errorf("<>(x == 2) without stuttering: %s, want holds (the only run is finite)", r.Verdict)
	}
	if r := check(t, m, "[](x == 0)", preds, Options{NoStutter: true}); r.Verdict != trace.Violated {
		t.Errorf("[](x == 0) without stuttering: %s, want violated (x == 1 is reached)", r.Verdict)
	}
	// A model that moves forever still has its lassos.
	loop := fairModel()
	lp := map[string]Predicate{"f == 1": eq(1, 1)}
	if r := check(t, loop, "<>(f == 1)", lp, Options{NoStutter: true}); r.Verdict != trace.Violated {
		t.Errorf("<>(f == 1) on a model that loops: %s, want violated", r.Verdict)
	}
}

// Process 0 toggles y forever; process 1 sets f once. Only weak fairness
// makes process 1 move.
func fairModel() *gcModel {
	return &gcModel{
		name: "fair", vars: []string{"y", "f"}, init: [][]byte{{0, 0}},
		procs: [][]gcmd{
			{{name: "y = 1-y", act: func(s []byte) { s[0] = 1 - s[0] }}},
			{{name: "f = 1", guard: func(s []byte) bool { return s[1] == 0 }, act: func(s []byte) { s[1] = 1 }}},
		},
	}
}

func TestCheckFairness(t *testing.T) {
	m := fairModel()
	preds := map[string]Predicate{"f == 1": eq(1, 1), "y == 1": eq(0, 1)}
	if r := check(t, m, "<>(f == 1)", preds, Options{}); r.Verdict != trace.Violated {
		t.Errorf("without fairness: %s", r.Verdict)
	}
	if r := check(t, m, "<>(f == 1)", preds, Options{Fairness: true}); r.Verdict != trace.Holds {
		t.Errorf("with fairness: %s", r.Verdict)
	}
	// Fair runs still violate properties that do not depend on process 1.
	if r := check(t, m, "<>[](y == 1)", preds, Options{Fairness: true}); r.Verdict != trace.Violated {
		t.Errorf("<>[](y == 1) with fairness: %s", r.Verdict)
	}
	// A blocked process does not have to move: here process 1 waits for
	// y == 2, which never happens, and the cycle is fair.
	m.procs[1][0].guard = func(s []byte) bool { return s[0] == 2 }
	if r := check(t, m, "<>(f == 1)", preds, Options{Fairness: true}); r.Verdict != trace.Violated {
		t.Errorf("blocked process, with fairness: %s", r.Verdict)
	}
	// ... and when it is blocked only sometimes (y == 1 enables it, y == 0
	// blocks it), weak fairness does not force it either.
	m.procs[1][0].guard = func(s []byte) bool { return s[0] == 1 && s[1] == 0 }
	if r := check(t, m, "<>(f == 1)", preds, Options{Fairness: true}); r.Verdict != trace.Violated {
		t.Errorf("intermittently enabled process, with fairness: %s", r.Verdict)
	}
}

func TestCheckExclusive(t *testing.T) {
	// v0 is the pid holding atomicity (255: none). Process 0 runs
	// atomic { x = 1; x = 0 } forever; process 1 idles. The claim does not
	// see x == 1, which exists only inside the atomic sequence.
	m := &gcModel{
		name: "atomic", vars: []string{"lock", "x"}, init: [][]byte{{255, 0}},
		procs: [][]gcmd{
			{
				{name: "x = 1", guard: func(s []byte) bool { return s[0] == 255 }, act: func(s []byte) { s[0], s[1] = 0, 1 }},
				{name: "x = 0", guard: func(s []byte) bool { return s[0] == 0 }, act: func(s []byte) { s[0], s[1] = 255, 0 }},
			},
			{{name: "skip", guard: func(s []byte) bool { return s[0] == 255 }}},
		},
	}
	m.excl = func(s []byte) bool { return s[0] != 255 }
	preds := map[string]Predicate{"x == 0": eq(1, 0)}
	if r := check(t, exclusiveModel{m}, "[](x == 0)", preds, Options{}); r.Verdict != trace.Holds {
		t.Errorf("inside atomic: %s", r.Verdict)
	}
	if r := check(t, m, "[](x == 0)", preds, Options{}); r.Verdict != trace.Violated {
		t.Errorf("without Exclusive: %s", r.Verdict)
	}
}

func TestNonProgress(t *testing.T) {
	m := counter(3)
	m.progress = func(s []byte) bool { return s[0] == 2 }
	r, _, err := CheckNonProgress(context.Background(), progressModel{m}, Options{})
	if err != nil || r.Verdict != trace.Holds {
		t.Errorf("progress in the loop: %v %v", r.Verdict, err)
	}
	m.progress = func(s []byte) bool { return false }
	r, _, err = CheckNonProgress(context.Background(), progressModel{m}, Options{})
	if err != nil || r.Verdict != trace.Violated || r.Kind != state.KindNonProgress {
		t.Errorf("no progress label: %v %q %v", r.Verdict, r.Kind, err)
	}
	// A terminal state is no non-progress cycle.
	stop := &gcModel{name: "stop", init: [][]byte{{0}}, procs: [][]gcmd{{{name: "x = 1",
		guard: func(s []byte) bool { return s[0] == 0 }, act: func(s []byte) { s[0] = 1 }}}},
		progress: func([]byte) bool { return false }}
	r, _, err = CheckNonProgress(context.Background(), progressModel{stop}, Options{})
	if err != nil || r.Verdict != trace.Holds {
		t.Errorf("terminal state: %v %v", r.Verdict, err)
	}
	if _, _, err := CheckNonProgress(context.Background(), m, Options{}); err == nil {
		t.Error("a model without progress labels must be refused")
	}
}

func TestCheckLimits(t *testing.T) {
	m := counter(200)
	preds := map[string]Predicate{"x == 0": eq(0, 0)}
	r := check(t, m, "[]<>(x == 0)", preds, Options{MaxDepth: 10})
	if r.Verdict != trace.Unknown {
		t.Errorf("depth-limited search: %s", r.Verdict)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f, _ := Parse(Pos{}, "[]<>(x == 0)")
	a, _ := Translate(Not(f))
	r, _, _ = Check(ctx, counter(250), a, []Predicate{eq(0, 0)}, Options{})
	if r.Verdict == trace.Holds {
		t.Errorf("a cancelled search says holds")
	}
	// The same for the breadth-first search of a safety property (which
	// holds when the search is complete).
	preds["x == 250"] = eq(0, 250)
	if r := check(t, m, "[]!(x == 250)", preds, Options{}); r.Verdict != trace.Holds {
		t.Fatalf("complete search: %s", r.Verdict)
	}
	for name, o := range map[string]Options{
		"depth":  {MaxDepth: 10},
		"memory": {MemoryLimit: 1},
	} {
		if r := check(t, m, "[]!(x == 250)", preds, o); r.Verdict != trace.Unknown || r.Reason == "" {
			t.Errorf("%s-limited safety search: %s (%s)", name, r.Verdict, r.Reason)
		}
	}
}

// TestCheckMemoryPeak: the nested depth-first search of a long chain,
// whose stacks hold most of its memory, stops at its memory limit without
// passing it: a stack asks for room before it grows.
func TestCheckMemoryPeak(t *testing.T) {
	chain, a := longChain(t)
	runtime.GC()
	var sampler explore.MemorySampler
	limit := sampler.RuntimeBytes() + 40e6
	r, st, err := Check(context.Background(), chain, a, []Predicate{eq(0, 0)}, Options{MemoryLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, "memory limit ") {
		t.Fatalf("%s (%s), want unknown at the memory limit", r.Verdict, r.Reason)
	}
	if st.MemoryBytes > limit || st.States == 0 {
		t.Errorf("memory peak %d with a limit of %d, after %d states", st.MemoryBytes, limit, st.States)
	}
}

// longChain is a chain of four billion states and the automaton of the
// negation of []<>(x0 == 0), whose search goes down the chain for as long
// as it is let.
func longChain(t *testing.T) (*gcModel, *Automaton) {
	t.Helper()
	chain := &gcModel{name: "chain", vars: []string{"x0", "x1", "x2", "x3"}, init: [][]byte{{0, 0, 0, 0}},
		procs: [][]gcmd{{{name: "x++", act: func(s []byte) { binary.LittleEndian.PutUint32(s, binary.LittleEndian.Uint32(s)+1) }}}}}
	return chain, negation(t, "[]<>(x0 == 0)")
}

// TestCheckMaxStates: a state bound stops the search with verdict unknown
// soon past the bound (at the next check of the limits), the same however
// long it took.
func TestCheckMaxStates(t *testing.T) {
	chain, a := longChain(t)
	var first int64
	for range 2 {
		r, st, err := Check(context.Background(), chain, a, []Predicate{eq(0, 0)}, Options{MaxStates: 50_000})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Unknown || r.Reason != "state limit 50000 reached" {
			t.Fatalf("%s (%s), want unknown at the state limit", r.Verdict, r.Reason)
		}
		if st.States <= 50_000 || st.States > 60_000 || st.Complete {
			t.Errorf("%d states (complete %v), want a few past 50000", st.States, st.Complete)
		}
		if first != 0 && st.States != first {
			t.Errorf("%d states, then %d: the bound cut the search at another place", first, st.States)
		}
		first = st.States
	}
}

// randPredicates are the atoms of a over the states of a random model,
// read from the valuation table val of randModel.
func randPredicates(a *Automaton, val []uint64) []Predicate {
	var preds []Predicate
	for _, name := range a.Atoms {
		bit := 0
		for k, tn := range testAtoms {
			if tn == name {
				bit = k
			}
		}
		preds = append(preds, func(s []byte) bool { return val[s[0]]&(1<<bit) != 0 })
	}
	return preds
}

// randModel is a random graph: states are one byte, process p has a few
// random edges, atom i holds in state s by a random table.
func randModel(rng *rand.Rand, nstates, nprocs int) (*gcModel, []uint64) {
	val := make([]uint64, nstates)
	for i := range val {
		val[i] = uint64(rng.Intn(8))
	}
	m := &gcModel{name: "random", init: [][]byte{{0}}}
	for p := 0; p < nprocs; p++ {
		var cmds []gcmd
		for k := rng.Intn(2*nstates + 1); k > 0; k-- {
			from, to := byte(rng.Intn(nstates)), byte(rng.Intn(nstates))
			cmds = append(cmds, gcmd{name: "e", guard: func(s []byte) bool { return s[0] == from }, act: func(s []byte) { s[0] = to }})
		}
		m.procs = append(m.procs, cmds)
	}
	return m, val
}

// referenceCheck builds the product of a random model and an automaton
// explicitly and decides whether an accepting (and, if fair, weakly fair)
// cycle is reachable, from the strongly connected components.
func referenceCheck(m *gcModel, val []uint64, a *Automaton, fair bool) bool {
	a = withoutEnds(a)
	nq := len(a.States)
	type edge struct {
		to   int
		proc int
	}
	n := len(val) * nq
	succ := make([][]edge, n)
	enabled := make([]uint64, len(val)) // pids enabled in each model state
	for s := range val {
		var ms []edge
		for p, cmds := range m.procs {
			for _, c := range cmds {
				if c.guard([]byte{byte(s)}) {
					b := []byte{byte(s)}
					c.act(b)
					ms = append(ms, edge{int(b[0]), p})
					enabled[s] |= 1 << p
				}
			}
		}
		if len(ms) == 0 {
			ms = []edge{{s, -1}}
		}
		for q := 0; q < nq; q++ {
			for _, q2 := range a.Next(q, val[s], nil) {
				for _, e := range ms {
					succ[s*nq+q] = append(succ[s*nq+q], edge{e.to*nq + q2, e.proc})
				}
			}
		}
	}
	plain := make([][]int, n)
	for v, es := range succ {
		for _, e := range es {
			plain[v] = append(plain[v], e.to)
		}
	}
	reach := make([]bool, n)
	stack := []int{a.Init}
	reach[a.Init] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range plain[v] {
			if !reach[u] {
				reach[u] = true
				stack = append(stack, u)
			}
		}
	}
	comp := graph.SCC(n, plain)
	type info struct {
		acc, cyclic      bool
		moved, blocked   uint64
		enabledSomewhere uint64
	}
	infos := map[int]*info{}
	for v := 0; v < n; v++ {
		if !reach[v] {
			continue
		}
		c := comp[v]
		if infos[c] == nil {
			infos[c] = &info{}
		}
		in := infos[c]
		s := v / nq
		in.acc = in.acc || a.States[v%nq].Accepting
		in.enabledSomewhere |= enabled[s]
		in.blocked |= ^enabled[s]
		for _, e := range succ[v] {
			if comp[e.to] == c {
				in.cyclic = true
				if e.proc >= 0 {
					in.moved |= 1 << e.proc
				}
			}
		}
	}
	for _, in := range infos {
		if !in.acc || !in.cyclic {
			continue
		}
		if !fair || in.enabledSomewhere&^(in.moved|in.blocked) == 0 {
			return true
		}
	}
	return false
}

func TestCheckRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	n := 600
	if testing.Short() {
		n = 150
	}
	for i := 0; i < n; i++ {
		m, val := randModel(rng, 2+rng.Intn(6), 1+rng.Intn(3))
		f := randFormula(rng, 1+rng.Intn(8))
		a, err := Translate(Not(f))
		if err != nil {
			t.Fatal(err)
		}
		preds := randPredicates(a, val)
		// The automaton reads atoms in its own order: remap the table.
		aval := make([]uint64, len(val))
		for s, v := range val {
			aval[s] = remapValuation(v, a.Atoms)
		}
		for _, fair := range []bool{false, true} {
			want := referenceCheck(m, aval, a, fair)
			r, _, err := Check(context.Background(), m, a, preds, Options{Fairness: fair})
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Verdict == trace.Violated; got != want {
				t.Fatalf("model %d (fair %v), !(%s): search says %s, reference %v\n%s", i, fair, f, r.Verdict, want, a)
			}
			if r.Verdict == trace.Violated {
				validateLasso(t, m, r.Counterexample)
				if c := r.Counterexample; c.LoopStart < 0 {
					checkBadPrefix(t, rng, m, val, f, c)
				}
			}
		}
	}
}

// checkBadPrefix checks a bad prefix of a random model on a few of its
// continuations: f is false on each. The model's state is v0 alone.
func checkBadPrefix(t *testing.T, rng *rand.Rand, m *gcModel, val []uint64, f *Formula, c *trace.Counterexample) {
	t.Helper()
	at := func(vs []trace.Var) byte { return v0(t, vs) }
	run := []byte{at(c.Initial)}
	for _, st := range c.Steps {
		s := run[len(run)-1]
		if len(st.Changes) > 0 {
			s = at(st.Changes)
		}
		run = append(run, s)
	}
	if last := at(c.Final); last != run[len(run)-1] {
		t.Fatalf("the final state %d is not where the steps lead (%v)", last, run)
	}
	for k := 0; k < 10; k++ {
		// A random walk from the last state until a state repeats (or the
		// final state of a run that ends, which repeats).
		walk := append([]byte(nil), run...)
		seen := map[byte]int{}
		loop := -1
		for loop < 0 {
			s := walk[len(walk)-1]
			if i, ok := seen[s]; ok {
				loop = i
				walk = walk[:len(walk)-1]
				break
			}
			seen[s] = len(walk) - 1
			var next []byte
			m.Next([]byte{s}, sinkFunc(func(v []byte) { next = append(next, v[0]) }))
			if len(next) == 0 {
				walk = append(walk, s)
				continue
			}
			walk = append(walk, next[rng.Intn(len(next))])
		}
		var w Lasso
		for i, s := range walk {
			if i < loop {
				w.Prefix = append(w.Prefix, val[s])
			} else {
				w.Loop = append(w.Loop, val[s])
			}
		}
		if f.Holds(w, testAtoms) {
			t.Fatalf("%s holds on a continuation %v (loop at %d) of the bad prefix %v", f, walk, loop, run)
		}
	}
}

// sinkFunc collects successors (state.Sink).
type sinkFunc func(v []byte)

func (f sinkFunc) Succ(_ state.Trans, v []byte)     { f(v) }
func (f sinkFunc) Fail(state.Trans, string, string) {}

func remapValuation(v uint64, atoms []string) uint64 {
	var r uint64
	for i, name := range atoms {
		for k, tn := range testAtoms {
			if tn == name && v&(1<<k) != 0 {
				r |= 1 << i
			}
		}
	}
	return r
}

// The violation of a safety property is its shortest bad prefix, found
// breadth-first, with or without fairness; a property whose automaton is
// no safety automaton keeps its lasso.
func TestCheckBadPrefix(t *testing.T) {
	m := counter(4)
	preds := map[string]Predicate{"x == 2": eq(0, 2), "x == 3": eq(0, 3), "x == 0": eq(0, 0)}
	for _, fair := range []bool{false, true} {
		r := check(t, m, "[]!(x == 2)", preds, Options{Fairness: fair})
		c := r.Counterexample
		if r.Verdict != trace.Violated || r.Kind != state.KindAcceptCycle || c == nil {
			t.Fatalf("fair %v: %s (%s)", fair, r.Verdict, r.Kind)
		}
		if c.LoopStart != -1 || len(c.Steps) != 2 || c.Final[0].Value != "2" {
			t.Errorf("fair %v: %d steps, loop start %d, final %v; want the 2 steps to x == 2", fair, len(c.Steps), c.LoopStart, c.Final)
		}
		// [](x == 2 -> [](x != 0)): bad once x is 0 after 2.
		r = check(t, m, "[]((x == 2) -> []!(x == 0))", preds, Options{Fairness: fair})
		if c := r.Counterexample; r.Verdict != trace.Violated || c.LoopStart != -1 || len(c.Steps) != 4 {
			t.Errorf("fair %v: %s with %+v", fair, r.Verdict, c)
		}
		r = check(t, m, "<>[](x == 3)", preds, Options{Fairness: fair})
		if c := r.Counterexample; r.Verdict != trace.Violated || c.LoopStart < 0 {
			t.Errorf("fair %v: <>[]: %s with %+v", fair, r.Verdict, c)
		}
	}
	// A model whose one run ends after a step.
	stop := &gcModel{
		name: "stop", vars: []string{"x"}, init: [][]byte{{0}},
		procs: [][]gcmd{{{name: "x = 1", guard: func(s []byte) bool { return s[0] == 0 }, act: func(s []byte) { s[0] = 1 }}}},
	}
	r := check(t, stop, "[]!(x == 1)", map[string]Predicate{"x == 1": eq(0, 1)}, Options{})
	if c := r.Counterexample; r.Verdict != trace.Violated || len(c.Steps) != 1 || c.LoopStart != -1 {
		t.Errorf("stop: %s with %+v", r.Verdict, c)
	}
}

// v0 is the value of the random model's one variable in a step's values.
func v0(t *testing.T, vs []trace.Var) byte {
	t.Helper()
	for _, v := range vs {
		if v.Name == "v0" {
			n, _ := strconv.Atoi(v.Value)
			return byte(n)
		}
	}
	t.Fatalf("no v0 in %v", vs)
	return 0
}
