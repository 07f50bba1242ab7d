package explore

import (
	"math/bits"
)

// A batch of vectors is added to a compressed store in rounds: round j
// looks up the j-th node of every vector's tree. Within one vector each
// node depends on its children, so one vector's lookups wait on one
// another; those of a round do not, and the memory system serves them at
// once. Each round first reads the lookups' home slots in a loop of its
// own (see batch.go).

// treeBatch is the work of one batch, reused from one batch to the next.
type treeBatch struct {
	vecs  []batchVec
	cur   []byte   // the vectors, padded (treeCopy), one after another
	nodes []uint32 // each vector's node at each position
	order []int32  // each vector's positions to look up, children first
	act   []batchNode
	live  []int32 // the vectors still building
	dirty []uint64
}

// batchVec is one vector of a batch: where its parts start in the batch.
type batchVec struct {
	sh                *treeShape
	cur, nodes, order int
	len, m, n         int // bytes; words; positions to look up
	l, r              uint32
	state             int8 // 0: building; 1: built; -1: the node table is full
}

// batchNode is a lookup of a round: vector k's pair p at position pos.
type batchNode struct {
	k, pos int
	p, h   uint64
}

// addBatch adds vec to the batch. Its tree is diffed against that of the
// previous insertion before the batch, so that only the nodes above the
// words that differ are looked up.
func (t *treeStore) addBatch(b *treeBatch, vec []byte) {
	m := treeWords(len(vec))
	n8 := paddedLen(m)
	sh := t.shape(m)
	v := batchVec{sh: sh, cur: len(b.cur), nodes: len(b.nodes), order: len(b.order), len: len(vec), m: m}
	b.cur = append(b.cur, vec...)
	for range n8 - len(vec) {
		b.cur = append(b.cur, 0)
	}
	cur := b.cur[v.cur : v.cur+n8]
	dirty := rootDirty(&b.dirty, m)
	if base := &t.prev; base.m == m {
		b.nodes = append(b.nodes, base.nodes...)
		sh.markChanged(dirty, cur, base.bytes[:n8], m)
	} else {
		for range m {
			b.nodes = append(b.nodes, 0)
		}
		for pos := range m - 1 {
			dirty[pos>>6] |= 1 << (pos & 63)
		}
	}
	// Children before parents, as build: the highest positions first.
	for w := len(dirty) - 1; w >= 0; w-- {
		for x := dirty[w]; x != 0; {
			bt := 63 - bits.LeadingZeros64(x)
			x &^= 1 << bt
			b.order = append(b.order, int32(w<<6|bt))
		}
	}
	v.n = len(b.order) - v.order
	b.vecs = append(b.vecs, v)
}

// buildBatch finds the root pair of every vector of the batch, adding the
// nodes below them that are new, and makes the last vector built the
// previous insertion. It returns the sum of the slots it read.
func (t *treeStore) buildBatch(b *treeBatch) uint64 {
	var touch uint64
	live := b.live[:0]
	for k := range b.vecs {
		live = append(live, int32(k))
	}
	for j := 0; len(live) > 0; j++ {
		b.act = b.act[:0]
		tab := t.nodes.tab.Load()
		n := 0
		for _, k := range live {
			v := &b.vecs[k]
			if v.state != 0 {
				continue
			}
			// The root is the last position of every vector's order.
			pos := int(b.order[v.order+j])
			kids := v.sh.kids[pos]
			l := b.child(v, uint32(kids>>32))
			r := b.child(v, uint32(kids))
			if pos == 0 {
				v.l, v.r, v.state = l, r, 1
				continue
			}
			live[n] = k
			n++
			p := uint64(l)<<32 | uint64(r)
			h := pairHash(p)
			if t.recent == nil || t.recent[h&(1<<recentLog-1)].p != p {
				touch += uint64(tab.slots[tab.home(h)])
			}
			b.act = append(b.act, batchNode{k: int(k), pos: pos, p: p, h: h})
		}
		live = live[:n]
		for _, a := range b.act {
			v := &b.vecs[a.k]
			n, ok := t.putNodeHash(a.p, a.h)
			if !ok {
				v.state = -1
				continue
			}
			b.nodes[v.nodes+a.pos] = n
		}
	}
	b.live = live
	for k := len(b.vecs) - 1; k >= 0; k-- {
		if v := &b.vecs[k]; v.state == 1 {
			t.prev.set(0, v.m, b.cur[v.cur:v.cur+paddedLen(v.m)], b.nodes[v.nodes:v.nodes+v.m])
			break
		}
	}
	return touch
}

// child is the value of child k of a tree position of v (kidValue).
func (b *treeBatch) child(v *batchVec, k uint32) uint32 {
	return kidValue(k, b.cur[v.cur:], b.nodes[v.nodes:])
}

func (b *treeBatch) reset() {
	b.vecs, b.cur, b.nodes, b.order = b.vecs[:0], b.cur[:0], b.nodes[:0], b.order[:0]
}

// prepareBatch builds the batch's roots (buildBatch) and prepares them
// for the insertions of its vectors, in order, as prefetch does. It
// returns the sum of what it read.
func (t *treeStore) prepareBatch(b *treeBatch) uint64 {
	touch := t.buildBatch(b)
	t.clearReady()
	for k := range b.vecs {
		v := &b.vecs[k]
		t.addReady(b.cur[v.cur:v.cur+v.len], v.l, v.r, v.state == 1)
	}
	return touch + t.findReady()
}
