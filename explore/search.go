package explore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"ftmc/state"
	"ftmc/trace"
)

// Order is the order in which a search expands states.
type Order int

const (
	// BreadthFirst expands states level by level, so the first violation
	// found has a shortest counterexample. Its queue is the range of store
	// indices not yet expanded: it costs no memory beyond a parent index
	// per state.
	BreadthFirst Order = iota
	// DepthFirst follows one path as deep as it goes, as Spin does. Its
	// counterexamples are the search stack, usually longer; it keeps no
	// parent indices.
	DepthFirst
)

func (o Order) String() string {
	if o == DepthFirst {
		return "depth-first"
	}
	return "breadth-first"
}

// Options control a search. The zero value is a breadth-first search without
// limits.
type Options struct {
	Order Order
	// Property names the verdict (default "safety": no assertion fails, no
	// run-time error, no invalid end state, no state property of a
	// state.Checker is violated).
	Property string
	// TimeLimit and MemoryLimit (bytes) end the search with verdict
	// unknown; 0 means no limit. MemoryLimit covers the whole process (the
	// Go runtime's memory and the state store's table).
	TimeLimit   time.Duration
	MemoryLimit int64
	// Since, when set, is when TimeLimit started to run: the start of the
	// whole run, so that reading the model and earlier searches count
	// against it. Zero: the start of this search.
	Since time.Time
	// MemoryLimitFrom says where MemoryLimit comes from when the user did
	// not give it ("85% of physical memory": DefaultMemoryLimit), for the
	// reason of a search it stops.
	MemoryLimitFrom string
	// MaxDepth bounds the search: a state this many steps from an initial
	// state (on the search's path to it) is stored but not expanded (0: no
	// bound). A search cut this way says unknown unless it finds a
	// violation.
	MaxDepth int
	// ExpectedStates sizes the hash table up front (like Spin's -w); the
	// table doubles as needed anyway.
	ExpectedStates int
	// Workers is the number of goroutines of the search (at most
	// MaxWorkers; 0 or 1: one). A depth-first search with MaxDepth runs on
	// one.
	Workers int
	// Progress, when set, is called about every ProgressInterval (default
	// one second), always from the same goroutine.
	Progress         func(Progress)
	ProgressInterval time.Duration
	// MaxStates bounds the number of states stored (0: no bound): a search
	// that stores more stops with verdict unknown, "state limit N
	// reached". The initial states are all stored before the bound is
	// checked. A search with a bound runs on one worker.
	MaxStates int64
	// Visit, when set, sees each state the search stores and goes on from
	// (not one that violates a state property), once, when it is stored.
	// The vector is valid during the call only. cex returns a
	// counterexample that ends in the state, with the given kind and
	// message: a shortest one breadth-first, the search's stack
	// depth-first; it costs a replay of the path, for the few states worth
	// reporting. A search with Visit runs on one worker.
	Visit func(v []byte, cex func(kind, msg string) *trace.Counterexample)
	// Compress keeps the states tree-compressed (NewCompressedStore): a
	// fraction of the memory, more time per state. Each worker of the
	// parallel search compresses the states it owns in a store of its own.
	Compress bool
	// AutoCompress keeps the states plain until the store, with room for
	// its compressed copy beside it, would no longer fit what MemoryLimit
	// leaves it (autoCompress), and then compresses them (Store.Compress)
	// and goes on compressed: a search that fits in memory plain is not
	// slowed, and one that would not goes on in a fraction of the memory.
	// Each worker of the parallel search decides for its own store.
	AutoCompress bool
	// Lossy asks for lossy state storage (lossy.go): a depth-first search
	// whatever Order says, on one worker, without Compress, whose verdict
	// is never holds. LossyBits is the log2 of a Bitstate array's size in
	// bits (0: DefaultBitstateBits).
	Lossy     LossyMode
	LossyBits int
	// Reduce asks for partial-order reduction, for a model that is a
	// state.Reducer (and no state.Checker); Stats.Reduction says whether
	// the search did.
	Reduce bool
}

// Progress is a snapshot of a running search.
type Progress struct {
	States       int64
	Matched      int64
	Transitions  int64
	Depth        int64 // deepest level (breadth-first) or stack depth (depth-first) so far
	Queue        int64 // states stored but not yet expanded
	MemoryBytes  int64
	Elapsed      time.Duration
	StatesPerSec float64 // since the previous report
}

// DefaultProperty is the name of the verdict of a search without a name.
const DefaultProperty = "safety"

// pollEvery is how much work (expansions plus successors) passes between
// checks of the clock, the context and memory.
const pollEvery = 1 << 12

// Run explores the states of m reachable from its initial states and returns
// the verdict and the statistics of the search. It stops at the first
// violation. It returns an error only when the model cannot produce its
// initial states.
func Run(ctx context.Context, m state.Model, opts Options) (trace.Result, trace.Stats, error) {
	if opts.Lossy != Exact {
		if opts.Compress {
			return trace.Result{Property: propertyName(opts), Verdict: trace.Unknown, Reason: ErrLossyCompress.Error()}, trace.Stats{}, ErrLossyCompress
		}
		opts.Order = DepthFirst
	}
	if opts.Workers > 1 && opts.MaxStates <= 0 && opts.Visit == nil {
		if opts.Order == BreadthFirst {
			return runParallel(ctx, m, opts)
		}
		if opts.MaxDepth <= 0 {
			return runParallelDFS(ctx, m, opts)
		}
	}
	s := newSearch(ctx, m, opts)
	defer s.store.Free()
	defer s.watch.Close()
	if l := s.store.lossy; l != nil && l.err != nil {
		return trace.Result{Property: s.property(), Verdict: trace.Unknown, Reason: l.err.Error()}, s.stats(), l.err
	}
	// A search whose time (counted from Since) is spent, or whose
	// context is done, stops before it starts.
	if s.poll(); s.stop != "" {
		return s.result(), s.stats(), nil
	}
	if err := s.initial(); err != nil {
		return trace.Result{Property: s.property(), Verdict: trace.Unknown, Reason: err.Error()}, s.stats(), err
	}
	if s.viol == nil && s.stop == "" && s.overLimit() {
		s.stop = fmt.Sprintf("state limit %d reached", opts.MaxStates)
	}
	if s.viol == nil && s.stop == "" {
		if opts.Order == DepthFirst {
			s.dfs()
		} else {
			s.bfs()
		}
	}
	return s.result(), s.stats(), nil
}

// violation is the first property violation found.
type violation struct {
	kind, msg string
	path      []Index     // initial state ... the state where it was found
	trans     state.Trans // the failing transition from the last state, if failing
	failing   bool
}

// search is one run. It is its own state.Sink: the model passes successors to
// Succ, which adds them to the batch.
type search struct {
	ctx     context.Context
	m       state.Model
	opts    Options
	checker state.Checker
	store   *Store
	parents column[uint32] // breadth-first: parent index per state (NoIndex for initial states)

	// shared, when set, is the store of a parallel depth-first search
	// (pdfs.go) instead of store; it keeps the parents.
	shared sharedStates
	pd     *pdfs
	pc     *pcount
	wid    int     // the worker's number
	stack  []pitem // the parallel depth-first search's states to expand

	scratch []byte // the state being expanded, copied out of the store
	cur     Index
	nsucc   int
	batch   batch
	touched uint64  // see flush
	dfsNew  []Index // depth-first: states still to expand, a region per stack frame

	reduce   *reducer // partial-order reduction, or nil
	holding  bool     // Succ holds successors back for the reduction
	levelEnd int      // breadth-first: the states of the current level are below it

	visitFrom, visitAt Index // the state Options.Visit sees, and its parent
	visitCex           func(kind, msg string) *trace.Counterexample

	transitions, matched int64
	expanded             int64
	depth                int64
	truncated            bool // a state beyond MaxDepth was not expanded
	viol                 *violation
	stop                 string // why the search ended early (verdict unknown)
	frames               []dfsFrame
	next                 int // breadth-first: the next state to expand

	watch        *Watch
	compressedAt int64 // the states stored when AutoCompress compressed the store (0: it did not)
	budget       int
	lastReport   time.Time
	lastStates   int64
}

type dfsFrame struct {
	idx  Index
	mark int // len(dfsNew) when this state's successors were pushed
}

func newSearch(ctx context.Context, m state.Model, opts Options) *search {
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = time.Second
	}
	s := &search{ctx: ctx, m: m, opts: opts, store: opts.searchStore(), budget: pollEvery}
	s.checker, _ = m.(state.Checker)
	s.reduce = newReducer(m, opts)
	s.visitCex = s.cexToVisited
	s.watch = NewWatch(ctx, s.store, opts)
	s.lastReport = s.watch.Start()
	return s
}

func (s *search) property() string { return propertyName(s.opts) }

func propertyName(o Options) string {
	if o.Property != "" {
		return o.Property
	}
	return DefaultProperty
}

func (s *search) initial() error {
	s.cur = NoIndex
	var inits []Index
	err := s.m.Initial(func(v []byte) {
		if s.viol != nil || s.stop != "" {
			return
		}
		i, isNew := s.store.Insert(v)
		if !isNew {
			if s.store.Full() {
				s.stopFull()
			}
			return
		}
		inits = append(inits, i)
		if s.opts.Order == BreadthFirst {
			s.parents.append(uint32(NoIndex))
		}
		s.checkState(NoIndex, i, v)
		s.visit(NoIndex, i, v)
	})
	if err != nil {
		return err
	}
	if s.store.Len() == 0 && s.viol == nil && s.stop == "" {
		return errNoInitial(s.m)
	}
	if s.opts.Order == DepthFirst {
		for k := len(inits) - 1; k >= 0; k-- {
			s.dfsNew = append(s.dfsNew, inits[k])
		}
	}
	return nil
}

func errNoInitial(m state.Model) error {
	return errors.New(m.Name() + ": the model has no initial state")
}

// checkState evaluates the model's state properties on the new state i, a
// successor of state from (NoIndex for an initial state).
func (s *search) checkState(from, i Index, v []byte) {
	if s.checker == nil {
		return
	}
	if kind, msg, bad := s.checker.Check(v); bad {
		s.viol = &violation{kind: kind, msg: msg, path: append(s.pathTo(from), i)}
	}
}

// visit shows the new state i, a successor of from, to Options.Visit.
func (s *search) visit(from, i Index, v []byte) {
	if s.opts.Visit == nil || s.viol != nil {
		return
	}
	s.visitFrom, s.visitAt = from, i
	s.opts.Visit(v, s.visitCex)
}

// cexToVisited is the counterexample of the state Options.Visit sees.
func (s *search) cexToVisited(kind, msg string) *trace.Counterexample {
	v := &violation{kind: kind, msg: msg, path: append(s.pathTo(s.visitFrom), s.visitAt)}
	return buildCounterexample(s.m, v, s.store.Get)
}

// overLimit reports whether the search holds more states than MaxStates.
func (s *search) overLimit() bool {
	return s.opts.MaxStates > 0 && int64(s.store.Len()) > s.opts.MaxStates
}

// pathTo returns the indices from an initial state to i (nil for NoIndex).
func (s *search) pathTo(i Index) []Index {
	if i == NoIndex {
		return nil
	}
	if s.shared != nil {
		var rev []Index
		for ; i != NoIndex; i = s.shared.Parent(i) {
			rev = append(rev, i)
		}
		slices.Reverse(rev)
		return rev
	}
	if s.opts.Order == DepthFirst {
		// The stack is the path; frame 0 is the root, below the initial states.
		p := make([]Index, 0, len(s.frames)-1)
		for _, f := range s.frames[1:] {
			p = append(p, f.idx)
		}
		return p
	}
	var rev []Index
	for ; i != NoIndex; i = Index(s.parents.at(int(i))) {
		rev = append(rev, i)
	}
	for a, b := 0, len(rev)-1; a < b; a, b = a+1, b-1 {
		rev[a], rev[b] = rev[b], rev[a]
	}
	return rev
}

// Succ implements state.Sink.
func (s *search) Succ(t state.Trans, v []byte) {
	s.nsucc++
	if s.holding {
		s.reduce.hold(t, v)
		return
	}
	s.batch.succ(s.cur, v)
}

// Fail implements state.Sink.
func (s *search) Fail(t state.Trans, kind, msg string) {
	s.nsucc++ // a failing transition is not a deadlock
	b := &s.batch
	b.events = append(b.events, event{kind: evFail, from: s.cur, off: uint32(len(b.fails))})
	b.fails = append(b.fails, failure{t, kind, msg})
}

// expand generates the successors of state i into the batch.
func (s *search) expand(i Index) {
	s.cur = i
	if s.shared != nil {
		s.scratch = s.shared.Get(s.scratch, i)
	} else {
		s.scratch = append(s.scratch[:0], s.store.Get(i)...)
	}
	s.nsucc = 0
	if s.reduce != nil {
		s.expandReduced()
	} else {
		s.m.Next(s.scratch, s)
	}
	if s.nsucc == 0 && !s.m.ValidEnd(s.scratch) {
		s.batch.events = append(s.batch.events, event{kind: evDeadlock, from: i})
	}
	s.batch.states++
	s.expanded++
	s.budget -= 1 + s.nsucc
}

func (s *search) bfs() {
	s.levelEnd = s.store.Len()
	for s.next < s.store.Len() {
		if s.next == s.levelEnd {
			s.depth++
			s.levelEnd = s.store.Len()
		}
		if s.opts.MaxDepth > 0 && s.depth >= int64(s.opts.MaxDepth) {
			// Every state from here on is at least this deep.
			s.truncated = true
			return
		}
		// A batch ends at the end of a level, so that the next level is
		// complete when it starts.
		for s.next < s.levelEnd && !s.batch.full() {
			s.expand(Index(s.next))
			s.next++
		}
		s.flush()
		if s.budget <= 0 && s.viol == nil && s.stop == "" {
			s.poll()
		}
		if s.viol != nil || s.stop != "" {
			return
		}
	}
}

func (s *search) dfs() {
	s.frames = append(s.frames[:0], dfsFrame{idx: NoIndex, mark: 0})
	for len(s.frames) > 0 {
		top := s.frames[len(s.frames)-1]
		if len(s.dfsNew) == top.mark {
			s.frames = s.frames[:len(s.frames)-1]
			if s.store.lossy != nil {
				s.store.lossy.release(s.frames, s.dfsNew)
			} else if s.reduce != nil && top.idx != NoIndex {
				s.reduce.setDone(top.idx)
			}
			continue
		}
		i := s.dfsNew[len(s.dfsNew)-1]
		s.dfsNew = s.dfsNew[:len(s.dfsNew)-1]
		d := int64(len(s.frames) - 1) // the initial states are at depth 0
		if d > s.depth {
			s.depth = d
		}
		if s.opts.MaxDepth > 0 && d >= int64(s.opts.MaxDepth) {
			s.truncated = true
			continue
		}
		mark := len(s.dfsNew)
		s.frames = append(s.frames, dfsFrame{idx: i, mark: mark})
		s.expand(i)
		s.flush()
		if s.budget <= 0 && s.viol == nil && s.stop == "" {
			s.poll()
		}
		if s.viol != nil || s.stop != "" {
			return
		}
		// Successors come off the stack last first: reverse them so that
		// the first transition is explored first, as Spin does.
		for a, b := mark, len(s.dfsNew)-1; a < b; a, b = a+1, b-1 {
			s.dfsNew[a], s.dfsNew[b] = s.dfsNew[b], s.dfsNew[a]
		}
	}
}

// poll checks the context, the clock and memory, and reports progress.
func (s *search) poll() {
	s.budget = pollEvery
	now := time.Now()
	if s.stop = s.watch.Stop(now); s.stop != "" {
		return
	}
	if s.opts.AutoCompress && s.store.compressIfDue() {
		s.compressedAt = int64(s.store.Len())
	}
	if s.opts.Progress != nil && now.Sub(s.lastReport) >= s.opts.ProgressInterval {
		s.report(now)
	}
}
