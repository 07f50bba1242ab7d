package explore

import (
	"context"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"ftmc/state"
	"ftmc/trace"
)

// The depth-first search on several workers is LTSmin's multi-core
// reachability: the workers share one store, and each expands the states
// it stored, depth-first, from a stack of its own. The store is an lfStore
// (lockfree.go), which the workers fill without locks, or with Compress a
// SharedStore of compressed shards behind locks. With AutoCompress, an
// lfStore that takes half of what the memory limit leaves it is copied
// into compressed shards while the workers wait (compress), and the
// search goes on there. A state is
// stored once, by one worker, which then expands it, so every reachable
// state is expanded exactly once whatever the workers' race. A worker
// whose stack runs dry says it is hungry; the next worker to expand a
// state gives it the bottom half of its stack (the states nearest the
// initial ones, with the most left below them). The search is over when
// every worker is hungry and nothing is given.
//
// The workers' stacks are not paths: the store keeps each state's parent
// (4 bytes a state, which the one-worker search does without), and a
// violation's counterexample is the path of parents from an initial state.
// Which violation is found first, and the depth reached, depend on the
// race; the states and transitions of a search that holds do not. The
// partial-order reduction's proviso is the one that needs no stack: every
// successor of an ample set must be new (reduce.go).

// pitem is a state on a worker's stack, with its depth.
type pitem struct {
	i     Index
	depth int64
}

// pcount is what a worker publishes of its counters for the progress.
type pcount struct {
	transitions, matched, depth, stack atomic.Int64
	_                                  [32]byte
}

type pdfs struct {
	ctx     context.Context
	m       state.Model
	opts    Options
	store   stored
	shared  *SharedStore // the store when compressed, else nil
	lf      *lfStore     // the store when plain, else nil
	watch   *Watch
	workers []*search
	counts  []pcount

	stop   atomic.Bool
	hungry atomic.Int32 // workers waiting for states

	mu     sync.Mutex
	cond   *sync.Cond
	pool   []pitem // states given to the hungry
	idle   int     // workers waiting
	over   bool    // every worker waited with nothing given: all expanded
	parked int     // workers waiting for the lfStore to grow or compress
	safe   int     // of which those between two expansions (not inside a flush)
	grown  int     // how many times the parked workers were let go
	exited int     // workers that returned
	// pause asks the workers to park between two expansions, so that the
	// search can compress the lfStore (compress).
	pause      atomic.Bool
	noCompress bool // compress failed: the store stays plain
	viol       *violation
	reason     string

	compressedAt int64
}

// runParallelDFS is Run for a depth-first search on opts.Workers workers
// (without MaxDepth, MaxStates or Visit). The lock-free store lives in the
// Go heap: it is given back at the end, as the other stores free their
// tables, so that the memory of a search that follows in the process does
// not count it.
func runParallelDFS(ctx context.Context, m state.Model, opts Options) (trace.Result, trace.Stats, error) {
	r, st, err := parallelDFS(ctx, m, opts)
	debug.FreeOSMemory()
	return r, st, err
}

func parallelDFS(ctx context.Context, m state.Model, opts Options) (trace.Result, trace.Stats, error) {
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = time.Second
	}
	n := min(opts.Workers, MaxWorkers)
	p := &pdfs{ctx: ctx, m: m, opts: opts, counts: make([]pcount, n)}
	p.cond = sync.NewCond(&p.mu)
	// The compressed shards, from the start or once compress made them.
	defer func() {
		if p.shared != nil {
			p.shared.Free()
		}
		if p.lf != nil {
			p.lf.free()
		}
	}()
	if opts.Compress {
		p.shared = NewSharedStore(opts.ExpectedStates, true)
		p.store = p.shared
	} else {
		p.lf = newLFStore(n, opts.ExpectedStates)
		p.store = p.lf
	}
	p.watch = newWatch(ctx, p.store, opts)
	defer p.watch.Close()
	p.watch.Start()
	for id := range n {
		wm := m
		if id > 0 {
			wm = m.Fork()
		}
		w := &search{ctx: ctx, m: wm, opts: opts, pd: p, pc: &p.counts[id], wid: id, watch: p.watch, budget: pollEvery}
		if p.lf != nil {
			w.shared = lfView{p.lf, id, p}
		} else {
			w.shared = p.shared
		}
		w.checker, _ = wm.(state.Checker)
		w.reduce = newReducer(wm, opts)
		p.workers = append(p.workers, w)
	}
	// The workers reduce all or none, so that the report says which.
	if !allReduce(p.workers, func(w *search) *reducer { return w.reduce }) {
		for _, w := range p.workers {
			w.reduce = nil
		}
	}
	if r := p.watch.Stop(time.Now()); r != "" {
		p.reason = r
		return p.result(), p.stats(), nil
	}
	if err := p.initial(); err != nil {
		return trace.Result{Property: propertyName(opts), Verdict: trace.Unknown, Reason: err.Error()}, p.stats(), err
	}
	if p.viol == nil && p.reason == "" {
		p.run()
	}
	return p.result(), p.stats(), nil
}

// initial stores the initial states and gives them to the first worker.
func (p *pdfs) initial() error {
	w := p.workers[0]
	w.cur = NoIndex
	var inits []Index
	err := p.m.Initial(func(v []byte) {
		if w.viol != nil || w.stop != "" {
			return
		}
		i, isNew := w.shared.insertFrom(v, 0, NoIndex)
		if !isNew {
			if i == NoIndex {
				w.stopFull()
			}
			return
		}
		inits = append(inits, i)
		w.checkState(NoIndex, i, v)
	})
	if err != nil {
		return err
	}
	p.viol, p.reason = w.viol, w.stop
	if p.store.Len() == 0 && p.viol == nil && p.reason == "" {
		return errNoInitial(p.m)
	}
	for k := len(inits) - 1; k >= 0; k-- {
		w.stack = append(w.stack, pitem{i: inits[k]})
	}
	return nil
}

// run runs the workers and watches the limits until the search ends.
func (p *pdfs) run() {
	var wg sync.WaitGroup
	for _, w := range p.workers {
		wg.Go(w.pdfsRun)
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	last, lastStates := p.watch.Start(), int64(0)
	for {
		select {
		case <-finished:
			return
		case now := <-tick.C:
			if r := p.watch.Stop(now); r != "" {
				p.halt(r)
				continue
			}
			if p.lf != nil && p.opts.AutoCompress && !p.noCompress {
				p.compress()
			}
			if p.opts.Progress != nil && now.Sub(last) >= p.opts.ProgressInterval {
				n := int64(p.store.Len())
				pr := Progress{States: n, MemoryBytes: p.watch.Memory(), Elapsed: now.Sub(p.watch.Start())}
				for k := range p.counts {
					c := &p.counts[k]
					pr.Transitions += c.transitions.Load()
					pr.Matched += c.matched.Load()
					pr.Depth = max(pr.Depth, c.depth.Load())
					pr.Queue += c.stack.Load()
				}
				pr.StatesPerSec = float64(n-lastStates) / now.Sub(last).Seconds()
				last, lastStates = now, n
				p.opts.Progress(pr)
			}
		}
	}
}

// pdfsRun is a worker's search: it ends when the search has an outcome.
func (s *search) pdfsRun() {
	p := s.pd
	defer p.exit(s)
	for !p.stop.Load() {
		n := len(s.stack)
		if n == 0 {
			s.publish()
			if !p.take(s) {
				return
			}
			continue
		}
		it := s.stack[n-1]
		s.stack = s.stack[:n-1]
		s.depth = max(s.depth, it.depth)
		s.expand(it.i)
		s.flush()
		if s.viol != nil {
			p.violate(s.viol)
			return
		}
		if s.stop != "" {
			p.halt(s.stop)
			return
		}
		// The first successor is expanded first, as the one-worker
		// search does.
		for k := len(s.dfsNew) - 1; k >= 0; k-- {
			s.stack = append(s.stack, pitem{i: s.dfsNew[k], depth: it.depth + 1})
		}
		s.dfsNew = s.dfsNew[:0]
		if p.hungry.Load() > 0 && len(s.stack) > 1 {
			p.give(s)
		}
		if (p.pause.Load() || p.lf != nil && p.lf.wantGrow()) && !p.park(true) {
			return
		}
		if s.budget <= 0 {
			s.budget = pollEvery
			s.publish()
		}
	}
}

// publish makes the worker's counters readable by the progress.
func (s *search) publish() {
	s.pc.transitions.Store(s.transitions)
	s.pc.matched.Store(s.matched)
	s.pc.depth.Store(s.depth)
	s.pc.stack.Store(int64(len(s.stack)))
}

// take waits until another worker gives s states, and reports whether it
// did: false when the search is over or stopped.
func (p *pdfs) take(s *search) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle++
	p.hungry.Add(1)
	p.cond.Broadcast() // a worker waiting to grow the table may now
	for len(p.pool) == 0 && !p.over && !p.stop.Load() {
		if p.idle == len(p.workers) {
			// No worker has a state left to expand.
			p.over = true
			p.cond.Broadcast()
			break
		}
		p.cond.Wait()
	}
	p.hungry.Add(-1)
	p.idle--
	if len(p.pool) == 0 || p.stop.Load() {
		return false
	}
	s.stack = append(s.stack, p.pool...)
	p.pool = p.pool[:0]
	return true
}

// park waits, outside the store, until the lfStore has doubled its
// table: the last worker to stop doubles it, when the others are parked,
// waiting for states or gone. It reports whether the search goes on.
//
// safe says that the worker is between two expansions: the search may
// then also compress the store while it waits (compress), which it must
// not do while a worker is inside a flush, whose states and parents are
// the plain store's. A worker parked inside a flush waits for the table to
// double, which its fellows do even when the search waits to compress.
func (p *pdfs) park(safe bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.parked++
	if safe {
		p.safe++
	}
	p.cond.Broadcast() // compress may be waiting for it
	gen := p.grown
	for p.grown == gen && !p.stop.Load() {
		if p.parked+p.idle+p.exited == len(p.workers) && (p.safe < p.parked || !p.pause.Load()) {
			if p.lf != nil {
				p.lf.grow()
			}
			p.release()
			return true
		}
		p.cond.Wait()
	}
	if p.grown == gen {
		p.parked--
		if safe {
			p.safe--
		}
		return false
	}
	return true
}

// release lets the parked workers go on; p.mu is held.
func (p *pdfs) release() {
	p.grown++
	p.parked, p.safe = 0, 0
	p.cond.Broadcast()
}

// compress turns the lfStore, once its autoCompress says it is due (as
// Store.compressIfDue), into a SharedStore of compressed
// shards, while every worker waits between two expansions: the states get
// the shards' indices, and the parents and the workers' stacks are
// renumbered. When the compressed store does not fit, the store stays
// plain. It runs on the goroutine that watches the limits, which owns the
// Watch.
func (p *pdfs) compress() {
	lf := p.lf
	if !lf.compressDue() {
		return
	}
	p.pause.Store(true)
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.pause.Store(false)
	for p.safe+p.idle+p.exited < len(p.workers) && !p.stop.Load() {
		p.cond.Wait()
	}
	if p.stop.Load() {
		return
	}
	defer p.release()
	ss, renumber := lf.compressed()
	if ss == nil {
		p.noCompress = true
		return
	}
	for _, w := range p.workers {
		for k := range w.stack {
			w.stack[k].i = renumber(w.stack[k].i)
		}
		w.shared = ss
	}
	for k := range p.pool {
		p.pool[k].i = renumber(p.pool[k].i)
	}
	p.compressedAt = int64(ss.Len())
	lf.free()
	p.shared, p.store, p.lf = ss, ss, nil
	p.watch.store = ss
	debug.FreeOSMemory()
}

// exit records that worker s returned.
func (p *pdfs) exit(s *search) {
	s.publish()
	p.mu.Lock()
	p.exited++
	p.cond.Broadcast()
	p.mu.Unlock()
}

// give hands the bottom half of s's stack to the hungry workers, unless
// another worker has given them states already.
func (p *pdfs) give(s *search) {
	p.mu.Lock()
	if len(p.pool) == 0 && p.hungry.Load() > 0 {
		h := len(s.stack) / 2
		p.pool = append(p.pool, s.stack[:h]...)
		s.stack = s.stack[:copy(s.stack, s.stack[h:])]
		p.cond.Broadcast()
	}
	p.mu.Unlock()
}

// halt stops the search for reason unless it has an outcome already.
func (p *pdfs) halt(reason string) {
	p.mu.Lock()
	if p.viol == nil && !p.over && p.reason == "" {
		p.reason = reason
	}
	p.stop.Store(true)
	p.cond.Broadcast()
	p.mu.Unlock()
}

// violate ends the search with v unless it has an outcome already.
func (p *pdfs) violate(v *violation) {
	p.mu.Lock()
	if p.viol == nil && !p.over && p.reason == "" {
		p.viol = v
	}
	p.stop.Store(true)
	p.cond.Broadcast()
	p.mu.Unlock()
}

func (p *pdfs) get(i Index) []byte { return p.workers[0].shared.Get(nil, i) }

func (p *pdfs) result() trace.Result {
	r := trace.Result{Property: propertyName(p.opts)}
	if p.viol != nil {
		r.Verdict, r.Kind = trace.Violated, p.viol.kind
		r.Counterexample = buildCounterexample(p.m, p.viol, p.get)
		return r
	}
	stop := p.reason
	if stop == "" && !p.over {
		// Cannot happen: the workers end with an outcome.
		stop = "the parallel search ended without an outcome"
	}
	r.Verdict, r.Reason = Undecided(stop, false, p.opts.MaxDepth, p.store.Len())
	return r
}

func (p *pdfs) stats() trace.Stats {
	st := p.watch.Stats(0)
	for _, w := range p.workers {
		st.Transitions += w.transitions
		st.Matched += w.matched
		st.Expanded += w.expanded
		st.Depth = max(st.Depth, w.depth)
	}
	st.Complete = p.viol == nil && p.reason == "" && p.over
	reductionStats(&st, p.opts, p.workers, func(w *search) *reducer { return w.reduce })
	st.Extra = append(st.Extra, trace.Figure{Name: "workers", Value: float64(len(p.workers))})
	if p.compressedAt > 0 {
		st.Extra = append(st.Extra, compressedFigure(p.compressedAt))
	}
	return st
}
