package explore

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// lfStore is the store of a depth-first search on several workers when
// its states stay plain: a hash table that the workers probe and fill
// without locks, as LTSmin's multi-core table (Laarman, van de Pol and
// Weber, "Boosting multi-core reachability performance with shared hash
// tables", FMCAD 2010). A slot holds the top 32 bits of a vector's hash
// and its index plus one; a worker claims an empty slot by writing the tag
// with lfBusy instead of an index (compare-and-swap), appends the vector
// to an arena of its own, and then publishes the index in the slot. A
// worker that meets a busy slot with its vector's tag waits for the index:
// the vector may be its own. The index of a state is its number in its
// worker's arena shifted left by workerBits, or'ed with the worker's
// number, as in the parallel breadth-first search, so an arena needs no
// lock either: only its worker appends, and the others read what a
// published slot names.
//
// The table doubles while no worker is inside an insertion: the search
// stops its workers (grow's caller, pdfs.park) when it is as full as a
// Store's grows (loadLimit), and an insertion that finds it 90% full
// returns lfWait, which sends its worker to stop too. A LockFreeStore
// (lfstates.go) doubles it without stopping its workers.
type lfStore struct {
	table  atomic.Pointer[lfTable]
	arenas []lfArena
	auto   autoCompress
	limit  atomic.Int64
	full   atomic.Bool
	// reserved counts the states exactly (reserve), so that the table
	// never fills however unevenly the workers store.
	reserved atomic.Int64 // states stored or reserved by the workers
}

type lfTable struct {
	slots  []atomic.Uint64 // mapped outside the Go heap (allocWords), as a Store's table
	words  []uint64        // the same memory, for freeWords
	freed  runtime.Cleanup
	shift  uint  // the home slot of hash h is h >> shift
	growAt int64 // states at which the search doubles the table
	hard   int64 // states at which an insertion waits for the doubling
	final  bool  // the memory limit refused the doubling: at hard, the store is full
}

const (
	lfBusy     = 1<<32 - 1 // the low half of a claimed slot
	lfMinLog   = 16
	lfChunkLog = 20 // arena chunks of 1 MiB
	lfPosLog   = 16 // parents in chunks of 64Ki
	lfMaxVec   = 1<<lfChunkLog - 1
	lfBlockLog = 14   // states per block of an arena
	lfMaxFixed = 1024 // the widest vectors kept at a fixed width
	lfVarBit   = 1 << 63
)

// lfArena is one worker's vectors, in blocks of 1<<lfBlockLog states. A
// block keeps the vectors of one length, its width, back to back in
// fixed-width records, so that a state's number gives its vector's
// address: a lookup reads the table's slot and then the vector, as a
// Store's does. A vector of another length (a Promela model's states before
// init has started every process) goes to chunks of bytes, and the block
// keeps its position (lfVarBit | chunk<<40 | offset<<20 | length) in an
// array that it makes at its first such vector; 0 there marks a vector at
// the fixed width. The width of a block is the most common length of the
// block before (found by majority vote); the first block, and a block after
// one of which more than half were of other lengths, keep every vector in
// the chunks. Pointers that other workers read while the owner adds are
// atomic; the rest is written before the states that use it are published
// in the table.
type lfArena struct {
	data    [1 << 16]atomic.Pointer[[1 << lfChunkLog]byte]
	blocks  [maxLocal>>lfBlockLog + 1]lfBlock
	parents [maxLocal>>lfPosLog + 1]atomic.Pointer[[1 << lfPosLog]uint32]
	n       atomic.Int64 // states; only the owner writes it
	bytes   atomic.Int64 // memory of the chunks, blocks and parents
	maxVec  atomic.Int64
	chunk   int // the chunk being filled, and the bytes used in it
	used    int
	made    int // blocks made
	other   int // vectors of the block being filled not at its width
	cand    int // the block's majority vote: the candidate length and its count
	candN   int
	quota   int64 // states reserved and not yet stored
	_       [64]byte
}

// lfBlock is a block of an arena's states.
type lfBlock struct {
	data  *byte // width<<lfBlockLog bytes; nil when width < 0
	width int   // of the fixed-width records; -1 when every vector is in the chunks
	pos   atomic.Pointer[[1 << lfBlockLog]uint64]
}

// lfResult is an insertion's outcome besides the index.
type lfResult uint8

const (
	lfFound lfResult = iota
	lfNew
	lfWait // the table is too full: the caller waits for the doubling, then inserts again
	lfFull // the memory limit refuses the vector
)

func newLFStore(workers, expected int) *lfStore {
	return newLFStoreFrom(workers, expected, lfMinLog)
}

// newLFStoreFrom is newLFStore with a table of at least 1<<minLog slots.
func newLFStoreFrom(workers, expected, minLog int) *lfStore {
	s := &lfStore{arenas: make([]lfArena, workers)}
	log := minLog
	for loadLimit(1<<log) < expected && log < 32 {
		log++
	}
	for k := range s.arenas {
		s.arenas[k].chunk = -1
	}
	s.table.Store(newLFTable(log))
	return s
}

// newLFTable makes a table of 1<<log slots. It lives outside the Go heap,
// with huge pages where the system gives them on request: in the heap, a
// table of gigabytes probed at random costs a TLB miss on almost every
// probe. It is freed when the store frees it, or else when it becomes
// garbage. Under the race detector it is in the heap (race.go).
func newLFTable(log int) *lfTable {
	size := int64(1) << log
	t := &lfTable{shift: uint(64 - log), growAt: int64(loadLimit(int(size))), hard: size / 10 * 9}
	if !raceEnabled {
		if w, err := allocWords(int(size)); err == nil {
			t.words = w
			t.slots = unsafe.Slice((*atomic.Uint64)(unsafe.Pointer(&w[0])), size)
			t.freed = runtime.AddCleanup(t, freeWords, w)
		}
	}
	if t.slots == nil {
		t.slots = make([]atomic.Uint64, size)
	}
	return t
}

// free gives the table's memory back; no worker may use it any more.
func (t *lfTable) free() {
	if t.words != nil {
		t.freed.Stop()
		freeWords(t.words)
		t.words, t.slots = nil, nil
	}
}

// free gives the store's table back: the arenas are the Go heap's. No
// worker may use the store any more.
func (s *lfStore) free() {
	if t := s.table.Load(); t != nil {
		t.free()
	}
}

// Len is the number of states stored.
func (s *lfStore) Len() int {
	n := int64(0)
	for k := range s.arenas {
		n += s.arenas[k].n.Load()
	}
	return int(n)
}

func (s *lfStore) MaxVector() int {
	m := int64(0)
	for k := range s.arenas {
		m = max(m, s.arenas[k].maxVec.Load())
	}
	return int(m)
}

// tableBytes reads only the table's shift: another goroutine (the watch's)
// may call it while a worker frees the table it loaded.
func (s *lfStore) tableBytes() int64 { return 8 << (64 - s.table.Load().shift) }

func (s *lfStore) Bytes() int64 {
	b := s.tableBytes()
	for k := range s.arenas {
		b += s.arenas[k].bytes.Load()
	}
	return b
}

func (s *lfStore) SetLimit(bytes int64) { s.limit.Store(bytes) }

func (s *lfStore) room(extra int64) bool {
	l := s.limit.Load()
	return l <= 0 || s.Bytes()+extra <= l
}

// wantGrow reports whether the table is full enough to double: the
// states stored have reached its growAt. The states reserved come first,
// as they are one counter where the states stored are one per worker,
// but do not decide: with the workers' quotas they reach growAt while
// the states stored are up to a quota per worker short of it, and every
// worker that asked there would stop for a doubling that grow refuses.
func (s *lfStore) wantGrow() bool {
	t := s.table.Load()
	return !t.final && s.reserved.Load() >= t.growAt && int64(s.Len()) >= t.growAt
}

// grow doubles the table; every worker must be outside the store. When the
// memory limit refuses the new table, the old one fills to 90% and then
// insertions say lfFull.
func (s *lfStore) grow() {
	old := s.table.Load()
	log := 64 - int(old.shift)
	// The workers are outside: their quotas go back.
	for k := range s.arenas {
		s.arenas[k].quota = 0
	}
	s.reserved.Store(int64(s.Len()))
	if int64(s.Len()) < old.growAt {
		return
	}
	if log >= 32 || !s.room(int64(len(old.slots))*16) {
		// Every worker is outside: the table may change in place.
		old.growAt, old.final = old.hard, true
		return
	}
	t := newLFTable(log + 1)
	t.refill(old, len(s.arenas))
	s.table.Store(t)
	old.free()
}

// refillParallel is the size of table from which refill moves the entries
// on several goroutines.
const refillParallel = 1 << 18

// refill moves the entries of old into t, empty and larger, on up to
// parts goroutines when old is large: the workers wait outside the store
// meanwhile, and one goroutine alone would leave their cores idle. Each
// goroutine takes a range of old's slots and owns the slots of t they move
// to (twice the range: a home slot doubles), which it writes without
// atomic operations, as nobody else reads or writes them; an entry takes
// the first free slot from its home, as an insertion does. An entry whose
// home is outside the range (a run that began before it, or wrapped
// around the end) or that would go past the range's end waits, and the
// caller's goroutine places these few once the others are done.
func (t *lfTable) refill(old *lfTable, parts int) {
	n := len(old.slots)
	if parts < 2 || n < refillParallel {
		parts = 1
	}
	// The same memory as t.slots, written plainly: the goroutines' writes
	// happen before the table is published (s.table.Store).
	words := unsafe.Slice((*uint64)(unsafe.Pointer(&t.slots[0])), len(t.slots))
	left := make([][]uint64, parts)
	move := func(i int) {
		lo, hi := n*i/parts, n*(i+1)/parts
		start, end := uint64(2*lo), uint64(2*hi)
		var wait []uint64
		for k := lo; k < hi; k++ {
			e := old.slots[k].Load()
			if e == 0 {
				continue
			}
			p := e >> 32 << 32 >> t.shift
			if p < start || p >= end {
				wait = append(wait, e)
				continue
			}
			for p < end && words[p] != 0 {
				p++
			}
			if p == end {
				wait = append(wait, e)
				continue
			}
			words[p] = e
		}
		left[i] = wait
	}
	if parts == 1 {
		move(0)
	} else {
		var wg sync.WaitGroup
		for i := range parts {
			wg.Go(func() { move(i) })
		}
		wg.Wait()
	}
	mask := uint64(len(words) - 1)
	for _, wait := range left {
		for _, e := range wait {
			p := e >> 32 << 32 >> t.shift
			for words[p] != 0 {
				p = (p + 1) & mask
			}
			words[p] = e
		}
	}
}

// insert adds vec, whose Hash is h, for worker w unless it is stored, with
// parent as its parent when new.
func (s *lfStore) insert(w int, vec []byte, h uint64, parent Index) (Index, lfResult) {
	t := s.table.Load()
	tag := h >> 32 << 32
	mask := uint64(len(t.slots) - 1)
	p := h >> t.shift
	for {
		e := t.slots[p].Load()
		if e == 0 {
			if !s.reserve(w, t) {
				if t.final {
					s.full.Store(true)
					return NoIndex, lfFull
				}
				return NoIndex, lfWait
			}
			if !t.slots[p].CompareAndSwap(0, tag|lfBusy) {
				// Another worker claimed it: the place goes back, and
				// the slot is read again.
				s.arenas[w].quota++
				continue
			}
			i, ok := s.arenas[w].add(w, vec, parent, s)
			if !ok {
				t.slots[p].Store(0)
				s.full.Store(true)
				return NoIndex, lfFull
			}
			t.slots[p].Store(tag | uint64(i+1))
			return i, lfNew
		}
		if e&^lfBusy == tag {
			for spins := 0; e&lfBusy == lfBusy; spins++ {
				if spins > 64 {
					runtime.Gosched()
				}
				e = t.slots[p].Load()
			}
			if e == 0 {
				continue // given back by a worker over the limit
			}
			// s.get(i), inlined by hand
			i := Index(e) - 1
			a := &s.arenas[i&(MaxWorkers-1)]
			l := int(i >> workerBits)
			b := &a.blocks[l>>lfBlockLog]
			var got []byte
			if b.pos.Load() == nil {
				got = unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(b.data), (l&(1<<lfBlockLog-1))*b.width)), b.width)
			} else {
				got = a.getOther(b, l)
			}
			if string(got) == string(vec) {
				return i, lfFound
			}
		}
		p = (p + 1) & mask
	}
}

// reserve takes a place in table t for a state of worker w, from its
// quota or else by reserving a new quota of states (a sixteenth of the
// workers' share of t's hard limit, at least one); false when t has no
// place left below its hard limit. The place is used up even when the
// state then turns out to be stored: the quota is small.
func (s *lfStore) reserve(w int, t *lfTable) bool {
	a := &s.arenas[w]
	if a.quota > 0 {
		a.quota--
		return true
	}
	b := max(1, t.hard/int64(16*len(s.arenas)))
	if s.reserved.Add(b) > t.hard {
		s.reserved.Add(-b)
		return false
	}
	a.quota = b - 1
	return true
}

// lookup returns the index of vec, whose Hash is h, or NoIndex.
func (s *lfStore) lookup(vec []byte, h uint64) Index {
	t := s.table.Load()
	tag := h >> 32 << 32
	mask := uint64(len(t.slots) - 1)
	for p := h >> t.shift; ; p = (p + 1) & mask {
		e := t.slots[p].Load()
		if e == 0 {
			return NoIndex
		}
		if e&^lfBusy != tag {
			continue
		}
		for e&lfBusy == lfBusy {
			runtime.Gosched()
			e = t.slots[p].Load()
		}
		if e == 0 {
			return NoIndex
		}
		if i := Index(e) - 1; string(s.get(i)) == string(vec) {
			return i
		}
	}
}

// touch reads the home slots of a batch's successors, so that their
// insertions find them in the cache (see batch.go); it returns what it
// read.
func (s *lfStore) touch(b *batch) uint64 {
	t := s.table.Load()
	var sum uint64
	for k := range b.events {
		e := &b.events[k]
		if e.kind == evSucc {
			e.h = Hash(b.data[e.off : e.off+e.len])
			sum += t.slots[e.h>>t.shift].Load()
		}
	}
	return sum
}

// touchStored reads what the insertions of a batch's successors will
// read, in loops of their own, as Store.prefetch does: it hashes them,
// reads their home slots, and where a slot holds a successor's tag
// (usually the successor itself, found stored) the stored vector's first
// byte: its address follows from the index in the slot. pos is scratch;
// it returns it with the sum of what it read.
func (s *lfStore) touchStored(b *batch, pos []uint64) ([]uint64, uint64) {
	b.hashSuccs()
	t := s.table.Load()
	var sum uint64
	for k := range b.events {
		sum += t.slots[b.events[k].h>>t.shift].Load()
	}
	pos = pos[:0]
	for k := range b.events {
		h := b.events[k].h
		if x := t.slots[h>>t.shift].Load(); holdsTag(x, h) {
			pos = append(pos, x)
		}
	}
	return pos, sum + s.touchVectors(pos)
}

// touchHashes reads what the insertions of vectors whose Hashes are hs
// will read, as touchStored does; pos is scratch. It returns pos with the
// sum of what it read.
func (s *lfStore) touchHashes(hs []uint64, pos []uint64) ([]uint64, uint64) {
	t := s.table.Load()
	var sum uint64
	for _, h := range hs {
		sum += t.slots[h>>t.shift].Load()
	}
	pos = pos[:0]
	for _, h := range hs {
		if x := t.slots[h>>t.shift].Load(); holdsTag(x, h) {
			pos = append(pos, x)
		}
	}
	return pos, sum + s.touchVectors(pos)
}

// holdsTag reports whether slot x holds a published state whose hash has
// h's tag.
func holdsTag(x, h uint64) bool {
	return x != 0 && x>>32 == h>>32 && x&lfBusy != lfBusy
}

// touchVectors reads the first byte of the stored vectors whose slots
// are xs, and returns their sum.
func (s *lfStore) touchVectors(xs []uint64) uint64 {
	var sum uint64
	for _, x := range xs {
		if v := s.get(Index(x) - 1); len(v) > 0 {
			sum += uint64(v[0])
		}
	}
	return sum
}

// compressDue reports whether the store is to turn compressed under its
// limit (autoCompress). It samples the arena with the most states, whose
// published vectors any goroutine may read.
func (s *lfStore) compressDue() bool {
	t := s.table.Load()
	n := s.Len()
	sample := func() float64 {
		a := 0
		for k := range s.arenas {
			if s.arenas[k].n.Load() > s.arenas[a].n.Load() {
				a = k
			}
		}
		return compressedPerState(int(s.arenas[a].n.Load()), func(i int) []byte { return s.get(gid(i, a)) })
	}
	// The table's size does not change while others read it; its growAt may.
	return s.auto.due(n, s.Bytes(), s.tableBytes(), s.limit.Load(), n >= loadLimit(len(t.slots))/8*7, sample)
}

// get is the vector of state i; it must not be changed.
func (s *lfStore) get(i Index) []byte {
	a := &s.arenas[i&(MaxWorkers-1)]
	l := int(i >> workerBits)
	b := &a.blocks[l>>lfBlockLog]
	if b.pos.Load() != nil {
		return a.getOther(b, l)
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(b.data), (l&(1<<lfBlockLog-1))*b.width)), b.width)
}

// getOther is get of the vector of the arena's state l in block b, which
// has vectors of other lengths than its width.
func (a *lfArena) getOther(b *lfBlock, l int) []byte {
	o := l & (1<<lfBlockLog - 1)
	p := b.pos.Load()[o]
	if p == 0 {
		return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(b.data), o*b.width)), b.width)
	}
	c := a.data[p>>40&(1<<16-1)].Load()
	off := int(p >> 20 & lfMaxVec)
	return c[off : off+int(p&lfMaxVec)]
}

func (s *lfStore) parent(i Index) Index {
	a := &s.arenas[i&(MaxWorkers-1)]
	l := int(i >> workerBits)
	return a.parents[l>>lfPosLog].Load()[l&(1<<lfPosLog-1)]
}

// add appends vec to worker w's arena; false when the memory limit or the
// arena's size refuses it. What it makes before a refusal stays for the
// next attempt.
func (a *lfArena) add(w int, vec []byte, parent Index, s *lfStore) (Index, bool) {
	l := int(a.n.Load())
	if l >= maxLocal || len(vec) > lfMaxVec {
		return NoIndex, false
	}
	k := l >> lfBlockLog
	if a.made <= k && !a.newBlock(k, s) {
		return NoIndex, false
	}
	ps := a.parents[l>>lfPosLog].Load()
	if ps == nil {
		if !s.room(4 << lfPosLog) {
			return NoIndex, false
		}
		ps = new([1 << lfPosLog]uint32)
		a.parents[l>>lfPosLog].Store(ps)
		a.bytes.Add(4 << lfPosLog)
	}
	b := &a.blocks[k]
	o := l & (1<<lfBlockLog - 1)
	if len(vec) == b.width {
		copy(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(b.data), o*b.width)), b.width), vec)
	} else {
		pos := b.pos.Load()
		if pos == nil {
			if !s.room(8 << lfBlockLog) {
				return NoIndex, false
			}
			pos = new([1 << lfBlockLog]uint64)
			b.pos.Store(pos)
			a.bytes.Add(8 << lfBlockLog)
		}
		p, ok := a.appendChunked(vec, s)
		if !ok {
			return NoIndex, false
		}
		pos[o] = p
		a.other++
	}
	ps[l&(1<<lfPosLog-1)] = parent
	switch {
	case a.candN == 0:
		a.cand, a.candN = len(vec), 1
	case a.cand == len(vec):
		a.candN++
	default:
		a.candN--
	}
	if v := int64(len(vec)); v > a.maxVec.Load() {
		a.maxVec.Store(v) // seldom: an atomic store is a full barrier
	}
	a.n.Store(int64(l + 1))
	return Index(l)<<workerBits | Index(w), true
}

// newBlock makes block k, the next, with the width of the block before's
// majority vote, or none for the first block, after a block of mostly
// other lengths, or for a length of 0 or above lfMaxFixed.
func (a *lfArena) newBlock(k int, s *lfStore) bool {
	width := -1
	if k > 0 && a.cand > 0 && a.cand <= lfMaxFixed && (a.blocks[k-1].width < 0 || 2*a.other <= 1<<lfBlockLog) {
		width = a.cand
	}
	b := &a.blocks[k]
	if width > 0 {
		if !s.room(int64(width) << lfBlockLog) {
			return false
		}
		b.data = &make([]byte, width<<lfBlockLog)[0]
		a.bytes.Add(int64(width) << lfBlockLog)
	}
	b.width = width
	a.made = k + 1
	a.other, a.cand, a.candN = 0, 0, 0
	return true
}

// appendChunked copies vec to the arena's chunks and returns its position.
func (a *lfArena) appendChunked(vec []byte, s *lfStore) (uint64, bool) {
	if a.chunk < 0 || a.used+len(vec) > 1<<lfChunkLog {
		if a.chunk+1 >= len(a.data) || !s.room(1<<lfChunkLog) {
			return 0, false
		}
		a.chunk++
		a.used = 0
		a.data[a.chunk].Store(new([1 << lfChunkLog]byte))
		a.bytes.Add(1 << lfChunkLog)
	}
	copy(a.data[a.chunk].Load()[a.used:], vec)
	p := lfVarBit | uint64(a.chunk)<<40 | uint64(a.used)<<20 | uint64(len(vec))
	a.used += len(vec)
	return p, true
}

// lfView is worker w's view of an lfStore, a sharedStates: an insertion
// that finds the table too full waits (pdfs.park) for the search to
// double it.
type lfView struct {
	*lfStore
	w int
	p *pdfs
}

func (v lfView) Get(dst []byte, i Index) []byte { return append(dst[:0], v.get(i)...) }

func (v lfView) insertFrom(vec []byte, h uint64, parent Index) (Index, bool) {
	if h == 0 {
		h = Hash(vec)
	}
	for {
		i, r := v.insert(v.w, vec, h, parent)
		switch r {
		case lfWait:
			if !v.p.park(false) {
				return NoIndex, false // the search stopped
			}
			continue
		case lfFull:
			return NoIndex, false
		}
		return i, r == lfNew
	}
}

func (v lfView) Lookup(vec []byte) Index { return v.lookup(vec, Hash(vec)) }

func (v lfView) Parent(i Index) Index { return v.parent(i) }

// compressed copies the states into a SharedStore of compressed shards
// within the limit, and returns it with the function that gives a state's
// index there; nil when it does not fit. Every worker must be outside the
// store.
func (s *lfStore) compressed() (*SharedStore, func(Index) Index) {
	ss := NewSharedStore(s.Len(), true)
	if l := s.limit.Load(); l > 0 {
		ss.SetLimit(max(1, l-s.Bytes()))
	}
	maps := make([][]Index, len(s.arenas))
	for w := range s.arenas {
		n := int(s.arenas[w].n.Load())
		maps[w] = make([]Index, n)
		for l := range n {
			i, isNew := ss.Insert(s.get(Index(l)<<workerBits | Index(w)))
			if i == NoIndex || !isNew {
				ss.Free()
				return nil, nil
			}
			maps[w][l] = i
		}
	}
	renumber := func(i Index) Index {
		if i == NoIndex {
			return NoIndex
		}
		return maps[i&(MaxWorkers-1)][i>>workerBits]
	}
	ss.setParents(func(i Index) Index { return renumber(s.parent(i)) }, maps)
	return ss, renumber
}
