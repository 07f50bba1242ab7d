package explore

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// Index is a stored state's number: states are numbered 0, 1, 2, ... in the
// order they were first inserted, so a breadth-first queue is just a range of
// indices, and a parent pointer or a per-state flag costs 4 bytes or a bit.
type Index = uint32

// NoIndex is not the index of any state.
const NoIndex Index = math.MaxUint32

// MaxStates is the number of states a Store can hold.
const MaxStates = math.MaxUint32 - 1

const (
	minTableLog = 12
	maxTableLog = 32 // slots hold the top 32 bits of the hash, which must cover the slot number
)

// A Store is a set of state vectors. Vectors are kept once, back to back, in
// an append-only arena; a linear-probing hash table finds them by content.
//
// The table's slots are 64-bit words: the top 32 bits of the vector's hash
// (the tag) and its index plus one (0 marks an empty slot). The slot number
// is the top bits of the hash, so most probes that miss are answered by the
// tag without reading the arena, and doubling the table is one sequential
// pass that needs no rehashing.
//
// Vectors of the common length are kept bare, in fixed-width records found
// by arithmetic. A vector of another length (a Promela model's states before
// init has started every process) is an exception: it goes to an arena of
// length-prefixed records, and a bit per state says which states are
// exceptions. When exceptions become common the arena is laid out again,
// with the now most common length as the fixed width, or with every vector
// length-prefixed when no length dominates.
//
// A Store is not safe for concurrent use.
type Store struct {
	table  []uint64
	shift  uint // 64 - log2(len(table))
	growAt int  // the table doubles when it holds this many states
	n      int

	limit   int64 // 0: none
	full    bool
	cleanup runtime.Cleanup
	mapped  bool // table came from allocWords and needs freeWords

	// width is the fixed width, -1 when every vector is in vars (then a
	// state's index is its record number there), -2 before the first
	// insertion.
	width   int
	fixed   fixedArena
	vars    varArena
	nexc    int            // exceptions: states of another length than width
	excBits column[uint64] // a bit per state, once there are exceptions
	excIdx  column[uint32] // the exceptions' indices, ascending

	maxVec     int
	relaidAt   int  // Len at the last new layout
	noRelayout bool // while building a new layout

	tree       *treeStore // the vectors tree-compressed (NewCompressedStore); nil: as above
	noCompress bool       // compressIfDue failed
	auto       autoCompress
	lossy      *lossyStore // a lossy visited set and the live vectors (lossy.go); nil: as above
}

// NewStore returns an empty store whose table has room for about expected
// states before it first doubles (0: a small table).
func NewStore(expected int) *Store {
	log := minTableLog
	for log < maxTableLog && expected > loadLimit(1<<log) {
		log++
	}
	s := &Store{width: -2}
	if err := s.setTable(log); err != nil {
		panic("explore: cannot allocate the hash table: " + err.Error())
	}
	return s
}

// NewCompressedStore returns an empty store that keeps its vectors
// tree-compressed (tree.go): a state takes a fraction of its vector's
// bytes, and Insert and Get take longer. Its tables' slots are mapped
// outside the Go heap as the plain table is; the pairs are Go memory.
func NewCompressedStore(expected int) *Store { return newCompressedStore(expected, nil) }

// newCompressedStore is NewCompressedStore with the node table given, which
// another store counts, or one of its own (nodes nil).
func newCompressedStore(expected int, nodes *nodeTable) *Store {
	s := &Store{width: -2}
	s.tree = newTreeStore(expected, s.room, nodes)
	return s
}

// newSharedCompressedStores returns n empty compressed stores, for about
// expected states each, that share one node table (nodeTable): the first
// counts it in its bytes and limit.
func newSharedCompressedStores(n, expected int) []*Store {
	stores := make([]*Store, n)
	for k := range stores {
		var nodes *nodeTable
		if k > 0 {
			nodes = stores[0].tree.nodes
		}
		stores[k] = newCompressedStore(expected, nodes)
	}
	return stores
}

// loadLimit is the number of states a table of size slots holds before it
// doubles. Linear probing stays short up to about 70% load.
func loadLimit(size int) int { return size / 10 * 7 }

func (s *Store) setTable(log int) error {
	t, err := allocWords(1 << log)
	if err != nil {
		return err
	}
	s.replaceTable(t, true)
	s.shift = uint(64 - log)
	s.growAt = loadLimit(1 << log)
	return nil
}

func (s *Store) replaceTable(t []uint64, mapped bool) {
	if s.mapped {
		s.cleanup.Stop()
		freeWords(s.table)
	}
	s.table, s.mapped = t, mapped
	if mapped && len(t) > 0 {
		// The table is not Go memory: release it when the store is dropped
		// without Free.
		s.cleanup = runtime.AddCleanup(s, freeWords, t)
	}
}

// Free releases the store's memory at once. The store must not be used after.
func (s *Store) Free() {
	s.replaceTable(nil, false)
	if s.tree != nil {
		s.tree.free()
		s.tree = nil
	}
	if s.lossy != nil {
		s.lossy.free()
	}
	s.fixed, s.vars = fixedArena{}, varArena{}
	s.excBits, s.excIdx = column[uint64]{}, column[uint32]{}
	s.n = 0
}

// Len is the number of states stored.
func (s *Store) Len() int { return s.n }

// MaxVector is the length of the longest vector stored.
func (s *Store) MaxVector() int { return s.maxVec }

// Bytes is the memory the store holds: table, arenas and their indices.
func (s *Store) Bytes() int64 {
	if s.tree != nil {
		return s.tree.bytes()
	} else if s.lossy != nil {
		return s.lossy.bytes()
	}
	return int64(len(s.table))*8 + s.fixed.bytes + s.vars.memory() + s.excBits.bytes() + s.excIdx.bytes()
}

// tableBytes is the memory of the hash table (a compressed store's slot
// tables), which is mapped outside the Go heap where the system allows
// (allocWords).
func (s *Store) tableBytes() int64 {
	if s.tree != nil {
		return s.tree.mapped()
	} else if s.lossy != nil {
		return s.lossy.tableBytes()
	}
	return int64(len(s.table)) * 8
}

// SetLimit bounds the memory the store may hold (0: no bound). When a table
// doubling would pass the bound, the table fills to 90% instead; when even
// that or a new arena chunk does not fit, the store is full.
func (s *Store) SetLimit(bytes int64) { s.limit = bytes }

// Full reports that an insertion failed for lack of memory (SetLimit) or
// because MaxStates are stored. A search that sees it is incomplete.
func (s *Store) Full() bool { return s.full }

func (s *Store) room(extra int64) bool {
	return s.limit <= 0 || s.Bytes()+extra <= s.limit
}

// Get returns the vector of state i. The slice points into the store: it is
// valid until the next Insert (and, in a compressed store, the next Get)
// and must not be modified.
func (s *Store) Get(i Index) []byte {
	if s.tree != nil {
		return s.tree.get(i)
	} else if s.lossy != nil {
		return s.lossy.arena.get(i)
	}
	if s.width >= 0 && (s.nexc == 0 || !s.isExc(i)) {
		return s.fixed.get(i)
	}
	return s.getExc(i)
}

func (s *Store) isExc(i Index) bool {
	return s.excBits.at(int(i>>6))>>(i&63)&1 != 0
}

// getExc returns an exception's vector, or any vector when all are in vars.
func (s *Store) getExc(i Index) []byte {
	if s.width < 0 {
		return s.vars.get(int(i))
	}
	// The exceptions' record numbers follow their indices' order.
	lo, hi := 0, s.excIdx.len()
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.excIdx.at(mid) < i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return s.vars.get(lo)
}

// Insert adds vec to the store unless it is there already, and returns its
// index and whether it is new. vec is copied. When the store is full (see
// Full) a new vector is not added and Insert returns NoIndex, false.
func (s *Store) Insert(vec []byte) (Index, bool) {
	return s.InsertHash(vec, Hash(vec))
}

// InsertHash is Insert with the vector's Hash already computed. A
// compressed store hashes its nodes instead and ignores h.
func (s *Store) InsertHash(vec []byte, h uint64) (Index, bool) {
	if s.tree != nil {
		return s.insertTree(vec)
	} else if s.lossy != nil {
		return s.insertLossy(vec, h)
	}
	i, p := s.find(vec, h)
	if i != NoIndex {
		return i, false
	}
	tag := h >> 32
	if s.n >= s.growAt {
		if !s.grow() {
			return NoIndex, false
		}
		return s.InsertHash(vec, h)
	}
	if s.n >= MaxStates || !s.store(vec) {
		s.full = true
		return NoIndex, false
	}
	i = Index(s.n)
	s.table[p] = tag<<32 | uint64(i+1)
	s.n++
	return i, true
}

// Lookup returns the index of vec, whose Hash is h, or NoIndex when vec is
// not stored.
func (s *Store) Lookup(vec []byte, h uint64) Index {
	if s.tree != nil {
		return s.tree.lookup(vec)
	}
	i, _ := s.find(vec, h)
	return i
}

// find returns the index of vec, whose Hash is h, or NoIndex and the empty
// slot where it would go.
func (s *Store) find(vec []byte, h uint64) (Index, uint64) {
	tag := h >> 32
	mask := uint64(len(s.table) - 1)
	p := h >> s.shift
	for {
		e := s.table[p]
		if e == 0 {
			return NoIndex, p
		}
		if e>>32 == tag {
			i := Index(e) - 1
			var got []byte
			if s.width >= 0 && (s.nexc == 0 || !s.isExc(i)) { // Get, inlined by hand
				f := &s.fixed
				o := int(i&f.mask) * f.width
				got = f.chunks[i>>f.shift][o : o+f.width]
			} else {
				got = s.getExc(i)
			}
			if string(got) == string(vec) {
				return i, p
			}
		}
		p = (p + 1) & mask
	}
}

// grow doubles the table, or when that does not fit lets it fill to 90%.
func (s *Store) grow() bool {
	log := 64 - int(s.shift)
	size := 1 << log
	if log >= maxTableLog || !s.room(int64(size)*16) {
		if hard := size / 10 * 9; s.growAt < hard {
			s.growAt = hard
			return true
		}
		s.full = true
		return false
	}
	t, err := allocWords(2 * size)
	if err != nil {
		s.full = true
		return false
	}
	// Old slots in order have non-decreasing home slots (apart from a run
	// that wrapped around the end), so this pass writes the new table almost
	// sequentially.
	mask := uint64(len(t) - 1)
	sh := uint(32 - (log + 1))
	for _, e := range s.table {
		if e == 0 {
			continue
		}
		p := e >> 32 >> sh
		for t[p] != 0 {
			p = (p + 1) & mask
		}
		t[p] = e
	}
	s.replaceTable(t, true)
	s.shift--
	s.growAt = loadLimit(2 * size)
	return true
}

// store appends vec to the arenas as state s.n.
func (s *Store) store(vec []byte) bool {
	if s.width == -2 {
		s.width = len(vec)
		s.fixed = newFixedArena(len(vec))
	}
	if len(vec) > s.maxVec {
		s.maxVec = len(vec)
	}
	if s.width < 0 {
		return s.vars.append(vec, s.room)
	}
	slot := s.fixed.slot(s.n, s.room)
	if slot == nil {
		return false
	}
	if s.nexc > 0 && s.n>>6 == s.excBits.len() {
		s.excBits.append(0)
	}
	if len(vec) == s.width {
		copy(slot, vec)
		return true
	}
	// An exception: its fixed slot stays unused.
	if !s.vars.append(vec, s.room) {
		return false
	}
	if s.nexc == 0 {
		for range s.n>>6 + 1 {
			s.excBits.append(0)
		}
	}
	s.nexc++
	s.excIdx.append(uint32(s.n))
	s.excBits.set(s.n>>6, s.excBits.at(s.n>>6)|1<<(s.n&63))
	if n := s.n + 1; !s.noRelayout && n >= 1024 && 4*s.nexc > n && n >= 2*s.relaidAt {
		s.relayout(n)
	}
	return true
}

// relayout stores the first n states again, with the most common length as
// the fixed width, or all length-prefixed when no length has three quarters
// of the states. Indices do not change, so the table stays as it is. It
// happens rarely: only when exceptions pass a quarter of the states, and at
// most once per doubling of the store.
func (s *Store) relayout(n int) {
	count := map[int]int{}
	for i := range n {
		count[len(s.Get(Index(i)))]++
	}
	best, bestN := 0, -1
	for l, c := range count {
		if c > bestN || c == bestN && l > best {
			best, bestN = l, c
		}
	}
	t := &Store{width: best, fixed: newFixedArena(best), maxVec: s.maxVec, noRelayout: true}
	if 4*bestN < 3*n {
		t.width = -1
	}
	for i := range n {
		t.n = i
		t.store(s.Get(Index(i)))
	}
	s.width, s.fixed, s.vars = t.width, t.fixed, t.vars
	s.nexc, s.excBits, s.excIdx = t.nexc, t.excBits, t.excIdx
	s.relaidAt = n
}

// Compress makes the store keep its states tree-compressed from now on,
// those stored so far included: they go into a compressed store in order,
// which numbers them as they were, and the plain vectors and table are
// freed. Both are held meanwhile, within the store's limit; false, and the
// store as it was, when the compressed one does not fit.
func (s *Store) Compress() bool {
	if s.tree != nil {
		return true
	}
	if !s.room(4 * int64(treeSlots(s.n)+minTreeSlots)) { // the two tables' slots
		return false
	}
	t := newTreeStore(s.n, s.room, nil)
	for i := range s.n {
		if j, isNew, full := t.insert(s.Get(Index(i))); full || !isNew || j != Index(i) {
			t.free()
			return false
		}
	}
	s.replaceTable(nil, false)
	s.fixed, s.vars = fixedArena{}, varArena{}
	s.excBits, s.excIdx = column[uint64]{}, column[uint32]{}
	s.tree = t
	return true
}

// autoCompressMin is the fewest states a store compresses itself at
// (compressIfDue): below, the tables' fixed start outweighs the vectors.
const autoCompressMin = 1 << 12

// autoCompress decides when a plain store turns compressed by itself: when
// it must, not before. The plain store is the faster one (on the failure
// detector at BUF=2 a search that turns compressed at half the limit
// takes 1.4 to 1.7 times the time of one that stays plain), so it stays
// plain while the store, the compressed copy that the move builds beside it,
// and, near the table's next doubling, the doubled table fit in nine
// tenths of the limit. The copy's bytes per state are sampled once, when
// the store first takes half of the limit, by compressing its latest
// states; a sample shares fewer nodes than the whole store, so it
// overestimates. The workers of a parallel search on one store share one.
type autoCompress struct {
	perState atomic.Uint64 // the compressed copy's bytes per state, as float64 bits; 0: not sampled
}

// due reports whether a plain store of n states, b bytes and a table of
// tb bytes, under limit l, is to turn compressed now; doubling says that
// the table is near its next doubling. sample compresses the store's
// latest states and returns their bytes per state.
func (a *autoCompress) due(n int, b, tb, l int64, doubling bool, sample func() float64) bool {
	if l <= 0 || n < autoCompressMin || b <= l/2 && b+4*tb <= l {
		return false
	}
	if a.perState.Load() == 0 {
		a.perState.Store(math.Float64bits(sample()))
	}
	need := b + int64(min(math.Float64frombits(a.perState.Load())*float64(n), math.MaxInt64/2))
	if doubling {
		need += 2 * tb
	}
	return need > l/10*9
}

// sampleStates is the number of states autoCompress compresses to
// estimate the compressed copy's size.
const sampleStates = 1 << 15

// compressedPerState is the bytes per state of a compressed store of the
// vectors get returns for 0..n-1 (the latest sampleStates of them),
// counting the 8 bytes the move takes per state beside it (parent and
// renumbering).
func compressedPerState(n int, get func(int) []byte) float64 {
	k := min(n, sampleStates)
	t := newTreeStore(k, func(int64) bool { return true }, nil)
	defer t.free()
	for i := n - k; i < n; i++ {
		if _, _, full := t.insert(get(i)); full {
			return math.Inf(1)
		}
	}
	return float64(t.bytes())/float64(k) + 8
}

// compressIfDue compresses a plain store (Compress), once, when its
// autoCompress says it is due: it reports whether it did.
func (s *Store) compressIfDue() bool {
	if s.tree != nil || s.noCompress || s.limit <= 0 {
		return false
	}
	sample := func() float64 {
		return compressedPerState(s.n, func(i int) []byte { return s.Get(Index(i)) })
	}
	if !s.auto.due(s.n, s.Bytes(), s.tableBytes(), s.limit, s.n >= s.growAt/8*7, sample) {
		return false
	}
	if !s.Compress() {
		s.noCompress = true // it would not fit later either
		return false
	}
	// The plain vectors are garbage now: give their memory back, so that
	// the limit counts what the store holds.
	debug.FreeOSMemory()
	return true
}

// insertTree is InsertHash for a compressed store.
func (s *Store) insertTree(vec []byte) (Index, bool) {
	i, isNew, full := s.tree.insert(vec)
	if full {
		s.full = true
		return NoIndex, false
	}
	if isNew {
		s.n++
		s.maxVec = max(s.maxVec, len(vec))
	}
	return i, isNew
}
