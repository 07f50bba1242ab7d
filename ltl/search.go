package ltl

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"time"
	"unsafe"

	"ftmc/explore"
	"ftmc/state"
	"ftmc/trace"
)

// Predicate is an atomic proposition: it tells whether a model state (a
// state vector, valid only during the call) satisfies it. Front ends compile
// the atoms of a formula (Automaton.Atoms) into predicates.
type Predicate func(s []byte) bool

// Exclusive is an optional interface of a model with atomic sequences.
// Exclusive(s) reports that s lies inside an atomic sequence whose process
// can go on, so that only that process moves from s. Spin's never claim
// does not move from such states, and weak fairness does not count the
// other processes as blocked there; models without atomic sequences, or
// whose Next runs an atomic sequence as one step, need not implement it.
type Exclusive interface {
	Exclusive(s []byte) bool
}

// ProgressLabels is the optional interface a model implements for the
// non-progress cycle search: AtProgress(s) reports that some process is at
// a progress label in s.
type ProgressLabels interface {
	AtProgress(s []byte) bool
}

// Options control a product search. The zero value searches for acceptance
// cycles without fairness and without limits.
type Options struct {
	// Property names the verdict.
	Property string
	// Fairness restricts the search to weakly fair runs, as Spin's -f: a
	// cycle counts only when every process either moves in it or is
	// blocked at some state of it.
	Fairness bool
	// TimeLimit and MemoryLimit (bytes) end the search with verdict
	// unknown; 0 means no limit.
	TimeLimit   time.Duration
	MemoryLimit int64
	// MemoryLimitFrom says where a default MemoryLimit comes from
	// (explore.Options), for the reason of a search that reaches it.
	MemoryLimitFrom string
	// Since, when set, is when TimeLimit started to run (explore.Options).
	Since time.Time
	// MaxDepth bounds the depth-first stack (0: no bound). A search cut
	// this way says unknown unless it finds a violation.
	MaxDepth int
	// MaxStates bounds the product states stored (0: no bound): past it,
	// at the next check of the limits, the search stops with verdict
	// unknown. Unlike TimeLimit it cuts the same search at the same place
	// however busy the machine is.
	MaxStates int64
	// ExpectedStates sizes the state store up front.
	ExpectedStates int
	// Compress keeps the product states tree-compressed
	// (explore.NewCompressedStore).
	Compress bool
	// Reducer, when set, asks for partial-order reduction (see reduce.go):
	// the caller vouches that the property cannot tell a run from one
	// that differs by the order of the steps Reducer calls safe (it has no
	// next-time operator, and no proposition reads what a safe step
	// changes). The search does not reduce under Fairness.
	Reducer state.Reducer
	// Failures makes a failing transition of the model (an assertion, a
	// run-time error: state.Sink.Fail) a violation, as pan -a reports
	// them, with a counterexample that ends in it. Without it such a
	// transition has no successor, and is the safety search's business.
	Failures bool
	// NoStutter makes a state without successors the end of its runs
	// rather than a state that repeats forever: only the infinite runs of
	// the model count, and a run that ends in a deadlock violates no
	// property (ByMC's semantics of parametric models, where a
	// counterexample to liveness is a lasso whose loop has a step). The
	// bad prefixes of a safety property are still found wherever they
	// end: its violation is the reaching of a bad state.
	NoStutter bool
	// Fault, when set, is called after the atoms of a state have been
	// evaluated: a non-empty message says that one could not be (an array
	// index out of bounds), which is a run-time error in that state, as
	// with Spin. The call clears it.
	Fault func() string
	// ForkAtoms, when set, gives each worker of a parallel search, whose
	// model is a Fork of the one searched, atoms and a Fault of its own,
	// which it may read while other workers read theirs. Without it the
	// workers take turns at the atoms (a predicate may keep scratch in
	// its model).
	ForkAtoms func(m state.Model) ([]Predicate, func() string, error)
	// Workers is the number of goroutines of the search for acceptance
	// and non-progress cycles (at most explore.MaxWorkers; 0 or 1: one).
	// Several run CNDFS (cndfs.go), which finds the same verdicts as the
	// nested depth-first search but not the same cycles; with a Reducer
	// and without Fairness the search, which then reduces, runs on one,
	// and so it does with MaxDepth.
	// The breadth-first search of safety properties (checkPrefix) runs on
	// one.
	Workers int
	// Progress, when set, is called about every ProgressInterval (default
	// one second) with the search's figures.
	Progress         func(explore.Progress)
	ProgressInterval time.Duration
}

// limits are the search's limits in the words of the explicit search, whose
// watch (explore.Watch) the product search shares.
func (o Options) limits() explore.Options {
	return explore.Options{TimeLimit: o.TimeLimit, Since: o.Since, MemoryLimit: o.MemoryLimit, MemoryLimitFrom: o.MemoryLimitFrom,
		ExpectedStates: o.ExpectedStates, Compress: o.Compress}
}

// Check searches the synchronous product of m and the automaton a (usually
// the translation of a negated property, or a never claim) for an accepting
// run, with Spin's nested depth-first search. atoms[i] evaluates
// a.Atoms[i]. A violated verdict comes with a lasso counterexample
// (trace.Counterexample.LoopStart marks the cycle); holds means the whole
// product was explored; a search cut short says unknown.
//
// The product follows Spin: the automaton reads each model state before the
// model leaves it; a state without successors repeats forever (so finite
// runs count); an accepting state of a never claim with no more
// statements accepts at once.
func Check(ctx context.Context, m state.Model, a *Automaton, atoms []Predicate, opts Options) (trace.Result, trace.Stats, error) {
	if err := a.Validate(); err != nil {
		return trace.Result{}, trace.Stats{}, err
	}
	if len(atoms) != len(a.Atoms) {
		return trace.Result{}, trace.Stats{}, fmt.Errorf("ltl: %d predicates for %d propositions", len(atoms), len(a.Atoms))
	}
	if len(a.States) > 1<<16-1 {
		return trace.Result{}, trace.Stats{}, fmt.Errorf("ltl: automaton has %d states; at most 65535 are supported", len(a.States))
	}
	a = withoutEnds(a)
	if opts.Failures {
		a = withDeadClaim(a)
	}
	if sink, ok := sinks(a); ok {
		return checkPrefix(ctx, m, a, sink, atoms, opts)
	}
	if parallel(opts) {
		return newCNDFS(ctx, m, a, atoms, opts, state.KindAcceptCycle, opts.NoStutter).run()
	}
	s := newSearch(ctx, m, a, atoms, opts)
	s.kind = state.KindAcceptCycle
	s.noStutter = opts.NoStutter
	return s.run()
}

// CheckNonProgress searches m for non-progress cycles, as Spin's -l: an
// infinite run that from some point on passes no progress label. m must
// implement ProgressLabels. Unlike an acceptance cycle, a state without
// successors is no non-progress cycle.
func CheckNonProgress(ctx context.Context, m state.Model, opts Options) (trace.Result, trace.Stats, error) {
	pl, ok := m.(ProgressLabels)
	if !ok {
		return trace.Result{}, trace.Stats{}, errors.New("ltl: the model cannot tell progress states (it does not implement ltl.ProgressLabels)")
	}
	// Spin's built-in claim: <>[] np_, where np_ holds when no process is
	// at a progress label.
	a := &Automaton{
		Atoms: []string{"np_"},
		States: []State{
			{Name: "T0_init", Edges: []Edge{{To: 0}, {Guard: Cube{Pos: 1}, To: 1}}},
			{Name: "accept_np", Accepting: true, Edges: []Edge{{Guard: Cube{Pos: 1}, To: 1}}},
		},
	}
	np := func(v []byte) bool { return !pl.AtProgress(v) }
	if opts.Property == "" {
		opts.Property = "non-progress"
	}
	if parallel(opts) {
		return newCNDFS(ctx, m, a, []Predicate{np}, opts, state.KindNonProgress, true).run()
	}
	s := newSearch(ctx, m, a, []Predicate{np}, opts)
	s.kind = state.KindNonProgress
	s.noStutter = true
	return s.run()
}

// withDeadClaim adds to a state that the automaton enters where it would
// block: the property can no longer be violated on this run, but a failing
// step of the model still can (Options.Failures), so the search goes on
// with the model alone. Without it, a property whose automaton blocks at
// once, as the negation of [] true, would explore nothing and miss a
// failing assertion.
func withDeadClaim(a *Automaton) *Automaton {
	b := *a
	b.States = append([]State(nil), a.States...)
	dead := len(b.States)
	for i := range b.States {
		if !slices.ContainsFunc(b.States[i].Edges, func(e Edge) bool { return e.Else }) {
			b.States[i].Edges = append(slices.Clip(b.States[i].Edges), Edge{Else: true, To: dead})
		}
	}
	b.States = append(b.States, State{Name: "dead", Edges: []Edge{{To: dead}}})
	return &b
}

// withoutEnds replaces each End state (the claim has terminated, which
// accepts) by an accepting state that loops on true: every run is infinite
// here, since terminal model states repeat.
func withoutEnds(a *Automaton) *Automaton {
	has := false
	for _, s := range a.States {
		has = has || s.End
	}
	if !has {
		return a
	}
	b := *a
	b.States = append([]State(nil), a.States...)
	for i := range b.States {
		if b.States[i].End {
			b.States[i] = State{Name: b.States[i].Name, Accepting: true, Edges: []Edge{{To: i}}}
		}
	}
	return &b
}

// Product states are the model's vector followed by the automaton state
// (2 bytes) and, under fairness, the fairness counter (2 bytes): fairWait
// (waiting for an accepting state), pid+1 (waiting for process pid to move
// or to be blocked), or fairDone (every process had its turn since the last
// accepting state). This is Spin's (k+2)-copy construction, with the copies
// in the state vector; the accepting product states are the fairDone ones.
const (
	fairWait = 0
	fairDone = 0xffff
)

// stutter marks the step of a state without successors that repeats.
var stutter = state.Trans{Proc: -1, ID: -1, Aux: -1}

const (
	fVisited = 1 << iota // expanded by the outer search
	fOnStack             // on the outer search's stack
	fInner               // visited by an inner search
)

type frame struct {
	idx              explore.Index
	tr               state.Trans // the step that led here
	first, next, end int         // successors: succIdx[first:end], next to try at next
}

type search struct {
	expander
	ctx  context.Context
	kind string

	store   *explore.Store
	flags   []uint8
	reduce  *reduction    // nil: every state is expanded fully
	curIdx  explore.Index // the state being expanded
	succIdx []explore.Index
	succTr  []state.Trans
	outer   []frame
	inner   []frame
	inInner bool // the inner search is expanding

	transitions, matched, depth int64
	truncated                   bool
	stop                        string
	found                       *found

	watch  *explore.Watch
	budget int
	rep    reporter
}

func newSearch(ctx context.Context, m state.Model, a *Automaton, atoms []Predicate, opts Options) *search {
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = time.Second
	}
	s := &search{expander: newExpander(m, a, atoms, opts), ctx: ctx, budget: 1 << 12}
	if opts.Reducer != nil && !opts.Fairness {
		s.reduce = &reduction{model: opts.Reducer}
		s.narrow = func(model []byte) { s.reduceTo(s.curIdx, model) }
	}
	s.store = opts.limits().NewStore()
	s.watch = explore.NewWatch(ctx, s.store, opts.limits())
	s.rep.last = s.watch.Start()
	return s
}

func (s *search) run() (trace.Result, trace.Stats, error) {
	defer s.store.Free()
	defer s.watch.Close()
	inits, err := initials(s.m)
	if err != nil {
		return trace.Result{Property: s.opts.Property, Verdict: trace.Unknown, Reason: err.Error()}, s.stats(), err
	}
	s.poll()
	for _, v := range inits {
		if s.stop != "" {
			break
		}
		vec := s.product(v, s.a.Init, fairWait)
		i, _ := s.store.Insert(vec)
		if i == explore.NoIndex {
			s.stopFull()
			break
		}
		s.grow()
		if s.flags[i]&fVisited == 0 {
			s.dfs(i)
		}
		if s.found != nil || s.stop != "" {
			break
		}
	}
	return s.result(s.kind, s.found, s.stop, s.truncated, s.store.Len()), s.stats(), nil
}

// initials returns the model's initial states, an error when it has none.
func initials(m state.Model) ([][]byte, error) {
	var inits [][]byte
	if err := m.Initial(func(v []byte) { inits = append(inits, append([]byte(nil), v...)) }); err != nil {
		return nil, err
	}
	if len(inits) == 0 {
		return nil, errors.New(m.Name() + ": the model has no initial state")
	}
	return inits, nil
}

func (s *search) accepting(i explore.Index) bool {
	return s.acceptingVec(s.store.Get(i))
}

// grow makes room for the flags of every stored state.
func (s *search) grow() {
	for len(s.flags) < s.store.Len() {
		s.flags = append(s.flags, 0)
	}
	if s.reduce != nil {
		for len(s.reduce.choice) < len(s.flags) {
			s.reduce.choice = append(s.reduce.choice, 0)
		}
	}
}

// reading is what the automaton reads in a model state: the atoms' values
// (bit k: atoms[k]), and, with a fault hook (Options.Fault), those that
// could not be evaluated and why.
type reading struct {
	val, faulty uint64
	fault       string
}

func read(atoms []Predicate, fault func() string, model []byte) reading {
	var r reading
	for k, p := range atoms {
		if p(model) {
			r.val |= 1 << k
		}
		if fault == nil {
			continue
		}
		if msg := fault(); msg != "" {
			r.faulty |= 1 << k
			if r.fault == "" {
				r.fault = "a proposition of the property cannot be evaluated: " + msg
			}
		}
	}
	r.val &^= r.faulty
	return r
}

// next appends the automaton's moves from q on r to out. When they depend
// on a proposition that could not be evaluated, it also returns why: Spin's
// claim would have evaluated it, a run-time error. (One that does not
// matter there, as a[k] in [](k < 3 -> a[k] == 0) when k >= 3, Spin's
// claim skips.)
func (a *Automaton) next(q int, r reading, out []int) ([]int, string) {
	n := len(out)
	out = a.Next(q, r.val, out)
	if r.faulty == 0 {
		return out, ""
	}
	if bits.OnesCount64(r.faulty) > 8 {
		return out, r.fault
	}
	var alt []int
	for sub := r.faulty; sub != 0; sub = (sub - 1) & r.faulty {
		if alt = a.Next(q, r.val|sub, alt[:0]); !slices.Equal(out[n:], alt) {
			return out, r.fault
		}
	}
	return out, ""
}

// expand appends the product successors of state i to succIdx/succTr.
func (s *search) expand(i explore.Index) {
	s.curIdx = i
	s.expander.expand(s.store.Get(i))
	for k, t := range s.outTr {
		j, _ := s.store.Insert(s.succ(k))
		if j == explore.NoIndex {
			s.stopFull()
			return
		}
		s.transitions++
		s.succIdx = append(s.succIdx, j)
		s.succTr = append(s.succTr, t)
	}
	s.grow()
	s.budget -= 1 + len(s.outTr)
	if s.budget <= 0 {
		s.poll()
	}
}

// push expands state i and pushes it on stack, unless stack or the
// successors' slices would grow past the memory limit: a slice that grows
// is copied, and holds its old and new arrays for a moment, which took the
// search 25% past a limit of 50 MB between two samples of the memory.
// Then the search stops at the limit instead.
func (s *search) push(stack []frame, i explore.Index, t state.Trans) []frame {
	if !s.room(stack) {
		s.stopFull()
		return stack
	}
	first := len(s.succIdx)
	s.expand(i)
	return append(stack, frame{idx: i, tr: t, first: first, next: first, end: len(s.succIdx)})
}

// succSlack is how few free successor slots make room count the
// successors' slices as about to grow.
const succSlack = 256

// room reports whether the memory limit leaves room for stack, and for
// the successors' slices when they are nearly full, to grow (by a quarter,
// as append grows a large slice, while the old array is still held).
func (s *search) room(stack []frame) bool {
	var grow int64
	if len(stack) == cap(stack) {
		grow += int64(cap(stack)) * int64(unsafe.Sizeof(frame{}))
	}
	if cap(s.succIdx)-len(s.succIdx) < succSlack {
		grow += int64(cap(s.succIdx)) * int64(unsafe.Sizeof(explore.Index(0))+unsafe.Sizeof(state.Trans{}))
	}
	return grow == 0 || s.watch.Room(grow*5/4)
}

// pop drops the top frame and its successors.
func (s *search) pop(stack []frame) []frame {
	f := stack[len(stack)-1]
	s.succIdx = s.succIdx[:f.first]
	s.succTr = s.succTr[:f.first]
	return stack[:len(stack)-1]
}

// dfs is the outer search from root. States are checked for cycles in
// post-order: when an accepting state is done, an inner search looks for a
// path back to a state on the outer stack (Holzmann, Peled and Yannakakis's
// variant of Courcoubetis, Vardi, Wolper and Yannakakis's algorithm).
func (s *search) dfs(root explore.Index) {
	s.flags[root] |= fVisited | fOnStack
	s.outer = s.push(s.outer[:0], root, stutter)
	if s.fail.kind != "" {
		s.foundFail(false)
		return
	}
	for len(s.outer) > 0 && s.stop == "" {
		if d := int64(len(s.outer) - 1); d > s.depth {
			s.depth = d
		}
		f := &s.outer[len(s.outer)-1]
		if f.next < f.end {
			j, t := s.succIdx[f.next], s.succTr[f.next]
			f.next++
			if s.flags[j]&fVisited != 0 {
				s.matched++
				// A successor on the stack closes a cycle; when either end
				// is accepting, it is an accepting cycle (Schwoon and
				// Esparza's early detection).
				if s.flags[j]&fOnStack != 0 && (s.accepting(f.idx) || s.accepting(j)) {
					s.closeCycle(false, j, t)
					return
				}
				continue
			}
			if s.opts.MaxDepth > 0 && len(s.outer) >= s.opts.MaxDepth {
				s.truncated = true
				continue
			}
			s.flags[j] |= fVisited | fOnStack
			s.outer = s.push(s.outer, j, t)
			if s.fail.kind != "" {
				s.foundFail(false)
				return
			}
			continue
		}
		if s.accepting(f.idx) && s.innerDFS(f.idx) {
			return
		}
		s.flags[f.idx] &^= fOnStack
		s.outer = s.pop(s.outer)
	}
}

// innerDFS looks for a path from seed (the top of the outer stack) back to
// the outer stack.
func (s *search) innerDFS(seed explore.Index) bool {
	s.inInner = true
	defer func() { s.inInner = false }()
	s.inner = s.push(s.inner[:0], seed, stutter)
	for len(s.inner) > 0 && s.stop == "" {
		g := &s.inner[len(s.inner)-1]
		if g.next < g.end {
			j, t := s.succIdx[g.next], s.succTr[g.next]
			g.next++
			if s.flags[j]&fOnStack != 0 {
				s.closeCycle(true, j, t)
				return true
			}
			if s.flags[j]&fInner == 0 {
				s.flags[j] |= fInner
				s.inner = s.push(s.inner, j, t)
				if s.fail.kind != "" {
					s.foundFail(true)
					return true
				}
			}
			continue
		}
		s.inner = s.pop(s.inner)
	}
	return false
}

func (s *search) stackPos(j explore.Index) int {
	for k, f := range s.outer {
		if f.idx == j {
			return k
		}
	}
	return -1
}

// stackPath is the outer stack, and with inner the inner one's after its
// seed: the counterexample's path.
func (s *search) stackPath(inner bool) *found {
	f := &found{fail: s.fail}
	add := func(i explore.Index, t state.Trans) {
		f.path = append(f.path, append([]byte(nil), s.store.Get(i)...))
		f.tr = append(f.tr, t)
	}
	for _, g := range s.outer {
		add(g.idx, g.tr)
	}
	if inner {
		for _, g := range s.inner[1:] {
			add(g.idx, g.tr)
		}
	}
	return f
}

// foundFail: the path ends where a step or a proposition failed.
func (s *search) foundFail(inner bool) {
	s.found = s.stackPath(inner)
	s.found.loopAt = -1
}

// closeCycle: the step t to j, a state on the outer stack, closes the
// cycle (found by the outer search, or with inner by the inner one).
func (s *search) closeCycle(inner bool, j explore.Index, t state.Trans) {
	s.found = s.stackPath(inner)
	s.found.path = append(s.found.path, append([]byte(nil), s.store.Get(j)...))
	s.found.tr = append(s.found.tr, t)
	s.found.loopAt = s.stackPos(j)
}

func (s *search) stopFull() {
	if s.stop == "" {
		s.stop = s.watch.Full()
	}
}

func (s *search) poll() {
	s.budget = 1 << 12
	now := time.Now()
	if s.stop == "" {
		s.stop = s.watch.Stop(now)
	}
	if s.stop == "" && s.opts.MaxStates > 0 && int64(s.store.Len()) > s.opts.MaxStates {
		s.stop = stateLimit(s.opts.MaxStates)
	}
	s.rep.report(s.opts, s.watch, now, explore.Progress{States: int64(s.store.Len()), Matched: s.matched,
		Transitions: s.transitions, Depth: int64(len(s.outer) + len(s.inner))})
}

func stateLimit(n int64) string { return fmt.Sprintf("state limit %d reached", n) }

func (s *search) complete() bool { return s.found == nil && s.stop == "" && !s.truncated }

func (s *search) stats() trace.Stats {
	st := s.watch.Stats(int64(cap(s.flags)))
	st.Transitions, st.Matched, st.Depth = s.transitions, s.matched, s.depth
	st.Complete = s.complete()
	switch {
	case s.reduce != nil:
		st.Reduction, st.AmpleStates = "partial-order", s.reduce.ample
	case s.opts.Reducer != nil:
		st.Reduction = "none"
	}
	return st
}
