package explore

import (
	"context"
	"math/bits"
	"runtime"
	"sync/atomic"
	"time"
)

// A LockFreeStore is the lock-free table (lfStore) for a search of
// another package whose workers insert states at any point of their own
// search, as package ltl's parallel search of the product: such workers
// cannot park between two steps as this package's searches do, since one
// may wait for the others for as long as they search. The table doubles
// when no worker is inside an insertion instead, as a big-reader lock
// has it: a worker raises a flag of its own for each insertion, and backs
// out while the table grows; the worker that finds the table full lowers
// its flag, waits until every other flag is down and doubles the table.
// Vectors are read without flags: the arenas do not move when the table
// doubles.
//
// The workers are numbered from 0. A state's index is dense: its number in
// its worker's arena shifted left by the bits the workers' numbers take
// (Bits), or'ed with the worker's number, so that per-state arrays indexed
// by it stay about as large as the states stored times the workers over
// the next power of two. The states stay plain: under a memory limit
// (SetLimit, by the watch) Insert says full rather than go past it.
type LockFreeStore struct {
	lf      *lfStore
	bits    uint // of a worker's number in a dense index
	growing atomic.Bool
	grown   atomic.Int64 // doublings
	workers []lfWorker
}

// lfWorker is a worker's flag, and its scratch for InsertAll.
type lfWorker struct {
	inside atomic.Bool
	hashes []uint64
	pos    []uint64
	sum    uint64 // what the reads ahead read
	_      [64]byte
}

// lfMinLogShared is the smallest table of a LockFreeStore: the doublings
// of small tables cost little.
const lfMinLogShared = 4

// NewLockFreeStore returns an empty store for workers workers (at most
// MaxWorkers) with room for about expected states before its table
// doubles.
func NewLockFreeStore(workers, expected int) *LockFreeStore {
	workers = max(1, min(workers, MaxWorkers))
	return &LockFreeStore{
		lf:      newLFStoreFrom(workers, expected, lfMinLogShared),
		bits:    uint(bits.Len(uint(workers - 1))),
		workers: make([]lfWorker, workers),
	}
}

// Bits is the number of low bits of an index that name the worker that
// stored the state.
func (s *LockFreeStore) Bits() uint { return s.bits }

func (s *LockFreeStore) dense(i Index) Index {
	return i>>workerBits<<s.bits | i&(MaxWorkers-1)
}

func (s *LockFreeStore) sparse(i Index) Index {
	return i>>s.bits<<workerBits | i&(1<<s.bits-1)
}

// Insert adds vec for worker w unless it is stored, and returns its index
// and whether it is new; NoIndex when the store is full (the memory
// limit, or MaxStates for the worker). Each worker inserts from one
// goroutine at a time.
func (s *LockFreeStore) Insert(w int, vec []byte) (Index, bool) {
	s.enter(w)
	i, r := s.insertInside(w, vec, Hash(vec))
	s.leave(w)
	if r == lfFull {
		return NoIndex, false
	}
	return s.dense(i), r == lfNew
}

// insertInside inserts vec, whose Hash is h, for worker w, which is
// inside the table (enter), and lets the table double when it is full
// enough; the result is lfNew, lfFound or lfFull.
func (s *LockFreeStore) insertInside(w int, vec []byte, h uint64) (Index, lfResult) {
	for {
		i, r := s.lf.insert(w, vec, h, NoIndex)
		if r == lfWait || r == lfNew && s.lf.wantGrow() {
			s.leave(w)
			s.grow()
			s.enter(w)
		}
		if r != lfWait {
			return i, r
		}
	}
}

// InsertAll is Insert of each vector in buf, vector k being
// buf[ends[k-1]:ends[k]] (from 0 for k = 0): it appends their indices to
// dst, and reports false when the store is full (dst then has the indices
// of the vectors before). It first reads what the insertions will read,
// each phase for every vector, so that their cache misses overlap: the
// vectors' home slots, and where a slot has a vector's tag the stored
// vector's first byte.
func (s *LockFreeStore) InsertAll(w int, buf []byte, ends []int, dst []Index) ([]Index, bool) {
	wk := &s.workers[w]
	hs := wk.hashes[:0]
	start := 0
	for _, end := range ends {
		hs = append(hs, Hash(buf[start:end]))
		start = end
	}
	wk.hashes = hs
	s.enter(w)
	wk.pos, wk.sum = s.lf.touchHashes(hs, wk.pos)
	start = 0
	for k, end := range ends {
		i, r := s.insertInside(w, buf[start:end], hs[k])
		if r == lfFull {
			s.leave(w)
			return dst, false
		}
		dst = append(dst, s.dense(i))
		start = end
	}
	s.leave(w)
	return dst, true
}

// enter raises worker w's flag once the table is not growing.
func (s *LockFreeStore) enter(w int) {
	flag := &s.workers[w].inside
	for {
		flag.Store(true)
		if !s.growing.Load() {
			return
		}
		flag.Store(false)
		s.waitGrown()
	}
}

func (s *LockFreeStore) leave(w int) { s.workers[w].inside.Store(false) }

// grow doubles the table once no worker is inside an insertion, unless
// another worker does it already, then waits for the doubling.
func (s *LockFreeStore) grow() {
	if !s.growing.CompareAndSwap(false, true) {
		s.waitGrown()
		return
	}
	for k := range s.workers {
		for spins := 0; s.workers[k].inside.Load(); spins++ {
			pause(spins)
		}
	}
	old := s.lf.table.Load()
	s.lf.grow()
	if s.lf.table.Load() != old {
		s.grown.Add(1)
	}
	s.growing.Store(false)
}

func (s *LockFreeStore) waitGrown() {
	for spins := 0; s.growing.Load(); spins++ {
		pause(spins)
	}
}

// pause is a turn of a spinning wait: yields at first, then sleeps.
func pause(spins int) {
	if spins < 64 {
		runtime.Gosched()
	} else {
		time.Sleep(20 * time.Microsecond)
	}
}

// Doublings is how many times the table doubled.
func (s *LockFreeStore) Doublings() int { return int(s.grown.Load()) }

// Get appends the vector of state i to dst[:0]. Any goroutine may call
// it for a state whose index it got from Insert, or from a goroutine that
// did.
func (s *LockFreeStore) Get(dst []byte, i Index) []byte {
	return append(dst[:0], s.lf.get(s.sparse(i))...)
}

// Len is the number of states stored.
func (s *LockFreeStore) Len() int { return s.lf.Len() }

// MaxVector is the length of the longest vector stored.
func (s *LockFreeStore) MaxVector() int { return s.lf.MaxVector() }

// Bytes is the memory the store holds: its table and arenas.
func (s *LockFreeStore) Bytes() int64 { return s.lf.Bytes() }

func (s *LockFreeStore) tableBytes() int64 { return s.lf.tableBytes() }

// SetLimit bounds the memory the store holds (0: no bound).
func (s *LockFreeStore) SetLimit(bytes int64) { s.lf.SetLimit(bytes) }

// Free gives the table's memory back; no worker may use the store any
// more.
func (s *LockFreeStore) Free() { s.lf.free() }

// NewLockFreeWatch is NewWatch for a search whose workers share store. Its
// methods are for one goroutine, as NewWatch's; Full may be called from
// any.
func NewLockFreeWatch(ctx context.Context, store *LockFreeStore, o Options) *Watch {
	return newWatch(ctx, store, o)
}
