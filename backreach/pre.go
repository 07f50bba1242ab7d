package backreach

import (
	"ftmc/mcmt/system"
)

// alt is one possible value of an atom after a transition: the term, under
// a condition on the state before.
type alt struct {
	cond dnf
	t    iterm
}

// sysOp maps a normalized literal's comparison back to the model's.
var sysOp = [...]system.Op{opEq: system.Eq, opNe: system.Ne, opLe: system.Le, opGe: system.Ge}

// rebuild is lit l with its atoms replaced by the terms tx and ty.
func (voc *vocabulary) rebuild(l lit, tx, ty iterm) (lit, truth) {
	if l.y == 0 {
		ty = iterm{0, 0}
	}
	return voc.mkLit(sysOp[l.op], tx, iterm{ty.a, ty.c + l.c})
}

// preimage is one cube of a pre-image, with the process variables the
// transition's parameters were placed on.
type preimage struct {
	c      *cube
	params []int
	approx bool // constraints on a nondeterministic value were dropped
}

// preimages computes pre(tr, c): for every placement of the parameters on
// c's process variables or on new ones (numbered from c.n on), the states
// from which tr leads into c. The universal guard is instantiated for the
// process variables of the result only (see the package comment).
func (e *engine) preimages(tr *itrans, c *cube, emit func(preimage)) error {
	if c.mask&tr.updMask == 0 {
		// The transition changes nothing c talks about: its pre-image
		// is contained in c (the check in preimage, for every placement
		// of the parameters at once).
		return nil
	}
	m := tr.m
	var sum *summary
	excluded := func(a atom, op system.Op, v int64) bool {
		if sum == nil {
			sum = e.summarize(c)
		}
		d := e.domIn(sum, a)
		switch op {
		case system.Eq:
			return v < d.lo || v > d.hi
		case system.Lt:
			return d.lo >= v
		case system.Le:
			return d.lo > v
		case system.Gt:
			return d.hi <= v
		case system.Ge:
			return d.hi < v
		}
		return d.lo == v && d.hi == v
	}
	for _, p := range tr.post {
		if excluded(globalAtom(p.v), p.op, p.c) {
			return nil
		}
	}
	for _, p := range tr.pre {
		if !p.local && excluded(globalAtom(p.v), p.op, p.c) {
			return nil
		}
	}
	// placedOK reports whether parameter i may sit on process variable k.
	placedOK := func(i, k int) bool {
		for _, p := range tr.pre {
			if p.local && p.slot == i && excluded(readAtom(p.v, k), p.op, p.c) {
				return false
			}
		}
		return true
	}
	params := make([]int, m)
	used := make([]bool, c.n)
	var rec func(i, fresh int) error
	rec = func(i, fresh int) error {
		if i == m {
			return e.preimage(tr, c, params, c.n+fresh, emit)
		}
		for k := 0; k < c.n; k++ {
			if used[k] || !placedOK(i, k) {
				continue
			}
			used[k], params[i] = true, k
			if err := rec(i+1, fresh); err != nil {
				return err
			}
			used[k] = false
		}
		params[i] = c.n + fresh
		return rec(i+1, fresh+1)
	}
	return rec(0, 0)
}

func (e *engine) preimage(tr *itrans, c *cube, params []int, n int, emit func(preimage)) error {
	if n > maxProcs {
		e.tooMany = true
		return nil
	}
	if tr.unchanged(c, params) {
		return nil
	}
	voc := e.voc
	voc.extra = voc.extra[:0]
	m := tr.m
	bind := make([]int, m+2)
	copy(bind, params)

	// The value of each atom of c after the transition.
	alts := map[atom][]alt{}
	identity := true
	valueOf := func(a atom) ([]alt, error) {
		if as, ok := alts[a]; ok {
			return as, nil
		}
		same := []alt{{dTrue, iterm{a, 0}}}
		var cases []icase
		if !a.isProc() {
			cases = tr.upd[a.v()]
		}
		if cases == nil {
			alts[a] = same
			return same, nil
		}
		if a.local() {
			bind[m+1] = a.k()
		}
		var as []alt
		rest := dTrue
		for _, cs := range cases {
			cond := rest
			if cs.cond != nil {
				yes, err := voc.instForm(cs.cond, bind, false)
				if err != nil {
					return nil, err
				}
				no, err := voc.instForm(cs.cond, bind, true)
				if err != nil {
					return nil, err
				}
				if cond, err = and(rest, yes); err != nil {
					return nil, err
				}
				if rest, err = and(rest, no); err != nil {
					return nil, err
				}
			}
			if len(cond) > 0 {
				var t iterm
				if cs.val.kind == system.Any {
					t = iterm{globalAtom(len(voc.doms) + len(voc.extra)), 0}
					voc.extra = append(voc.extra, voc.doms[a.v()])
				} else {
					t = inst(cs.val, bind)
				}
				as = append(as, alt{cond, t})
			}
			if cs.cond == nil || len(rest) == 0 {
				break
			}
		}
		if len(as) != 1 || len(as[0].cond) != 1 || len(as[0].cond[0]) != 0 || as[0].t != (iterm{a, 0}) {
			identity = false
		}
		alts[a] = as
		return as, nil
	}
	for _, l := range c.lits {
		if _, err := valueOf(l.x); err != nil {
			return err
		}
		if l.y != 0 {
			if _, err := valueOf(l.y); err != nil {
				return err
			}
		}
	}
	if identity {
		// The transition changes nothing c talks about: its pre-image is
		// contained in c.
		return nil
	}

	acc, err := voc.instForm(tr.guard, bind, false)
	if err != nil {
		return err
	}
	for _, l := range c.lits {
		if len(acc) == 0 {
			return nil
		}
		var d dnf
		for _, ax := range alts[l.x] {
			ys := []alt{{dTrue, iterm{}}}
			if l.y != 0 {
				ys = alts[l.y]
			}
			for _, ay := range ys {
				nl, tr := voc.rebuild(l, ax.t, ay.t)
				if tr == isFalse {
					continue
				}
				cond, err := and(ax.cond, ay.cond)
				if err != nil {
					return err
				}
				if tr == isLit {
					if cond, err = and(cond, dnf{{nl}}); err != nil {
						return err
					}
				}
				d = append(d, cond...)
			}
		}
		if acc, err = and(acc, d); err != nil {
			return err
		}
		acc = e.prune(n, acc)
	}
	if tr.uguard != nil {
		for u := 0; u < n; u++ {
			isParam := false
			for _, p := range params {
				isParam = isParam || p == u
			}
			if isParam {
				continue
			}
			bind[m] = u
			d, err := voc.instForm(tr.uguard, bind, false)
			if err != nil {
				return err
			}
			if acc, err = and(acc, d); err != nil {
				return err
			}
			acc = e.prune(n, acc)
		}
	}
	for _, conj := range acc {
		for _, r := range e.eliminate(conj) {
			pc, ok := e.makeCube(n, r.lits)
			if !ok {
				continue
			}
			emit(preimage{c: pc, params: append([]int(nil), params...), approx: r.approx})
		}
	}
	return nil
}

// prune drops the conjunctions of d that are obviously contradictory, once
// d has several (a single one is checked when the cube is made).
func (e *engine) prune(n int, d dnf) dnf {
	if len(d) <= 1 {
		return d
	}
	out := d[:0]
	for _, conj := range d {
		if _, ok := e.voc.normalize(n, conj); ok {
			out = append(out, conj)
		}
	}
	return out
}

type elim struct {
	lits   []lit
	approx bool
}

// eliminate removes the placeholders of nondeterministic values from a
// conjunction: ∃v. φ(v). Over a small finite domain this is the
// disjunction of φ(value); an equation v = t substitutes t; otherwise the
// literals on v are dropped, which over-approximates.
func (e *engine) eliminate(conj []lit) []elim {
	voc := e.voc
	first := len(voc.doms)
	var ph atom
	for _, l := range conj {
		for _, a := range []atom{l.x, l.y} {
			if a != 0 && !a.isProc() && a.v() >= first {
				ph = a
			}
		}
	}
	if ph == 0 {
		return []elim{{lits: conj}}
	}
	subst := func(t iterm) ([]lit, bool) {
		var out []lit
		for _, l := range conj {
			tx, ty := iterm{l.x, 0}, iterm{l.y, 0}
			if l.x == ph {
				tx = t
			}
			if l.y == ph {
				ty = t
			}
			if l.x != ph && l.y != ph {
				out = append(out, l)
				continue
			}
			nl, tr := voc.rebuild(l, tx, ty)
			switch tr {
			case isFalse:
				return nil, false
			case isLit:
				out = append(out, nl)
			}
		}
		return out, true
	}
	var out []elim
	d := voc.dom(ph)
	if d.finite() && d.hi-d.lo < 8 {
		for v := d.lo; v <= d.hi; v++ {
			if lits, ok := subst(iterm{0, v}); ok {
				out = append(out, e.eliminate(lits)...)
			}
		}
		return out
	}
	for _, l := range conj {
		if l.op != opEq || l.y == 0 || (l.x == ph) == (l.y == ph) {
			continue
		}
		// ph = y + c, or x = ph + c.
		t := iterm{l.y, l.c}
		if l.y == ph {
			t = iterm{l.x, -l.c}
		}
		if lits, ok := subst(t); ok {
			return e.eliminate(lits)
		}
		return nil
	}
	var kept []lit
	for _, l := range conj {
		if l.x != ph && l.y != ph {
			kept = append(kept, l)
		}
	}
	rs := e.eliminate(kept)
	for i := range rs {
		rs[i].approx = true
	}
	return rs
}

// unchanged reports, cheaply, that the transition with its parameters on
// params changes no atom of c: every local array it updates it updates at
// the parameters only, and c reads them elsewhere. Its pre-image is then
// contained in c. False means that the full computation must decide.
func (tr *itrans) unchanged(c *cube, params []int) bool {
	same := func(a atom) bool {
		if a == 0 || a.isProc() || tr.upd[a.v()] == nil {
			return true
		}
		if !a.local() || !tr.onlyParams[a.v()] {
			return false
		}
		for _, p := range params {
			if p == a.k() {
				return false
			}
		}
		return true
	}
	for _, l := range c.lits {
		if !same(l.x) || !same(l.y) {
			return false
		}
	}
	return true
}
