package backreach

import "slices"

// Subsumption: cube c is covered by cube d when some renaming σ of d's
// process variables into c's makes every literal of dσ a consequence of c
// (σ injective, since both quantify over distinct processes; axioms, which
// are universal, allow any σ).

// matcher searches for renamings.
type matcher struct {
	e         *engine
	d         *cube
	sum       *summary
	n         int // process variables of the target
	injective bool
	sigma     []int
	used      []bool
	order     []lit // d's literals in matching order
	// accept decides a literal under a complete renaming of its variables:
	// implied (for a proof of coverage) or not contradicted (for the
	// instances worth giving the SMT solver).
	accept func(l lit) bool
	// found is called with each complete renaming; returning false stops.
	found func(sigma []int) bool
}

func (mt *matcher) run() {
	mt.sigma = make([]int, mt.d.n)
	for i := range mt.sigma {
		mt.sigma[i] = -1
	}
	mt.used = make([]bool, mt.n)
	mt.order = mt.d.matchOrder()
	mt.step(0)
}

// step matches literal i of d and the ones after it; false stops the search.
func (mt *matcher) step(i int) bool {
	if i == len(mt.order) {
		return mt.complete(0)
	}
	l := mt.order[i]
	// The first process variable of l that is not mapped yet.
	for _, a := range []atom{l.x, l.y} {
		if a == 0 || (!a.local() && !a.isProc()) {
			continue
		}
		k := a.k()
		if mt.sigma[k] >= 0 {
			continue
		}
		for t := 0; t < mt.n; t++ {
			if mt.injective && mt.used[t] {
				continue
			}
			mt.sigma[k] = t
			if mt.injective {
				mt.used[t] = true
			}
			ok := mt.step(i)
			mt.sigma[k] = -1
			if mt.injective {
				mt.used[t] = false
			}
			if !ok {
				return false
			}
		}
		return true
	}
	r, tr := mt.e.voc.simplify(l.rename(mt.sigma))
	switch {
	case tr == isFalse:
		return true
	case tr == isLit && !mt.accept(r):
		return true
	}
	return mt.step(i + 1)
}

// complete maps the process variables of d that no literal mentions.
func (mt *matcher) complete(k int) bool {
	for k < len(mt.sigma) && mt.sigma[k] >= 0 {
		k++
	}
	if k == len(mt.sigma) {
		return mt.found(mt.sigma)
	}
	if !mt.injective {
		mt.sigma[k] = 0
		ok := mt.complete(k + 1)
		mt.sigma[k] = -1
		return ok
	}
	for t := 0; t < mt.n; t++ {
		if mt.used[t] {
			continue
		}
		mt.sigma[k], mt.used[t] = t, true
		ok := mt.complete(k + 1)
		mt.sigma[k], mt.used[t] = -1, false
		if !ok {
			return false
		}
	}
	return true
}

// covers reports whether d covers c syntactically.
func (e *engine) covers(d, c *cube, injective bool) bool {
	if d.mask&^c.mask != 0 || injective && d.n > c.n {
		return false
	}
	e.stats.Matches++
	sum := e.summarize(c)
	hit := false
	mt := &matcher{e: e, d: d, sum: sum, n: c.n, injective: injective,
		accept: func(l lit) bool { return e.implied(sum, l) },
		found:  func([]int) bool { hit = true; return false }}
	mt.run()
	return hit
}

// instances returns the renamings of d into c under which no literal of d
// contradicts c, as the clauses ¬dσ restricted to the literals c does not
// already imply. covered reports a renaming under which c implies all of
// dσ. At most limit instances are returned (more sets overflow).
func (e *engine) instances(d, c *cube, injective bool, limit int) (clauses [][]lit, covered, overflow bool) {
	if injective && d.n > c.n {
		return nil, false, false
	}
	sum := e.summarize(c)
	mt := &matcher{e: e, d: d, sum: sum, n: c.n, injective: injective,
		accept: func(l lit) bool { return !e.contradicted(sum, l) }}
	mt.found = func(sigma []int) bool {
		var open []lit
		for _, l := range d.lits {
			r, tr := e.voc.simplify(l.rename(sigma))
			if tr == isFalse {
				return true
			}
			if tr == isLit && !e.implied(sum, r) {
				open = append(open, r)
			}
		}
		if len(open) == 0 {
			covered = true
			return false
		}
		if len(clauses) == limit {
			overflow = true
			return false
		}
		clauses = append(clauses, open)
		return true
	}
	mt.run()
	return clauses, covered, overflow
}

// coverLocal decides c ⊨ ∨ clauses-cubes by case splitting: it looks for a
// satisfiable extension of c that falsifies a literal of every clause
// (found: not covered). It answers undecided when the budget runs out.
func (e *engine) coverLocal(c *cube, clauses [][]lit, budget *int) status {
	if e.outside(c, clauses) {
		return sat
	}
	clauses = minimal(clauses)
	var rec func(lits []lit, clauses [][]lit) status
	rec = func(lits []lit, clauses [][]lit) status {
		if *budget--; *budget < 0 {
			return undecided
		}
		nc := c
		if len(lits) != len(c.lits) {
			var ok bool
			if nc, ok = e.voc.normalize(c.n, lits); !ok {
				return unsat
			}
			if st, _ := e.solver.check(nc.lits, false); st != sat {
				return st
			}
		}
		sum := e.summarize(nc)
		var open [][]lit
		best := -1
		for _, cl := range clauses {
			var rest []lit
			done := false
			for _, l := range cl {
				if e.contradicted(sum, l) {
					done = true
					break
				}
				if !e.implied(sum, l) {
					rest = append(rest, l)
				}
			}
			if done {
				continue
			}
			if len(rest) == 0 {
				return unsat // this extension lies inside a covering cube
			}
			if best < 0 || len(rest) < len(open[best]) {
				best = len(open)
			}
			open = append(open, rest)
		}
		if len(open) == 0 {
			return sat
		}
		// Unit propagation: the literal of every one-literal clause is
		// false in any extension outside all the cubes; one step adds them
		// all.
		if len(open[best]) == 1 {
			ext := nc.lits[:len(nc.lits):len(nc.lits)]
			for _, cl := range open {
				if len(cl) == 1 {
					ext = append(ext, cl[0].negate())
				}
			}
			return rec(ext, open)
		}
		// The branches of ¬(l1 ∧ ... ∧ lk) are made disjoint: ¬l1, then
		// l1 ∧ ¬l2, ..., so that no extension is explored twice.
		result := unsat
		branch := nc.lits[:len(nc.lits):len(nc.lits)]
		for _, l := range open[best] {
			st := rec(append(branch[:len(branch):len(branch)], l.negate()), open)
			if st == sat {
				return sat
			}
			if st == undecided {
				result = undecided
			}
			branch = append(branch[:len(branch):len(branch)], l)
		}
		return result
	}
	return rec(c.lits, clauses)
}

// outside looks for a state of c outside every clause's cube cheaply: a
// solution of c's literals, extended on the atoms only the clauses mention
// so as to falsify a literal of each clause. False means none was found,
// not that none exists.
func (e *engine) outside(c *cube, clauses [][]lit) bool {
	st, model := e.solver.check(c.lits, true)
	if st != sat {
		return false
	}
	val := func(a atom) (int64, bool) {
		if a == 0 {
			return 0, true
		}
		v, ok := model[a]
		return v, ok
	}
next:
	for _, cl := range clauses {
		var free []lit
		for _, l := range cl {
			x, okx := val(l.x)
			y, oky := val(l.y)
			if okx && oky {
				if !holdsLit(l, x, y) {
					continue next
				}
				continue
			}
			free = append(free, l)
		}
		// Give an atom that c does not mention a value that falsifies a
		// literal: a value of its domain other than the one the literal
		// asks for.
		for _, l := range free {
			a, other := l.x, l.y
			if _, ok := val(a); ok {
				a, other = l.y, l.x
			}
			if a.isProc() {
				continue
			}
			if _, ok := val(other); !ok {
				continue
			}
			d := e.voc.dom(a)
			for _, v := range []int64{d.lo, d.hi, d.lo + 1, d.hi - 1} {
				if v <= -inf || v >= inf || v < d.lo || v > d.hi {
					continue
				}
				x, y := v, int64(0)
				if l.y != 0 {
					o, _ := val(other)
					if a == l.x {
						y = o
					} else {
						x, y = o, v
					}
				}
				if !holdsLit(l, x, y) {
					model[a] = v
					continue next
				}
			}
		}
		return false
	}
	return true
}

// minimal drops the clauses that contain all the literals of another one:
// their cubes lie inside the other's, so the disjunction is the same. The
// clauses are sorted in place.
func minimal(clauses [][]lit) [][]lit {
	if len(clauses) < 2 || len(clauses) > 1024 {
		return clauses
	}
	for _, cl := range clauses {
		slices.SortFunc(cl, litCmp)
	}
	byLen := slices.Clone(clauses)
	slices.SortStableFunc(byLen, func(a, b []lit) int { return len(a) - len(b) })
	out := byLen[:0]
next:
	for _, cl := range byLen {
		for _, k := range out {
			if subset(k, cl) {
				continue next
			}
		}
		out = append(out, cl)
	}
	return out
}

// subset reports whether the sorted a is contained in the sorted b.
func subset(a, b []lit) bool {
	if len(a) > len(b) {
		return false
	}
	j := 0
	for _, l := range a {
		for j < len(b) && litLess(b[j], l) {
			j++
		}
		if j == len(b) || b[j] != l {
			return false
		}
		j++
	}
	return true
}

// matchOrder lists the literals of d with those over globals and constants
// first, then those whose highest process variable is 0, 1, ...: a
// literal is decided as soon as the renaming of its variables is chosen,
// before the next variable is, and wrong choices fail early.
func (d *cube) matchOrder() []lit {
	if d.order != nil {
		return d.order
	}
	key := func(l lit) int {
		k := -1
		for _, a := range []atom{l.x, l.y} {
			if a != 0 && a.local() {
				k = max(k, a.k())
			}
		}
		return k
	}
	d.order = slices.Clone(d.lits)
	slices.SortStableFunc(d.order, func(a, b lit) int { return key(a) - key(b) })
	return d.order
}
