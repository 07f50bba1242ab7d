package ltl

import (
	"context"
	"math/rand"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"ftmc/state"
	"ftmc/trace"
)

// yieldModel takes its time in Next (a few microseconds, and it
// yields), so that the workers of a parallel search interleave on small
// graphs as they do on large ones.
type yieldModel struct{ *gcModel }

func (m yieldModel) Next(s []byte, sink state.Sink) {
	runtime.Gosched()
	for t := time.Now(); time.Since(t) < 5*time.Microsecond; {
	}
	m.gcModel.Next(s, sink)
}

func (m yieldModel) Fork() state.Model { return m }

// TestCheckParallelRandom compares the parallel search on 2 and 4 workers
// with the reference decision on random product graphs, with and without
// fairness, and replays each counterexample on the model.
func TestCheckParallelRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	n := 400
	if testing.Short() {
		n = 100
	}
	violated := 0
	for i := 0; i < n; i++ {
		gm, val := randModel(rng, 4+rng.Intn(60), 1+rng.Intn(3))
		m := yieldModel{gm}
		f := randFormula(rng, 1+rng.Intn(8))
		a, err := Translate(Not(f))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := sinks(withoutEnds(a)); ok {
			continue // a safety property: the breadth-first search
		}
		preds := randPredicates(a, val)
		aval := make([]uint64, len(val))
		for s, v := range val {
			aval[s] = remapValuation(v, a.Atoms)
		}
		for _, fair := range []bool{false, true} {
			want := referenceCheck(gm, aval, a, fair)
			for _, workers := range []int{2, 4} {
				r, st, err := Check(context.Background(), m, a, preds, Options{Fairness: fair, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if got := r.Verdict == trace.Violated; got != want || r.Verdict == trace.Unknown {
					t.Fatalf("model %d (fair %v, %d workers), !(%s): %s (%s), reference violated %v\n%s", i, fair, workers, f, r.Verdict, r.Reason, want, a)
				}
				if st.Complete != (r.Verdict == trace.Holds) {
					t.Errorf("model %d: %s with complete %v", i, r.Verdict, st.Complete)
				}
				if r.Verdict == trace.Violated {
					violated++
					replayLasso(t, gm, val, f, fair, r.Counterexample)
				}
			}
		}
	}
	t.Logf("%d searches violated", violated)
	if violated < n/4 {
		t.Errorf("%d violations in %d searches: the graphs do not exercise the cycle search", violated, 4*n)
	}
}

// replayLasso replays a lasso of a random model (state v0) step by step
// on the model, checks that its cycle closes, that f is false on it, and
// with fair that every process moves in the cycle or is blocked somewhere
// on it.
func replayLasso(t *testing.T, m *gcModel, val []uint64, f *Formula, fair bool, c *trace.Counterexample) {
	t.Helper()
	at := func(vs []trace.Var) byte { return v0(t, vs) }
	run := []byte{at(c.Initial)}
	for _, st := range c.Steps {
		from, to := run[len(run)-1], run[len(run)-1]
		if len(st.Changes) > 0 {
			to = at(st.Changes)
		}
		ok := false
		for _, cmd := range m.procs[st.Pid] {
			b := []byte{from}
			if cmd.guard(b) {
				cmd.act(b)
				ok = ok || b[0] == to
			}
		}
		if !ok {
			t.Fatalf("step %d: process %d has no step from %d to %d", st.Num, st.Pid, from, to)
		}
		run = append(run, to)
	}
	succs := func(s byte) (pids uint64) {
		m.Next([]byte{s}, sinkFuncT(func(tr state.Trans) { pids |= 1 << tr.Proc }))
		return pids
	}
	var w Lasso
	var loop []byte
	switch {
	case c.LoopStart < 0:
		t.Fatalf("no cycle: %+v", c)
	case c.LoopStart == len(c.Steps):
		// The final state repeats: it must have no successor.
		last := run[len(run)-1]
		if succs(last) != 0 {
			t.Fatalf("the final state %d repeats but has successors", last)
		}
		for _, s := range run[:len(run)-1] {
			w.Prefix = append(w.Prefix, val[s])
		}
		w.Loop = []uint64{val[last]}
		return // fairness: every process is blocked there
	default:
		if run[len(run)-1] != run[c.LoopStart] {
			t.Fatalf("the cycle ends in %d, not in %d where it starts: %v", run[len(run)-1], run[c.LoopStart], run)
		}
		for _, s := range run[:c.LoopStart] {
			w.Prefix = append(w.Prefix, val[s])
		}
		loop = run[c.LoopStart : len(run)-1]
		for _, s := range loop {
			w.Loop = append(w.Loop, val[s])
		}
	}
	if f.Holds(w, testAtoms) {
		t.Fatalf("%s holds on the counterexample %v (loop at %d)", f, run, c.LoopStart)
	}
	if fair {
		var moved, blocked, enabled uint64
		for _, st := range c.Steps[c.LoopStart:] {
			moved |= 1 << st.Pid
		}
		for _, s := range loop {
			e := succs(s)
			enabled |= e
			blocked |= ^e
		}
		if enabled&^(moved|blocked) != 0 {
			t.Fatalf("unfair cycle %v: processes %b enabled throughout and never moving", loop, enabled&^(moved|blocked))
		}
	}
}

// sinkFuncT collects steps (state.Sink).
type sinkFuncT func(state.Trans)

func (f sinkFuncT) Succ(t state.Trans, _ []byte)     { f(t) }
func (f sinkFuncT) Fail(state.Trans, string, string) {}

// TestCheckParallelBudget: the parallel search of a chain too long to end
// stops with verdict unknown at each limit, with the reason.
func TestCheckParallelBudget(t *testing.T) {
	chain, a := longChain(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name   string
		ctx    context.Context
		opts   Options
		reason string
	}{
		{"states", context.Background(), Options{MaxStates: 50_000}, "state limit 50000 reached"},
		{"time", context.Background(), Options{TimeLimit: 200 * time.Millisecond}, "time limit 200ms reached"},
		{"memory", context.Background(), Options{MemoryLimit: 1}, "memory limit"},
		{"interrupt", cancelled, Options{}, "interrupted"},
	} {
		c.opts.Workers = 2
		ctx, stop := context.WithTimeout(c.ctx, 20*time.Second)
		r, st, err := Check(ctx, chain, a, []Predicate{eq(0, 0)}, c.opts)
		stop()
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, c.reason) || st.Complete {
			t.Errorf("%s: %s (%s), complete %v; want unknown: %s", c.name, r.Verdict, r.Reason, st.Complete, c.reason)
		}
	}
}

// TestCheckParallelDividesWork: on a product without accepting cycles the
// workers of the parallel search divide the graph between them instead of
// each searching all of it, so that together they take about as many
// transitions as the nested search alone. Workers that kept blue to
// themselves would take twice as many.
func TestCheckParallelDividesWork(t *testing.T) {
	const k = 16 // three counters up to k-1, one process each; x3 stays 0
	grid := &gcModel{name: "grid", vars: []string{"x0", "x1", "x2", "x3"}, init: [][]byte{{0, 0, 0, 0}}}
	for v := range 3 {
		grid.procs = append(grid.procs, []gcmd{{name: "x++", guard: func(s []byte) bool { return s[v] < k-1 }, act: func(s []byte) { s[v]++ }}})
	}
	a := negation(t, "<>[](x3 == 0)")
	preds := []Predicate{eq(3, 0)}
	_, one, err := Check(context.Background(), grid, a, preds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		r, two, err := Check(context.Background(), yieldModel{grid}, a, preds, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Holds || two.States != one.States {
			t.Fatalf("two workers: %s (%s), %d states; want holds, %d states", r.Verdict, r.Reason, two.States, one.States)
		}
		if two.Transitions > one.Transitions*3/2 {
			t.Errorf("two workers took %d transitions, one %d: want at most 1.5 times as many", two.Transitions, one.Transitions)
		}
	}
}

// TestCNDFSTableDoubles: the parallel search's lock-free table starts
// tiny and doubles many times while the workers search, with workers in
// their outer and inner searches and in the wait for red; the verdicts
// are the nested search's, and so is the number of states of the product
// without an accepting cycle (every state is stored once whatever the
// race). The grid's x0 counts around, so x1 == 3 is not infinitely often
// on the cycles at x1 = 15.
func TestCNDFSTableDoubles(t *testing.T) {
	const k = 16
	grid := &gcModel{name: "grid", vars: []string{"x0", "x1", "x2", "x3"}, init: [][]byte{{0, 0, 0, 0}}}
	grid.procs = append(grid.procs, []gcmd{{name: "x0++", guard: func(s []byte) bool { return true }, act: func(s []byte) { s[0] = (s[0] + 1) % k }}})
	for v := 1; v < 3; v++ {
		grid.procs = append(grid.procs, []gcmd{{name: "x++", guard: func(s []byte) bool { return s[v] < k-1 }, act: func(s []byte) { s[v]++ }}})
	}
	for _, c := range []struct {
		formula   string
		preds     []Predicate
		want      trace.Verdict
		doublings int
	}{
		{"<>[](x3 == 0)", []Predicate{eq(3, 0)}, trace.Holds, 8},
		{"[]<>(x1 == 3)", []Predicate{eq(1, 3)}, trace.Violated, 3},
	} {
		a := negation(t, c.formula)
		r, one, err := Check(context.Background(), grid, a, c.preds, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != c.want {
			t.Fatalf("%s: the nested search says %s, want %s", c.formula, r.Verdict, c.want)
		}
		for _, workers := range []int{2, 4} {
			for range 3 {
				cs := newCNDFS(context.Background(), yieldModel{grid}, withoutEnds(a), c.preds, Options{Workers: workers}, state.KindAcceptCycle, false)
				r, st, err := cs.run()
				if err != nil {
					t.Fatal(err)
				}
				if r.Verdict != c.want {
					t.Fatalf("%s, %d workers: %s (%s), want %s", c.formula, workers, r.Verdict, r.Reason, c.want)
				}
				if c.want == trace.Holds && st.States != one.States {
					t.Errorf("%s, %d workers: %d states, the nested search %d", c.formula, workers, st.States, one.States)
				}
				if c.want == trace.Violated && (r.Counterexample == nil || r.Counterexample.LoopStart < 0) {
					t.Errorf("%s, %d workers: no lasso: %+v", c.formula, workers, r.Counterexample)
				}
				if cs.lf == nil || cs.lf.Doublings() < c.doublings {
					t.Errorf("%s, %d workers: the table doubled %d times, want at least %d", c.formula, workers, cs.lf.Doublings(), c.doublings)
				}
			}
		}
	}
}

// lateModel is the cycle 1 -> 2 -> 3 -> 4 -> 1 after 0 -> 1, where the
// forked copies (the other workers) start late and every expansion of
// x == 4 after the first takes long: worker 0's inner search from the
// accepting state at x == 3 (of []<>(x == 2)), which alone finds the
// cycle, runs long after the others have skipped the states it made blue.
// The cycle closes at x == 1, away from the accepting state, so that the
// outer search does not see it.
type lateModel struct {
	*gcModel
	late  bool
	calls *atomic.Int32 // expansions of x == 4
	first bool
}

func (m *lateModel) Next(s []byte, sink state.Sink) {
	if m.late && !m.first {
		m.first = true
		time.Sleep(50 * time.Millisecond)
	}
	if s[0] == 4 && m.calls.Add(1) > 1 {
		time.Sleep(300 * time.Millisecond)
	}
	m.gcModel.Next(s, sink)
}

func (m *lateModel) Fork() state.Model {
	return &lateModel{gcModel: m.gcModel, late: true, calls: m.calls}
}

// TestCNDFSWaitsForEveryWorker: a worker whose outer search ends while
// another's inner search still runs does not make the product hold: it
// skipped the blue states whose accepting cycle that inner search finds.
func TestCNDFSWaitsForEveryWorker(t *testing.T) {
	cycle := &gcModel{name: "cycle", vars: []string{"x"}, init: [][]byte{{0}},
		procs: [][]gcmd{{{name: "step", act: func(s []byte) { s[0] = s[0]%4 + 1 }}}}}
	a := negation(t, "<>[](x != 2)")
	preds := []Predicate{func(s []byte) bool { return s[0] != 2 }}
	for range 3 {
		m := &lateModel{gcModel: cycle, calls: new(atomic.Int32)}
		r, _, err := Check(context.Background(), m, a, preds, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Violated {
			t.Fatalf("%s (%s), want violated", r.Verdict, r.Reason)
		}
	}
}

// TestCNDFSForkAtoms: with Options.ForkAtoms every worker reads atoms of
// its own, made for its own model, without taking turns; the atoms given
// to Check are left to the counterexample, and the verdict and the
// product's states are the one-worker search's.
func TestCNDFSForkAtoms(t *testing.T) {
	const k = 16
	grid := &gcModel{name: "grid", vars: []string{"x0", "x1", "x2", "x3"}, init: [][]byte{{0, 0, 0, 0}}}
	for v := range 3 {
		grid.procs = append(grid.procs, []gcmd{{name: "x++", guard: func(s []byte) bool { return s[v] < k-1 }, act: func(s []byte) { s[v]++ }}})
	}
	a := negation(t, "<>[](x3 == 0)")
	var shared atomic.Int64
	preds := []Predicate{func(s []byte) bool { shared.Add(1); return s[3] == 0 }}
	_, one, err := Check(context.Background(), grid, a, []Predicate{eq(3, 0)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var forks atomic.Int64
	var reads [4]atomic.Int64
	fork := func(m state.Model) ([]Predicate, func() string, error) {
		w := forks.Add(1) - 1
		return []Predicate{func(s []byte) bool { reads[w].Add(1); return s[3] == 0 }}, func() string { return "" }, nil
	}
	cs := newCNDFS(context.Background(), yieldModel{grid}, withoutEnds(a), preds, Options{Workers: 4, ForkAtoms: fork}, state.KindAcceptCycle, false)
	r, st, err := cs.run()
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != trace.Holds || st.States != one.States {
		t.Fatalf("four workers: %s (%s), %d states; want holds, %d states", r.Verdict, r.Reason, st.States, one.States)
	}
	if forks.Load() != 4 || shared.Load() != 0 {
		t.Errorf("%d forks of the atoms, the given ones read %d times; want 4 and 0", forks.Load(), shared.Load())
	}
	for _, w := range cs.workers {
		if w.readMu != nil {
			t.Errorf("worker %d takes turns at its atoms", w.id)
		}
	}
	var total int64
	for w := range reads {
		total += reads[w].Load()
	}
	if total == 0 {
		t.Error("the workers' own atoms were never read")
	}
}
