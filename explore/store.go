package explore

import (
	"encoding/binary"
	"math"
	"math/bits"
	"runtime"
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
	arenaChunk  = 4 << 20
	markShift   = 3 // variable-length records: one arena address per 8 states
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
// While all vectors have the same length the arena holds them bare, in
// fixed-width records. The first vector of another length turns the arena
// into length-prefixed records, with the arena address of every 8th state
// kept to find the others.
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

	width      int // fixed record width, or -1 for length-prefixed records; set by the first insert
	chunks     [][]byte
	cshift     uint  // fixed width: log2 of records per chunk
	cmask      Index // 1<<cshift - 1
	off        int   // variable width: write offset in the last chunk
	marks      column[uint64]
	arenaBytes int64
	maxVec     int
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
	s.chunks = nil
	s.marks = column[uint64]{}
	s.n = 0
}

// Len is the number of states stored.
func (s *Store) Len() int { return s.n }

// MaxVector is the length of the longest vector stored.
func (s *Store) MaxVector() int { return s.maxVec }

// Bytes is the memory the store holds: table, arena and arena index.
func (s *Store) Bytes() int64 {
	return int64(len(s.table))*8 + s.arenaBytes + s.marks.bytes()
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
// valid until the next Insert and must not be modified.
func (s *Store) Get(i Index) []byte {
	if s.width < 0 {
		return s.getVar(i)
	}
	o := int(i&s.cmask) * s.width
	return s.chunks[i>>s.cshift][o : o+s.width]
}

func (s *Store) getVar(i Index) []byte {
	a := s.marks.at(int(i >> markShift))
	ci, o := int(a>>32), int(uint32(a))
	for k := i & (1<<markShift - 1); ; k-- {
		c := s.chunks[ci]
		if o >= len(c) || c[o] == 0 { // the rest of a chunk is unused
			ci, o = ci+1, 0
			c = s.chunks[ci]
		}
		l, w := binary.Uvarint(c[o:])
		o += w
		if k == 0 {
			e := o + int(l-1)
			return c[o:e:e]
		}
		o += int(l - 1)
	}
}

// Insert adds vec to the store unless it is there already, and returns its
// index and whether it is new. vec is copied. When the store is full (see
// Full) a new vector is not added and Insert returns NoIndex, false.
func (s *Store) Insert(vec []byte) (Index, bool) {
	return s.InsertHash(vec, Hash(vec))
}

// InsertHash is Insert with the vector's Hash already computed.
func (s *Store) InsertHash(vec []byte, h uint64) (Index, bool) {
	tag := h >> 32
	mask := uint64(len(s.table) - 1)
	p := h >> s.shift
	for {
		e := s.table[p]
		if e == 0 {
			break
		}
		if e>>32 == tag {
			i := Index(e) - 1
			var got []byte
			if s.width >= 0 { // Get, inlined by hand
				o := int(i&s.cmask) * s.width
				got = s.chunks[i>>s.cshift][o : o+s.width]
			} else {
				got = s.getVar(i)
			}
			if string(got) == string(vec) {
				return i, false
			}
		}
		p = (p + 1) & mask
	}
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
	i := Index(s.n)
	s.table[p] = tag<<32 | uint64(i+1)
	s.n++
	return i, true
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

// store appends vec to the arena as state s.n.
func (s *Store) store(vec []byte) bool {
	if s.width == -2 {
		s.width = len(vec)
		s.cshift = uint(max(8, 22-bits.Len(uint(len(vec)))))
		s.cmask = 1<<s.cshift - 1
	}
	if len(vec) != s.width && s.width >= 0 {
		s.toVariable()
	}
	if len(vec) > s.maxVec {
		s.maxVec = len(vec)
	}
	if s.width >= 0 {
		w := s.width
		c := s.n >> s.cshift
		o := (s.n & (1<<s.cshift - 1)) * w
		switch {
		case c == 0 && (len(s.chunks) == 0 || o+w > len(s.chunks[0])):
			if !s.growFirst(o+w, w<<s.cshift) {
				return false
			}
		case c == len(s.chunks):
			size := w << s.cshift
			if !s.room(int64(size)) {
				return false
			}
			s.chunks = append(s.chunks, make([]byte, size))
			s.arenaBytes += int64(size)
		}
		copy(s.chunks[c][o:o+w], vec)
		return true
	}
	return s.appendVar(s.n, vec)
}

// growFirst makes the first arena chunk at least need bytes long (at most
// full). The first chunk starts small and doubles, so that a model of a few
// states does not take megabytes; vectors already handed out by Get keep
// their (unchanged) contents, as the old chunk stays valid Go memory.
func (s *Store) growFirst(need, full int) bool {
	old := 0
	if len(s.chunks) > 0 {
		old = len(s.chunks[0])
	}
	size := max(need, min(full, max(2*old, 4<<10)))
	if !s.room(int64(size - old)) {
		return false
	}
	c := make([]byte, size)
	if old > 0 {
		copy(c, s.chunks[0])
		s.chunks[0] = c
	} else {
		s.chunks = append(s.chunks, c)
	}
	s.arenaBytes += int64(size - old)
	return true
}

// appendVar appends vec as the length-prefixed record of state i.
func (s *Store) appendVar(i int, vec []byte) bool {
	prefix := uint64(len(vec)) + 1 // 0 marks the unused end of a chunk
	need := uvarintLen(prefix) + len(vec)
	if len(s.chunks) <= 1 && need <= arenaChunk && (len(s.chunks) == 0 || s.off+need > len(s.chunks[0])) && s.off+need <= arenaChunk {
		// Chunks start zeroed: the grown chunk's unused end still reads
		// as the end marker.
		if !s.growFirst(s.off+need, arenaChunk) {
			return false
		}
	}
	if len(s.chunks) == 0 || s.off+need > len(s.chunks[len(s.chunks)-1]) {
		size := max(arenaChunk, need)
		if !s.room(int64(size)) {
			return false
		}
		// Chunks start zeroed, so the unused end of the previous chunk
		// already reads as the end marker.
		s.chunks = append(s.chunks, make([]byte, size))
		s.arenaBytes += int64(size)
		s.off = 0
	}
	if i&(1<<markShift-1) == 0 {
		s.marks.append(uint64(len(s.chunks)-1)<<32 | uint64(s.off))
	}
	c := s.chunks[len(s.chunks)-1]
	o := s.off + binary.PutUvarint(c[s.off:], prefix)
	s.off = o + copy(c[o:], vec)
	return true
}

// toVariable rewrites the fixed-width arena as length-prefixed records. It
// happens once, usually early (a Promela run makes the vector longer).
func (s *Store) toVariable() {
	old, w, cs := s.chunks, s.width, s.cshift
	s.chunks, s.arenaBytes, s.off, s.width = nil, 0, 0, -1
	s.marks = column[uint64]{}
	lim := s.limit
	s.limit = 0 // the records are already stored; they must fit
	for i := 0; i < s.n; i++ {
		o := (i & (1<<cs - 1)) * w
		s.appendVar(i, old[i>>cs][o:o+w])
	}
	s.limit = lim
}

func uvarintLen(x uint64) int {
	return (bits.Len64(x|1) + 6) / 7
}
