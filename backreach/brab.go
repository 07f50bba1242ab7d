package backreach

import (
	"context"
	"fmt"
	"math/bits"
	"sort"

	"ftmc/mcmt/system"
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

// oracle holds the reachable states of an instance in the
// stopping-failures semantics (the semantics backward reachability
// computes: a process may stop at any time, and universal guards and
// axioms then ignore it), and states of larger instances learnt from the
// runs that refuted guesses.
type oracle struct {
	k      int
	conc   *system.Concrete
	arena  []byte // per state: k-process values, then 2 bytes of running processes
	size   int
	states int
	cache  map[lit][]uint64
	// reach remembers the answers of reachable, by cube key: the states
	// it consults never change.
	reach map[string]bool
	// general remembers the results of generalize, by cube key.
	general map[string]*cube
	run     [][]uint64 // per process: the states in which it runs
	acc     []uint64   // scratch space of reachable
	learnt  []learnt
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
		if somePlacement(st.conc, c.n, func(sigma []int) bool { return e.holdsIn(c.lits, st.conc, st.vals, sigma) }) {
			return true
		}
	}
	return false
}

// holdsIn reports whether the literals ls hold in the state vals of the
// instance conc, with process variable k placed on process proc[k].
func (e *engine) holdsIn(ls []lit, conc *system.Concrete, vals []int64, proc []int) bool {
	get := func(a atom) int64 {
		switch {
		case a.isProc():
			return int64(proc[a.k()])
		case a.local():
			return vals[conc.Slot(e.sys.Vars[a.v()], proc[a.k()])]
		}
		return vals[conc.Slot(e.sys.Vars[a.v()], 0)]
	}
	for _, l := range ls {
		x, y := get(l.x), int64(0)
		if l.y != 0 {
			y = get(l.y)
		}
		if !holdsLit(l, x, y) {
			return false
		}
	}
	return true
}

func holdsLit(l lit, x, y int64) bool {
	switch l.op {
	case opEq:
		return x == y+l.c
	case opNe:
		return x != y+l.c
	case opLe:
		return x-y <= l.c
	}
	return x >= l.c
}

// newOracle explores the instance with k processes in the
// stopping-failures semantics, with the system axioms pruning states as
// they prune cubes.
func newOracle(ctx context.Context, sys *system.System, k int, maxStates int64) (*oracle, error) {
	conc, err := system.Compile(sys, k)
	if err != nil {
		return nil, err
	}
	o := &oracle{k: k, conc: conc, size: conc.Size + 2, cache: map[lit][]uint64{}, reach: map[string]bool{}, general: map[string]*cube{}}
	res, err := system.ExploreStopping(ctx, sys, k, system.StoppingOptions{MaxStates: maxStates, Axioms: true,
		OnState: func(vals []int64, running uint64) {
			for _, v := range vals {
				o.arena = append(o.arena, byte(int8(v)))
			}
			o.arena = append(o.arena, byte(running), byte(running>>8))
			o.states++
		}})
	if err != nil {
		return nil, err
	}
	if !res.Complete {
		return nil, fmt.Errorf("the instance with %d processes was not explored completely: %s", k, res.Reason)
	}
	words := (o.states + 63) / 64
	o.run = make([][]uint64, k)
	for p := range o.run {
		o.run[p] = make([]uint64, words)
	}
	for i := 0; i < o.states; i++ {
		s := o.arena[i*o.size : (i+1)*o.size]
		running := uint64(s[o.size-2]) | uint64(s[o.size-1])<<8
		for p := 0; p < k; p++ {
			if running&(1<<uint(p)) != 0 {
				o.run[p][i/64] |= 1 << (i % 64)
			}
		}
	}
	return o, nil
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
		if holdsLit(l, x, y) {
			b[i/64] |= 1 << (i % 64)
		}
	}
	o.cache[l] = b
	return b
}

// reachable reports whether some reachable state of the instance satisfies
// c for some placement of its process variables on distinct running
// processes.
func (o *oracle) reachable(e *engine, c *cube) bool {
	if c.n > o.k {
		return true // the instance cannot tell
	}
	key := c.key()
	if r, ok := o.reach[key]; ok {
		return r
	}
	r := o.reachableUncached(e, c)
	o.reach[key] = r
	return r
}

func (o *oracle) reachableUncached(e *engine, c *cube) bool {
	if o.acc == nil {
		o.acc = make([]uint64, (o.states+63)/64)
	}
	acc := o.acc
	var sets [][]uint64
	return somePlacement(o.conc, c.n, func(sigma []int) bool {
		// The states of the literals, then of the running processes
		// (which exclude few): their intersection, stopping as soon
		// as it is empty.
		sets = sets[:0]
		for _, l := range c.lits {
			r, tr := e.voc.simplify(l.rename(sigma))
			switch tr {
			case isFalse:
				return false
			case isTrue:
				continue
			}
			sets = append(sets, o.bits(e.sys, r))
		}
		for k := 0; k < c.n; k++ {
			sets = append(sets, o.run[sigma[k]])
		}
		if len(sets) == 0 {
			return len(acc) > 0
		}
		copy(acc, sets[0])
		for _, b := range sets[1:] {
			any := uint64(0)
			for w := range acc {
				acc[w] &= b[w]
				any |= acc[w]
			}
			if any == 0 {
				return false
			}
		}
		for _, w := range acc {
			if w != 0 {
				return true
			}
		}
		return false
	})
}

// somePlacement reports whether check holds for some placement sigma of n
// process variables on distinct processes of the instance conc.
func somePlacement(conc *system.Concrete, n int, check func(sigma []int) bool) bool {
	found := false
	conc.Params(n, func(sigma []int) bool {
		found = check(sigma)
		return !found
	})
	return found
}

// lemmaCovers reports whether a proved lemma covers c.
func (e *engine) lemmaCovers(c *cube) bool {
	for _, ls := range [][]*cube{e.invs, e.lemmas} {
		for _, l := range ls {
			if e.covers(l, c, true) {
				return true
			}
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
	// expanded counts the cubes added to the visited set, the budget's
	// measure: a later cube that covers earlier ones shrinks the set, and
	// a budget on its size would not bound the search.
	expanded := 0
	defer func() {
		e.proofNodes = expanded
		e.stats.ProofNodes += int64(expanded)
	}()
	for head := 0; head < len(queue); head++ {
		if ctx.Err() != nil {
			return undecided, nil
		}
		nd := queue[head]
		queue[head] = nil
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
		if expanded >= e.opts.LemmaBudget || e.work >= e.opts.MaxNodes {
			return undecided, nil
		}
		kept := visited[:0]
		for _, d := range visited {
			if !e.covers(nd.c, d.c, true) {
				kept = append(kept, d)
			}
		}
		visited = append(kept, nd)
		expanded++
		e.work++
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
var maxLemmaTries = 3

// approximate looks for a sub-cube of c that the oracle finds unreachable
// and that meets no initial state. It tries to prove the first few such
// sub-cubes by a bounded search; a proved one becomes a lemma (and nil is
// returned: the lemma covers c). With Options.Guess, the first candidate
// that was neither proved nor refuted is returned as a guess.
func (e *engine) approximate(ctx context.Context, c *cube) (*cube, error) {
	tries := 0
	var guess *cube
	for _, a := range e.candidates(c) {
		key := e.voc.cubeString(a) + fmt.Sprintf("/%d", a.n)
		if e.tried[key] {
			continue
		}
		e.tried[key] = true
		banned := false
		for _, b := range e.banned {
			if e.covers(a, b, true) {
				banned = true
				break
			}
		}
		if banned || e.oracle.reachedLearnt(e, a) {
			continue
		}
		if e.confirm != nil && e.confirm.reachable(e, a) {
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
		if e.opts.Log != nil {
			fmt.Fprintf(e.opts.Log, "try %s after %d cubes: %s\n", [...]string{unsat: "proved", sat: "reachable", undecided: "open"}[st], e.proofNodes, e.voc.cubeString(a))
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

// candidates returns sub-cubes of c that no state of the oracle satisfies,
// most general first: c is projected on every set of at most k of its
// processes (k the oracle's size; MCMT's inv_search_max_index_var), and
// each projection the oracle finds unreachable is generalized by dropping
// literals as long as it stays unreachable.
func (e *engine) candidates(c *cube) []*cube {
	o := e.oracle
	var out []*cube
	seen := map[string]bool{}
	sub := make([]int, 0, o.k)
	for size := 0; size <= min(e.opts.ApproxProcs, c.n) && len(out) == 0; size++ {
		var rec func(from int)
		rec = func(from int) {
			if len(sub) == size {
				if a := e.project(c, sub); a != nil && !o.reachable(e, a) {
					g := e.generalize(a)
					if e.opts.ApproxLits > 0 && len(g.lits) > e.opts.ApproxLits {
						return
					}
					if key := e.voc.cubeString(g) + fmt.Sprintf("/%d", g.n); !seen[key] {
						seen[key] = true
						out = append(out, g)
					}
				}
				return
			}
			for p := from; p < c.n; p++ {
				sub = append(sub, p)
				rec(p + 1)
				sub = sub[:len(sub)-1]
			}
		}
		rec(0)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n < out[j].n
		}
		return len(out[i].lits) < len(out[j].lits)
	})
	return out
}

// project keeps the literals of c over the processes procs (renumbered in
// that order) and the globals, or returns nil when none is left.
func (e *engine) project(c *cube, procs []int) *cube {
	sigma := make([]int, c.n)
	for i := range sigma {
		sigma[i] = -1
	}
	for i, p := range procs {
		sigma[p] = i
	}
	var lits []lit
	for _, l := range c.lits {
		ok := true
		for _, a := range []atom{l.x, l.y} {
			if a != 0 && (a.local() || a.isProc()) && sigma[a.k()] < 0 {
				ok = false
			}
		}
		if ok {
			lits = append(lits, l.rename(sigma))
		}
	}
	if len(lits) == 0 {
		return nil
	}
	a, ok := e.voc.normalize(len(procs), lits)
	if !ok {
		return nil
	}
	return a
}

// compact renumbers the processes that lits mention as 0..m-1, keeping
// their order, and normalizes.
func (e *engine) compact(lits []lit, n int) (*cube, bool) {
	sigma := make([]int, n)
	for i := range sigma {
		sigma[i] = -1
	}
	for _, l := range lits {
		for _, a := range []atom{l.x, l.y} {
			if a != 0 && (a.local() || a.isProc()) {
				sigma[a.k()] = 0
			}
		}
	}
	m := 0
	for k := range sigma {
		if sigma[k] == 0 {
			sigma[k] = m
			m++
		}
	}
	out := make([]lit, len(lits))
	for i, l := range lits {
		out[i] = l.rename(sigma)
	}
	return e.voc.normalize(m, out)
}

// generalize drops literals of a, which the oracle finds unreachable, as
// long as it stays so: literals that many reachable states satisfy go
// first, since they exclude the fewest.
func (e *engine) generalize(a *cube) *cube {
	o := e.oracle
	key := a.key()
	if g, ok := o.general[key]; ok {
		return g
	}
	g := e.generalizeUncached(a)
	o.general[key] = g
	return g
}

func (e *engine) generalizeUncached(a *cube) *cube {
	o := e.oracle
	lits := append([]lit(nil), a.lits...)
	weight := make(map[lit]int, len(lits))
	for _, l := range lits {
		w := 0
		if r, tr := e.voc.simplify(l); tr == isLit && (r.x == 0 || r.x.k() < o.k) && (r.y == 0 || r.y.k() < o.k) {
			for _, b := range o.bits(e.sys, r) {
				w += bits.OnesCount64(b)
			}
		}
		weight[l] = w
	}
	sort.SliceStable(lits, func(i, j int) bool { return weight[lits[i]] > weight[lits[j]] })
	best := a
	for i := 0; i < len(lits); {
		rest := append(append([]lit(nil), lits[:i]...), lits[i+1:]...)
		g, ok := e.compact(rest, a.n)
		if ok && len(rest) > 0 && !o.reachable(e, g) {
			if st, _ := e.solver.check(g.lits, false); st != unsat {
				lits, best = rest, g
				continue
			}
		}
		i++
	}
	return best
}
