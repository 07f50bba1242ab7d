package explore

import (
	"context"
	"sync"
)

// A SharedStore is a set of state vectors that several goroutines insert
// into and read at once, with indices that do not change: it is split
// into shards by the low bits of a vector's hash (the top bits choose the
// slot inside a shard's table), each a Store behind a lock of its own. A
// state's index is its index in its shard shifted left by sharedBits, or'ed
// with the shard's number. The indices of one shard are dense, and the
// shards fill about evenly, so indices stay below about the number of
// states stored, and per-state arrays indexed by them stay small.
type SharedStore struct {
	shards [sharedShards]sharedShard
}

const (
	sharedBits   = 6
	sharedShards = 1 << sharedBits
	// maxShard bounds a shard so that indices fit 32 bits and never equal
	// NoIndex.
	maxShard = 1<<(32-sharedBits) - 1
)

type sharedShard struct {
	mu      sync.Mutex
	s       *Store
	parents column[uint32] // insertFrom's: a state's parent, by its index in the shard
	_       [64]byte
}

// NewSharedStore returns an empty shared store with room for about
// expected states before its tables double; compress keeps the vectors
// tree-compressed (NewCompressedStore).
func NewSharedStore(expected int, compress bool) *SharedStore {
	s := &SharedStore{}
	for k := range s.shards {
		if compress {
			s.shards[k].s = NewCompressedStore(expected / sharedShards)
		} else {
			s.shards[k].s = NewStore(expected / sharedShards)
		}
	}
	return s
}

// Free releases the shards' tables.
func (s *SharedStore) Free() {
	for k := range s.shards {
		sh := &s.shards[k]
		sh.mu.Lock()
		sh.s.Free()
		sh.mu.Unlock()
	}
}

// Insert adds vec unless it is there already, and returns its index and
// whether it is new; as Store.Insert it returns NoIndex when the store is
// full.
func (s *SharedStore) Insert(vec []byte) (Index, bool) {
	return s.insert(vec, NoIndex, false)
}

func (s *SharedStore) insert(vec []byte, parent Index, keep bool) (Index, bool) {
	h := Hash(vec)
	k := int(h & (sharedShards - 1))
	sh := &s.shards[k]
	sh.mu.Lock()
	var i Index
	var isNew bool
	if sh.s.Len() < maxShard {
		i, isNew = sh.s.InsertHash(vec, h)
		if isNew && keep {
			sh.parents.append(parent)
		}
	} else if i = sh.s.Lookup(vec, h); i == NoIndex {
		sh.s.full = true
	}
	sh.mu.Unlock()
	if i == NoIndex {
		return NoIndex, false
	}
	return i<<sharedBits | Index(k), isNew
}

// Lookup returns the index of vec, or NoIndex when it is not stored.
func (s *SharedStore) Lookup(vec []byte) Index {
	h := Hash(vec)
	k := int(h & (sharedShards - 1))
	sh := &s.shards[k]
	sh.mu.Lock()
	i := sh.s.Lookup(vec, h)
	sh.mu.Unlock()
	if i == NoIndex {
		return NoIndex
	}
	return i<<sharedBits | Index(k)
}

// setParents gives the states, stored without parents, the parents
// insertFrom would have recorded: of the state whose index was old, where
// maps[w][l] is the index of old state l<<workerBits | w.
func (s *SharedStore) setParents(parent func(old Index) Index, maps [][]Index) {
	for k := range s.shards {
		sh := &s.shards[k]
		sh.parents = column[uint32]{}
		for range sh.s.Len() {
			sh.parents.append(uint32(NoIndex))
		}
	}
	for w, m := range maps {
		for l, i := range m {
			sh := &s.shards[i&(sharedShards-1)]
			sh.parents.set(int(i>>sharedBits), uint32(parent(Index(l)<<workerBits|Index(w))))
		}
	}
}

// Parent is the parent insertFrom recorded for state i.
func (s *SharedStore) Parent(i Index) Index {
	sh := &s.shards[i&(sharedShards-1)]
	sh.mu.Lock()
	p := sh.parents.at(int(i >> sharedBits))
	sh.mu.Unlock()
	return p
}

// sharedStates is the store of the depth-first search on several workers
// (pdfs.go) as a worker sees it: a SharedStore, or a worker's view of an
// lfStore.
type sharedStates interface {
	stored
	Get(dst []byte, i Index) []byte
	// insertFrom is Insert for a state reached from state parent (NoIndex
	// for an initial state), which Parent gives back when vec is new; h is
	// vec's Hash, or 0 when not known. A store keeps parents only for the
	// states insertFrom adds: its callers use it for all or none.
	insertFrom(vec []byte, h uint64, parent Index) (Index, bool)
	Lookup(vec []byte) Index
	Parent(i Index) Index
	// touch prepares the insertion of a batch's successors; it returns
	// what it read.
	touch(b *batch) uint64
}

func (s *SharedStore) insertFrom(vec []byte, _ uint64, parent Index) (Index, bool) {
	return s.insert(vec, parent, true)
}

// touch does nothing: the shards' tables are read under their locks.
func (s *SharedStore) touch(*batch) uint64 { return 0 }

// Get appends the vector of state i to dst[:0].
func (s *SharedStore) Get(dst []byte, i Index) []byte {
	sh := &s.shards[i&(sharedShards-1)]
	sh.mu.Lock()
	dst = append(dst[:0], sh.s.Get(i>>sharedBits)...)
	sh.mu.Unlock()
	return dst
}

// each calls f with every shard's store, under its lock.
func (s *SharedStore) each(f func(*Store)) {
	for k := range s.shards {
		sh := &s.shards[k]
		sh.mu.Lock()
		f(sh.s)
		sh.mu.Unlock()
	}
}

// Len is the number of states stored.
func (s *SharedStore) Len() int {
	n := 0
	s.each(func(st *Store) { n += st.Len() })
	return n
}

// MaxVector is the length of the longest vector stored.
func (s *SharedStore) MaxVector() int {
	n := 0
	s.each(func(st *Store) { n = max(n, st.MaxVector()) })
	return n
}

// Bytes is the memory the shards hold.
func (s *SharedStore) Bytes() int64 {
	var n int64
	for k := range s.shards {
		sh := &s.shards[k]
		sh.mu.Lock()
		n += sh.s.Bytes() + sh.parents.bytes()
		sh.mu.Unlock()
	}
	return n
}

func (s *SharedStore) tableBytes() int64 {
	var n int64
	s.each(func(st *Store) { n += st.tableBytes() })
	return n
}

// SetLimit bounds the memory the shards hold together (0: no bound): each
// shard may grow by what the others leave of it.
func (s *SharedStore) SetLimit(bytes int64) {
	if bytes <= 0 {
		s.each(func(st *Store) { st.SetLimit(0) })
		return
	}
	total := s.Bytes()
	s.each(func(st *Store) { st.SetLimit(max(1, bytes-(total-st.Bytes()))) })
}

// stored is what a Watch reads and sets of a search's states.
type stored interface {
	Len() int
	MaxVector() int
	Bytes() int64
	tableBytes() int64
	SetLimit(int64)
}

// NewSharedWatch is NewWatch for a search whose workers share store. Its
// methods are for one goroutine, as NewWatch's; Full may be called from
// any.
func NewSharedWatch(ctx context.Context, store *SharedStore, o Options) *Watch {
	return newWatch(ctx, store, o)
}
