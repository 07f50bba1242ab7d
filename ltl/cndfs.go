package ltl

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"ftmc/explore"
	"ftmc/state"
	"ftmc/trace"
)

// The parallel search for acceptance cycles is CNDFS (Evangelista,
// Laarman, Petrucci and van de Pol, "Improved multi-core nested depth-first
// search", ATVA 2012), as LTSmin's multi-core LTL search. Every worker runs
// the whole nested depth-first search over the one product graph, each in
// its own order of successors, so that they soon work on different parts
// of it. The states are in one explore.LockFreeStore, or with Compress in
// one SharedStore of compressed shards behind locks. Cyan (on the
// worker's stack) is each worker's own, blue (the outer search is done
// with the state) and red (its inner search is done) are shared, so that a
// worker skips what another has done:
//
//   - the outer (blue) search of worker i enters a successor t only when
//     t is not cyan for i, not blue and not red, and reports a cycle when
//     t is cyan and t or the current state is accepting (early detection);
//   - when it is done with a state s it makes s blue; when s is accepting
//     it then runs an inner (red) search from s that enters the states
//     neither red nor in R (the states this inner search has entered) and
//     reports a cycle at a cyan state; then it waits until every accepting
//     state of R other than s is red, and makes every state of R red.
//
// A red state has no path to an accepting cycle that the search could
// still miss; the wait keeps a worker from making a state red whose
// accepting states other workers' inner searches still need. Sharing blue
// is what makes the workers divide the graph between them: with blue of
// its own, each would search all of it. When every worker's outer search
// is done, the product has no accepting cycle; one worker's is not
// enough: it skips the blue states of another whose inner searches, which
// would find a cycle through them, may still run. A cycle found is the worker's stack, followed for the inner search by its
// stack, and the step back to the cyan state, where the cycle starts.
//
// Only the verdict is the same as the nested search's: which cycle is
// found, the states stored and the transitions counted depend on the
// workers' race. Partial-order reduction is the nested search's alone.

// Colours of a worker's outer search, and its inner search's R.
const (
	cyan = 1 << iota
	blue
	pink // in R
)

// colourBits is a shared colour (red, blue): a bit per state, by index,
// in chunks allocated when first written.
type colourBits struct {
	chunks [1 << (32 - redChunkLog)]atomic.Pointer[[1 << (redChunkLog - 6)]atomic.Uint64]
}

const redChunkLog = 20

func (r *colourBits) has(i explore.Index) bool {
	c := r.chunks[i>>redChunkLog].Load()
	return c != nil && c[i>>6&(1<<(redChunkLog-6)-1)].Load()>>(i&63)&1 != 0
}

func (r *colourBits) set(i explore.Index) {
	p := &r.chunks[i>>redChunkLog]
	c := p.Load()
	if c == nil {
		p.CompareAndSwap(nil, new([1 << (redChunkLog - 6)]atomic.Uint64))
		c = p.Load()
	}
	c[i>>6&(1<<(redChunkLog-6)-1)].Or(1 << (i & 63))
}

type cndfs struct {
	ctx     context.Context
	opts    Options
	kind    string
	e       expander               // the main model's, for the counterexample
	lf      *explore.LockFreeStore // the store when plain, else nil
	shared  *explore.SharedStore   // the store when compressed, else nil
	watch   *explore.Watch
	red     colourBits
	blue    colourBits
	readMu  sync.Mutex
	roots   [][]byte // the initial product states
	workers []*cworker

	stop atomic.Bool
	mu   sync.Mutex // guards the outcome below
	// the outcome: a worker's violation, every worker finished its
	// search (no accepting cycle), or why the search stopped
	found    *found
	done     bool
	reason   string
	finished int // workers that finished their search
}

type cworker struct {
	c *cndfs
	expander
	id  int
	rng *rand.Rand // permutes the successors; nil for worker 0

	col     []uint8 // colours, by state index
	succIdx []explore.Index
	succAcc []bool
	succTr  []state.Trans
	blue    []cframe
	red     []cframe
	rset    []explore.Index // R
	racc    []explore.Index // the accepting states of R
	vec     []byte

	truncated bool
	depth     int64
	// published for the progress and the stats
	transitions, matched, stack atomic.Int64
}

type cframe struct {
	frame
	acc bool
}

// parallel reports whether Check and CheckNonProgress run the search
// with opts on several workers.
// A depth bound keeps the nested search on one: CNDFS's wait for the
// accepting states of R to turn red relies on the outer search entering
// every state the inner search can reach, which a bound stops.
func parallel(opts Options) bool {
	return opts.Workers > 1 && (opts.Reducer == nil || opts.Fairness) && opts.MaxDepth <= 0
}

func newCNDFS(ctx context.Context, m state.Model, a *Automaton, atoms []Predicate, opts Options, kind string, noStutter bool) *cndfs {
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = time.Second
	}
	c := &cndfs{ctx: ctx, opts: opts, kind: kind, e: newExpander(m, a, atoms, opts)}
	c.e.noStutter = noStutter
	n := min(opts.Workers, explore.MaxWorkers)
	if opts.Compress {
		c.shared = explore.NewSharedStore(opts.ExpectedStates, true)
		c.watch = explore.NewSharedWatch(ctx, c.shared, opts.limits())
	} else {
		c.lf = explore.NewLockFreeStore(n, opts.ExpectedStates)
		c.watch = explore.NewLockFreeWatch(ctx, c.lf, opts.limits())
	}
	for id := range n {
		fm := m
		if id > 0 || opts.ForkAtoms != nil {
			fm = m.Fork()
		}
		w := &cworker{c: c, id: id, expander: newExpander(fm, a, atoms, opts)}
		w.noStutter = noStutter
		w.readMu = &c.readMu
		if opts.ForkAtoms != nil {
			// Atoms of its own, read while the others read theirs; if they
			// cannot be made, the given ones, in turns.
			if fa, fault, err := opts.ForkAtoms(fm); err == nil {
				w.atoms, w.opts.Fault, w.readMu = fa, fault, nil
			}
		}
		if id > 0 {
			w.rng = rand.New(rand.NewPCG(uint64(id), 0x5eed))
		}
		c.workers = append(c.workers, w)
	}
	return c
}

func (c *cndfs) run() (trace.Result, trace.Stats, error) {
	defer c.free()
	defer c.watch.Close()
	inits, err := initials(c.e.m)
	if err != nil {
		return trace.Result{Property: c.opts.Property, Verdict: trace.Unknown, Reason: err.Error()}, c.stats(), err
	}
	for _, v := range inits {
		c.roots = append(c.roots, appendProduct(nil, v, c.e.a.Init, fairWait, c.opts.Fairness))
	}
	var wg sync.WaitGroup
	for _, w := range c.workers {
		wg.Go(w.run)
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	rep := reporter{last: c.watch.Start()}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for running := true; running; {
		select {
		case <-finished:
			running = false
		case now := <-tick.C:
			c.poll(now, &rep)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	truncated := false
	for _, w := range c.workers {
		truncated = truncated || w.truncated
	}
	stop := c.reason
	if c.found == nil && !c.done && stop == "" {
		// Cannot happen: the search ends with a violation, a stop, or
		// every worker's search done.
		stop = "the parallel search ended without an outcome"
	}
	return c.e.result(c.kind, c.found, stop, truncated, c.len()), c.stats(), nil
}

func (c *cndfs) free() {
	if c.lf != nil {
		c.lf.Free()
	} else {
		c.shared.Free()
	}
}

func (c *cndfs) len() int {
	if c.lf != nil {
		return c.lf.Len()
	}
	return c.shared.Len()
}

// get appends the vector of state i to dst[:0].
func (c *cndfs) get(dst []byte, i explore.Index) []byte {
	if c.lf != nil {
		return c.lf.Get(dst, i)
	}
	return c.shared.Get(dst, i)
}

// insert adds vec for worker w unless it is stored, and returns its
// index; NoIndex when the store is full.
func (c *cndfs) insert(w int, vec []byte) explore.Index {
	if c.lf != nil {
		i, _ := c.lf.Insert(w, vec)
		return i
	}
	i, _ := c.shared.Insert(vec)
	return i
}

// poll checks the limits and reports progress.
func (c *cndfs) poll(now time.Time, rep *reporter) {
	if c.stop.Load() {
		return
	}
	if r := c.watch.Stop(now); r != "" {
		c.halt(r)
		return
	}
	states := int64(c.len())
	if c.opts.MaxStates > 0 && states > c.opts.MaxStates {
		c.halt(stateLimit(c.opts.MaxStates))
		return
	}
	if c.opts.Progress != nil {
		p := explore.Progress{States: states}
		for _, w := range c.workers {
			p.Transitions += w.transitions.Load()
			p.Matched += w.matched.Load()
			p.Depth = max(p.Depth, w.stack.Load())
		}
		rep.report(c.opts, c.watch, now, p)
	}
}

// halt stops the search for reason, unless it has an outcome already.
func (c *cndfs) halt(reason string) {
	c.mu.Lock()
	if c.found == nil && !c.done && c.reason == "" {
		c.reason = reason
	}
	c.mu.Unlock()
	c.stop.Store(true)
}

func (c *cndfs) violate(f *found) {
	c.mu.Lock()
	if c.found == nil && !c.done && c.reason == "" {
		c.found = f
	}
	c.mu.Unlock()
	c.stop.Store(true)
}

// finish is a worker's search done; once every worker's is, the product
// has no accepting cycle.
func (c *cndfs) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finished++; c.finished < len(c.workers) {
		return
	}
	if c.found == nil && !c.done && c.reason == "" {
		c.done = true
	}
	c.stop.Store(true)
}

func (c *cndfs) stats() trace.Stats {
	var extra int64
	for _, w := range c.workers {
		extra += int64(cap(w.col))
	}
	st := c.watch.Stats(extra)
	for _, w := range c.workers {
		st.Transitions += w.transitions.Load()
		st.Matched += w.matched.Load()
		st.Depth = max(st.Depth, w.depth)
	}
	st.Complete = c.done
	for _, w := range c.workers {
		st.Complete = st.Complete && !w.truncated
	}
	if c.opts.Reducer != nil {
		st.Reduction = "none"
	}
	return st
}

func (w *cworker) colour(i explore.Index) uint8 {
	if int(i) < len(w.col) {
		return w.col[i]
	}
	return 0
}

func (w *cworker) paint(i explore.Index, c uint8) {
	if int(i) >= len(w.col) {
		n := max(int(i)+1, 2*len(w.col), 1<<12)
		w.col = append(w.col, make([]uint8, n-len(w.col))...)
	}
	w.col[i] = c
}

// run is the worker's search from every initial state; it ends when the
// search has an outcome.
func (w *cworker) run() {
	c := w.c
	order := make([]int, len(c.roots))
	for k := range order {
		order[k] = k
	}
	if w.rng != nil {
		w.rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	}
	for _, k := range order {
		if c.stop.Load() {
			return
		}
		i := c.insert(w.id, c.roots[k])
		if i == explore.NoIndex {
			c.halt(c.watch.Full())
			return
		}
		if w.colour(i) == 0 && !c.blue.has(i) && !c.red.has(i) && !w.dfsBlue(i, w.acceptingVec(c.roots[k])) {
			return
		}
	}
	c.finish()
}

// push expands state i and pushes it on stack; false when the store is
// full (the search then stops).
func (w *cworker) push(stack []cframe, i explore.Index, acc bool, t state.Trans) ([]cframe, bool) {
	w.vec = w.c.get(w.vec, i)
	w.expand(w.vec)
	first := len(w.succIdx)
	if w.c.lf != nil {
		var ok bool
		if w.succIdx, ok = w.c.lf.InsertAll(w.id, w.out, w.outEnd, w.succIdx); !ok {
			w.succIdx = w.succIdx[:first]
			w.c.halt(w.c.watch.Full())
			return stack, false
		}
	}
	for k, tr := range w.outTr {
		v := w.succ(k)
		if w.c.lf == nil {
			j := w.c.insert(w.id, v)
			if j == explore.NoIndex {
				w.c.halt(w.c.watch.Full())
				return stack, false
			}
			w.succIdx = append(w.succIdx, j)
		}
		w.succAcc = append(w.succAcc, w.acceptingVec(v))
		w.succTr = append(w.succTr, tr)
	}
	if end := len(w.succIdx); w.rng != nil && end-first > 1 {
		w.rng.Shuffle(end-first, func(a, b int) {
			a, b = a+first, b+first
			w.succIdx[a], w.succIdx[b] = w.succIdx[b], w.succIdx[a]
			w.succAcc[a], w.succAcc[b] = w.succAcc[b], w.succAcc[a]
			w.succTr[a], w.succTr[b] = w.succTr[b], w.succTr[a]
		})
	}
	w.transitions.Add(int64(len(w.outTr)))
	stack = append(stack, cframe{frame{idx: i, tr: t, first: first, next: first, end: len(w.succIdx)}, acc})
	w.noteDepth()
	return stack, true
}

func (w *cworker) pop(stack []cframe) []cframe {
	f := stack[len(stack)-1]
	w.succIdx = w.succIdx[:f.first]
	w.succAcc = w.succAcc[:f.first]
	w.succTr = w.succTr[:f.first]
	return stack[:len(stack)-1]
}

func (w *cworker) noteDepth() {
	d := int64(len(w.blue) + len(w.red))
	w.depth = max(w.depth, d-1)
	w.stack.Store(d)
}

// dfsBlue is the outer search from root; it reports whether the worker
// may go on (no violation found, no stop).
func (w *cworker) dfsBlue(root explore.Index, acc bool) bool {
	c := w.c
	w.paint(root, cyan)
	var ok bool
	if w.blue, ok = w.push(w.blue[:0], root, acc, stutter); !ok {
		return false
	}
	if w.fail.kind != "" {
		c.violate(w.path(-1, 0, stutter, false))
		return false
	}
	for len(w.blue) > 0 {
		if c.stop.Load() {
			return false
		}
		f := &w.blue[len(w.blue)-1]
		if f.next < f.end {
			j, jacc, t := w.succIdx[f.next], w.succAcc[f.next], w.succTr[f.next]
			f.next++
			cj := w.colour(j)
			if cj == cyan && (f.acc || jacc) {
				c.violate(w.path(w.stackPos(j), j, t, false))
				return false
			}
			if cj != 0 || c.blue.has(j) || c.red.has(j) {
				w.matched.Add(1)
				continue
			}
			if c.opts.MaxDepth > 0 && len(w.blue) >= c.opts.MaxDepth {
				w.truncated = true
				continue
			}
			w.paint(j, cyan)
			if w.blue, ok = w.push(w.blue, j, jacc, t); !ok {
				return false
			}
			if w.fail.kind != "" {
				c.violate(w.path(-1, 0, stutter, false))
				return false
			}
			continue
		}
		c.blue.set(f.idx)
		if f.acc && !w.dfsRed() {
			return false
		}
		w.paint(f.idx, blue)
		w.blue = w.pop(w.blue)
		w.noteDepth()
	}
	return true
}

// dfsRed is the inner search from the top of the outer stack, whose
// successors are there already; it reports whether the worker may go on.
func (w *cworker) dfsRed() bool {
	c := w.c
	top := w.blue[len(w.blue)-1]
	seed := top.idx
	top.next = top.first
	w.red = append(w.red[:0], top)
	w.rset, w.racc = append(w.rset[:0], seed), w.racc[:0]
	w.col[seed] |= pink
	var ok bool
	for len(w.red) > 0 {
		if c.stop.Load() {
			return false
		}
		g := &w.red[len(w.red)-1]
		if g.next < g.end {
			j, jacc, t := w.succIdx[g.next], w.succAcc[g.next], w.succTr[g.next]
			g.next++
			cj := w.colour(j)
			if cj&cyan != 0 {
				c.violate(w.path(w.stackPos(j), j, t, true))
				return false
			}
			if cj&pink != 0 || c.red.has(j) {
				continue
			}
			w.paint(j, cj|pink)
			w.rset = append(w.rset, j)
			if jacc {
				w.racc = append(w.racc, j)
			}
			if w.red, ok = w.push(w.red, j, jacc, t); !ok {
				return false
			}
			if w.fail.kind != "" {
				c.violate(w.path(-1, 0, stutter, true))
				return false
			}
			continue
		}
		if len(w.red) == 1 {
			// The seed's frame is the outer stack's: its successors stay.
			w.red = w.red[:0]
			break
		}
		w.red = w.pop(w.red)
	}
	w.noteDepth()
	// Wait for the other workers' inner searches through the accepting
	// states of R.
	for _, r := range w.racc {
		for spins := 0; !c.red.has(r); spins++ {
			if c.stop.Load() {
				return false
			}
			if spins < 64 {
				runtime.Gosched()
			} else {
				time.Sleep(10 * time.Microsecond)
			}
		}
	}
	for _, r := range w.rset {
		c.red.set(r)
		w.col[r] &^= pink
	}
	return true
}

func (w *cworker) stackPos(j explore.Index) int {
	for k, f := range w.blue {
		if f.idx == j {
			return k
		}
	}
	return -1
}

// path is the counterexample: the outer stack, with inner the inner
// stack after its seed, then, when the path is a cycle (loopAt >= 0), the
// step t back to j.
func (w *cworker) path(loopAt int, j explore.Index, t state.Trans, inner bool) *found {
	f := &found{loopAt: loopAt}
	if loopAt < 0 {
		f.fail = w.fail
	}
	add := func(i explore.Index, t state.Trans) {
		f.path = append(f.path, w.c.get(nil, i))
		f.tr = append(f.tr, t)
	}
	for _, g := range w.blue {
		add(g.idx, g.tr)
	}
	if inner && len(w.red) > 1 {
		for _, g := range w.red[1:] {
			add(g.idx, g.tr)
		}
	}
	if loopAt >= 0 {
		add(j, t)
	}
	return f
}
