package backreach

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
	mt.step(0)
}

// step matches literal i of d and the ones after it; false stops the search.
func (mt *matcher) step(i int) bool {
	if i == len(mt.d.lits) {
		return mt.complete(0)
	}
	l := mt.d.lits[i]
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
		result := unsat
		for _, l := range open[best] {
			st := rec(append(nc.lits[:len(nc.lits):len(nc.lits)], l.negate()), open)
			if st == sat {
				return sat
			}
			if st == undecided {
				result = undecided
			}
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
