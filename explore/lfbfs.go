package explore

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"ftmc/state"
)

// The breadth-first search on several workers whose states are plain
// shares one store, an lfStore (lockfree.go), as the depth-first one does:
// a worker inserts the successors of the states it expands itself, with
// their parents, in batches whose table slots and stored vectors it reads
// first (batch.go), and queues the new ones in its chunks of the next
// level. No successor travels from one worker to another. Levels, chunks and
// stealing are as on the owners' stores (parallel.go), but every chunk
// may be stolen: its vectors are in the shared store, which every worker
// reads. A state's index is its arena's number (local<<workerBits |
// worker), so counterexamples follow the parents as on the owners' stores.
//
// The reduction's proviso (every successor of an ample set new or in the
// next level) needs no rounds here: a worker looks an ample set's
// successors up itself, and one stored before the level began (its number
// in its arena below the arena's count at the level's start, base) fails
// the candidate. A successor that another worker stores while this one
// decides is in the next level and passes, as it would in the sequential
// search, so the workers choose the sequential search's ample sets.
//
// The table doubles while every worker is parked or at the level's
// barrier (gate). With AutoCompress, once the store would no longer fit
// what the memory limit leaves it with its compressed copy beside it
// (autoCompress), the workers park at the end of a chunk and
// the last to park migrates the states to compressed stores of their
// owners by hash, renumbered, with the level's remaining chunks and the
// next level's: the search goes on on the owners' stores.

// lfGate is where the workers of a search on an lfStore wait: at a level's
// barrier, and parked while the table doubles or the store migrates.
type lfGate struct {
	mu       sync.Mutex
	cond     *sync.Cond
	parked   int // workers parked
	safe     int // of which at the end of a chunk
	waiting  int // workers at the barrier
	gen      int // times the parked workers were let go
	bgen     int // barriers passed
	sum      int64
	result   int64
	stop     bool
	migrated bool // the search went on on the owners' stores
}

// lfRun is a worker of a search on an lfStore.
func (w *pworker) lfRun() {
	p := w.p
	for depth := int64(0); ; depth++ {
		if w.id == 0 {
			atomic.StoreInt64(&p.depth, depth)
		}
		w.level = &p.work[depth&1][w.id]
		if p.opts.MaxDepth <= 0 || depth < int64(p.opts.MaxDepth) {
			if w.lfExpandLevel(depth, p.work[depth&1]) {
				w.runFrom(depth, w.levelEnd)
				return
			}
		}
		w.lfPublish()
		more, stop, migrated := p.lfBarrier(depth, p.lf.arenas[w.id].n.Load()-p.base[w.id])
		if migrated {
			w.runFrom(depth, w.levelEnd)
			return
		}
		if stop || more == 0 {
			return
		}
		if w.lastLevel(depth) {
			return
		}
	}
}

// lfExpandLevel expands the chunks of level depth, its own first, then
// the others'. It reports whether the store migrated: the worker goes on
// with the level on its owner's store.
func (w *pworker) lfExpandLevel(depth int64, work []levelWork) bool {
	// The store is read from p.lf, not kept in a variable: a worker parked
	// here must not keep it alive once migrate has made the owners' stores.
	p := w.p
	for k := range work {
		lw := &work[(w.id+k)%len(work)]
		for !p.stop.Load() {
			w.lfFlush()
			if p.pause.Load() || p.lf.wantGrow() {
				if p.lfPark(depth, true) {
					return true
				}
				continue
			}
			c := lw.taken.Load()
			if c >= int64(len(lw.chunks)) {
				break
			}
			if !lw.taken.CompareAndSwap(c, c+1) {
				continue
			}
			ch := lw.chunks[c]
			for i := 0; i < ch.n && !p.stop.Load(); i++ {
				g := gid(ch.lo+i, ch.owner)
				w.scratch = append(w.scratch[:0], p.lf.get(g)...)
				w.lfExpand(g)
				if w.lfb.full() {
					w.lfFlush()
					if p.lf.wantGrow() {
						p.lfPark(depth, false)
					}
				}
			}
			if len(w.free) < maxFree {
				w.free = append(w.free, ch)
			}
		}
	}
	w.lfFlush()
	return false
}

// lfSink is a worker as the state.Sink of its expansions on an lfStore.
type lfSink pworker

func (s *lfSink) Succ(t state.Trans, v []byte) {
	w := (*pworker)(s)
	w.nsucc++
	if w.holding {
		w.reduce.hold(t, v)
		return
	}
	w.lfb.succ(w.cur, v)
}

func (s *lfSink) Fail(t state.Trans, kind, msg string) { (*pworker)(s).Fail(t, kind, msg) }

// lfExpand generates the successors of state g, whose vector is in
// w.scratch, and inserts them.
func (w *pworker) lfExpand(g Index) {
	w.cur = g
	w.nsucc = 0
	w.expanded++
	if w.reduce != nil {
		w.lfExpandReduced()
	} else {
		w.m.Next(w.scratch, (*lfSink)(w))
	}
	if w.nsucc == 0 && !w.m.ValidEnd(w.scratch) {
		w.p.violate(&pviolation{kind: state.KindInvalidEnd, msg: "invalid end state", at: w.cur})
	}
	w.lfb.states++
	w.budget -= 1 + w.nsucc
	if w.budget <= 0 {
		w.lfPoll()
	}
}

// lfFlush inserts the successors of the batch, after reading the table
// slots and stored vectors they will read in loops of their own (see
// batch.go). A worker parks or waits at the barrier with its batch empty.
func (w *pworker) lfFlush() {
	b := &w.lfb
	if len(b.events) > 0 && !w.p.stop.Load() {
		var touched uint64
		w.lfPos, touched = w.p.lf.touchStored(b, w.lfPos)
		w.touched += touched
		for k := range b.events {
			e := &b.events[k]
			w.cur = e.from
			w.lfInsert(b.data[e.off:e.off+e.len], e.h)
		}
	}
	b.reset()
}

// lfExpandReduced expands the state in w.scratch with the first candidate
// of its ample set that has a successor and meets the proviso, as the
// sequential search does, or fully.
func (w *pworker) lfExpandReduced() {
	r := w.reduce
	if !r.gather(w.m, w.scratch, (*lfSink)(w), &w.holding) {
		return
	}
	w.nsucc -= len(r.succs) // counted again as they are inserted
	for _, pid := range r.cands {
		if w.lfProviso(pid) {
			r.ample++
			w.lfRelease(pid)
			return
		}
	}
	w.lfRelease(-1)
}

// lfProviso reports whether process pid has a successor held in the
// reducer and none of them was stored before the level began.
func (w *pworker) lfProviso(pid int32) bool {
	r := w.reduce
	lf, base := w.p.lf, w.p.base
	n := 0
	for _, s := range r.succs {
		if s.proc != pid {
			continue
		}
		n++
		v := r.data[s.off : s.off+s.len]
		if i := lf.lookup(v, Hash(v)); i != NoIndex && int64(i>>workerBits) < base[i&(MaxWorkers-1)] {
			return false
		}
	}
	return n > 0
}

// lfRelease inserts the held successors of process pid (all for -1).
func (w *pworker) lfRelease(pid int32) {
	r := w.reduce
	for _, s := range r.succs {
		if pid < 0 || s.proc == pid {
			w.nsucc++
			w.lfb.succ(w.cur, r.data[s.off:s.off+s.len])
		}
	}
}

// lfInsert stores successor v of w.cur, of hash h, unless it is stored,
// queues it in the next level when new, and counts the transition.
func (w *pworker) lfInsert(v []byte, h uint64) {
	p := w.p
	for !p.stop.Load() {
		i, r := p.lf.insert(w.id, v, h, w.cur)
		switch r {
		case lfWait:
			p.lfPark(-1, false)
			continue
		case lfFull:
			w.lfPublish()
			if p.opts.MemoryLimit > 0 {
				p.halt(memoryReason(p.opts, p.states()))
			} else {
				p.halt(fmt.Sprintf("state store full after %d states", p.states()))
			}
			return
		}
		isNew := r == lfNew
		w.count(w.cur, i, isNew)
		if isNew {
			w.lfQueue(int(i >> workerBits))
			if w.checker != nil {
				if kind, msg, bad := w.checker.Check(v); bad {
					p.violate(&pviolation{kind: kind, msg: msg, at: i})
				}
			}
		}
		return
	}
}

// lfQueue adds the new state local of this worker's arena to the next
// level: chunks name runs of the arena, which every worker reads.
func (w *pworker) lfQueue(local int) {
	if k := len(w.fresh) - 1; k >= 0 && w.fresh[k].n < chunkStates {
		w.fresh[k].n++
		return
	}
	var ch *chunk
	if k := len(w.free) - 1; k >= 0 {
		ch, w.free = w.free[k], w.free[:k]
	} else {
		ch = &chunk{}
	}
	ch.owner, ch.lo, ch.n, ch.data, ch.ends = w.id, local, 1, nil, nil
	w.fresh = append(w.fresh, ch)
}

// lfShareLevel makes the worker's chunks of the next level the chunks of
// level depth, all of them stealable.
func (w *pworker) lfShareLevel(depth int64) {
	lw := &w.p.work[depth&1][w.id]
	lw.chunks = append(lw.chunks[:0], w.fresh...)
	lw.stealable = len(lw.chunks)
	lw.taken.Store(0)
	w.fresh = w.fresh[:0]
	w.queueBytes = 0
}

// lfInitial stores the initial states, by the first worker.
func (p *parallel) lfInitial() error {
	w := p.workers[0]
	w.cur = NoIndex
	err := p.m.Initial(func(v []byte) {
		if p.stop.Load() {
			return
		}
		h := Hash(v)
		for {
			i, r := p.lf.insert(0, v, h, NoIndex)
			if r == lfWait {
				p.lf.grow() // the workers have not started
				continue
			}
			if r == lfFull {
				p.halt(fmt.Sprintf("state store full after %d states", p.lf.Len()))
				return
			}
			w.count(NoIndex, i, r == lfNew)
			if r == lfNew {
				w.lfQueue(int(i >> workerBits))
				if w.checker != nil {
					if kind, msg, bad := w.checker.Check(v); bad {
						p.violate(&pviolation{kind: kind, msg: msg, at: i})
					}
				}
			}
			return
		}
	})
	if err != nil {
		return err
	}
	for k, o := range p.workers {
		o.lfShareLevel(0)
		p.base[k] = p.lf.arenas[k].n.Load()
		o.lfPublish()
	}
	if p.lf.Len() == 0 && !p.stop.Load() {
		return errNoInitial(p.m)
	}
	return nil
}

// lfBarrier waits for every worker at the end of level depth, bringing x,
// the states the worker stored in it. The last to arrive shares the next
// level's chunks, or migrates the store when it is to turn compressed. It
// returns the states of the next level, whether the search stops, and
// whether it migrated: then the workers end the level on the owners'
// stores.
func (p *parallel) lfBarrier(depth, x int64) (int64, bool, bool) {
	g := &p.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	bgen := g.bgen
	g.sum += x
	g.waiting++
	switch n := len(p.workers); {
	case g.waiting == n:
		sum, stop := g.sum, p.stop.Load()
		g.sum, g.waiting = 0, 0
		if p.migrateAt > 0 && int64(p.lf.Len()) >= p.migrateAt {
			p.pause.Store(true)
		}
		if !stop && sum > 0 && p.pause.Load() && !p.noCompress && p.migrate(depth) {
			p.migrated = 2
			g.migrated = true
			g.cond.Broadcast()
			return 0, false, true
		}
		for k, w := range p.workers {
			w.lfShareLevel(depth + 1)
			p.base[k] = p.lf.arenas[k].n.Load()
		}
		g.result, g.stop = sum, stop
		g.bgen++
		g.cond.Broadcast()
		return sum, stop, false
	case g.parked > 0 && g.parked+g.waiting == n:
		p.lfAct(depth)
	}
	for g.bgen == bgen && !g.migrated {
		g.cond.Wait()
	}
	if g.migrated {
		return 0, false, true
	}
	return g.result, g.stop, false
}

// lfPark waits, outside the store, until the last worker to stop has
// doubled the table or migrated the store; safe says that the worker is
// at the end of a chunk, where the store may migrate. It reports whether
// it did.
func (p *parallel) lfPark(depth int64, safe bool) bool {
	g := &p.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	g.parked++
	if safe {
		g.safe++
	}
	gen := g.gen
	if g.parked+g.waiting == len(p.workers) {
		p.lfAct(depth)
	}
	for g.gen == gen {
		g.cond.Wait()
	}
	return g.migrated
}

// lfAct is the work of the last worker to park (or to arrive at the
// barrier while others are parked): migrate the store when it is to turn
// compressed and every worker is at the end of a chunk, else double the
// table when it is full enough; then let the parked workers go. g.mu is
// held.
func (p *parallel) lfAct(depth int64) {
	g := &p.gate
	if p.pause.Load() && !p.noCompress && !p.stop.Load() && g.safe+g.waiting == len(p.workers) && p.migrate(depth) {
		p.migrated = 1
		g.migrated = true
		g.waiting, g.sum = 0, 0
	} else if !g.migrated {
		p.lf.grow()
	}
	g.gen++
	g.parked, g.safe = 0, 0
	g.cond.Broadcast()
}

// lfPoll is poll on an lfStore: the workers share what is left of the
// memory limit, and a store that autoCompress says is due turns compressed.
func (w *pworker) lfPoll() {
	p := w.p
	w.budget = pollEvery
	w.lfPublish()
	lf := p.lf
	if b := p.storeBudget.Load(); b > 0 {
		lf.SetLimit(max(1, b*int64(len(p.workers))))
	}
	if p.noCompress || p.pause.Load() {
		return
	}
	if p.migrateAt > 0 && int64(lf.Len()) >= p.migrateAt {
		p.pause.Store(true)
		return
	}
	if !p.opts.AutoCompress {
		return
	}
	if lf.compressDue() {
		p.pause.Store(true)
	}
}

// lfPublish is publish on an lfStore: the first worker counts the table.
func (w *pworker) lfPublish() {
	lf := w.p.lf
	a := &lf.arenas[w.id]
	n := a.n.Load()
	w.pubStates.Store(n)
	w.pubTransitions.Store(w.transitions)
	w.pubMatched.Store(w.matched)
	b := a.bytes.Load()
	if w.id == 0 {
		b += lf.tableBytes()
	}
	w.pubStoreBytes.Store(b)
	if w.id == 0 {
		w.pubTableBytes.Store(lf.tableBytes()) // outside the Go heap
	}
	queue := n - w.p.base[w.id]
	if lw := w.level; lw != nil {
		queue += max(0, int64(len(lw.chunks))-lw.taken.Load()) * chunkStates
	}
	w.pubQueue.Store(queue)
}

// migrateBatch is the number of states a goroutine of migrate inserts at
// once (prepareBatch).
const migrateBatch = 64

// migrate turns the search on the lfStore, at level depth, into one on
// the owners' compressed stores (parallel.go), while every worker is
// parked at the end of a chunk or at the barrier. The states go to their
// owners by hash: first those of the levels before depth and the level's
// expanded ones, then the level's states left to expand, then the next
// level's, so that each owner's share of each part is a run of its store:
// the chunks of the level's rest and of the next level. Parents are
// renumbered. It reports whether the compressed stores fit the memory
// limit; if not, the store stays plain.
func (p *parallel) migrate(depth int64) bool {
	lf := p.lf
	n := len(p.workers)
	stores := newSharedCompressedStores(n, lf.Len()/n)
	parents := make([]column[uint32], n)
	room := int64(0)
	if l := lf.limit.Load(); l > 0 {
		room = max(1, (l-lf.Bytes())/int64(n))
	}
	for o := range stores {
		if room > 0 {
			stores[o].SetLimit(room)
		}
	}
	const rest = NoIndex - 1 // a state of the level left to expand, until stored
	maps := make([][]Index, n)
	for a := range maps {
		maps[a] = make([]Index, lf.arenas[a].n.Load())
	}
	var chunks []*chunk
	work := p.work[depth&1]
	for o := range work {
		lw := &work[o]
		for _, ch := range lw.chunks[min(int(lw.taken.Load()), len(lw.chunks)):] {
			chunks = append(chunks, ch)
			for i := range ch.n {
				maps[ch.owner][ch.lo+i] = rest
			}
		}
	}
	// Each owner's goroutine copies the states it owns, in the order
	// above: the owners' stores fill at once, sharing the node table.
	// Every goroutine hashes every state to find its owner, a small part
	// of an insertion's cost.
	restIdx, nextIdx := make([][]Index, n), make([][]Index, n)
	levelEnd := make([]int, n)
	touched := make([]uint64, n) // keeps the reads of prepareBatch
	var failed atomic.Bool
	var wg sync.WaitGroup
	for o := range stores {
		wg.Go(func() {
			// Each goroutine takes the states o owns, in the order above,
			// and inserts them a batch at a time (prepareBatch).
			type pend struct {
				a, l int
				to   *[]Index // where its new index goes, if anywhere
			}
			var (
				pending []pend
				tb      treeBatch
			)
			t := stores[o].tree
			flush := func() bool {
				tb.reset()
				for _, q := range pending {
					t.addBatch(&tb, lf.get(gid(q.l, q.a)))
				}
				touched[o] += t.prepareBatch(&tb)
				for _, q := range pending {
					i, isNew := stores[o].InsertHash(lf.get(gid(q.l, q.a)), 0)
					if !isNew {
						failed.Store(true)
						return false
					}
					maps[q.a][q.l] = gid(int(i), o)
					parents[o].append(0)
					if q.to != nil {
						*q.to = append(*q.to, maps[q.a][q.l])
					}
				}
				pending = pending[:0]
				return !failed.Load()
			}
			// put queues state l of arena a if o owns it, unless it is of
			// the level's rest and skipRest: only o reads or writes its
			// entry of maps.
			put := func(a, l int, skipRest bool, to *[]Index) bool {
				h := Hash(lf.get(gid(l, a)))
				if p.owner(h) != o || skipRest && maps[a][l] == rest {
					return true
				}
				pending = append(pending, pend{a, l, to})
				return len(pending) < migrateBatch || flush()
			}
			for a := range maps {
				for l := 0; l < int(p.base[a]); l++ {
					if !put(a, l, true, nil) {
						return
					}
				}
			}
			for _, ch := range chunks {
				for i := range ch.n {
					if !put(ch.owner, ch.lo+i, false, &restIdx[o]) {
						return
					}
				}
			}
			if !flush() {
				return
			}
			levelEnd[o] = stores[o].Len()
			for a := range maps {
				for l := int(p.base[a]); l < len(maps[a]); l++ {
					if !put(a, l, false, &nextIdx[o]) {
						return
					}
				}
			}
			flush()
		})
	}
	wg.Wait()
	for _, x := range touched {
		p.workers[0].touched += x
	}
	if failed.Load() {
		for _, s := range stores {
			s.Free()
		}
		p.noCompress = true
		p.pause.Store(false)
		return false
	}
	// The parents are renumbered by a goroutine per arena: each sets
	// entries of its own states only, in columns the copies above sized.
	for a := range maps {
		wg.Go(func() {
			for l, g := range maps[a] {
				parent := lf.parent(gid(l, a))
				if parent != NoIndex {
					parent = maps[parent&(MaxWorkers-1)][parent>>workerBits]
				}
				parents[g&(MaxWorkers-1)].set(int(g>>workerBits), uint32(parent))
			}
		})
	}
	wg.Wait()
	for o, w := range p.workers {
		w.store, w.parents = stores[o], parents[o]
		w.store.SetLimit(room)
		w.compressedAt = int64(w.store.Len())
		w.fresh, w.free = w.fresh[:0], nil
		w.levelEnd = levelEnd[o]
	}
	p.migratedRest = 0
	for o, w := range p.workers {
		for _, g := range restIdx[o] {
			w.queue(int(g>>workerBits), nil)
		}
		p.migratedRest += len(restIdx[o])
	}
	for _, w := range p.workers {
		w.shareLevel(depth)
	}
	for o, w := range p.workers {
		for _, g := range nextIdx[o] {
			w.queue(int(g>>workerBits), nil)
		}
	}
	lf.free()
	p.lf = nil
	p.rooted = true
	p.pause.Store(false)
	for _, w := range p.workers {
		w.publish()
	}
	debug.FreeOSMemory()
	return true
}
