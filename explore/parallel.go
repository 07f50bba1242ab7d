package explore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"ftmc/state"
	"ftmc/trace"
)

// The parallel breadth-first search runs in one of two ways. When its
// states are plain, the workers share one lock-free store (lfbfs.go): each
// inserts the successors of the states it expands itself. With Compress,
// or once the shared store has migrated to compressed stores when memory
// ran short, it runs as this file says: it partitions the states by hash,
// and each worker owns the states whose hash falls to it, in a Store and a
// parent column of its own, so no lock guards a store. A worker expands
// its share of the current level and sends each successor, in batches, to
// the worker that owns it. Either way levels end at a barrier, so the
// search remains breadth-first: the same states, transitions and depth as
// the sequential search, and shortest counterexamples.
//
// A state's global index is its index in its owner's store (or its
// worker's arena of the shared store) shifted left by workerBits, or'ed
// with the owner's number; parent indices are global.
//
// A level's states are expanded by whichever worker is free: as an owner
// stores the new states, it copies them, in chunks of chunkStates, into its
// share of the next level, and in the next level each worker takes its own
// chunks first, then the others'. So a worker that finishes its share
// early, or one held up by the system, does not leave the other idle at
// the level's end. A worker whose store is compressed keeps its chunks'
// vectors in the store only, and expands those chunks itself: the copies
// would undo the compression. (On the shared store a chunk names a run of
// the arena, which every worker reads.) Compressed stores share one node
// table (nodeTable), so the worker that expands a state builds the trees
// of its successors against the state's and sends their owners the roots
// to look up.
//
// Partial-order reduction needs the breadth-first cycle proviso (reduce.go):
// every successor of an ample set is new or in the next level, that is,
// none is stored in the current level or an earlier one. That depends on
// the levels so far only, not on the order in which the current level is
// expanded, so the workers can choose the ample sets the sequential
// search chooses: the first candidate process with a successor whose
// successors all meet the proviso. On the shared store a worker looks the
// successors up itself. On the owners' stores only the successors' owners
// know, so the choice takes rounds of a level. In the first round a
// worker sends a state's first candidate's successors on condition, and
// their owners answer, at the end of the round, for each state one of
// whose successors was stored before the level began. In the next round those states try
// their next candidate, and so on; a state whose every candidate failed
// is expanded fully. A candidate's successors that fail are never stored:
// when they all go to one worker they go as a group in one message, which
// their owner inserts only when every one meets the proviso; otherwise each
// owner holds them until the round's end, when everybody knows which
// states failed. So the level below holds exactly what the sequential
// search stores, whoever expanded which state: the same states,
// transitions and depth. And it holds, for each state, an ample set's
// successors only when they are all new or in the next level: a cycle of
// ample steps would go one level deeper at every step.

const (
	workerBits = 4
	// MaxWorkers is the largest number of workers of a parallel search.
	MaxWorkers = 1 << workerBits
	// maxLocal bounds each worker's store so that global indices fit 32
	// bits and never equal NoIndex.
	maxLocal = 1<<(32-workerBits) - 1

	msgEntries  = 256 // successors per message
	inboxCap    = 64  // messages waiting per worker
	chunkStates = 256 // states per chunk of a level's work
	maxFree     = 64  // chunks a worker keeps for reuse
)

// chunk is a run of states a worker stored, consecutive in its store, for
// the next level to expand.
type chunk struct {
	owner, lo, n int
	data         []byte   // the vectors back to back; nil: read them from the owner's store
	ends         []uint32 // where each vector ends in data
}

// levelWork is a worker's share of a level: its chunks, taken in order by
// any worker, the first stealable of them by others than the owner too.
type levelWork struct {
	chunks    []*chunk
	stealable int
	taken     atomic.Int64
	_         [56]byte // the workers' counters on cache lines of their own
}

// message carries successors from one worker to their owner, or says that
// the sender has finished the level (done): FIFO channels then guarantee
// that nothing more comes from it for this level.
type message struct {
	done bool
	ents []msgEntry
	data []byte
}

// msgEntry is a successor in a message; its vector follows the previous
// entry's in the message's data. It carries the top half of the vector's
// hash, all that the owner's plain table reads (the owner is chosen by the
// bottom half), or the root that the owner's compressed store looks up:
// 24 bytes an entry, as the messages' bytes go from one core to another.
type msgEntry struct {
	parent Index  // global index of the expanded state
	hi     uint32 // the top 32 bits of the vector's Hash
	len    uint32
	// ample is -1 for a successor to insert, or for one of parent's
	// ample set the process (its low ampleProcBits) and the group: how
	// many successors of the set follow in this message from here, this
	// one included, all of them, for the first of a group; 0 for one the
	// owner holds until the round's end.
	ample int32
	// l and r are the vector's root pair when the stores share their
	// nodes (parallel.rooted).
	l, r uint32
}

const (
	ampleProcBits = 20
	ampleProcMask = 1<<ampleProcBits - 1
	maxGroup      = 1<<(31-ampleProcBits) - 1
)

// hash is the vector's hash as far as the owner's table reads it.
func (e *msgEntry) hash() uint64 { return uint64(e.hi) << 32 }

// redo is a state (global index) whose ample set of process proc did not
// meet the proviso: it tries its next candidate, or is expanded fully.
type redo struct {
	state Index
	proc  int32
}

// pviolation is a violation found by a worker; its path is built when the
// workers have stopped.
type pviolation struct {
	kind, msg string
	at        Index // the state where it was found (global)
	trans     state.Trans
	failing   bool
}

type parallel struct {
	ctx     context.Context
	m       state.Model
	opts    Options
	workers []*pworker
	start   time.Time
	depth   int64

	stop      atomic.Bool
	mu        sync.Mutex // guards viol and reason
	viol      *pviolation
	reason    string
	truncated bool

	barrier     barrier
	work        [2][]levelWork // by level parity, per worker
	storeBudget atomic.Int64   // memory each worker's store may hold (0: no limit)
	pool        sync.Pool      // *message
	memoryPeak  int64
	// rooted: the owners' stores are compressed and share their nodes
	// (newSharedCompressedStores), so a worker sends each successor with
	// its root, built against the tree of the state it expanded, and its
	// owner looks up only the root. Set before the workers start, or by
	// migrate while they are parked.
	rooted bool

	// The search on a shared store (lfbfs.go): lf is nil on the owners'
	// stores, from the start or once migrate made them.
	lf         *lfStore
	gate       lfGate
	base       []int64     // per arena: its states when the level began
	pause      atomic.Bool // the workers park at a chunk's end, so that the store turns compressed
	noCompress bool        // migrate failed: the store stays plain
	// migrateAt makes the store migrate, for tests, once it holds so many
	// states (0: only when memory runs short); migrated says where it did:
	// 1 inside a level, 2 at a level's end.
	migrateAt    int64
	migrated     int
	migratedRest int // the states of the level left to expand when it migrated
}

type pworker struct {
	p       *parallel
	id      int
	m       state.Model
	checker state.Checker
	store   *Store
	parents column[uint32]
	inbox   chan *message
	out     []*message // batches being filled, per owner (including self)
	pending []pendingMsg
	scratch []byte
	cur     Index // global index of the state being expanded
	nsucc   int

	reduce  *reducer // partial-order reduction, or nil
	holding bool     // Succ holds successors back for the reduction
	hashes  []uint64 // the hashes of an ample set's successors
	redoOut [][]redo // redos found, per owner of the state
	redoMu  sync.Mutex
	redos   []redo // this worker's states to try again (under redoMu)
	// held are the ample successors this worker owns whose set goes to
	// several workers, until the round's end; failed, by the round's
	// parity, the states one of whose held successors failed here: all
	// workers read them at the round's end.
	held     []msgEntry
	heldData []byte
	failed   [2][]Index
	failedAt map[Index]struct{}
	round    int // the rounds of reduction so far, the same for all workers
	dones    int
	budget   int
	touched  uint64 // see prefetch
	tbatch   batch  // a message's successors as a batch, for a compressed store's prefetch
	lfb      batch  // the successors to insert in the shared store (lfbfs.go)
	lfPos    []uint64

	transitions, matched, expanded int64
	compressedAt                   int64 // as search.compressedAt
	// published for the coordinator (progress, memory)
	pubStates, pubTransitions, pubMatched, pubStoreBytes, pubTableBytes, pubQueue atomic.Int64
	levelEnd                                                                      int        // the level being expanded (local)
	level                                                                         *levelWork // this worker's share of it
	fresh                                                                         []*chunk   // the next level's chunks
	free                                                                          []*chunk   // chunks expanded, for reuse
	queueBytes                                                                    int64      // held by chunks
}

type pendingMsg struct {
	to  int
	msg *message
}

func gid(local, worker int) Index { return Index(local<<workerBits | worker) }

func (p *parallel) get(g Index) []byte {
	if p.lf != nil {
		return p.lf.get(g)
	}
	return p.workers[g&(MaxWorkers-1)].store.Get(g >> workerBits)
}

func (p *parallel) parentOf(g Index) Index {
	if p.lf != nil {
		return p.lf.parent(g)
	}
	w := p.workers[g&(MaxWorkers-1)]
	return Index(w.parents.at(int(g >> workerBits)))
}

func (p *parallel) pathTo(g Index) []Index {
	var rev []Index
	for ; g != NoIndex; g = p.parentOf(g) {
		rev = append(rev, g)
	}
	for a, b := 0, len(rev)-1; a < b; a, b = a+1, b-1 {
		rev[a], rev[b] = rev[b], rev[a]
	}
	return rev
}

// owner is the worker that stores a state of hash h. It uses the low bits,
// which the store's slot numbers (the top bits) do not.
func (p *parallel) owner(h uint64) int {
	return int(uint64(uint32(h)) * uint64(len(p.workers)) >> 32)
}

func (p *parallel) violate(v *pviolation) {
	p.mu.Lock()
	if p.viol == nil && p.reason == "" {
		p.viol = v
	}
	p.mu.Unlock()
	p.stop.Store(true)
}

func (p *parallel) halt(reason string) {
	p.mu.Lock()
	if p.viol == nil && p.reason == "" {
		p.reason = reason
	}
	p.mu.Unlock()
	p.stop.Store(true)
}

func (p *parallel) states() int64 {
	var n int64
	for _, w := range p.workers {
		n += w.pubStates.Load()
	}
	return n
}

// runParallel is Run for opts.Workers > 1 breadth-first.
func runParallel(ctx context.Context, m state.Model, opts Options) (trace.Result, trace.Stats, error) {
	return newParallelOn(ctx, m, opts, !opts.Compress && opts.Lossy == Exact).search()
}

// search runs the parallel search set up.
func (p *parallel) search() (trace.Result, trace.Stats, error) {
	defer func() {
		for _, w := range p.workers {
			if w.store != nil {
				w.store.Free()
			}
		}
		if p.lf != nil {
			// The shared store's arenas live in the Go heap: they are
			// given back, as the other stores free their tables, so that
			// the memory of a search that follows in the process does
			// not count them.
			p.lf.free()
			p.lf = nil
			debug.FreeOSMemory()
		}
	}()
	// A search whose time (counted from Since) is spent, whose context is
	// done or whose memory is over the limit stops before it starts, as
	// the sequential one does.
	var sampler MemorySampler
	if p.check(time.Now(), &sampler); p.stop.Load() {
		return p.result(), p.stats(), nil
	}
	if err := p.initial(); err != nil {
		return trace.Result{Property: propertyName(p.opts), Verdict: trace.Unknown, Reason: err.Error()}, p.stats(), err
	}
	if !p.stop.Load() {
		p.run(&sampler)
	}
	return p.result(), p.stats(), nil
}

// newParallel sets up the workers of a parallel search of m on the
// owners' stores.
func newParallel(ctx context.Context, m state.Model, opts Options) *parallel {
	return newParallelOn(ctx, m, opts, false)
}

// newParallelOn sets up the workers of a parallel search of m, on a
// shared lfStore with shared.
func newParallelOn(ctx context.Context, m state.Model, opts Options, shared bool) *parallel {
	n := min(opts.Workers, MaxWorkers)
	p := &parallel{ctx: ctx, m: m, opts: opts, start: time.Now()}
	if shared {
		p.lf = newLFStore(n, opts.ExpectedStates)
		p.base = make([]int64, n)
		p.gate.cond = sync.NewCond(&p.gate.mu)
	}
	p.pool.New = func() any { return &message{} }
	p.barrier.n = n
	p.work[0], p.work[1] = make([]levelWork, n), make([]levelWork, n)
	var stores []*Store
	if !shared && opts.Compress && opts.Lossy == Exact {
		stores, p.rooted = newSharedCompressedStores(n, opts.ExpectedStates/n), true
	}
	for i := range n {
		wm := m
		if i > 0 {
			wm = m.Fork()
		}
		wo := opts
		wo.ExpectedStates /= n
		w := &pworker{p: p, id: i, m: wm, inbox: make(chan *message, inboxCap), out: make([]*message, n), budget: pollEvery}
		switch {
		case p.rooted:
			w.store = stores[i]
		case !shared:
			w.store = wo.NewStore()
		}
		w.checker, _ = wm.(state.Checker)
		w.reduce = newReducer(wm, opts)
		w.redoOut = make([][]redo, n)
		p.workers = append(p.workers, w)
	}
	// The workers reduce all or none: they take the same rounds per level.
	if !allReduce(p.workers, func(w *pworker) *reducer { return w.reduce }) {
		for _, w := range p.workers {
			w.reduce = nil
		}
	}
	return p
}

func (p *parallel) initial() error {
	if p.lf != nil {
		return p.lfInitial()
	}
	var count int
	err := p.m.Initial(func(v []byte) {
		if p.stop.Load() {
			return
		}
		h := Hash(v)
		w := p.workers[p.owner(h)]
		if _, isNew := w.insert(v, h, NoIndex); isNew {
			count++
		}
	})
	if err != nil {
		return err
	}
	for _, w := range p.workers {
		w.shareLevel(0)
		w.publish()
	}
	if count == 0 && !p.stop.Load() {
		return errors.New(p.m.Name() + ": the model has no initial state")
	}
	return nil
}

// run starts the workers and watches the clock, the context and memory
// until they finish.
func (p *parallel) run(sampler *MemorySampler) {
	var wg sync.WaitGroup
	for _, w := range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p.lf != nil {
				w.lfRun()
			} else {
				w.run()
			}
		}()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()

	interval := p.opts.ProgressInterval
	if interval <= 0 {
		interval = time.Second
	}
	tick := time.NewTicker(memoryEvery)
	defer tick.Stop()
	lastReport, lastStates := p.start, int64(0)
	p.sampleMemory(sampler)
	for {
		select {
		case <-finished:
			p.sampleMemory(sampler)
			return
		case <-p.ctx.Done():
			p.halt(fmt.Sprintf("%s after %d states", StopCause(p.ctx), p.states()))
			<-finished
			return
		case now := <-tick.C:
			mem := p.check(now, sampler)
			if p.opts.Progress != nil && now.Sub(lastReport) >= interval {
				n := p.states()
				pr := Progress{States: n, Depth: atomic.LoadInt64(&p.depth), MemoryBytes: mem, Elapsed: now.Sub(p.start)}
				for _, w := range p.workers {
					pr.Transitions += w.pubTransitions.Load()
					pr.Matched += w.pubMatched.Load()
					pr.Queue += w.pubQueue.Load()
				}
				pr.StatesPerSec = float64(n-lastStates) / now.Sub(lastReport).Seconds()
				lastReport, lastStates = now, n
				p.opts.Progress(pr)
			}
		}
	}
}

// check stops the search when its context is done, its time is spent or
// its memory is over the limit, and returns the memory.
func (p *parallel) check(now time.Time, sampler *MemorySampler) int64 {
	if p.ctx.Err() != nil {
		p.halt(fmt.Sprintf("%s after %d states", StopCause(p.ctx), p.states()))
	}
	if d := p.opts.Deadline(p.start); !d.IsZero() && now.After(d) {
		p.halt(fmt.Sprintf("time limit %v reached after %d states", p.opts.TimeLimit, p.states()))
	}
	mem := p.sampleMemory(sampler)
	if p.opts.MemoryLimit > 0 && mem > p.opts.MemoryLimit {
		p.halt(memoryReason(p.opts, p.states()))
	}
	return mem
}

// sampleMemory estimates the process's memory and shares what is left of
// the limit among the workers' stores.
func (p *parallel) sampleMemory(s *MemorySampler) int64 {
	var tables, stores int64
	for _, w := range p.workers {
		tables += w.pubTableBytes.Load()
		stores += w.pubStoreBytes.Load()
	}
	mem := s.RuntimeBytes() + tables
	p.memoryPeak = max(p.memoryPeak, mem)
	if p.opts.MemoryLimit > 0 {
		other := max(0, mem-stores)
		p.storeBudget.Store(max(1, (p.opts.MemoryLimit-other)/int64(len(p.workers))))
	}
	return mem
}

// run is one worker: level by level, expand its share of the level, then
// deliver its successors and wait for everybody else's.
func (w *pworker) run() { w.runFrom(0, w.store.Len()) }

// runFrom is run from level depth on, of which the worker has expanded
// none, some or all of the states: levelEnd is the number of states it
// stores in the levels up to depth.
func (w *pworker) runFrom(depth int64, levelEnd int) {
	p := w.p
	levelStart := 0
	for ; ; depth++ {
		if w.id == 0 {
			atomic.StoreInt64(&p.depth, depth)
		}
		w.levelEnd = levelEnd
		w.level = &p.work[depth&1][w.id]
		if p.opts.MaxDepth <= 0 || depth < int64(p.opts.MaxDepth) {
			w.expandLevel(p.work[depth&1])
		}
		w.endLevel()
		for w.reduce != nil {
			// The end of a round of the level: the held successors of the
			// ample sets that met the proviso are stored, and the states
			// whose ample set did not try their next candidate in another
			// round, until none is left.
			redos, stop := p.barrier.wait(w.sendRedos(), &p.stop)
			if stop {
				return
			}
			w.commit()
			if redos == 0 {
				break
			}
			w.redo()
			w.endLevel()
		}
		levelStart, levelEnd = levelEnd, w.store.Len()
		w.shareLevel(depth + 1)
		// Every worker must take the same decision here: one that went on
		// alone would wait for the others' done marks forever.
		more, stop := p.barrier.wait(int64(levelEnd-levelStart), &p.stop)
		if stop || more == 0 {
			return
		}
		if w.lastLevel(depth) {
			return
		}
	}
}

// expandLevel expands the chunks of the level, its own first, then those
// the others have not taken yet.
func (w *pworker) expandLevel(work []levelWork) {
	p := w.p
	for k := range work {
		o := (w.id + k) % len(work)
		lw := &work[o]
		limit := int64(len(lw.chunks))
		if o != w.id {
			limit = int64(lw.stealable)
		}
		for !p.stop.Load() {
			c := lw.taken.Load()
			if c >= limit {
				break
			}
			if !lw.taken.CompareAndSwap(c, c+1) {
				continue
			}
			ch := lw.chunks[c]
			for i := 0; i < ch.n && !p.stop.Load(); i++ {
				if ch.data != nil {
					from := uint32(0)
					if i > 0 {
						from = ch.ends[i-1]
					}
					w.scratch = append(w.scratch[:0], ch.data[from:ch.ends[i]]...)
				} else {
					w.scratch = append(w.scratch[:0], w.store.Get(Index(ch.lo+i))...)
				}
				w.expand(gid(ch.lo+i, ch.owner))
				w.trySend()
				w.drain(false)
			}
			if len(w.free) < maxFree {
				w.free = append(w.free, ch)
			}
		}
	}
}

// shareLevel makes the chunks of the states this worker stored in the
// level that ends its share of level depth. The level's barrier (or the
// start of the workers) publishes it.
func (w *pworker) shareLevel(depth int64) {
	lw := &w.p.work[depth&1][w.id]
	lw.chunks, lw.stealable = append(lw.chunks[:0], w.fresh...), len(w.fresh)
	for k, ch := range w.fresh {
		if ch.data == nil {
			lw.stealable = k
			break
		}
	}
	lw.taken.Store(0)
	w.fresh = w.fresh[:0]
	w.queueBytes = 0
	for _, ch := range lw.chunks {
		w.queueBytes += int64(cap(ch.data) + 4*cap(ch.ends))
	}
}

// queue adds the new state local, whose vector is v, to the next level.
func (w *pworker) queue(local int, v []byte) {
	copies := w.store.tree == nil && w.store.lossy == nil
	if !copies && w.free != nil {
		w.free = nil // their vectors' memory goes back
	}
	var ch *chunk
	if k := len(w.fresh) - 1; k >= 0 && w.fresh[k].n < chunkStates && (w.fresh[k].data != nil) == copies {
		ch = w.fresh[k]
	} else {
		if k := len(w.free) - 1; k >= 0 {
			ch, w.free = w.free[k], w.free[:k]
			ch.data, ch.ends = ch.data[:0], ch.ends[:0]
		} else {
			ch = &chunk{}
		}
		ch.owner, ch.lo, ch.n = w.id, local, 0
		if !copies {
			ch.data, ch.ends = nil, nil
		} else if ch.data == nil {
			ch.data = make([]byte, 0, chunkStates*len(v))
			ch.ends = make([]uint32, 0, chunkStates)
		}
		w.fresh = append(w.fresh, ch)
	}
	if copies {
		before := cap(ch.data) + 4*cap(ch.ends)
		ch.data = append(ch.data, v...)
		ch.ends = append(ch.ends, uint32(len(ch.data)))
		w.queueBytes += int64(cap(ch.data) + 4*cap(ch.ends) - before)
	}
	ch.n++
}

// expand generates the successors of state g, whose vector is in w.scratch.
func (w *pworker) expand(g Index) {
	w.cur = g
	w.nsucc = 0
	w.expanded++
	if w.reduce != nil {
		w.expandReduced()
	} else {
		w.m.Next(w.scratch, w)
	}
	if w.nsucc == 0 && !w.m.ValidEnd(w.scratch) {
		w.p.violate(&pviolation{kind: state.KindInvalidEnd, msg: "invalid end state", at: w.cur})
	}
	w.budget -= 1 + w.nsucc
	if w.budget <= 0 {
		w.poll()
	}
}

// expandReduced generates the successors of the state in w.scratch with an
// ample set when there is a candidate: the first process of the model's
// candidates that has a successor. Its successors go on condition (see
// the file's comment).
func (w *pworker) expandReduced() {
	r := w.reduce
	if !r.gather(w.m, w.scratch, w, &w.holding) {
		return
	}
	w.nsucc -= len(r.succs) // counted again as they are sent
	w.sendFrom(0)
}

// sendFrom sends the successors held in the reducer: on condition those
// of the first of the candidates from the k-th on that has a successor,
// all of them when there is none.
func (w *pworker) sendFrom(k int) {
	r := w.reduce
	for _, c := range r.cands[k:] {
		if c > ampleProcMask {
			break // not a process a message can name: no ample set
		}
		for _, p := range r.succs {
			if p.proc == c {
				r.ample++
				w.sendAmple(c)
				return
			}
		}
	}
	for _, p := range r.succs {
		w.Succ(state.Trans{Proc: p.proc}, r.data[p.off:p.off+p.len])
	}
}

// sendAmple sends the successors of process pid held in the reducer on
// condition: as a group in one message when they all go to one worker,
// each alone for its owner to hold otherwise.
func (w *pworker) sendAmple(pid int32) {
	r := w.reduce
	w.hashes = w.hashes[:0]
	to := -1
	for _, p := range r.succs {
		if p.proc == pid {
			h := Hash(r.data[p.off : p.off+p.len])
			if o := w.p.owner(h); len(w.hashes) == 0 {
				to = o
			} else if o != to {
				to = -1
			}
			w.hashes = append(w.hashes, h)
		}
	}
	group := int32(0)
	if to >= 0 && len(w.hashes) <= maxGroup {
		group = int32(len(w.hashes))
	}
	k := 0
	for _, p := range r.succs {
		if p.proc == pid {
			w.nsucc++
			h := w.hashes[k]
			k++
			w.send(w.p.owner(h), h, r.data[p.off:p.off+p.len], pid|group<<ampleProcBits, group == 0)
		}
	}
	if group > 0 {
		if msg := w.out[to]; len(msg.ents) >= msgEntries {
			w.out[to] = nil
			w.post(to, msg)
		}
	}
}

// sendRedos hands the states whose ample set failed the proviso to the
// workers that own them, and returns how many it handed.
func (w *pworker) sendRedos() int64 {
	var n int64
	for to, rs := range w.redoOut {
		if len(rs) == 0 {
			continue
		}
		o := w.p.workers[to]
		o.redoMu.Lock()
		o.redos = append(o.redos, rs...)
		o.redoMu.Unlock()
		n += int64(len(rs))
		w.redoOut[to] = rs[:0]
	}
	return n
}

// redo expands again the states whose ample set failed the proviso: they
// try the candidates after the one that failed, and when none is left
// send all their successors, none of which a failed ample set stored.
func (w *pworker) redo() {
	rs := w.redos
	slices.SortFunc(rs, func(a, b redo) int { return cmp.Compare(a.state, b.state) })
	rs = slices.CompactFunc(rs, func(a, b redo) bool { return a.state == b.state })
	r := w.reduce
	for _, rd := range rs {
		if w.p.stop.Load() {
			break
		}
		r.ample--
		w.cur = rd.state
		w.scratch = append(w.scratch[:0], w.store.Get(rd.state>>workerBits)...)
		if r.gather(w.m, w.scratch, w, &w.holding) {
			k := slices.Index(r.cands, rd.proc)
			w.sendFrom(k + 1)
		}
		w.trySend()
		w.drain(false)
	}
	w.redos = w.redos[:0]
}

// commit ends a round: it stores the held successors of the states none
// of whose successors failed the proviso, on any worker.
func (w *pworker) commit() {
	par := w.round & 1
	w.round++
	// Nobody reads the lists of the next round's parity any more: they
	// are the previous round's.
	w.failed[w.round&1] = w.failed[w.round&1][:0]
	if len(w.held) == 0 {
		return
	}
	if w.failedAt == nil {
		w.failedAt = make(map[Index]struct{})
	}
	clear(w.failedAt)
	for _, o := range w.p.workers {
		for _, g := range o.failed[par] {
			w.failedAt[g] = struct{}{}
		}
	}
	off := uint32(0)
	for k := range w.held {
		e := &w.held[k]
		v := w.heldData[off : off+e.len]
		off += e.len
		if _, bad := w.failedAt[e.parent]; !bad && !w.p.stop.Load() {
			w.insert(v, e.hash(), e.parent)
		}
	}
	w.held, w.heldData = w.held[:0], w.heldData[:0]
}

// Succ implements state.Sink: the successor goes into the batch for its owner.
func (w *pworker) Succ(t state.Trans, v []byte) {
	w.nsucc++
	if w.holding {
		w.reduce.hold(t, v)
		return
	}
	h := Hash(v)
	w.send(w.p.owner(h), h, v, -1, true)
}

// send adds successor v of w.cur, of hash h, to the batch for worker to;
// with post, it delivers the batch when it is full.
func (w *pworker) send(to int, h uint64, v []byte, ample int32, post bool) {
	msg := w.out[to]
	if msg == nil {
		msg = w.p.pool.Get().(*message)
		w.out[to] = msg
	}
	e := msgEntry{parent: w.cur, hi: uint32(h >> 32), len: uint32(len(v)), ample: ample}
	if w.p.rooted {
		// The tree of v against that of w.cur, its parent, which this
		// worker owns and has just read from its store.
		t := w.store.tree
		var base *treeCopy
		if w.cur != NoIndex && int(w.cur&(MaxWorkers-1)) == w.id {
			base = t.gotten(w.cur >> workerBits)
		}
		l, r, ok := t.root(v, base)
		if !ok {
			// The node table, every store's, is full.
			w.storeFull()
			return
		}
		e.l, e.r = l, r
	}
	msg.ents = append(msg.ents, e)
	msg.data = append(msg.data, v...)
	if post && len(msg.ents) >= msgEntries {
		w.out[to] = nil
		w.post(to, msg)
	}
}

// Fail implements state.Sink.
func (w *pworker) Fail(t state.Trans, kind, msg string) {
	w.nsucc++
	if kind == state.KindLimitReached {
		w.p.halt(msg)
		return
	}
	w.p.violate(&pviolation{kind: kind, msg: msg, at: w.cur, trans: t, failing: true})
}

// post delivers a full batch: its own are inserted at once, others' queued.
func (w *pworker) post(to int, msg *message) {
	if to == w.id {
		w.process(msg)
		return
	}
	w.pending = append(w.pending, pendingMsg{to, msg})
}

// trySend passes queued batches on while their owners' inboxes have room,
// in order, so that each owner receives a sender's batches in order.
func (w *pworker) trySend() {
	k := 0
	for ; k < len(w.pending); k++ {
		pm := w.pending[k]
		select {
		case w.p.workers[pm.to].inbox <- pm.msg:
			continue
		default:
		}
		break
	}
	w.pending = w.pending[:copy(w.pending, w.pending[k:])]
}

// drain inserts the batches that have arrived; with wait, it blocks until
// one arrives or a queued batch can be sent.
func (w *pworker) drain(wait bool) {
	for got := false; ; got = true {
		select {
		case msg := <-w.inbox:
			w.process(msg)
			continue
		default:
		}
		if !wait || got {
			return
		}
		if len(w.pending) > 0 {
			pm := w.pending[0]
			select {
			case msg := <-w.inbox:
				w.process(msg)
			case w.p.workers[pm.to].inbox <- pm.msg:
				w.pending = w.pending[:copy(w.pending, w.pending[1:])]
			}
		} else {
			w.process(<-w.inbox)
		}
		return
	}
}

// endLevel sends the rest of this level's successors and a done mark to
// every other worker, and takes in everything the others send until each
// has said done.
func (w *pworker) endLevel() {
	for to, msg := range w.out {
		if msg != nil {
			w.out[to] = nil
			w.post(to, msg)
		}
	}
	for to := range w.p.workers {
		if to != w.id {
			done := w.p.pool.Get().(*message)
			done.done = true
			w.pending = append(w.pending, pendingMsg{to, done})
		}
	}
	for {
		w.trySend()
		if len(w.pending) == 0 && w.dones == len(w.p.workers)-1 {
			break
		}
		w.drain(true)
	}
	w.dones = 0
	w.publish()
}

// process inserts a batch of successors this worker owns.
func (w *pworker) process(msg *message) {
	if msg.done {
		w.dones++
	} else if !w.p.stop.Load() {
		w.touched += w.prefetch(msg)
		off := uint32(0)
		for k := 0; k < len(msg.ents) && !w.p.stop.Load(); {
			e := &msg.ents[k]
			if e.ample < 0 {
				w.insert(msg.data[off:off+e.len], e.hash(), e.parent)
				off += e.len
				k++
				continue
			}
			// A group cut short by a full store, which stops the search, ends
			// with the message.
			n := min(max(1, int(e.ample>>ampleProcBits)), len(msg.ents)-k)
			off = w.insertAmple(msg.ents[k:k+n], msg.data, off)
			k += n
		}
	}
	msg.done, msg.ents, msg.data = false, msg.ents[:0], msg.data[:0]
	w.p.pool.Put(msg)
}

// insertAmple takes in ample successors, whose vectors start at off in
// data: a group, inserted only if every one meets the proviso, or one to
// hold until the round's end. It returns where the next vector starts.
func (w *pworker) insertAmple(ents []msgEntry, data []byte, off uint32) uint32 {
	e := &ents[0]
	if e.ample>>ampleProcBits == 0 {
		v := data[off : off+e.len]
		if w.old(v, e.hash()) {
			w.reject(e)
			w.failed[w.round&1] = append(w.failed[w.round&1], e.parent)
		} else {
			w.held = append(w.held, *e)
			w.heldData = append(w.heldData, v...)
		}
		return off + e.len
	}
	if len(ents) == 1 {
		// Inserted at once: if it was there, nothing changes.
		v := data[off : off+e.len]
		if i, isNew := w.add(v, e.hash(), e.parent); !isNew && i != NoIndex && int(i) < w.levelEnd {
			w.reject(e)
		} else {
			w.count(e.parent, i, isNew)
		}
		return off + e.len
	}
	end := off
	for k := range ents {
		v := data[end : end+ents[k].len]
		end += ents[k].len
		if w.old(v, ents[k].hash()) {
			w.reject(e)
			for _, e := range ents[k+1:] {
				end += e.len
			}
			return end
		}
	}
	for k := range ents {
		w.insert(data[off:off+ents[k].len], ents[k].hash(), ents[k].parent)
		off += ents[k].len
	}
	return off
}

// old reports whether v, of hash h, was stored before the level began.
func (w *pworker) old(v []byte, h uint64) bool {
	i := w.store.Lookup(v, h)
	return i != NoIndex && int(i) < w.levelEnd
}

// reject tells the owner of e's parent that its ample set failed the
// proviso.
func (w *pworker) reject(e *msgEntry) {
	from := int(e.parent & (MaxWorkers - 1))
	w.redoOut[from] = append(w.redoOut[from], redo{e.parent, e.ample & ampleProcMask})
}

// prefetch reads what the insertions of msg's successors will read, in
// loops of their own, as the sequential search does for its batches (see
// batch.go): the home slots, then the stored vectors whose slot holds the
// same tag (usually a matched successor); for a compressed store, the
// roots' slots and pairs. It returns the sum of what it read.
func (w *pworker) prefetch(msg *message) uint64 {
	st := w.store
	if w.p.rooted {
		t := st.tree
		t.clearReady()
		off := uint32(0)
		for k := range msg.ents {
			e := &msg.ents[k]
			v := msg.data[off : off+e.len]
			off += e.len
			t.addReady(v, e.l, e.r, true)
		}
		return t.findReady()
	}
	if st.tree != nil {
		b := &w.tbatch
		b.reset()
		off := uint32(0)
		for _, e := range msg.ents {
			// A successor of a state this worker stores is diffed against
			// the state's Get, kept from its expansion; the others against
			// the previous insertion, usually a sibling.
			ev := event{kind: evSucc, off: off, len: e.len, from: e.parent, foreign: true}
			if e.parent != NoIndex && int(e.parent&(MaxWorkers-1)) == w.id {
				ev.from, ev.foreign = e.parent>>workerBits, false
			}
			b.events = append(b.events, ev)
			off += e.len
		}
		b.data = msg.data
		return st.tree.prefetch(b)
	}
	var touch uint64
	shift, table := st.shift, st.table
	for k := range msg.ents {
		touch += table[msg.ents[k].hash()>>shift]
	}
	if f := &st.fixed; st.width > 0 {
		for k := range msg.ents {
			h := msg.ents[k].hash()
			if e := table[h>>shift]; e != 0 && e>>32 == h>>32 {
				if i := Index(e) - 1; st.nexc == 0 || !st.isExc(i) {
					touch += uint64(f.chunks[i>>f.shift][int(i&f.mask)*f.width])
				}
			}
		}
	}
	return touch
}

// insert stores a state this worker owns; parent is global (NoIndex for an
// initial state).
func (w *pworker) insert(v []byte, h uint64, parent Index) (Index, bool) {
	i, isNew := w.add(v, h, parent)
	w.count(parent, i, isNew)
	return i, isNew
}

// add is insert without counting the transition: it returns NoIndex,
// false when the search stops for want of room.
func (w *pworker) add(v []byte, h uint64, parent Index) (Index, bool) {
	if w.store.Len() >= maxLocal {
		w.p.halt(fmt.Sprintf("state store full after %d states", w.p.states()))
		return NoIndex, false
	}
	i, isNew := w.store.InsertHash(v, h)
	if !isNew {
		if i == NoIndex {
			w.storeFull()
		}
		return i, false
	}
	w.parents.append(parent)
	w.queue(int(i), v)
	if w.checker != nil {
		if kind, msg, bad := w.checker.Check(v); bad {
			w.p.violate(&pviolation{kind: kind, msg: msg, at: gid(int(i), w.id)})
		}
	}
	return i, true
}

// storeFull stops the search: the store cannot take a new state.
func (w *pworker) storeFull() {
	w.publish()
	if w.p.opts.MemoryLimit > 0 {
		w.p.halt(memoryReason(w.p.opts, w.p.states()))
	} else {
		w.p.halt(fmt.Sprintf("state store full after %d states", w.p.states()))
	}
}

// count counts the transition from parent to i.
func (w *pworker) count(parent, i Index, isNew bool) {
	if parent != NoIndex {
		w.transitions++
	}
	if !isNew && i != NoIndex {
		w.matched++
	}
}

func (w *pworker) poll() {
	if w.p.lf != nil {
		w.lfPoll()
		return
	}
	w.budget = pollEvery
	w.publish()
	// The budget covers the worker's parent indices and level chunks too,
	// which grow beside the store.
	if b := w.p.storeBudget.Load(); b > 0 {
		w.store.SetLimit(max(1, b-w.parents.bytes()-w.queueBytes))
	}
	if w.p.opts.AutoCompress && w.store.compressIfDue() {
		w.compressedAt = int64(w.store.Len())
		w.publish()
	}
}

func (w *pworker) publish() {
	if w.p.lf != nil {
		w.lfPublish()
		return
	}
	w.pubStates.Store(int64(w.store.Len()))
	w.pubTransitions.Store(w.transitions)
	w.pubMatched.Store(w.matched)
	w.pubStoreBytes.Store(w.store.Bytes() + w.parents.bytes() + w.queueBytes)
	w.pubTableBytes.Store(w.store.tableBytes())
	queue := w.store.Len() - w.levelEnd
	if lw := w.level; lw != nil {
		queue += max(0, len(lw.chunks)-int(lw.taken.Load())) * chunkStates
	}
	w.pubQueue.Store(int64(queue))
}

func (p *parallel) result() trace.Result {
	r := trace.Result{Property: propertyName(p.opts)}
	switch {
	case p.viol != nil:
		v := &violation{kind: p.viol.kind, msg: p.viol.msg, path: p.pathTo(p.viol.at), trans: p.viol.trans, failing: p.viol.failing}
		r.Verdict, r.Kind = trace.Violated, v.kind
		r.Counterexample = buildCounterexample(p.m, v, p.get)
	case p.reason != "":
		r.Verdict, r.Reason = trace.Unknown, p.reason
	case p.truncated:
		r.Verdict = trace.Unknown
		r.Reason = fmt.Sprintf("depth limit %d reached after %d states: deeper states were not explored", p.opts.MaxDepth, p.states())
	default:
		r.Verdict = trace.Holds
	}
	return r
}

func (p *parallel) stats() trace.Stats {
	st := trace.Stats{Seconds: time.Since(p.start).Seconds(), Depth: atomic.LoadInt64(&p.depth)}
	if p.lf != nil {
		st.States, st.StoreBytes, st.VectorBytes = int64(p.lf.Len()), p.lf.Bytes(), p.lf.MaxVector()
	}
	for _, w := range p.workers {
		st.Transitions += w.transitions
		st.Matched += w.matched
		st.Expanded += w.expanded
		if w.store != nil {
			st.States += int64(w.store.Len())
			st.StoreBytes += w.store.Bytes() + w.parents.bytes()
			st.VectorBytes = max(st.VectorBytes, w.store.MaxVector())
		}
	}
	st.MemoryBytes = p.memoryPeak
	st.Complete = p.viol == nil && p.reason == "" && !p.truncated
	reductionStats(&st, p.opts, p.workers, func(w *pworker) *reducer { return w.reduce })
	if st.States > 0 {
		st.BytesPerState = float64(st.StoreBytes) / float64(st.States)
	}
	if st.Seconds > 0 {
		st.StatesPerSec = float64(st.States) / st.Seconds
	}
	st.Extra = []trace.Figure{{Name: "workers", Value: float64(len(p.workers))}}
	var compressedAt int64
	for _, w := range p.workers {
		compressedAt += w.compressedAt
	}
	if compressedAt > 0 {
		st.Extra = append(st.Extra, compressedFigure(compressedAt))
	}
	return st
}

// barrier lets n workers wait for each other at the end of a level. It
// returns the sum of what they bring (the states of the next level) and
// whether the search stops, as the last to arrive saw it, the same for all.
type barrier struct {
	mu      sync.Mutex
	cond    *sync.Cond
	n       int
	waiting int
	gen     int
	sum     int64
	result  int64
	stop    bool
}

func (b *barrier) wait(x int64, stop *atomic.Bool) (int64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cond == nil {
		b.cond = sync.NewCond(&b.mu)
	}
	g := b.gen
	b.sum += x
	b.waiting++
	if b.waiting == b.n {
		b.result, b.sum, b.waiting = b.sum, 0, 0
		b.stop = stop.Load()
		b.gen++
		b.cond.Broadcast()
	} else {
		for g == b.gen {
			b.cond.Wait()
		}
	}
	return b.result, b.stop
}

// lastLevel reports whether the depth bound stops the search after level
// depth: the next level would not be expanded, and worker 0 records the
// truncation.
func (w *pworker) lastLevel(depth int64) bool {
	p := w.p
	if p.opts.MaxDepth <= 0 || depth+1 < int64(p.opts.MaxDepth) {
		return false
	}
	if w.id == 0 {
		p.mu.Lock()
		p.truncated = true
		p.mu.Unlock()
		atomic.StoreInt64(&p.depth, depth+1)
	}
	return true
}
