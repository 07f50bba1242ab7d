package ltl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"ftmc/internal/ident"
)

// The translator works on formulas in negation normal form, hash-consed in a
// table so that equal subformulas have equal ids and sets of formulas are
// sorted id lists. Constructors simplify as they build (the rewrite rules of
// LTL2BA and of Spot's basic simplifier, plus Somenzi and Bloem's syntactic
// implication), so every formula in the table is already simplified.

type fid int32

type fop uint8

const (
	fTrue fop = iota
	fFalse
	fLit     // atom, neg
	fAnd     // kids (sorted, at least 2)
	fOr      // kids (sorted, at least 2)
	fNext    // l
	fUntil   // l U r
	fRelease // l V r
	fEvent   // F l (true U l)
	fAlways  // G l (false V l)
)

type fnode struct {
	op   fop
	atom int32
	neg  bool
	l, r fid
	kids []fid
	// eventual: f is equivalent to F f; universal: f is equivalent to G f
	// (Etessami and Holzmann's pure eventualities and universals).
	eventual, universal bool
	// promising: f has an until or eventually inside (it can postpone).
	promising bool
}

type ftab struct {
	nodes []fnode
	index map[string]fid
	atoms []string
	atomN map[string]int32
	depth int // of the implication check, to bound its cost
	imp   map[[2]fid]bool
	negs  map[fid]fid
	conv  map[convKey]fid
}

type convKey struct {
	f   *Formula
	neg bool
}

func newFtab() *ftab {
	t := &ftab{index: map[string]fid{}, atomN: map[string]int32{}, imp: map[[2]fid]bool{}, negs: map[fid]fid{}, conv: map[convKey]fid{}}
	t.intern(fnode{op: fTrue, eventual: true, universal: true})
	t.intern(fnode{op: fFalse, eventual: true, universal: true})
	return t
}

const (
	idTrue  fid = 0
	idFalse fid = 1
)

func (t *ftab) key(n *fnode) string {
	var b strings.Builder
	b.WriteByte(byte('a' + n.op))
	switch n.op {
	case fLit:
		b.WriteString(strconv.Itoa(int(n.atom)))
		if n.neg {
			b.WriteByte('!')
		}
	case fAnd, fOr:
		for _, k := range n.kids {
			b.WriteString(strconv.Itoa(int(k)))
			b.WriteByte(',')
		}
	default:
		b.WriteString(strconv.Itoa(int(n.l)))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(int(n.r)))
	}
	return b.String()
}

func (t *ftab) intern(n fnode) fid {
	k := t.key(&n)
	if id, ok := t.index[k]; ok {
		return id
	}
	switch n.op {
	case fUntil, fEvent:
		n.promising = true
	case fAnd, fOr:
		for _, c := range n.kids {
			n.promising = n.promising || t.nodes[c].promising
		}
	case fNext, fRelease, fAlways:
		n.promising = t.nodes[n.l].promising || n.op == fRelease && t.nodes[n.r].promising
	}
	id := fid(len(t.nodes))
	t.nodes = append(t.nodes, n)
	t.index[k] = id
	return id
}

func (t *ftab) n(id fid) *fnode { return &t.nodes[id] }

func (t *ftab) atom(name string) int32 {
	if i, ok := t.atomN[name]; ok {
		return i
	}
	i := int32(len(t.atoms))
	t.atoms = append(t.atoms, name)
	t.atomN[name] = i
	return i
}

func (t *ftab) lit(atom int32, neg bool) fid {
	return t.intern(fnode{op: fLit, atom: atom, neg: neg})
}

// neg returns the negation of f, in negation normal form.
func (t *ftab) neg(f fid) fid {
	if g, ok := t.negs[f]; ok {
		return g
	}
	g := t.neg1(f)
	t.negs[f] = g
	return g
}

func (t *ftab) neg1(f fid) fid {
	n := *t.n(f)
	switch n.op {
	case fTrue:
		return idFalse
	case fFalse:
		return idTrue
	case fLit:
		return t.lit(n.atom, !n.neg)
	case fAnd, fOr:
		ks := make([]fid, len(n.kids))
		for i, k := range n.kids {
			ks[i] = t.neg(k)
		}
		if n.op == fAnd {
			return t.or(ks...)
		}
		return t.and(ks...)
	case fNext:
		return t.next(t.neg(n.l))
	case fUntil:
		return t.release(t.neg(n.l), t.neg(n.r))
	case fRelease:
		return t.until(t.neg(n.l), t.neg(n.r))
	case fEvent:
		return t.always(t.neg(n.l))
	case fAlways:
		return t.eventually(t.neg(n.l))
	}
	panic("ltl: bad formula node")
}

// fromFormula converts a parsed formula, negated if neg, into the table.
func (t *ftab) fromFormula(f *Formula, neg bool) fid {
	// Memoized: <-> uses each operand twice, which is exponential in the
	// nesting depth otherwise.
	k := convKey{f, neg}
	if id, ok := t.conv[k]; ok {
		return id
	}
	id := t.fromFormula1(f, neg)
	t.conv[k] = id
	return id
}

func (t *ftab) fromFormula1(f *Formula, neg bool) fid {
	switch f.Op {
	case OpTrue:
		if neg {
			return idFalse
		}
		return idTrue
	case OpFalse:
		if neg {
			return idTrue
		}
		return idFalse
	case OpAtom:
		return t.lit(t.atom(f.Atom), neg)
	case OpNot:
		return t.fromFormula(f.L, !neg)
	case OpAnd, OpOr:
		l, r := t.fromFormula(f.L, neg), t.fromFormula(f.R, neg)
		if (f.Op == OpAnd) != neg {
			return t.and(l, r)
		}
		return t.or(l, r)
	case OpImplies:
		if neg {
			return t.and(t.fromFormula(f.L, false), t.fromFormula(f.R, true))
		}
		return t.or(t.fromFormula(f.L, true), t.fromFormula(f.R, false))
	case OpEquiv:
		a, na := t.fromFormula(f.L, false), t.fromFormula(f.L, true)
		b, nb := t.fromFormula(f.R, false), t.fromFormula(f.R, true)
		if neg {
			return t.or(t.and(a, nb), t.and(na, b))
		}
		return t.or(t.and(a, b), t.and(na, nb))
	case OpNext:
		return t.next(t.fromFormula(f.L, neg))
	case OpAlways:
		if neg {
			return t.eventually(t.fromFormula(f.L, true))
		}
		return t.always(t.fromFormula(f.L, false))
	case OpEventually:
		if neg {
			return t.always(t.fromFormula(f.L, true))
		}
		return t.eventually(t.fromFormula(f.L, false))
	case OpUntil:
		if neg {
			return t.release(t.fromFormula(f.L, true), t.fromFormula(f.R, true))
		}
		return t.until(t.fromFormula(f.L, false), t.fromFormula(f.R, false))
	case OpRelease:
		if neg {
			return t.until(t.fromFormula(f.L, true), t.fromFormula(f.R, true))
		}
		return t.release(t.fromFormula(f.L, false), t.fromFormula(f.R, false))
	case OpWeakUntil:
		// a W b = b V (a || b); !(a W b) = !b U (!a && !b)
		if neg {
			nb := t.fromFormula(f.R, true)
			return t.until(nb, t.and(t.fromFormula(f.L, true), nb))
		}
		b := t.fromFormula(f.R, false)
		return t.release(b, t.or(t.fromFormula(f.L, false), b))
	}
	panic("ltl: bad formula")
}

// and builds the conjunction of fs, simplified.
func (t *ftab) and(fs ...fid) fid { return t.junction(fAnd, fs) }

// or builds the disjunction of fs, simplified.
func (t *ftab) or(fs ...fid) fid { return t.junction(fOr, fs) }

func (t *ftab) junction(op fop, fs []fid) fid {
	unit, zero := idTrue, idFalse // and: true is the unit, false absorbs
	if op == fOr {
		unit, zero = idFalse, idTrue
	}
	var ks []fid
	var add func(f fid) bool
	add = func(f fid) bool {
		switch {
		case f == unit:
			return true
		case f == zero:
			return false
		case t.n(f).op == op:
			for _, k := range t.n(f).kids {
				if !add(k) {
					return false
				}
			}
			return true
		}
		ks = append(ks, f)
		return true
	}
	for _, f := range fs {
		if !add(f) {
			return zero
		}
	}
	ks = sortUnique(ks)
	// Complementary operands: a && !a = false, a || !a = true.
	if len(ks) <= 16 {
		for i, k := range ks {
			c := t.neg(k)
			for _, k2 := range ks[i+1:] {
				if k2 == c {
					return zero
				}
			}
		}
	}
	if merged, ok := t.mergeKids(op, ks); ok {
		return t.junction(op, merged)
	}
	// Syntactic implication: in a conjunction drop what another conjunct
	// implies; in a disjunction drop what implies another disjunct.
	ks = dropRedundant(ks, func(k, o fid, oFirst bool) bool {
		// k is redundant next to o when o implies k (conjunction) or k
		// implies o (disjunction); of two equivalent ones keep the first.
		a, b := o, k
		if op == fOr {
			a, b = k, o
		}
		return t.implies(a, b) && (oFirst || !t.implies(b, a))
	})
	return t.node(op, ks, unit)
}

// stateAnd builds the conjunction that a tableau state stands for. Unlike
// and, it keeps every formula that can postpone a promise as it is: the
// acceptance condition follows promises through the states, and a promise
// that a rewrite folded into another formula could be postponed forever
// unnoticed. Formulas without promises may still be dropped when another
// conjunct implies them.
func (t *ftab) stateAnd(fs []fid) fid {
	var ks []fid
	for _, f := range fs {
		switch n := t.n(f); {
		case f == idTrue:
		case f == idFalse:
			return idFalse
		case n.op == fAnd:
			ks = append(ks, n.kids...)
		default:
			ks = append(ks, f)
		}
	}
	ks = sortUnique(ks)
	for i, k := range ks {
		if n := t.n(k); n.op == fLit {
			c := t.lit(n.atom, !n.neg)
			for _, k2 := range ks[i+1:] {
				if k2 == c {
					return idFalse
				}
			}
		}
	}
	// G(... && k && ...) expands k at every step itself, so a separate k
	// adds nothing, not even a promise.
	var inG map[fid]bool
	for _, k := range ks {
		if n := t.n(k); n.op == fAlways {
			if inG == nil {
				inG = map[fid]bool{}
			}
			inG[n.l] = true
			if b := t.n(n.l); b.op == fAnd {
				for _, c := range b.kids {
					inG[c] = true
				}
			}
		}
	}
	if inG != nil {
		keep := ks[:0:0]
		for _, k := range ks {
			if !inG[k] {
				keep = append(keep, k)
			}
		}
		ks = keep
	}
	ks = dropRedundant(ks, func(k, o fid, oFirst bool) bool {
		// Of two equivalent conjuncts keep the first, or the one with
		// promises.
		return !t.n(k).promising && t.implies(o, k) && (oFirst || t.n(o).promising || !t.implies(k, o))
	})
	return t.node(fAnd, ks, idTrue)
}

// dropRedundant keeps the formulas k of ks for which no other formula o
// makes k redundant; oFirst says o comes before k in ks. The check is
// quadratic: beyond 16 formulas, all are kept.
func dropRedundant(ks []fid, redundant func(k, o fid, oFirst bool) bool) []fid {
	if len(ks) <= 1 || len(ks) > 16 {
		return ks
	}
	keep := ks[:0:0]
next:
	for i, k := range ks {
		for j, o := range ks {
			if i != j && redundant(k, o, j < i) {
				continue next
			}
		}
		keep = append(keep, k)
	}
	return keep
}

// node builds the conjunction or disjunction op of ks, which are already
// simplified: unit (true or false) for none, the formula itself for one.
func (t *ftab) node(op fop, ks []fid, unit fid) fid {
	switch len(ks) {
	case 0:
		return unit
	case 1:
		return ks[0]
	}
	n := fnode{op: op, kids: ks, eventual: true, universal: true}
	for _, k := range ks {
		n.eventual = n.eventual && t.n(k).eventual
		n.universal = n.universal && t.n(k).universal
	}
	return t.intern(n)
}

// mergeKids applies the rules that combine two conjuncts (disjuncts) into
// one: G a && G b = G(a && b), X a && X b = X(a && b), (a U c) && (b U c) =
// (a && b) U c, (a V b) && (a V c) = a V (b && c), F G a && F G b =
// F G(a && b), and their duals for disjunctions.
func (t *ftab) mergeKids(op fop, ks []fid) ([]fid, bool) {
	for i := 0; i < len(ks); i++ {
		for j := i + 1; j < len(ks); j++ {
			if m, ok := t.merge2(op, ks[i], ks[j]); ok {
				rest := append([]fid{}, ks[:i]...)
				rest = append(rest, ks[i+1:j]...)
				rest = append(rest, ks[j+1:]...)
				return append(rest, m), true
			}
		}
	}
	return nil, false
}

func (t *ftab) merge2(op fop, a, b fid) (fid, bool) {
	na, nb := t.n(a), t.n(b)
	if op == fAnd {
		switch {
		case na.op == fAlways && nb.op == fAlways:
			return t.always(t.and(na.l, nb.l)), true
		case na.op == fNext && nb.op == fNext:
			return t.next(t.and(na.l, nb.l)), true
		case na.op == fUntil && nb.op == fUntil && na.r == nb.r:
			return t.until(t.and(na.l, nb.l), na.r), true
		case na.op == fRelease && nb.op == fRelease && na.l == nb.l:
			return t.release(na.l, t.and(na.r, nb.r)), true
		case na.op == fEvent && nb.op == fEvent && t.n(na.l).op == fAlways && t.n(nb.l).op == fAlways:
			return t.eventually(t.always(t.and(t.n(na.l).l, t.n(nb.l).l))), true
		}
		return 0, false
	}
	switch {
	case na.op == fEvent && nb.op == fEvent:
		return t.eventually(t.or(na.l, nb.l)), true
	case na.op == fNext && nb.op == fNext:
		return t.next(t.or(na.l, nb.l)), true
	case na.op == fUntil && nb.op == fUntil && na.l == nb.l:
		return t.until(na.l, t.or(na.r, nb.r)), true
	case na.op == fRelease && nb.op == fRelease && na.r == nb.r:
		return t.release(t.or(na.l, nb.l), na.r), true
	case na.op == fAlways && nb.op == fAlways && t.n(na.l).op == fEvent && t.n(nb.l).op == fEvent:
		return t.always(t.eventually(t.or(t.n(na.l).l, t.n(nb.l).l))), true
	}
	return 0, false
}

func sortUnique(ks []fid) []fid {
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	out := ks[:0]
	for i, k := range ks {
		if i == 0 || k != ks[i-1] {
			out = append(out, k)
		}
	}
	return out
}

func (t *ftab) next(f fid) fid {
	n := t.n(f)
	if n.op == fTrue || n.op == fFalse || n.eventual && n.universal {
		return f
	}
	return t.intern(fnode{op: fNext, l: f, eventual: n.eventual, universal: n.universal})
}

func (t *ftab) eventually(f fid) fid {
	n := t.n(f)
	switch {
	case n.eventual:
		return f // F F a = F a, F G F a = G F a, ...
	case n.op == fNext:
		return t.next(t.eventually(n.l)) // F X a = X F a
	case n.op == fUntil:
		return t.eventually(n.r) // F(a U b) = F b
	case n.op == fAnd:
		// F(a && u) = F a && u when u is both eventual and universal.
		if susp, rest := t.suspendable(n.kids); len(susp) > 0 {
			return t.and(append(susp, t.eventually(t.and(rest...)))...)
		}
	}
	return t.intern(fnode{op: fEvent, l: f, eventual: true, universal: n.universal})
}

func (t *ftab) always(f fid) fid {
	n := t.n(f)
	switch {
	case n.universal:
		return f
	case n.op == fNext:
		return t.next(t.always(n.l)) // G X a = X G a
	case n.op == fRelease:
		return t.always(n.r) // G(a V b) = G b
	case n.op == fOr:
		// G(a || u) = G a || u when u is both eventual and universal.
		if susp, rest := t.suspendable(n.kids); len(susp) > 0 {
			return t.or(append(susp, t.always(t.or(rest...)))...)
		}
	}
	return t.intern(fnode{op: fAlways, l: f, universal: true, eventual: n.eventual})
}

// suspendable splits ks into the formulas that are both eventual and
// universal (true at every step or at none) and the rest.
func (t *ftab) suspendable(ks []fid) (susp, rest []fid) {
	for _, k := range ks {
		if kn := t.n(k); kn.eventual && kn.universal {
			susp = append(susp, k)
		} else {
			rest = append(rest, k)
		}
	}
	return susp, rest
}

func (t *ftab) until(a, b fid) fid {
	na, nb := t.n(a), t.n(b)
	switch {
	case b == idTrue || b == idFalse || a == idFalse || a == b:
		return b
	case a == idTrue:
		return t.eventually(b)
	case nb.eventual:
		return b // a U b = b when b = F b
	case nb.op == fUntil && nb.l == a:
		return b // a U (a U b) = a U b
	case na.op == fNext && nb.op == fNext:
		return t.next(t.until(na.l, nb.l)) // X a U X b = X(a U b)
	}
	// a U b is never eventual here: it would be when b is (handled above).
	return t.intern(fnode{op: fUntil, l: a, r: b, universal: na.universal && nb.universal})
}

func (t *ftab) release(a, b fid) fid {
	na, nb := t.n(a), t.n(b)
	switch {
	case b == idTrue || b == idFalse || a == idTrue || a == b:
		return b
	case a == idFalse:
		return t.always(b)
	case nb.universal:
		return b // a V b = b when b = G b
	case nb.op == fRelease && nb.l == a:
		return b // a V (a V b) = a V b
	case na.op == fNext && nb.op == fNext:
		return t.next(t.release(na.l, nb.l))
	}
	// a V b is never universal here: it would be when b is (handled above).
	return t.intern(fnode{op: fRelease, l: a, r: b, eventual: na.eventual && nb.eventual})
}

// implies reports whether f implies g by Somenzi and Bloem's syntactic
// rules (sound, incomplete).
func (t *ftab) implies(f, g fid) bool {
	if f == g || g == idTrue || f == idFalse {
		return true
	}
	if r, ok := t.imp[[2]fid{f, g}]; ok {
		return r
	}
	if t.depth > 24 {
		return false
	}
	t.depth++
	r := t.implies1(f, g)
	t.depth--
	t.imp[[2]fid{f, g}] = r
	return r
}

func (t *ftab) implies1(f, g fid) bool {
	nf, ng := t.n(f), t.n(g)
	switch ng.op {
	case fOr:
		for _, k := range ng.kids {
			if t.implies(f, k) {
				return true
			}
		}
	case fAnd:
		all := true
		for _, k := range ng.kids {
			if !t.implies(f, k) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	case fUntil:
		if t.implies(f, ng.r) {
			return true
		}
		if nf.op == fUntil && t.implies(nf.l, ng.l) && t.implies(nf.r, ng.r) {
			return true
		}
	case fEvent:
		if t.implies(f, ng.l) {
			return true
		}
		if nf.op == fEvent && t.implies(nf.l, ng.l) {
			return true
		}
		if nf.op == fUntil && t.implies(nf.r, ng.l) {
			return true
		}
	case fRelease:
		if t.implies(f, ng.l) && t.implies(f, ng.r) {
			return true
		}
		if nf.op == fRelease && t.implies(nf.l, ng.l) && t.implies(nf.r, ng.r) {
			return true
		}
	case fAlways:
		if nf.op == fAlways && t.implies(nf.l, ng.l) {
			return true
		}
	case fNext:
		if nf.op == fNext && t.implies(nf.l, ng.l) {
			return true
		}
	}
	switch nf.op {
	case fAnd:
		for _, k := range nf.kids {
			if t.implies(k, g) {
				return true
			}
		}
	case fOr:
		for _, k := range nf.kids {
			if !t.implies(k, g) {
				return false
			}
		}
		return true
	case fUntil:
		return t.implies(nf.l, g) && t.implies(nf.r, g)
	case fEvent:
		return ng.eventual && t.implies(nf.l, g)
	case fRelease:
		return t.implies(nf.r, g)
	case fAlways:
		return t.implies(nf.l, g)
	}
	return false
}

// String prints f in Spin's syntax (for tests and debugging).
func (t *ftab) String(f fid) string {
	n := t.n(f)
	switch n.op {
	case fTrue:
		return "true"
	case fFalse:
		return "false"
	case fLit:
		a := t.atoms[n.atom]
		if !ident.Valid(a) {
			a = "(" + a + ")"
		}
		if n.neg {
			return "!" + a
		}
		return a
	case fAnd, fOr:
		sep := " && "
		if n.op == fOr {
			sep = " || "
		}
		parts := make([]string, len(n.kids))
		for i, k := range n.kids {
			parts[i] = t.String(k)
		}
		return "(" + strings.Join(parts, sep) + ")"
	case fNext:
		return "X " + t.String(n.l)
	case fEvent:
		return "<>" + t.String(n.l)
	case fAlways:
		return "[]" + t.String(n.l)
	case fUntil:
		return "(" + t.String(n.l) + " U " + t.String(n.r) + ")"
	case fRelease:
		return "(" + t.String(n.l) + " V " + t.String(n.r) + ")"
	}
	return fmt.Sprintf("?%d", n.op)
}

// toFormula converts a table formula back into a Formula.
func (t *ftab) toFormula(f fid) *Formula {
	n := t.n(f)
	switch n.op {
	case fTrue:
		return True()
	case fFalse:
		return False()
	case fLit:
		a := Atom(t.atoms[n.atom])
		if n.neg {
			return Not(a)
		}
		return a
	case fAnd, fOr:
		r := t.toFormula(n.kids[0])
		for _, k := range n.kids[1:] {
			if n.op == fAnd {
				r = And(r, t.toFormula(k))
			} else {
				r = Or(r, t.toFormula(k))
			}
		}
		return r
	case fNext:
		return Next(t.toFormula(n.l))
	case fEvent:
		return Eventually(t.toFormula(n.l))
	case fAlways:
		return Always(t.toFormula(n.l))
	case fUntil:
		return Until(t.toFormula(n.l), t.toFormula(n.r))
	case fRelease:
		return Release(t.toFormula(n.l), t.toFormula(n.r))
	}
	panic("ltl: bad formula node")
}

// Simplify returns a formula equivalent to f in negation normal form,
// rewritten by the translator's simplification rules.
func Simplify(f *Formula) *Formula {
	t := newFtab()
	return t.toFormula(t.fromFormula(f, false))
}
