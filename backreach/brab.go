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

// oracle holds the reachable states of an instance, and states of larger
// instances learnt from the runs that refuted guesses.
type oracle struct {
	k      int
	conc   *system.Concrete
	arena  []byte
	size   int
	states int
	cache  map[lit][]uint64
	learnt []learnt
}

type learnt struct {
	conc *system.Concrete
	vals []int64
}

// learn adds reachable states of an instance of any size.
func (o *oracle) learn(conc *system.Concrete, states [][]int64) {
	for _, v := range states {
		o.learnt = append(o.learnt, learnt{conc, v})
	}
}

// reachedLearnt reports whether a learnt state satisfies c.
func (o *oracle) reachedLearnt(e *engine, c *cube) bool {
	for _, st := range o.learnt {
		n := st.conc.N
		if c.n > n {
			continue
		}
		get := func(a atom) int64 {
			switch {
			case a.isProc():
				return int64(a.k())
			case a.local():
				return st.vals[st.conc.Slot(e.sys.Vars[a.v()], a.k())]
			}
			return st.vals[st.conc.Slot(e.sys.Vars[a.v()], 0)]
		}
		sigma := make([]int, c.n)
		used := make([]bool, n)
		var rec func(i int) bool
		rec = func(i int) bool {
			if i == c.n {
				for _, l := range c.lits {
					r := l.rename(sigma)
					x, y := get(r.x), int64(0)
					if r.y != 0 {
						y = get(r.y)
					}
					ok := false
					switch r.op {
					case opEq:
						ok = x == y+r.c
					case opNe:
						ok = x != y+r.c
					case opLe:
						ok = x-y <= r.c
					case opGe:
						ok = x >= r.c
					}
					if !ok {
						return false
					}
				}
				return true
			}
			for p := 0; p < n; p++ {
				if !used[p] {
					used[p], sigma[i] = true, p
					found := rec(i + 1)
					used[p] = false
					if found {
						return true
					}
				}
			}
			return false
		}
		if rec(0) {
			return true
		}
	}
	return false
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

// lemmaCovers reports whether a proved lemma covers c.
func (e *engine) lemmaCovers(c *cube) bool {
	for _, l := range e.lemmas {
		if e.covers(l, c, true) {
			return true
		}
	}
	return false
}

// prove runs a bounded backward search from a, with the axioms and the
// lemmas proved so far: unsat means no run reaches a (a is a lemma), sat
// that one does, undecided that the budget ran out.
func (e *engine) prove(ctx context.Context, a *cube) (status, error) {
	saved, savedMany := e.bounded, e.tooMany
	e.bounded, e.tooMany = true, false
	defer func() { e.bounded, e.tooMany = saved, savedMany }()
	queue := []*node{{c: a, tr: -1}}
	var visited []*node
	for head := 0; head < len(queue); head++ {
		if ctx.Err() != nil {
			return undecided, nil
		}
		nd := queue[head]
		hit, _, err := e.meetsInit(nd.c)
		if err != nil {
			return undecided, err
		}
		if hit {
			return sat, nil
		}
		cov, err := e.covered(ctx, nd.c, visited)
		if err != nil {
			return undecided, err
		}
		if cov {
			continue
		}
		if len(visited) >= e.opts.LemmaBudget {
			return undecided, nil
		}
		kept := visited[:0]
		for _, d := range visited {
			if !e.covers(nd.c, d.c, true) {
				kept = append(kept, d)
			}
		}
		visited = append(kept, nd)
		for _, tr := range e.trans {
			err := e.preimages(tr, nd.c, func(p preimage) {
				queue = append(queue, &node{c: p.c, parent: nd})
			})
			if err != nil {
				return undecided, err
			}
		}
	}
	if e.tooMany {
		return undecided, nil
	}
	return unsat, nil
}

// maxLemmaTries bounds the candidate lemmas tried per cube.
const maxLemmaTries = 3

// approximate looks for a sub-cube of c that the oracle finds unreachable
// and that meets no initial state. It tries to prove the first few such
// sub-cubes by a bounded search; a proved one becomes a lemma (and nil is
// returned: the lemma covers c). With Options.Guess, the first candidate
// that was neither proved nor refuted is returned as a guess.
func (e *engine) approximate(ctx context.Context, c *cube) (*cube, error) {
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
	tries := 0
	var guess *cube
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
		a, ok := e.voc.normalize(n, lits)
		if !ok {
			continue
		}
		key := e.voc.cubeString(a) + fmt.Sprintf("/%d", a.n)
		if e.tried[key] {
			continue
		}
		banned := false
		for _, b := range e.banned {
			if e.covers(a, b, true) {
				banned = true
				break
			}
		}
		if banned || o.reachable(e, a) || o.reachedLearnt(e, a) {
			continue
		}
		e.tried[key] = true
		if e.confirm != nil && e.confirm.reachable(e, a) {
			continue
		}
		if st, _ := e.solver.check(a.lits, false); st == unsat {
			continue
		}
		hit, _, err := e.meetsInit(a)
		if err != nil {
			return nil, err
		}
		if hit {
			continue
		}
		if e.opts.LemmaBudget < 0 {
			// Guess without trying to prove (Cubicle's BRAB).
			return a, nil
		}
		if tries == maxLemmaTries {
			break
		}
		tries++
		e.stats.LemmaTries++
		st, err := e.prove(ctx, a)
		if err != nil {
			return nil, err
		}
		switch st {
		case unsat:
			e.lemmas = append(e.lemmas, a)
			e.stats.Lemmas++
			if e.opts.Log != nil {
				fmt.Fprintf(e.opts.Log, "lemma %d: %s\n", len(e.lemmas), e.voc.cubeString(a))
			}
			return nil, nil
		case sat:
			e.banned = append(e.banned, a)
		default:
			if guess == nil {
				guess = a
			}
		}
	}
	if e.opts.Guess {
		return guess, nil
	}
	return nil, nil
}
