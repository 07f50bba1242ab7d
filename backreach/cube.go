package backreach

import (
	"encoding/binary"
	"slices"
)

// cube is ∃ distinct processes 0..n-1 . the conjunction of lits. Its
// literals are normalized: per atom, constant constraints are merged into
// at most an equality, or bounds and disequalities inside them; the
// literals are sorted and unique.
type cube struct {
	n    int
	lits []lit
	mask uint64 // bit v%64 for each variable v the cube mentions
	sum  *summary
	// order is the literals in the order matching tries them (see
	// matchOrder), computed on first use.
	order []lit
}

// summary is what implication checks need: the bounds of every atom that
// the cube's difference constraints imply, its constant disequalities and
// its literals over two atoms.
type summary struct {
	atoms []atom // sorted
	doms  []domain
	ne    []lit // constant disequalities, sorted
	rel   []lit // literals over two atoms, sorted
}

func maskOf(lits []lit) uint64 {
	var m uint64
	for _, l := range lits {
		for _, a := range []atom{l.x, l.y} {
			if a != 0 && !a.isProc() {
				m |= 1 << (uint(a.v()) % 64)
			}
		}
	}
	return m
}

type bound struct {
	a      atom
	lo, hi int64
	ne     []int64
}

// normalize builds the cube of lits over n processes, or reports that the
// literals contradict each other in an obvious way (a full check follows
// with the solver).
func (voc *vocabulary) normalize(n int, lits []lit) (*cube, bool) {
	// The bounds of the atoms, in a small slice: cubes have a few dozen
	// literals, and a linear search beats a map at this size.
	bs := make([]bound, 0, 16)
	find := func(a atom) int {
		for i := range bs {
			if bs[i].a == a {
				return i
			}
		}
		return -1
	}
	get := func(a atom) *bound {
		if i := find(a); i >= 0 {
			return &bs[i]
		}
		d := voc.dom(a)
		bs = append(bs, bound{a: a, lo: d.lo, hi: d.hi})
		return &bs[len(bs)-1]
	}
	var rel []lit
	for _, l := range lits {
		if l.y != 0 {
			rel = append(rel, l)
			continue
		}
		b := get(l.x)
		switch l.op {
		case opEq:
			b.lo, b.hi = max(b.lo, l.c), min(b.hi, l.c)
		case opLe:
			b.hi = min(b.hi, l.c)
		case opGe:
			b.lo = max(b.lo, l.c)
		case opNe:
			b.ne = append(b.ne, l.c)
		}
		if b.lo > b.hi {
			return nil, false
		}
	}
	fixed := func(a atom) (int64, bool) {
		if i := find(a); i >= 0 && bs[i].lo == bs[i].hi {
			return bs[i].lo, true
		}
		return 0, false
	}
	// Propagate equalities between atoms into fixed values.
	for changed := true; changed; {
		changed = false
		kept := rel[:0]
		for _, l := range rel {
			vx, fx := fixed(l.x)
			vy, fy := fixed(l.y)
			switch {
			case fx && fy:
				ok := false
				switch l.op {
				case opEq:
					ok = vx == vy+l.c
				case opNe:
					ok = vx != vy+l.c
				case opLe:
					ok = vx-vy <= l.c
				}
				if !ok {
					return nil, false
				}
				changed = true
				continue
			case l.op == opEq && (fx || fy):
				a, v := l.y, vx-l.c
				if fy {
					a, v = l.x, vy+l.c
				}
				b := get(a)
				b.lo, b.hi = max(b.lo, v), min(b.hi, v)
				if b.lo > b.hi {
					return nil, false
				}
				changed = true
				continue
			}
			kept = append(kept, l)
		}
		rel = kept
	}
	rel = mergeOrder(rel)
	out := make([]lit, 0, len(lits))
	for i := range bs {
		b := &bs[i]
		a := b.a
		for slices.Contains(b.ne, b.lo) && b.lo <= b.hi {
			b.lo++
		}
		for slices.Contains(b.ne, b.hi) && b.lo <= b.hi {
			b.hi--
		}
		if b.lo > b.hi {
			return nil, false
		}
		if b.lo == b.hi {
			out = append(out, lit{x: a, op: opEq, c: b.lo})
			continue
		}
		d := voc.dom(a)
		if b.lo > d.lo {
			out = append(out, lit{x: a, op: opGe, c: b.lo})
		}
		if b.hi < d.hi {
			out = append(out, lit{x: a, op: opLe, c: b.hi})
		}
		for _, c := range b.ne {
			if c > b.lo && c < b.hi {
				out = append(out, lit{x: a, op: opNe, c: c})
			}
		}
	}
	out = append(out, rel...)
	slices.SortFunc(out, litCmp)
	out = slices.Compact(out)
	return &cube{n: n, lits: out, mask: maskOf(out)}, true
}

// summarize computes c's summary (once).
func (e *engine) summarize(c *cube) *summary {
	if c.sum != nil {
		return c.sum
	}
	s := &summary{}
	s.atoms, s.doms = e.solver.bounds(c.lits)
	for _, l := range c.lits {
		switch {
		case l.y != 0:
			s.rel = append(s.rel, l)
		case l.op == opNe:
			s.ne = append(s.ne, l)
		}
	}
	c.sum = s
	return s
}

func (e *engine) domIn(s *summary, a atom) domain {
	if i, ok := slices.BinarySearch(s.atoms, a); ok {
		return s.doms[i]
	}
	return e.voc.dom(a)
}

// implied reports whether the cube with summary s entails l, by cheap
// reasoning: bounds, and literals it contains or that are stronger.
func (e *engine) implied(s *summary, l lit) bool {
	if l.y == 0 {
		d := e.domIn(s, l.x)
		switch l.op {
		case opEq:
			return d.lo == l.c && d.hi == l.c
		case opNe:
			if l.c < d.lo || l.c > d.hi {
				return true
			}
			_, ok := slices.BinarySearchFunc(s.ne, l, litCmp)
			return ok
		case opLe:
			return d.hi <= l.c
		}
		return d.lo >= l.c
	}
	if _, ok := slices.BinarySearchFunc(s.rel, l, litCmp); ok {
		return true
	}
	dx, dy := e.domIn(s, l.x), e.domIn(s, l.y)
	switch l.op {
	case opEq:
		if dx.lo == dx.hi && dy.lo == dy.hi && dx.lo > -inf && dy.lo > -inf && dx.lo == dy.lo+l.c {
			return true
		}
	case opNe:
		if dx.hi < inf && dy.lo > -inf && dx.hi < dy.lo+l.c || dx.lo > -inf && dy.hi < inf && dx.lo > dy.hi+l.c {
			return true
		}
		if l.x.isProc() && l.y.isProc() && l.c == 0 {
			return true
		}
	case opLe:
		if dx.hi < inf && dy.lo > -inf && dx.hi-dy.lo <= l.c {
			return true
		}
	}
	// A stronger literal over the same two atoms.
	for _, r := range s.rel {
		switch {
		case l.op == opLe && r.op == opLe && r.x == l.x && r.y == l.y && r.c <= l.c:
			return true
		case l.op == opLe && r.op == opEq && r.x == l.x && r.y == l.y && r.c <= l.c:
			return true
		case l.op == opLe && r.op == opEq && r.x == l.y && r.y == l.x && -r.c <= l.c:
			return true
		case l.op == opNe && r.op == opLe && r.x == l.x && r.y == l.y && r.c < l.c:
			return true
		case l.op == opNe && r.op == opLe && r.x == l.y && r.y == l.x && r.c < -l.c:
			return true
		case l.op == opNe && r.op == opEq && r.x == l.x && r.y == l.y && r.c != l.c:
			return true
		}
	}
	return false
}

// contradicted reports whether the cube entails the negation of l.
func (e *engine) contradicted(s *summary, l lit) bool { return e.implied(s, l.negate()) }

// mergeOrder keeps the strongest of the literals x - y <= c on each pair of
// atoms, turns x - y <= c and y - x <= -c into x = y + c, and makes order
// constraints between identifiers strict (distinct processes differ).
func mergeOrder(rel []lit) []lit {
	type pair struct{ x, y atom }
	best := map[pair]int64{}
	for _, l := range rel {
		if l.op != opLe {
			continue
		}
		c := l.c
		if l.x.isProc() && l.y.isProc() && c == 0 {
			c = -1
		}
		if old, ok := best[pair{l.x, l.y}]; !ok || c < old {
			best[pair{l.x, l.y}] = c
		}
	}
	if len(best) == 0 {
		return rel
	}
	out := rel[:0:0]
	for _, l := range rel {
		if l.op != opLe {
			out = append(out, l)
		}
	}
	for p, c := range best {
		if back, ok := best[pair{p.y, p.x}]; ok && back == -c {
			if p.x < p.y {
				out = append(out, lit{x: p.x, y: p.y, op: opEq, c: c})
			}
			continue
		}
		out = append(out, lit{x: p.x, y: p.y, op: opLe, c: c})
	}
	return out
}

// key identifies a normalized cube (its processes and literals) as a map
// key.
func (c *cube) key() string {
	b := make([]byte, 0, 1+len(c.lits)*17)
	b = append(b, byte(c.n))
	for _, l := range c.lits {
		b = binary.LittleEndian.AppendUint32(b, uint32(l.x))
		b = binary.LittleEndian.AppendUint32(b, uint32(l.y))
		b = append(b, byte(l.op))
		b = binary.LittleEndian.AppendUint64(b, uint64(l.c))
	}
	return string(b)
}
