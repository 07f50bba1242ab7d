package backreach

import (
	"fmt"

	"ftmc/mcmt/system"
)

// The model's formulas with process variables resolved to slots, ready to
// instantiate over the process variables of a cube.

type pterm struct {
	kind  system.TermKind
	v     int // variable (Read)
	local bool
	slot  int // process variable slot (local Read, ProcID)
	off   int64
}

type pform struct {
	kind system.FormKind
	op   system.Op
	l, r pterm
	args []*pform
}

type icase struct {
	cond *pform // nil: otherwise
	val  pterm
}

// itrans is a transition: parameters in slots 0..m-1, the universally
// quantified process in slot m, the index of a case-defined update in
// slot m+1.
type itrans struct {
	t      *system.Transition
	m      int
	guard  *pform
	uguard *pform // nil when there is no universal guard
	upd    [][]icase
	anyUpd bool // some update assigns a nondeterministic value
	// pre are guard conjuncts "v op constant" on a global or on a
	// parameter's entry of an array the transition leaves alone, and post
	// the constants it assigns to globals: a cube that contradicts one of
	// them has an empty pre-image, which is found without computing it
	// (MCMT's key_search does this for one variable).
	pre  []constLit
	post []constLit
	// updMask has bit v%64 for every variable v the transition updates:
	// a cube whose mask misses it is left unchanged (see maskOf).
	updMask uint64
	// onlyParams[v] is set when the update of the local array v changes
	// the entries of the parameters only: every case but a last
	// "otherwise a[j]" requires j to be a parameter.
	onlyParams []bool
}

// constLit is "variable v (at parameter slot, for a local) op c".
type constLit struct {
	v     int
	local bool
	slot  int
	op    system.Op
	c     int64
}

// paramsOnly reports whether the cases of the update of local array v
// leave every entry but the parameters' unchanged.
func (it *itrans) paramsOnly(v int, cases []icase) bool {
	j := it.m + 1
	if len(cases) == 0 {
		return false
	}
	last := cases[len(cases)-1]
	if last.cond != nil || last.val != (pterm{kind: system.Read, v: v, local: true, slot: j}) {
		return false
	}
	isJ := func(t pterm) bool { return t.kind == system.ProcID && t.slot == j && t.off == 0 }
	isParam := func(t pterm) bool { return t.kind == system.ProcID && t.slot < it.m && t.off == 0 }
	for _, cs := range cases[:len(cases)-1] {
		conj := []*pform{cs.cond}
		if cs.cond.kind == system.And {
			conj = cs.cond.args
		}
		ok := false
		for _, f := range conj {
			if f.kind == system.Lit && f.op == system.Eq && (isJ(f.l) && isParam(f.r) || isParam(f.l) && isJ(f.r)) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// constLits records the conjuncts of f of the form "v op constant".
func (it *itrans) constLits(f *pform) {
	if f.kind == system.And {
		for _, a := range f.args {
			it.constLits(a)
		}
		return
	}
	if f.kind != system.Lit {
		return
	}
	l, r, op := f.l, f.r, f.op
	if l.kind == system.Const {
		l, r = r, l
		op = [...]system.Op{system.Eq, system.Ne, system.Gt, system.Ge, system.Lt, system.Le}[op]
	}
	if l.kind != system.Read || r.kind != system.Const || it.upd[l.v] != nil || l.local && l.slot >= it.m {
		return
	}
	it.pre = append(it.pre, constLit{v: l.v, local: l.local, slot: l.slot, op: op, c: r.off - l.off})
}

// pquant is a quantified formula with its variables in slots 0..k-1.
type pquant struct {
	q    *system.Quant
	k    int
	body *pform
}

func slotOf(names []string, name string) (int, error) {
	for i := len(names) - 1; i >= 0; i-- {
		if names[i] == name && name != "" {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unbound process variable %q", name)
}

func compileTerm(t system.Term, names []string) (pterm, error) {
	pt := pterm{kind: t.Kind, off: t.Off}
	var err error
	switch t.Kind {
	case system.Read:
		pt.v, pt.local = t.Var.ID, t.Var.Local
		if t.Var.Local {
			pt.slot, err = slotOf(names, t.Index)
		}
	case system.ProcID:
		pt.slot, err = slotOf(names, t.Index)
	}
	return pt, err
}

func compileForm(f *system.Formula, names []string) (*pform, error) {
	if f == nil {
		return &pform{kind: system.True}, nil
	}
	pf := &pform{kind: f.Kind, op: f.Op}
	if f.Kind == system.Lit {
		var err error
		if pf.l, err = compileTerm(f.L, names); err != nil {
			return nil, err
		}
		if pf.r, err = compileTerm(f.R, names); err != nil {
			return nil, err
		}
	}
	for _, a := range f.Args {
		pa, err := compileForm(a, names)
		if err != nil {
			return nil, err
		}
		pf.args = append(pf.args, pa)
	}
	return pf, nil
}

func compileQuant(q *system.Quant) (*pquant, error) {
	body, err := compileForm(q.Body, q.Vars)
	if err != nil {
		return nil, err
	}
	return &pquant{q: q, k: len(q.Vars), body: body}, nil
}

func compileTrans(t *system.Transition, nvars int) (*itrans, error) {
	it := &itrans{t: t, m: len(t.Params), upd: make([][]icase, nvars), onlyParams: make([]bool, nvars)}
	names := append(append([]string(nil), t.Params...), t.Univ, "")
	var err error
	if it.guard, err = compileForm(t.Guard, names); err != nil {
		return nil, err
	}
	if t.Univ != "" {
		if it.uguard, err = compileForm(t.UGuard, names); err != nil {
			return nil, err
		}
	}
	for _, u := range t.Updates {
		unames := names
		if u.J != "" {
			unames = append(append([]string(nil), names[:len(names)-1]...), u.J)
		}
		var cases []icase
		for _, c := range u.Cases {
			var ic icase
			if c.Cond != nil {
				if ic.cond, err = compileForm(c.Cond, unames); err != nil {
					return nil, err
				}
			}
			if ic.val, err = compileTerm(c.Val, unames); err != nil {
				return nil, err
			}
			if c.Val.Kind == system.Any {
				it.anyUpd = true
			}
			cases = append(cases, ic)
		}
		it.upd[u.Var.ID] = cases
		it.updMask |= 1 << (uint(u.Var.ID) % 64)
		it.onlyParams[u.Var.ID] = u.Var.Local && it.paramsOnly(u.Var.ID, cases)
		if !u.Var.Local && len(cases) == 1 && cases[0].cond == nil && cases[0].val.kind == system.Const {
			it.post = append(it.post, constLit{v: u.Var.ID, op: system.Eq, c: cases[0].val.off})
		}
	}
	it.constLits(it.guard)
	return it, nil
}

// dnf is a disjunction of conjunctions of literals: nil is false, one empty
// conjunction is true.
type dnf [][]lit

var dTrue = dnf{{}}

// maxDNF bounds the size of an instantiated formula in disjunctive normal
// form; models whose guards exceed it are reported, not approximated.
const maxDNF = 1 << 14

type errTooLarge struct{ what string }

func (e errTooLarge) Error() string {
	return fmt.Sprintf("%s has more than %d disjuncts in disjunctive normal form", e.what, maxDNF)
}

func and(a, b dnf) (dnf, error) {
	if len(a) == 0 || len(b) == 0 {
		return nil, nil
	}
	if len(a)*len(b) > maxDNF {
		return nil, errTooLarge{"a formula"}
	}
	out := make(dnf, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			c := make([]lit, 0, len(x)+len(y))
			out = append(out, append(append(c, x...), y...))
		}
	}
	return out, nil
}

// inst instantiates a term with slots bound to process variables.
func inst(t pterm, bind []int) iterm {
	switch t.kind {
	case system.Read:
		if t.local {
			return iterm{readAtom(t.v, bind[t.slot]), t.off}
		}
		return iterm{globalAtom(t.v), t.off}
	case system.ProcID:
		return iterm{procAtom(bind[t.slot]), t.off}
	}
	return iterm{0, t.off}
}

// instForm instantiates f (negated when neg) into disjunctive normal form.
func (voc *vocabulary) instForm(f *pform, bind []int, neg bool) (dnf, error) {
	switch f.kind {
	case system.True, system.False:
		if (f.kind == system.True) != neg {
			return dTrue, nil
		}
		return nil, nil
	case system.Lit:
		op := f.op
		if neg {
			op = op.Negate()
		}
		l, tr := voc.mkLit(op, inst(f.l, bind), inst(f.r, bind))
		switch tr {
		case isTrue:
			return dTrue, nil
		case isFalse:
			return nil, nil
		}
		return dnf{{l}}, nil
	case system.Not:
		return voc.instForm(f.args[0], bind, !neg)
	}
	conj := (f.kind == system.And) != neg
	if conj {
		acc := dTrue
		for _, a := range f.args {
			d, err := voc.instForm(a, bind, neg)
			if err != nil {
				return nil, err
			}
			if acc, err = and(acc, d); err != nil {
				return nil, err
			}
			if len(acc) == 0 {
				return nil, nil
			}
		}
		return acc, nil
	}
	var acc dnf
	for _, a := range f.args {
		d, err := voc.instForm(a, bind, neg)
		if err != nil {
			return nil, err
		}
		acc = append(acc, d...)
		if len(acc) > maxDNF {
			return nil, errTooLarge{"a formula"}
		}
	}
	return acc, nil
}
