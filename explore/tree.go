package explore

import (
	"encoding/binary"
	"math"
	"math/bits"
	"runtime"
	"unsafe"
)

// Tree compression (Laarman, van de Pol and Weber, "Parallel recursive
// state compression for free", SPIN 2011; LTSmin's tree database) keeps a
// vector as a binary tree: the vector is read as 32-bit words (the last one
// padded with zeros), split into halves down to single words, and every
// internal node is a pair of 32-bit values (two words at the bottom, two
// node indices above) kept once in a node table that numbers the pairs it
// holds. The root's pair goes to a table of its own whose numbers are the
// state indices. States that differ in a few words share every subtree
// that does not hold one of them, so a new state costs its root and seldom
// a node (on the failure-detector and Peterson models the nodes below the
// roots take under half a byte per state). The node numbers a root holds
// are few beside the states, so its pair is packed in twice the bits the
// largest of them needs (packedPairs): 3.5 bytes on the failure-detector
// model rather than 8. The 32-bit slot of the table that finds it costs
// 5 to 7.5 bytes more, the table being 53% to 80% full (slotTable).
//
// A node's number names its pair whatever its level, so the same pair of
// two words and of two node indices is one node: the tree's shape, which
// the vector's length fixes, says how to read it. The lengths are kept
// beside the roots (lengthTable): one length for all states, and the few
// others as exceptions.

// NewStore returns the store o asks for: compressed or not, sized for
// ExpectedStates.
func (o Options) NewStore() *Store {
	if o.Compress {
		return NewCompressedStore(o.ExpectedStates)
	}
	return NewStore(o.ExpectedStates)
}

// treeStore is a Store's compressed form.
type treeStore struct {
	nodes     *nodeTable // internal nodes below the roots, perhaps shared
	ownsNodes bool       // whether the nodes count in this store's bytes
	roots     rootTable  // the roots: a state's index is its root's number
	lens      lengthTable
	// The chunks of the roots' pairs once they are large: packed again
	// when they widen.
	rootBlocks chunkBlocks
	room       func(int64) bool

	// recent holds, once the node table is larger than the core's cache,
	// the pairs this store looked up last, by their hash: most lookups
	// find them there, in a line of the cache, rather than the slot and
	// the pair in two lines of memory one after the other.
	recent  []recentNode
	lookups int // node lookups, found or added

	// The roots prefetch prepared, in the order the search inserts them,
	// with a copy of their vectors: next is the one the next insertion
	// expects.
	ready     []readyRoot
	readyData []byte
	next      int

	// A vector is inserted as a change to a tree the store knows: the
	// state it was generated from (a recent Get, in gets) or else the
	// previous insertion (prev). It differs from it in a few words, and
	// only the nodes above them are looked up (build).
	prev      treeCopy // the previous insertion; its m is 0 when invalid
	cur       []byte   // the vector being inserted, padded (treeCopy)
	dirty     []uint64 // the positions build looks up, a bit each
	shapes    map[int]*treeShape
	lastShape *treeShape // the last shape used
	gets      [getsKept]treeCopy
	getAt     int // the next entry of gets to fill

	// The last Get: out holds its bytes and outNodes the node decoded at
	// each position; a subtree whose node did not change is not read again.
	out      []byte
	outNodes []uint32
	outM     int
}

// treeCopy is a vector and its tree: its bytes padded with zeros to a
// multiple of 8 bytes that holds its m words, and the node number at each
// tree position (pre-order, the root at 0, which is not a node).
type treeCopy struct {
	i     Index // the state, for gets
	m     int   // 0: no tree
	bytes []byte
	nodes []uint32
}

// getsKept is the number of the last Gets kept as bases for the
// insertions of their successors: more than the states a batch expands.
const getsKept = 2 * batchStates

// paddedLen is the length of a treeCopy's bytes for m words.
func paddedLen(m int) int { return (4*m + 7) &^ 7 }

// set makes c a copy of the tree of m words whose bytes and nodes are
// given.
func (c *treeCopy) set(i Index, m int, bytes []byte, nodes []uint32) {
	c.i, c.m = i, m
	c.bytes = append(c.bytes[:0], bytes...)
	c.nodes = append(c.nodes[:0], nodes...)
}

// noNode is no node number: nodeTable never reaches it.
const noNode = math.MaxUint32

// newTreeStore returns an empty compressed store with nodes of its own
// (nodes nil) or those given, which another store counts.
func newTreeStore(expected int, room func(int64) bool, nodes *nodeTable) *treeStore {
	t := &treeStore{nodes: nodes, room: room}
	if nodes == nil {
		// The nodes below the roots are few beside the states.
		t.nodes, t.ownsNodes = newNodeTable(room), true
	}
	if !t.roots.init(t, expected, room) {
		panic("explore: cannot allocate the node tables")
	}
	t.rootBlocks = chunkBlocks{owner: t, from: blockedFrom}
	t.roots.pairs.blocks = &t.rootBlocks
	return t
}

func (t *treeStore) bytes() int64 {
	b := t.roots.bytes() + t.lens.bytes() + t.rootBlocks.unused()
	if t.ownsNodes {
		b += t.nodes.bytes.Load()
	}
	if t.recent != nil {
		b += recentBytes
	}
	return b
}

// mapped is the memory of the roots' slots and of the chunk blocks,
// outside the Go heap.
func (t *treeStore) mapped() int64 {
	return t.roots.mapped() + t.rootBlocks.mapped()
}

// free releases the slots and the chunk blocks at once.
func (t *treeStore) free() {
	t.roots.free()
	t.rootBlocks.free()
}

// chunkBlocks hands out the chunks of the pairs' columns, once a column
// holds blockedFrom bytes, from mappings of blockWords words that ask for
// huge pages (allocWords): a column of hundreds of megabytes read at
// random, as the roots' pairs are by every matched successor, costs a TLB
// miss on almost every read in the Go heap's 4 KiB pages. Below, chunks
// stay in the heap, where a small search does not pay for a block's
// unused rest.
type chunkBlocks struct {
	owner *treeStore // whose dropping releases the blocks
	from  int64      // blockedFrom
	maps  [][]uint64
	clean []runtime.Cleanup
	rest  []uint64 // the last block's unused end
}

const (
	blockWords  = 2 << 20 / 8 // a huge page
	blockedFrom = 16 << 20
)

// chunk is n zero words from a block, or nil when a new block does not
// fit room or the system refuses it.
func (b *chunkBlocks) chunk(n int, room func(int64) bool) []uint64 {
	if len(b.rest) < n {
		size := max(blockWords, n)
		if !room(int64(size) * 8) {
			return nil
		}
		w, err := allocWords(size)
		if err != nil {
			return nil
		}
		b.maps = append(b.maps, w)
		b.clean = append(b.clean, runtime.AddCleanup(b.owner, freeWords, w))
		b.rest = w
	}
	c := b.rest[:n:n]
	b.rest = b.rest[n:]
	return c
}

// unused is the memory of the last block that no chunk holds yet.
func (b *chunkBlocks) unused() int64 { return int64(len(b.rest)) * 8 }

func (b *chunkBlocks) mapped() int64 {
	var n int64
	for _, w := range b.maps {
		n += int64(len(w)) * 8
	}
	return n
}

func (b *chunkBlocks) free() {
	for k, w := range b.maps {
		b.clean[k].Stop()
		freeWords(w)
	}
	b.maps, b.clean, b.rest = nil, nil, nil
}

// treeWords is the number of leaves of a vector of l bytes: at least two,
// so that the root is a pair.
func treeWords(l int) int { return max(2, (l+3)/4) }

// insert adds vec unless it is stored, as Store.Insert; full reports that
// a table could not take a new node.
func (t *treeStore) insert(vec []byte) (i Index, isNew, full bool) {
	l, r, h, found, ok := t.readyRoot(vec)
	if found != 0 {
		return found - 1, false, false
	}
	if !ok {
		if l, r, ok = t.root(vec, nil); !ok {
			return NoIndex, false, true
		}
		h = rootHash(uint64(l)<<32|uint64(r), len(vec))
	}
	if n := t.roots.n; n >= MaxStates {
		if j, found := t.roots.findRoot(l, r, h, len(vec), &t.lens); found {
			return j, false, false
		}
		return NoIndex, false, true
	}
	j, isNew, ok := t.roots.putRoot(l, r, h, len(vec), &t.lens)
	if !ok {
		return NoIndex, false, true
	}
	if isNew {
		t.lens.add(j, len(vec))
	}
	return j, isNew, false
}

// lookup returns the index of vec, or NoIndex when it is not stored (or
// when the node table is full: the insertion that follows finds that too).
// The nodes below the root that are new are added, as root does.
func (t *treeStore) lookup(vec []byte) Index {
	l, r, ok := t.root(vec, nil)
	if !ok {
		return NoIndex
	}
	h := rootHash(uint64(l)<<32|uint64(r), len(vec))
	if j, found := t.roots.findRoot(l, r, h, len(vec), &t.lens); found {
		return j
	}
	return NoIndex
}

// root returns the root pair of vec, adding the nodes below it that are
// new; false when the node table is full. base is the tree vec is a
// change to, if known (a Get of its parent); else the previous insertion
// is.
func (t *treeStore) root(vec []byte, base *treeCopy) (l, r uint32, ok bool) {
	m := treeWords(len(vec))
	n8 := paddedLen(m)
	if cap(t.cur) < n8 {
		t.cur = make([]byte, n8)
	}
	t.cur = t.cur[:n8]
	cur := t.cur
	copy(cur, vec)
	clear(cur[len(vec):])
	sh := t.shape(m)
	dirty := rootDirty(&t.dirty, m)
	p := &t.prev
	var b []byte // the base's bytes
	switch {
	case base != nil && base.m == m:
		p.nodes = append(p.nodes[:0], base.nodes...)
		b = base.bytes
	case p.m == m:
		b = p.bytes
	default:
		if cap(p.nodes) < m {
			p.nodes = make([]uint32, m)
		}
		p.nodes = p.nodes[:m]
		for pos := range m - 1 {
			dirty[pos>>6] |= 1 << (pos & 63)
		}
	}
	if b != nil {
		sh.markChanged(dirty, cur, b[:n8], m)
	}
	l, r, ok = t.build(sh, dirty)
	if !ok {
		p.m = 0
		return 0, 0, false
	}
	// cur becomes prev's bytes, and prev's the next cur.
	t.cur, p.bytes, p.m = p.bytes, cur, m
	return l, r, true
}

// readyRoot is the root of vec that prefetch prepared, if vec is the next
// successor it prepared.
func (t *treeStore) readyRoot(vec []byte) (l, r uint32, h uint64, found uint32, ok bool) {
	if t.next >= len(t.ready) {
		return 0, 0, 0, 0, false
	}
	e := &t.ready[t.next]
	t.next++
	if !e.ok || e.n != len(vec) || string(t.readyData[e.off:e.off+e.n]) != string(vec) {
		return 0, 0, 0, 0, false
	}
	return e.l, e.r, e.h, e.found, true
}

// prefetch prepares the roots of a batch's successors before the search
// inserts them in order: their nodes are looked up (and added), the
// roots' table slots are read in a loop of their own, and the roots are
// looked up in another, so that the memory system serves those reads at
// once rather than one insertion after another (see batch.go). A root
// found there is the successor's state, which its insertion returns
// without a second lookup: most successors are stored already, and the
// roots are never removed. It returns the sum of the slots it read, which
// keeps the reads.
func (t *treeStore) prefetch(b *batch) uint64 {
	t.clearReady()
	var base *treeCopy
	for k := range b.events {
		e := &b.events[k]
		if e.kind != evSucc {
			continue
		}
		g := base
		switch {
		case e.foreign:
			// Not a state of this store: its successors are diffed
			// against one another, as they come one after another.
			g = nil
		case base == nil || base.i != e.from:
			base = t.gotten(e.from)
			g = base
		}
		v := b.data[e.off : e.off+e.len]
		l, r, ok := t.root(v, g)
		t.addReady(v, l, r, ok)
	}
	return t.findReady()
}

// clearReady starts the roots prepared for a batch.
func (t *treeStore) clearReady() {
	t.ready, t.readyData, t.next = t.ready[:0], t.readyData[:0], 0
}

// addReady adds the root (l, r) of v, the next successor of a batch, to
// those prepared; ok false: there is none (the node table is full).
func (t *treeStore) addReady(v []byte, l, r uint32, ok bool) {
	t.ready = append(t.ready, readyRoot{l: l, r: r, h: rootHash(uint64(l)<<32|uint64(r), len(v)), off: len(t.readyData), n: len(v), ok: ok})
	t.readyData = append(t.readyData, v...)
}

// findReady reads the prepared roots' table slots in one loop and looks
// the roots up in another (see prefetch), and returns the sum of the
// slots it read.
func (t *treeStore) findReady() uint64 {
	var touch uint64
	rt := &t.roots
	for k := range t.ready {
		touch += uint64(rt.slots[rt.home(t.ready[k].h)])
	}
	for k := range t.ready {
		// Mostly a match, whose pair the loop reads while the previous
		// ones are still on their way.
		if e := &t.ready[k]; e.ok {
			if i, found := rt.findRoot(e.l, e.r, e.h, e.n, &t.lens); found {
				e.found = uint32(i) + 1
			}
		}
	}
	return touch
}

// gotten is the tree of state i if a recent Get kept it, else nil.
func (t *treeStore) gotten(i Index) *treeCopy {
	for k := range getsKept {
		// From the newest: a batch's successors follow their states' Gets.
		c := &t.gets[(t.getAt+getsKept-1-k)%getsKept]
		if c.m > 0 && c.i == i {
			return c
		}
	}
	return nil
}

// readyRoot is a successor's root as prefetch prepared it.
type readyRoot struct {
	l, r   uint32
	h      uint64
	off, n int // the vector in readyData
	ok     bool
	found  uint32 // the state's index plus one, if prefetch found it stored
}

// build returns the root pair of the vector in cur, of shape sh, and
// records in prev the nodes it looks up: those dirty marks, children
// before parents (in reverse pre-order); the others are prev's. False: the
// node table is full.
func (t *treeStore) build(sh *treeShape, dirty []uint64) (l, r uint32, ok bool) {
	nodes, cur := t.prev.nodes, t.cur
	for w := len(dirty) - 1; w >= 0; w-- {
		for x := dirty[w]; x != 0; {
			b := 63 - bits.LeadingZeros64(x)
			x &^= 1 << b
			pos := w<<6 | b
			kids := sh.kids[pos]
			l, r = kidValue(uint32(kids>>32), cur, nodes), kidValue(uint32(kids), cur, nodes)
			if pos == 0 {
				return l, r, true
			}
			n, ok := t.putNode(l, r)
			if !ok {
				return 0, 0, false
			}
			nodes[pos] = n
		}
	}
	panic("unreachable")
}

// kidValue is the value of child k of a tree position (treeShape.kids):
// a leaf's word of the padded vector cur, or the node found at position k,
// in nodes.
func kidValue(k uint32, cur []byte, nodes []uint32) uint32 {
	if k&leafRef != 0 {
		return binary.LittleEndian.Uint32(cur[4*(k&^leafRef):])
	}
	return nodes[k]
}

// treeShape is the tree of a vector of m words: the children of each
// position, and the parent of each position and leaf.
type treeShape struct {
	kids   []uint64 // left and right child: a position, or a leaf's index | leafRef
	up     []int32  // each position's parent (the root's: -1)
	leafUp []int32  // each leaf's parent
	path   []uint64 // of at most 64 words: the positions above each leaf, a bit each
}

// mark sets in dirty the positions above leaf k.
func (sh *treeShape) mark(dirty []uint64, k int) {
	if sh.path != nil {
		dirty[0] |= sh.path[k]
		return
	}
	// Up to the first position that is already marked.
	for p := sh.leafUp[k]; dirty[p>>6]>>(p&63)&1 == 0; p = sh.up[p] {
		dirty[p>>6] |= 1 << (p & 63)
	}
}

// markChanged sets in dirty the positions above the words in which cur
// and base, the padded bytes (treeCopy) of two vectors of m words, differ.
func (sh *treeShape) markChanged(dirty []uint64, cur, base []byte, m int) {
	for k := 0; k < len(cur); k += 8 {
		if x := binary.LittleEndian.Uint64(cur[k:]) ^ binary.LittleEndian.Uint64(base[k:]); x != 0 {
			if uint32(x) != 0 {
				sh.mark(dirty, k>>2)
			}
			if x>>32 != 0 && k>>2+1 < m { // else a padding word
				sh.mark(dirty, k>>2+1)
			}
		}
	}
}

// rootDirty returns the positions of a tree of m words to look up, a bit
// each, in *buf: the root alone, to start with.
func rootDirty(buf *[]uint64, m int) []uint64 {
	nw := (m + 63) >> 6
	if cap(*buf) < nw {
		*buf = make([]uint64, nw)
	}
	dirty := (*buf)[:nw]
	clear(dirty)
	dirty[0] = 1
	return dirty
}

// leafRef marks a child that is a leaf, in treeShape.kids.
const leafRef = 1 << 31

// shape is the tree of m words, built once per length.
func (t *treeStore) shape(m int) *treeShape {
	if sh := t.lastShape; sh != nil && len(sh.kids) == m {
		return sh
	}
	if sh := t.shapes[m]; sh != nil {
		t.lastShape = sh
		return sh
	}
	if t.shapes == nil {
		t.shapes = map[int]*treeShape{}
	}
	sh := &treeShape{kids: make([]uint64, m), up: make([]int32, m), leafUp: make([]int32, m)}
	var walk func(lo, hi, pos, parent int) uint32
	walk = func(lo, hi, pos, parent int) uint32 {
		if hi-lo == 1 {
			sh.leafUp[lo] = int32(parent)
			return uint32(lo) | leafRef
		}
		sh.up[pos] = int32(parent)
		mid := lo + (hi-lo+1)/2
		l := walk(lo, mid, pos+1, pos)
		r := walk(mid, hi, pos+mid-lo, pos)
		sh.kids[pos] = uint64(l)<<32 | uint64(r)
		return uint32(pos)
	}
	walk(0, m, 0, -1)
	if m <= 64 {
		sh.path = make([]uint64, m)
		for k := range m {
			for p := sh.leafUp[k]; p >= 0; p = sh.up[p] {
				sh.path[k] |= 1 << p
			}
		}
	}
	t.shapes[m], t.lastShape = sh, sh
	return sh
}

// get returns the vector of state i, in a buffer that the next get reuses.
func (t *treeStore) get(i Index) []byte {
	l := t.lens.of(i)
	m := treeWords(l)
	if t.outM != m {
		t.out = make([]byte, paddedLen(m))
		t.outNodes = make([]uint32, m)
		for k := range t.outNodes {
			t.outNodes[k] = noNode
		}
		t.outM = m
	}
	left, right := t.roots.pair(i)
	mid := (m + 1) / 2
	t.decode(0, mid, 1, left)
	t.decode(mid, m, mid, right)
	c := &t.gets[t.getAt]
	t.getAt = (t.getAt + 1) % getsKept
	c.set(i, m, t.out, t.outNodes)
	return t.out[:l:l]
}

func (t *treeStore) decode(lo, hi, pos int, v uint32) {
	if hi-lo == 1 {
		binary.LittleEndian.PutUint32(t.out[4*lo:], v)
		return
	}
	if t.outNodes[pos] == v {
		return // the bytes of [lo, hi) are this node's already
	}
	p := t.nodes.pair(v)
	mid := lo + (hi-lo+1)/2
	t.decode(lo, mid, pos+1, uint32(p>>32))
	t.decode(mid, hi, pos+mid-lo, uint32(p))
	t.outNodes[pos] = v
}

// slotTable is the hash table of a rootTable, which numbers the pairs it
// holds 0, 1, 2, ... in the order they are first put: a
// linear-probing table of 32-bit slots that finds a pair's number by its
// content. A slot holds the number plus one in its low ibits bits (0:
// empty) and, above them, low bits of the hash's upper half, whose high
// bits chose the home slot, so that most probes that miss do not read the
// pair.
//
// The table's size need not be a power of two: the home slot is the upper
// half of the hash times the size, shifted down. The table grows by half
// when 4/5 full, so it is 53% full or more after a growth and its slots
// cost 5 to 7.5 bytes a state wherever the search ends (doubling at 70%
// cost 5.7 to 11.4); finer steps would rehash the roots more often for
// little. The nodes' table (nodeTable), small beside it, doubles at 70% as
// a Store's table does, for the shorter probes.
type slotTable struct {
	slots   []uint32 // mapped outside the Go heap, as a Store's table (allocWords)
	words   []uint64 // the mapping, for freeWords
	clean   runtime.Cleanup
	owner   *treeStore // whose dropping releases the slots
	ibits   uint       // the low bits of a slot that hold the number
	idxMask uint32     // ibits ones
	n       int
	growAt  int
	room    func(int64) bool
	touched uint64 // the sum of placeAll's reads, which keeps them
}

const (
	minTreeSlots = 1 << minTableLog
	maxTreeSlots = 1 << maxTableLog
)

// treeLoadLimit is the number of pairs a slotTable of size slots holds
// before it grows.
func treeLoadLimit(size int) int { return size / 5 * 4 }

// nextTreeSlots is the size a slotTable of size slots grows to: half as
// large again, and even (allocWords maps slots in pairs).
func nextTreeSlots(size int) int { return min((size+size/2+1)&^1, maxTreeSlots) }

// treeSlots is the size of a slotTable that holds expected pairs before
// it grows.
func treeSlots(expected int) int {
	size := minTreeSlots
	for size < maxTreeSlots && expected > treeLoadLimit(size) {
		size = nextTreeSlots(size)
	}
	return size
}

func (t *slotTable) init(owner *treeStore, expected int, room func(int64) bool) bool {
	t.owner, t.room = owner, room
	size := treeSlots(expected)
	if !t.setSlots(size) {
		return false
	}
	t.growAt = treeLoadLimit(size)
	return true
}

// setSlots maps an empty table of size slots in place of the old one,
// which it frees; false when the system refuses the memory.
func (t *slotTable) setSlots(size int) bool {
	w, err := allocWords(size / 2)
	if err != nil {
		return false
	}
	t.free()
	t.words, t.slots = w, unsafe.Slice((*uint32)(unsafe.Pointer(&w[0])), size)
	// Numbers plus one are at most growAt, under the size.
	t.ibits = min(uint(bits.Len(uint(size))), 32)
	t.idxMask = uint32(uint64(1)<<t.ibits - 1)
	// Released when the table is dropped without free.
	t.clean = runtime.AddCleanup(t.owner, freeWords, w)
	return true
}

// free releases the slots at once.
func (t *slotTable) free() {
	if t.words != nil {
		t.clean.Stop()
		freeWords(t.words)
		t.words, t.slots = nil, nil
	}
}

// mapped is the memory of the slots, which is not Go memory where
// allocWords maps it.
func (t *slotTable) mapped() int64 { return int64(len(t.slots)) * 4 }

// home is the slot where the probe for hash h starts.
func (t *slotTable) home(h uint64) uint64 { return homeSlot(h, len(t.slots)) }

// tag is the part of a slot above the number (slotTag).
func (t *slotTable) tag(h uint64) uint32 { return slotTag(h, t.ibits) }

// homeSlot is the slot of a table of n slots where the probe for hash h
// starts: the upper half of the hash times n, shifted down.
func homeSlot(h uint64, n int) uint64 { return (h >> 32 * uint64(n)) >> 32 }

// slotTag is the part of a slot above its ibits bits of number: the low
// bits of the hash's upper half, which homeSlot reads little of.
func slotTag(h uint64, ibits uint) uint32 { return uint32(h>>32) << ibits }

// grow makes the table larger (nextTreeSlots), where rehash puts every
// pair again (placeAll), or when that does not fit lets it fill to 90%.
func (t *slotTable) grow(rehash func()) bool {
	size := len(t.slots)
	next := nextTreeSlots(size)
	if next == size || !t.room(int64(next)*4) {
		if hard := size / 10 * 9; t.growAt < hard && t.n < noNode-1 {
			t.growAt = hard
			return true
		}
		return false
	}
	old := *t
	t.words = nil // kept by old until the pairs are in the new table
	if !t.setSlots(next) {
		*t = old
		return false
	}
	rehash()
	old.free()
	t.growAt = treeLoadLimit(next)
	return true
}

// placeBlock is how many numbers placeAll reads the home slots of before
// it places them.
const placeBlock = 32

// placeAll puts the numbers i0, i0+1, ... whose hashes are hs in slots,
// a linear-probing table (slotTable's layout, ibits bits of number plus
// one under the tag) that holds none of them, and returns the sum of the
// slots it read first. A table that grows is larger than the cache:
// placeAll first reads the numbers' home slots in a loop whose reads do
// not wait on one another, so that the placements find them in the cache.
// A growth of a table of 55 million random roots took 5.0 s placing them
// one by one, 3.1 to 3.3 s so.
func placeAll(slots []uint32, ibits uint, i0 uint32, hs []uint64) uint64 {
	var touch uint64
	for _, h := range hs {
		touch += uint64(slots[homeSlot(h, len(slots))])
	}
	end := uint64(len(slots))
	for j, h := range hs {
		s := homeSlot(h, len(slots))
		for slots[s] != 0 {
			if s++; s == end {
				s = 0
			}
		}
		slots[s] = slotTag(h, ibits) | (i0 + uint32(j) + 1)
	}
	return touch
}

// rootTable holds the roots, whose numbers are the states' indices. Their
// pairs are packed (packedPairs): the node numbers they hold are few
// beside the states, so a root takes a few bytes rather than eight.
type rootTable struct {
	slotTable
	pairs packedPairs
}

func (t *rootTable) bytes() int64 { return t.mapped() + t.pairs.bytes() }

func (t *rootTable) pair(i Index) (l, r uint32) { return t.pairs.at(int(i)) }

// findRoot looks up the root (l, r) of a vector of length n, whose
// rootHash is h; not found, it returns the empty slot where it would go.
func (t *rootTable) findRoot(l, r uint32, h uint64, n int, lens *lengthTable) (Index, bool) {
	p, fits := t.pairs.pack(l, r)
	tag := t.tag(h)
	end := uint64(len(t.slots))
	for s := t.home(h); ; {
		e := t.slots[s]
		if e == 0 {
			return Index(s), false
		}
		if e&^t.idxMask == tag && fits {
			i := e&t.idxMask - 1
			if t.pairs.packed(int(i)) == p && lens.of(i) == n {
				return i, true
			}
		}
		if s++; s == end {
			s = 0
		}
	}
}

// putRoot adds the root (l, r) of a vector of length n unless it is
// stored, and returns its number and whether it is new; false when the
// table cannot take it.
func (t *rootTable) putRoot(l, r uint32, h uint64, n int, lens *lengthTable) (Index, bool, bool) {
	s, found := t.findRoot(l, r, h, n, lens)
	if found {
		return s, false, true
	}
	if t.n >= t.growAt {
		if !t.grow(func() { t.rehash(lens) }) {
			return NoIndex, false, false
		}
		return t.putRoot(l, r, h, n, lens)
	}
	if !t.pairs.append(l, r, t.room) {
		return NoIndex, false, false
	}
	t.n++
	i := uint32(t.n - 1)
	t.slots[s] = t.tag(h) | (i + 1)
	return i, true, true
}

// rehash puts every root in the table again (grow): it reads the pairs in
// order, unpacked in place, and places them a block at a time
// (placeBlock).
func (t *rootTable) rehash(lens *lengthTable) {
	c := &t.pairs
	w, step, right := c.w, 2*c.w, uint32(1)<<c.w-1
	common := lens.nexc == 0 && !lens.perState
	var hs [placeBlock]uint64
	for k, ch := range c.chunks {
		i0 := k << packedShift
		end := min(i0+1<<packedShift, c.n)
		var b uint
		for j0 := i0; j0 < end; j0 += placeBlock {
			m := min(placeBlock, end-j0)
			for j := range m {
				o := b & 63
				p := (ch[b>>6]>>o | ch[b>>6+1]<<(64-o)) & c.mask
				b += step
				n := lens.common
				if !common {
					n = lens.of(Index(j0 + j))
				}
				hs[j] = rootHash(p>>w<<32|p&uint64(right), n)
			}
			t.touched += placeAll(t.slots, t.ibits, uint32(j0), hs[:m])
		}
	}
}

// packedPairs is a column of pairs of w-bit values, each pair in 2w bits
// (the left value high), in chunks of 1<<packedShift pairs. w is the
// fewest bits (at least one) that hold every value appended so far: when a
// value needs more, the chunks are packed again one after another, so
// that the column never holds more than one chunk twice.
type packedPairs struct {
	chunks [][]uint64
	w      uint
	mask   uint64 // 2w ones
	n      int
	blocks *chunkBlocks // the chunks once they are many
}

const packedShift = 12 // pairs per chunk: 4Ki

// packedWords is the length of a chunk of pairs of w-bit values: a word
// more than they fill, so that a pair is always read from two words.
func packedWords(w uint) int { return 1<<packedShift*2*int(w)/64 + 1 }

// pack is (l, r) as the column holds it; false when they do not fit.
func (c *packedPairs) pack(l, r uint32) (uint64, bool) {
	return uint64(l)<<c.w | uint64(r), uint64(l|r)>>c.w == 0
}

// packed is pair i as pack gives it.
func (c *packedPairs) packed(i int) uint64 {
	ch := c.chunks[i>>packedShift]
	b := uint(i&(1<<packedShift-1)) * 2 * c.w
	k, o := b>>6, b&63
	return (ch[k]>>o | ch[k+1]<<(64-o)) & c.mask
}

func (c *packedPairs) at(i int) (l, r uint32) {
	p := c.packed(i)
	return uint32(p >> c.w), uint32(p) & (uint32(1)<<c.w - 1)
}

// putPacked writes p, a pair of w-bit values, as pair j of ch, a chunk
// whose bits there are zero.
func putPacked(ch []uint64, j int, w uint, p uint64) {
	b := uint(j) * 2 * w
	k, o := b>>6, b&63
	ch[k] |= p << o
	ch[k+1] |= p >> (64 - o) // nothing when the pair ends in word k
}

// append adds (l, r) as pair c.n, widening the pairs when they need it;
// false when room refuses the memory.
func (c *packedPairs) append(l, r uint32, room func(int64) bool) bool {
	if w := max(uint(bits.Len32(l|r)), 1); w > c.w && !c.widen(w, room) {
		return false
	}
	k := c.n >> packedShift
	if k == len(c.chunks) {
		var ch []uint64
		if c.blocks != nil && c.bytes() >= c.blocks.from {
			ch = c.blocks.chunk(packedWords(c.w), room)
		} else if room(int64(packedWords(c.w)) * 8) {
			ch = make([]uint64, packedWords(c.w))
		}
		if ch == nil {
			return false
		}
		c.chunks = append(c.chunks, ch)
	}
	putPacked(c.chunks[k], c.n&(1<<packedShift-1), c.w, uint64(l)<<c.w|uint64(r))
	c.n++
	return true
}

// widen packs the pairs again with w-bit values, a chunk at a time; false
// when room refuses the memory.
func (c *packedPairs) widen(w uint, room func(int64) bool) bool {
	size := packedWords(w)
	if !room(int64(len(c.chunks)*(size-packedWords(c.w))+size) * 8) {
		return false
	}
	// Chunks from blocks go to new blocks, and the old ones are released
	// when every chunk is packed again.
	var nb chunkBlocks
	blocked := c.blocks != nil && len(c.blocks.maps) > 0
	if blocked {
		nb.owner, nb.from = c.blocks.owner, c.blocks.from
	}
	yes := func(int64) bool { return true } // the room was asked for above
	for k := range c.chunks {
		var nc []uint64
		if blocked {
			nc = nb.chunk(size, yes)
		}
		if nc == nil {
			nc = make([]uint64, size)
		}
		for j := range min(1<<packedShift, c.n-k<<packedShift) {
			l, r := c.at(k<<packedShift + j)
			putPacked(nc, j, w, uint64(l)<<w|uint64(r))
		}
		c.chunks[k] = nc
	}
	if blocked {
		c.blocks.free()
		*c.blocks = nb
	}
	c.w, c.mask = w, ^uint64(0)>>(64-2*w)
	return true
}

// bytes is the memory the column holds.
func (c *packedPairs) bytes() int64 { return int64(len(c.chunks)) * int64(packedWords(c.w)) * 8 }

// columnGrowth is the memory c takes when it grows at the next append (0
// when it has room).
func columnGrowth[T uint32 | uint64](c *column[T]) int64 {
	// Every chunk but the last is full (column.grow).
	if k := len(c.chunks); k > 0 && c.n < (k-1)<<columnShift+len(c.chunks[k-1]) {
		return 0
	}
	var zero T
	var size int64
	switch {
	case len(c.chunks) == 1 && len(c.chunks[0]) < 1<<columnShift:
		size = int64(len(c.chunks[0]))
	case len(c.chunks) == 0:
		size = 1 << 10
	default:
		size = 1 << columnShift
	}
	return size * int64(unsafe.Sizeof(zero))
}

// lengthTable is the length of every state's vector: one common length,
// and the others as exceptions (a bit per state says which, and their
// indices and lengths in order), like the Store's fixed and variable
// arenas. When exceptions pass a quarter of the states, the most common
// length becomes the common one, or every length is kept when none has
// three quarters.
type lengthTable struct {
	common   int // the first state's length until a relayout
	n        int
	nexc     int
	excBits  column[uint64]
	excIdx   column[uint32]
	excLen   column[uint32]
	all      column[uint32] // every length, when perState
	perState bool
	relaidAt int
}

func (t *lengthTable) bytes() int64 {
	return t.excBits.bytes() + t.excIdx.bytes() + t.excLen.bytes() + t.all.bytes()
}

func (t *lengthTable) of(i Index) int {
	switch {
	case t.perState:
		return int(t.all.at(int(i)))
	case t.nexc == 0 || t.excBits.at(int(i>>6))>>(i&63)&1 == 0:
		return t.common
	}
	lo, hi := 0, t.excIdx.len()
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if t.excIdx.at(mid) < i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return int(t.excLen.at(lo))
}

// add records the length of state i, the next one.
func (t *lengthTable) add(i Index, l int) {
	if t.n == 0 && t.relaidAt == 0 {
		t.common = l
	}
	t.n++
	if t.perState {
		t.all.append(uint32(l))
		return
	}
	if t.nexc > 0 && int(i>>6) == t.excBits.len() {
		t.excBits.append(0)
	}
	if l == t.common {
		return
	}
	if t.nexc == 0 {
		for range i>>6 + 1 {
			t.excBits.append(0)
		}
	}
	t.nexc++
	t.excIdx.append(uint32(i))
	t.excLen.append(uint32(l))
	t.excBits.set(int(i>>6), t.excBits.at(int(i>>6))|1<<(i&63))
	if n := t.n; n >= 1024 && 4*t.nexc > n && n >= 2*t.relaidAt {
		t.relayout()
	}
}

// relayout makes the most common length the common one, or keeps every
// length when none has three quarters of the states.
func (t *lengthTable) relayout() {
	n := t.n
	count := map[int]int{}
	for i := range n {
		count[t.of(Index(i))]++
	}
	best, bestN := 0, -1
	for l, c := range count {
		if c > bestN || c == bestN && l > best {
			best, bestN = l, c
		}
	}
	u := lengthTable{common: best, relaidAt: n, perState: 4*bestN < 3*n}
	for i := range n {
		u.add(Index(i), t.of(Index(i)))
	}
	u.relaidAt = n
	*t = u
}
