package explore

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// nodeTable holds the nodes below the roots: pairs of 32-bit values, words
// or node numbers, numbered 0, 1, 2, ... in the order they are first put.
//
// The workers of a parallel search share one (newSharedCompressedStores), so
// that a worker can build the tree of any successor against the tree of
// the state it expanded, whichever worker owns the successor, and send
// its owner the root. Nodes are found without a lock, and are many times
// more often found than added: an addition takes mu. A table that grows
// is replaced whole, the old one left to the readers that are still
// probing it (a node added meanwhile is not in the old table, so a miss
// there is checked again under mu); the pairs stay where they are, in
// chunks that never move once full.
type nodeTable struct {
	mu    sync.Mutex
	tab   atomic.Pointer[nodeSlots]
	dir   atomic.Pointer[[]atomic.Pointer[[]uint64]] // the pairs' chunks of 1<<columnShift
	n     atomic.Int64                               // the nodes; written under mu
	room  func(int64) bool                           // of the store that made the table
	bytes atomic.Int64                               // slots and chunks
	// touched is the sum of the slots grow read ahead (placeAll); under mu.
	touched uint64
}

// nodeSlots is a nodeTable's hash table, as a slotTable's: linear probing,
// a slot holding the number plus one in its low ibits bits and the hash's
// tag above. It is read with atomic loads and written under the table's mu.
type nodeSlots struct {
	slots   []uint32
	ibits   uint
	idxMask uint32
	growAt  int
}

func newNodeSlots(size int) *nodeSlots {
	ib := min(uint(bits.Len(uint(size))), 32)
	return &nodeSlots{slots: make([]uint32, size), ibits: ib, idxMask: uint32(uint64(1)<<ib - 1), growAt: loadLimit(size)}
}

func (s *nodeSlots) home(h uint64) uint64 { return homeSlot(h, len(s.slots)) }

func (s *nodeSlots) tag(h uint64) uint32 { return slotTag(h, s.ibits) }

// empty is the first empty slot from the home of hash h.
func (s *nodeSlots) empty(h uint64) uint64 {
	end := uint64(len(s.slots))
	p := s.home(h)
	for atomic.LoadUint32(&s.slots[p]) != 0 {
		if p++; p == end {
			p = 0
		}
	}
	return p
}

// newNodeTable returns an empty node table whose growth room allows.
func newNodeTable(room func(int64) bool) *nodeTable {
	t := &nodeTable{room: room}
	tab := newNodeSlots(minTreeSlots)
	t.tab.Store(tab)
	dir := make([]atomic.Pointer[[]uint64], 1)
	t.dir.Store(&dir)
	t.bytes.Store(int64(len(tab.slots)) * 4)
	return t
}

// len is the number of nodes.
func (t *nodeTable) len() int { return int(t.n.Load()) }

// pair is node i's pair.
func (t *nodeTable) pair(i uint32) uint64 {
	d := *t.dir.Load()
	return (*d[i>>columnShift].Load())[i&(1<<columnShift-1)]
}

func pairHash(p uint64) uint64 { return mix(p^hk1, hk2) }

func rootHash(p uint64, l int) uint64 { return mix(mix(p^hk1, uint64(l)^hk2)^hk3, hk0) }

// find returns the number of pair p, of pairHash h, if the table holds it.
func (t *nodeTable) find(p, h uint64) (uint32, bool) {
	tab := t.tab.Load()
	tag := tab.tag(h)
	end := uint64(len(tab.slots))
	for s := tab.home(h); ; {
		e := atomic.LoadUint32(&tab.slots[s])
		if e == 0 {
			return 0, false
		}
		if e&^tab.idxMask == tag {
			if i := e&tab.idxMask - 1; t.pair(i) == p {
				return i, true
			}
		}
		if s++; s == end {
			s = 0
		}
	}
}

// add returns the number of pair p, of pairHash h, adding it when new;
// false when the table cannot take it.
func (t *nodeTable) add(p, h uint64) (uint32, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.find(p, h); ok {
		return i, true // added by another worker
	}
	n := t.n.Load()
	if n >= noNode-1 {
		return 0, false
	}
	tab := t.tab.Load()
	if int(n) >= tab.growAt {
		if !t.grow(tab) {
			return 0, false
		}
		tab = t.tab.Load()
	}
	if !t.appendPair(int(n), p) {
		return 0, false
	}
	i := uint32(n)
	s := tab.empty(h)
	t.n.Store(n + 1)
	atomic.StoreUint32(&tab.slots[s], tab.tag(h)|(i+1))
	return i, true
}

// grow replaces the table with one twice as large, or when that does not
// fit lets it fill to 90%; under mu.
func (t *nodeTable) grow(tab *nodeSlots) bool {
	size := len(tab.slots)
	next := min(2*size, maxTreeSlots)
	if next == size || !t.room(int64(next)*4) {
		if hard := size / 10 * 9; tab.growAt < hard {
			// Readers do not read growAt.
			tab.growAt = hard
			return true
		}
		return false
	}
	nt := newNodeSlots(next)
	// Unpublished, the new table is written without atomics.
	var hs [placeBlock]uint64
	n := uint32(t.n.Load())
	for i0 := uint32(0); i0 < n; i0 += placeBlock {
		m := min(placeBlock, n-i0)
		for j := range m {
			hs[j] = pairHash(t.pair(i0 + j))
		}
		t.touched += placeAll(nt.slots, nt.ibits, i0, hs[:m])
	}
	t.tab.Store(nt)
	t.bytes.Add(int64(next-size) * 4)
	return true
}

// appendPair writes pair p as node i, the next; under mu. The first chunk
// starts small and doubles, as a column's; a reader that got i from a
// slot sees the chunk that holds it.
func (t *nodeTable) appendPair(i int, p uint64) bool {
	d := *t.dir.Load()
	k := i >> columnShift
	if k == len(d) {
		nd := make([]atomic.Pointer[[]uint64], 2*len(d))
		for j := range d {
			nd[j].Store(d[j].Load())
		}
		t.dir.Store(&nd)
		d = nd
	}
	c := d[k].Load()
	if c == nil || i&(1<<columnShift-1) == len(*c) {
		size := 1 << columnShift
		if k == 0 {
			size = 1 << 10
			if c != nil {
				size = 2 * len(*c)
			}
		}
		grown := size
		if c != nil {
			grown -= len(*c)
		}
		if !t.room(int64(grown) * 8) {
			return false
		}
		nc := make([]uint64, size)
		if c != nil {
			copy(nc, *c)
		}
		c = &nc
		d[k].Store(c)
		t.bytes.Add(int64(grown) * 8)
	}
	(*c)[i&(1<<columnShift-1)] = p
	return true
}

// recentNode is a pair and its number plus one (0: empty) in a treeStore's
// cache of the pairs it looked up last.
type recentNode struct {
	p uint64
	i uint64
}

const (
	recentLog   = 14      // 256 KiB, a quarter of a core's L2 cache
	recentFrom  = 1 << 16 // the nodes from which a store keeps recent: 1 MiB of slots and pairs
	recentBytes = 16 << recentLog
)

// putNode returns the number of the pair (l, r), adding it when new;
// false when the table cannot take it.
func (t *treeStore) putNode(l, r uint32) (uint32, bool) {
	p := uint64(l)<<32 | uint64(r)
	return t.putNodeHash(p, pairHash(p))
}

// putNodeHash is putNode of the pair p, of pairHash h.
func (t *treeStore) putNodeHash(p, h uint64) (uint32, bool) {
	t.lookups++
	var c *recentNode
	if t.recent != nil {
		c = &t.recent[h&(1<<recentLog-1)]
		if c.p == p && c.i != 0 {
			return uint32(c.i - 1), true
		}
	} else if t.nodes.len() >= recentFrom && t.room(recentBytes) {
		t.recent = make([]recentNode, 1<<recentLog)
	}
	i, ok := t.nodes.find(p, h)
	if !ok {
		if i, ok = t.nodes.add(p, h); !ok {
			return 0, false
		}
	}
	if c != nil {
		c.p, c.i = p, uint64(i)+1
	}
	return i, true
}
