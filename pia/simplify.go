package pia

import (
	"sort"
	"strings"
)

// Guards come out of the projection as conjunctions of linear constraints
// over the shared variables and the parameters. Many of them say the same
// thing in different words under the assumptions (with T + M == N,
// nsnt0 + F + T + M >= N + 1 is nsnt0 + F >= 1), and some are implied by
// the others. Each distinct constraint is a milestone for the schema
// engine, whose work grows with their number, so a guard is rewritten to
// the fewest, simplest constraints that are equivalent to it under the
// assumptions and the order of the thresholds.

// isParam tells the parameters among the symbols of a lin: the others
// carry a prefix ("s:", "l:", "h<n>:").
func isParam(v string) bool { return !strings.Contains(v, ":") }

// paramEqs are the equations among the parameters in base: the
// assumptions' and the order's.
func paramEqs(base []cons) []lin {
	var out []lin
	for _, c := range base {
		if !c.eq || c.l.isConst() {
			continue
		}
		params := true
		for v := range c.l.c {
			params = params && isParam(v)
		}
		if params {
			out = append(out, c.l)
		}
	}
	return out
}

// weight orders the ways of writing a constraint: fewer parameters first,
// then smaller coefficients.
func weight(l lin) (int, int64) {
	n, s := 0, int64(0)
	for v, k := range l.c {
		if !isParam(v) {
			continue
		}
		n++
		if k < 0 {
			k = -k
		}
		s += k
	}
	return n, s
}

func lighter(a, b lin) bool {
	na, sa := weight(a)
	nb, sb := weight(b)
	return na < nb || na == nb && sa < sb
}

// rewrite subtracts multiples of the equations from c while that makes it
// lighter; the result is equivalent to c wherever the equations hold.
func rewrite(c cons, eqs []lin) cons {
	best := c.tighten()
	for changed := true; changed; {
		changed = false
		for _, e := range eqs {
			for v, a := range e.c {
				k, ok := best.l.c[v]
				if !ok || k%a != 0 {
					continue
				}
				m, err := e.scale(k / a)
				if err != nil {
					continue
				}
				cand, err := best.l.sub(m)
				if err != nil || !lighter(cand, best.l) {
					continue
				}
				best = cons{l: cand, eq: best.eq}.tighten()
				changed = true
			}
		}
	}
	return best
}

// simplify rewrites a guard's constraints with the case's equations,
// drops duplicates and those implied by the assumptions and the others.
func (b *caseBuilder) simplify(g []cons) ([]cons, error) {
	var out []cons
	seen := map[string]bool{}
	for _, c := range g {
		c, err := b.canonical(rewrite(c, b.eqs))
		if err != nil {
			return nil, err
		}
		k := consKey(c)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, c)
	}
	// Drop what the assumptions and the remaining constraints imply, the
	// heaviest first.
	sort.SliceStable(out, func(i, j int) bool { return lighter(out[i].l, out[j].l) })
	for i := len(out) - 1; i >= 0 && len(out) > 0; i-- {
		others := append([]string(nil), b.extra...)
		for j, o := range out {
			if j != i {
				others = append(others, b.x.consSMT(o))
			}
		}
		ok, err := b.x.valid(others, b.x.consSMT(out[i]))
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out[:i], out[i+1:]...)
		}
	}
	return out, nil
}

// canonical returns the first constraint of this case that is equivalent
// to c under the assumptions: one with the same shared-variable part whose
// parameter part is equal to c's wherever the assumptions hold (greedy
// rewriting may stop at different ways of writing the same threshold, as
// M and 2 * K - 2 when the assumptions make both N - T).
func (b *caseBuilder) canonical(c cons) (cons, error) {
	if c.eq {
		return c, nil
	}
	var shared, param lin
	shared.c, param.c = map[string]int64{}, map[string]int64{}
	param.k = c.l.k
	for v, k := range c.l.c {
		if isParam(v) {
			param.c[v] = k
		} else {
			shared.c[v] = k
		}
	}
	if len(shared.c) == 0 {
		return c, nil
	}
	if b.atoms == nil {
		b.atoms = map[string][]lin{}
	}
	key := shared.key()
	for _, p := range b.atoms[key] {
		if p.key() == param.key() && p.k == param.k {
			return c, nil
		}
		d, err := eqc(p, param)
		if err != nil {
			return c, nil
		}
		ok, err := b.x.valid(b.extra, b.x.consSMT(d))
		if err != nil {
			return cons{}, err
		}
		if ok {
			l, err := shared.add(p)
			if err != nil {
				return c, nil
			}
			return cons{l: l}, nil
		}
	}
	b.atoms[key] = append(b.atoms[key], param)
	return c, nil
}
