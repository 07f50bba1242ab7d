package backreach

import (
	"context"
	"fmt"
	"math/bits"
	"sort"

	"ftmc/mcmt/system"
	"ftmc/trace"
)

// Invariant search by approximation, after Cubicle's BRAB (backward
// reachability with approximations and backtracking): the reachable states
// of a small instance (k processes, explored forward) serve as an oracle.
// Before a cube is added to the visited set, the search looks for a small
// sub-cube of it (a few of its literals, at most k processes) that no
// reachable state of the instance satisfies and that meets no initial
// state. Such a sub-cube is a guess of a negated invariant: it replaces the
// cube and becomes a root of its own. If the guess is wrong, some cube
// derived from it meets the initial states; the guess is then banned and
// the search starts again. Every verdict holds whatever the guesses:
// "holds" means that the property and every guess kept were proved
// together.

// oracle holds the reachable states of an instance.
type oracle struct {
	k      int
	conc   *system.Concrete
	arena  []byte
	size   int
	states int
	cache  map[lit][]uint64
}

// newOracle explores the instance with k processes. A reachable unsafe
// state is a real counterexample, returned as such.
func newOracle(ctx context.Context, sys *system.System, k int, maxStates int64) (*oracle, *trace.Counterexample, error) {
	in, err := system.NewInstance(sys, k)
	if err != nil {
		return nil, nil, err
	}
	o := &oracle{k: k, conc: in.C, size: in.C.Size, cache: map[lit][]uint64{}}
	res, err := system.Explore(ctx, in, system.ExploreOptions{MaxStates: maxStates, OnState: func(s []byte) {
		o.arena = append(o.arena, s...)
		o.states++
	}})
	if err != nil {
		return nil, nil, err
	}
	if res.Unsafe != nil {
		return nil, res.Unsafe, nil
	}
	if !res.Complete {
		return nil, nil, fmt.Errorf("the instance with %d processes was not explored completely: %s", k, res.Reason)
	}
	return o, nil, nil
}

// bits returns the set of states that satisfy l, whose process variables
// are the instance's processes.
func (o *oracle) bits(sys *system.System, l lit) []uint64 {
	if b, ok := o.cache[l]; ok {
		return b
	}
	b := make([]uint64, (o.states+63)/64)
	slot := func(a atom) int {
		switch {
		case a.isProc():
			return -1
		case a.local():
			return o.conc.Slot(sys.Vars[a.v()], a.k())
		}
		return o.conc.Slot(sys.Vars[a.v()], 0)
	}
	sx, sy := slot(l.x), -1
	if l.y != 0 {
		sy = slot(l.y)
	}
	for i := 0; i < o.states; i++ {
		s := o.arena[i*o.size : (i+1)*o.size]
		x := int64(l.x.k())
		if sx >= 0 {
			x = int64(int8(s[sx]))
		}
		y := int64(0)
		if l.y != 0 {
			y = int64(l.y.k())
			if sy >= 0 {
				y = int64(int8(s[sy]))
			}
		}
		ok := false
		switch l.op {
		case opEq:
			ok = x == y+l.c
		case opNe:
			ok = x != y+l.c
		case opLe:
			ok = x-y <= l.c
		case opGe:
			ok = x >= l.c
		}
		if ok {
			b[i/64] |= 1 << (i % 64)
		}
	}
	o.cache[l] = b
	return b
}

// reachable reports whether some reachable state of the instance satisfies
// c for some placement of its process variables on distinct processes.
func (o *oracle) reachable(e *engine, c *cube) bool {
	if c.n > o.k {
		return true // the instance cannot tell
	}
	sigma := make([]int, c.n)
	used := make([]bool, o.k)
	acc := make([]uint64, (o.states+63)/64)
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == c.n {
			for w := range acc {
				acc[w] = ^uint64(0)
			}
			for _, l := range c.lits {
				r, tr := e.voc.simplify(l.rename(sigma))
				switch tr {
				case isFalse:
					return false
				case isTrue:
					continue
				}
				b := o.bits(e.sys, r)
				any := uint64(0)
				for w := range acc {
					acc[w] &= b[w]
					any |= acc[w]
				}
				if any == 0 {
					return false
				}
			}
			return true
		}
		for p := 0; p < o.k; p++ {
			if used[p] {
				continue
			}
			used[p], sigma[i] = true, p
			found := rec(i + 1)
			used[p] = false
			if found {
				return true
			}
		}
		return false
	}
	return rec(0)
}

// approximate returns a sub-cube of c that the oracle finds unreachable and
// that meets no initial state, or nil.
func (e *engine) approximate(c *cube) (*cube, error) {
	o := e.oracle
	type cand struct {
		idx   []int
		procs int
	}
	varMask := make([]uint32, len(c.lits))
	for i, l := range c.lits {
		for _, a := range []atom{l.x, l.y} {
			if a != 0 && a.local() {
				varMask[i] |= 1 << uint(a.k())
			}
		}
	}
	var cands []cand
	var idx []int
	var rec func(from int, mask uint32)
	rec = func(from int, mask uint32) {
		if len(idx) > 0 && (len(idx) < len(c.lits)) {
			cands = append(cands, cand{append([]int(nil), idx...), bits.OnesCount32(mask)})
		}
		if len(idx) == e.opts.ApproxLits {
			return
		}
		for i := from; i < len(c.lits); i++ {
			m := mask | varMask[i]
			if bits.OnesCount32(m) > o.k {
				continue
			}
			idx = append(idx, i)
			rec(i+1, m)
			idx = idx[:len(idx)-1]
		}
	}
	rec(0, 0)
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].procs != cands[b].procs {
			return cands[a].procs < cands[b].procs
		}
		return len(cands[a].idx) < len(cands[b].idx)
	})
	for _, cd := range cands {
		// Renumber the process variables the literals use, keeping their
		// order.
		var mask uint32
		for _, i := range cd.idx {
			mask |= varMask[i]
		}
		sigma := make([]int, c.n)
		n := 0
		for k := 0; k < c.n; k++ {
			if mask&(1<<uint(k)) != 0 {
				sigma[k] = n
				n++
			}
		}
		lits := make([]lit, len(cd.idx))
		for j, i := range cd.idx {
			lits[j] = c.lits[i].rename(sigma)
		}
		a, ok := e.makeCube(n, lits)
		if !ok {
			continue
		}
		banned := false
		for _, b := range e.banned {
			if e.covers(a, b, true) {
				banned = true
				break
			}
		}
		if banned || o.reachable(e, a) {
			continue
		}
		hit, _, err := e.meetsInit(a)
		if err != nil {
			return nil, err
		}
		if hit {
			continue
		}
		return a, nil
	}
	return nil, nil
}
