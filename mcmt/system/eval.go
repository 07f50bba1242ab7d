package system

import (
	"fmt"
	"sort"
	"strings"
)

// Concrete semantics: a system instantiated with N processes whose
// identifiers are 0..N-1. Only the order of identifiers and their
// comparisons with constants matter in MCMT's and Cubicle's models, so this
// choice of identifiers stands for any N distinct naturals.

// Concrete is a system compiled for N processes: formulas and updates with
// names resolved to value slots, ready to evaluate many times.
type Concrete struct {
	Sys  *System
	N    int
	base []int // first slot of each variable
	Size int   // number of slots

	trans  []ctrans
	init   cquant
	unsafe []cquant
	axioms []cquant
	// fixed holds, per slot, the initial value the initial formula forces,
	// or nil.
	fixed []*int64
}

type cterm struct {
	kind  TermKind
	base  int // first slot of the variable
	local bool
	env   int // position of the process variable in the environment
	off   int64
	sort  Sort
}

type cform struct {
	kind FormKind
	op   Op
	l, r cterm
	args []*cform
}

type ccase struct {
	cond *cform // nil: otherwise
	val  cterm
}

type cupd struct {
	v     *Var
	base  int
	cases []ccase
}

type ctrans struct {
	t      *Transition
	m      int // parameters: env[0..m-1]; the universal process is env[m]; J is env[m+1]
	guard  *cform
	uguard *cform
	upd    []cupd
	// stage[i] holds the top-level conjuncts of the guard whose last
	// parameter is i-1 (stage[0]: those that use none), so that
	// enumerating parameters can stop early.
	stage [][]*cform
}

// lastParam returns the highest environment position f uses, or -1.
func lastParam(f *cform) int {
	hi := -1
	for _, t := range []*cterm{&f.l, &f.r} {
		if f.kind == Lit && (t.kind == ProcID || t.kind == Read && t.local) {
			hi = max(hi, t.env)
		}
	}
	for _, a := range f.args {
		hi = max(hi, lastParam(a))
	}
	return hi
}

type cquant struct {
	q    *Quant
	k    int
	body *cform
}

// Compile instantiates s with n processes.
func Compile(s *System, n int) (*Concrete, error) {
	if n < 1 {
		return nil, fmt.Errorf("an instance needs at least one process")
	}
	c := &Concrete{Sys: s, N: n, base: make([]int, len(s.Vars))}
	for i, v := range s.Vars {
		c.base[i] = c.Size
		if v.Local {
			c.Size += n
		} else {
			c.Size++
		}
	}
	for _, t := range s.Trans {
		env := append(append([]string(nil), t.Params...), t.Univ, "")
		ct := ctrans{t: t, m: len(t.Params)}
		var err error
		if ct.guard, err = c.form(t.Guard, env); err != nil {
			return nil, fmt.Errorf("transition %s: %v", t.Name, err)
		}
		if t.Univ != "" {
			if ct.uguard, err = c.form(t.UGuard, env); err != nil {
				return nil, fmt.Errorf("transition %s: %v", t.Name, err)
			}
		}
		ct.stage = make([][]*cform, ct.m+1)
		conj := []*cform{ct.guard}
		if ct.guard.kind == And {
			conj = ct.guard.args
		}
		for _, f := range conj {
			i := min(lastParam(f)+1, ct.m)
			ct.stage[i] = append(ct.stage[i], f)
		}
		for _, u := range t.Updates {
			uenv := env
			if u.J != "" {
				uenv = append(append([]string(nil), env[:len(env)-1]...), u.J)
			}
			cu := cupd{v: u.Var, base: c.base[u.Var.ID]}
			for _, cs := range u.Cases {
				var cc ccase
				if cs.Cond != nil {
					if cc.cond, err = c.form(cs.Cond, uenv); err != nil {
						return nil, fmt.Errorf("transition %s: %v", t.Name, err)
					}
				}
				if cc.val, err = c.term(cs.Val, uenv); err != nil {
					return nil, fmt.Errorf("transition %s: %v", t.Name, err)
				}
				cu.cases = append(cu.cases, cc)
			}
			ct.upd = append(ct.upd, cu)
		}
		c.trans = append(c.trans, ct)
	}
	var err error
	if s.Init != nil {
		if c.init, err = c.quant(s.Init); err != nil {
			return nil, err
		}
	} else {
		c.init = cquant{body: &cform{kind: True}}
	}
	for _, q := range s.Unsafe {
		cq, err := c.quant(q)
		if err != nil {
			return nil, err
		}
		c.unsafe = append(c.unsafe, cq)
	}
	for _, q := range s.Axioms {
		cq, err := c.quant(q)
		if err != nil {
			return nil, err
		}
		c.axioms = append(c.axioms, cq)
	}
	c.fixed = make([]*int64, c.Size)
	if s.Init != nil {
		c.findFixed(s.Init.Body, s.Init.Vars)
	}
	return c, nil
}

func (c *Concrete) quant(q *Quant) (cquant, error) {
	b, err := c.form(q.Body, q.Vars)
	return cquant{q: q, k: len(q.Vars), body: b}, err
}

func indexOf(env []string, name string) int {
	for i := len(env) - 1; i >= 0; i-- {
		if env[i] == name && name != "" {
			return i
		}
	}
	return -1
}

func (c *Concrete) term(t Term, env []string) (cterm, error) {
	ct := cterm{kind: t.Kind, off: t.Off, sort: t.Sort}
	switch t.Kind {
	case Read:
		ct.base = c.base[t.Var.ID]
		ct.local = t.Var.Local
		if t.Var.Local {
			if ct.env = indexOf(env, t.Index); ct.env < 0 {
				return ct, fmt.Errorf("%s: unbound process variable %q", t.Pos, t.Index)
			}
		}
	case ProcID:
		if ct.env = indexOf(env, t.Index); ct.env < 0 {
			return ct, fmt.Errorf("%s: unbound process variable %q", t.Pos, t.Index)
		}
	}
	return ct, nil
}

func (c *Concrete) form(f *Formula, env []string) (*cform, error) {
	if f == nil {
		return &cform{kind: True}, nil
	}
	cf := &cform{kind: f.Kind, op: f.Op}
	var err error
	if f.Kind == Lit {
		if cf.l, err = c.term(f.L, env); err != nil {
			return nil, err
		}
		if cf.r, err = c.term(f.R, env); err != nil {
			return nil, err
		}
	}
	for _, a := range f.Args {
		ca, err := c.form(a, env)
		if err != nil {
			return nil, err
		}
		cf.args = append(cf.args, ca)
	}
	return cf, nil
}

// findFixed records the initial values that the initial formula forces:
// top-level conjuncts "x = constant" where x is a global or the array of
// the universally quantified process.
func (c *Concrete) findFixed(f *Formula, vars []string) {
	switch f.Kind {
	case And:
		for _, a := range f.Args {
			c.findFixed(a, vars)
		}
	case Lit:
		if f.Op != Eq {
			return
		}
		l, r := f.L, f.R
		if l.Kind == Const {
			l, r = r, l
		}
		if l.Kind != Read || r.Kind != Const {
			return
		}
		v := r.Off - l.Off
		if !l.Var.Local {
			c.fixed[c.base[l.Var.ID]] = &v
			return
		}
		if len(vars) == 1 && l.Index == vars[0] {
			for p := 0; p < c.N; p++ {
				c.fixed[c.base[l.Var.ID]+p] = &v
			}
		}
	}
}

// Slot returns the slot of v for process p (p is ignored for globals).
func (c *Concrete) Slot(v *Var, p int) int {
	if v.Local {
		return c.base[v.ID] + p
	}
	return c.base[v.ID]
}

func (c *Concrete) eval(t *cterm, vals []int64, env []int) int64 {
	switch t.kind {
	case Read:
		if t.local {
			return vals[t.base+env[t.env]] + t.off
		}
		return vals[t.base] + t.off
	case ProcID:
		return int64(env[t.env]) + t.off
	}
	return t.off
}

func compare(op Op, a, b int64) bool {
	switch op {
	case Eq:
		return a == b
	case Ne:
		return a != b
	case Lt:
		return a < b
	case Le:
		return a <= b
	case Gt:
		return a > b
	}
	return a >= b
}

func (c *Concrete) holds(f *cform, vals []int64, env []int) bool {
	switch f.kind {
	case True:
		return true
	case False:
		return false
	case Lit:
		return compare(f.op, c.eval(&f.l, vals, env), c.eval(&f.r, vals, env))
	case And:
		for _, a := range f.args {
			if !c.holds(a, vals, env) {
				return false
			}
		}
		return true
	case Or:
		for _, a := range f.args {
			if c.holds(a, vals, env) {
				return true
			}
		}
		return false
	}
	return !c.holds(f.args[0], vals, env)
}

// Enabled reports whether transition ti may fire with the given distinct
// parameter processes: the guard holds, and the universal guard holds for
// every other process.
func (c *Concrete) Enabled(ti int, params []int, vals []int64) bool {
	ct := &c.trans[ti]
	env := make([]int, ct.m+2)
	copy(env, params)
	if !c.holds(ct.guard, vals, env) {
		return false
	}
	if ct.uguard == nil {
		return true
	}
outer:
	for u := 0; u < c.N; u++ {
		for _, p := range params {
			if p == u {
				continue outer
			}
		}
		env[ct.m] = u
		if !c.holds(ct.uguard, vals, env) {
			return false
		}
	}
	return true
}

// EnabledParams calls visit with each assignment of distinct processes to
// the parameters of transition ti that enables it in vals. The slice is
// reused between calls.
func (c *Concrete) EnabledParams(ti int, vals []int64, env []int, visit func(params []int)) {
	c.enabledAmong(ti, vals, env, everyone, visit)
}

// everyone stands for all processes, however many, as a set of running
// processes (a set of bits holds at most 64).
const everyone = ^uint64(0)

// enabledAmong is EnabledParams with parameters and universal guards
// restricted to the running processes (bit p for process p).
func (c *Concrete) enabledAmong(ti int, vals []int64, env []int, running uint64, visit func(params []int)) {
	runs := func(p int) bool { return running == everyone || running&(1<<uint(p)) != 0 }
	ct := &c.trans[ti]
	for _, f := range ct.stage[0] {
		if !c.holds(f, vals, env) {
			return
		}
	}
	var rec func(i int)
	rec = func(i int) {
		if i == ct.m {
			if ct.uguard != nil {
			outer:
				for u := 0; u < c.N; u++ {
					if !runs(u) {
						continue
					}
					for _, p := range env[:ct.m] {
						if p == u {
							continue outer
						}
					}
					env[ct.m] = u
					if !c.holds(ct.uguard, vals, env) {
						return
					}
				}
			}
			visit(env[:ct.m])
			return
		}
	next:
		for p := 0; p < c.N; p++ {
			if !runs(p) {
				continue
			}
			for _, q := range env[:i] {
				if q == p {
					continue next
				}
			}
			env[i] = p
			for _, f := range ct.stage[i+1] {
				if !c.holds(f, vals, env) {
					continue next
				}
			}
			rec(i + 1)
		}
	}
	rec(0)
}

// EnvSize is the length of the environment EnabledParams needs.
func (c *Concrete) EnvSize() int {
	n := 2
	for _, t := range c.trans {
		n = max(n, t.m+2)
	}
	return n
}

// Domain returns the values a slot of sort s can take in this instance, or
// an error when the sort is unbounded.
func (c *Concrete) Domain(s Sort) ([]int64, error) {
	if s.Kind == Proc {
		d := make([]int64, c.N)
		for i := range d {
			d[i] = int64(i)
		}
		return d, nil
	}
	lo, hasLo, hi, hasHi := s.Bounds()
	if !hasLo || !hasHi || hi-lo > 255 {
		return nil, fmt.Errorf("a %s value has no finite range to choose from", s)
	}
	var d []int64
	for v := lo; v <= hi; v++ {
		d = append(d, v)
	}
	return d, nil
}

// Apply fires transition ti with the given parameters from vals (which
// must enable it) and calls emit with each successor: one, or one per
// choice of the nondeterministic values. next is only valid during emit.
func (c *Concrete) Apply(ti int, params []int, vals []int64, emit func(next []int64)) error {
	return c.apply(ti, params, vals, make([]int, c.trans[ti].m+2), make([]int64, len(vals)), emit)
}

// apply is Apply with scratch space: env with room for the transition's
// parameters and two more, next as long as vals.
func (c *Concrete) apply(ti int, params []int, vals []int64, env []int, next []int64, emit func(next []int64)) error {
	ct := &c.trans[ti]
	env = env[:ct.m+2]
	copy(env, params)
	env[ct.m], env[ct.m+1] = 0, 0
	copy(next, vals)
	type choice struct {
		slot int
		dom  []int64
	}
	var choices []choice
	for ui := range ct.upd {
		u := &ct.upd[ui]
		n := 1
		if u.v.Local {
			n = c.N
		}
		for p := 0; p < n; p++ {
			env[ct.m+1] = p
			for ci := range u.cases {
				cs := &u.cases[ci]
				if cs.cond != nil && !c.holds(cs.cond, vals, env) {
					continue
				}
				if cs.val.kind == Any {
					dom, err := c.Domain(u.v.Sort)
					if err != nil {
						return fmt.Errorf("transition %s assigns %s a nondeterministic value: %v", ct.t.Name, u.v.Name, err)
					}
					choices = append(choices, choice{u.base + p, dom})
				} else {
					next[u.base+p] = c.eval(&cs.val, vals, env)
				}
				break
			}
		}
	}
	var rec func(i int)
	rec = func(i int) {
		if i == len(choices) {
			emit(next)
			return
		}
		for _, v := range choices[i].dom {
			next[choices[i].slot] = v
			rec(i + 1)
		}
	}
	rec(0)
	return nil
}

// Params enumerates the injective assignments of m parameters to the
// instance's processes, in lexicographic order, until visit returns false.
func (c *Concrete) Params(m int, visit func(params []int) bool) {
	params := make([]int, m)
	used := make([]bool, c.N)
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == m {
			return visit(params)
		}
		for p := 0; p < c.N; p++ {
			if used[p] {
				continue
			}
			used[p], params[i] = true, p
			ok := rec(i + 1)
			used[p] = false
			if !ok {
				return false
			}
		}
		return true
	}
	rec(0)
}

// tuples enumerates assignments of k variables to processes; distinct
// restricts them to injective ones.
func (c *Concrete) tuples(k int, distinct bool, visit func(env []int) bool) bool {
	env := make([]int, k+2)
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == k {
			return visit(env)
		}
	next:
		for p := 0; p < c.N; p++ {
			if distinct {
				for _, q := range env[:i] {
					if q == p {
						continue next
					}
				}
			}
			env[i] = p
			if !rec(i + 1) {
				return false
			}
		}
		return true
	}
	return rec(0)
}

// universal reports whether ∀ vars. body holds (variables range over all
// processes, not necessarily distinct).
func (c *Concrete) universal(q *cquant, vals []int64) bool {
	return c.tuples(q.k, false, func(env []int) bool { return c.holds(q.body, vals, env) })
}

// existential returns an assignment of distinct processes to q's variables
// that satisfies its body, and whether there is one (a formula without
// variables has the empty assignment).
func (c *Concrete) existential(q *cquant, vals []int64) ([]int, bool) {
	var found []int
	ok := false
	c.tuples(q.k, true, func(env []int) bool {
		if c.holds(q.body, vals, env) {
			found, ok = append([]int{}, env[:q.k]...), true
			return false
		}
		return true
	})
	return found, ok
}

// IsInitial reports whether vals satisfies the initial formula.
func (c *Concrete) IsInitial(vals []int64) bool { return c.universal(&c.init, vals) }

// Unsafe returns the index of an unsafe formula that vals satisfies and the
// processes that witness it, or -1.
func (c *Concrete) Unsafe(vals []int64) (int, []int) {
	for i := range c.unsafe {
		if w, ok := c.existential(&c.unsafe[i], vals); ok {
			return i, w
		}
	}
	return -1, nil
}

// BrokenAxiom returns the index of a system axiom that vals violates, or -1.
func (c *Concrete) BrokenAxiom(vals []int64) int {
	for i := range c.axioms {
		if !c.universal(&c.axioms[i], vals) {
			return i
		}
	}
	return -1
}

// Satisfies reports whether vals satisfies the existential formula q's
// body with its variables bound to procs.
func (c *Concrete) Satisfies(q *Quant, procs []int, vals []int64) (bool, error) {
	f, err := c.form(q.Body, q.Vars)
	if err != nil {
		return false, err
	}
	env := append(append([]int(nil), procs...), 0, 0)
	return c.holds(f, vals, env), nil
}

// Initial calls emit with every initial state. Slots that the initial
// formula fixes take that value; the others range over their sort's finite
// domain. Variables that nothing reads keep their first value.
func (c *Concrete) Initial(limit int, emit func(vals []int64)) error {
	read := c.Sys.ReadVars()
	doms := make([][]int64, c.Size)
	total := 1
	for _, v := range c.Sys.Vars {
		n := 1
		if v.Local {
			n = c.N
		}
		for p := 0; p < n; p++ {
			slot := c.base[v.ID] + p
			if f := c.fixed[slot]; f != nil {
				doms[slot] = []int64{*f}
				continue
			}
			d, err := c.Domain(v.Sort)
			if err != nil {
				return fmt.Errorf("the initial value of %s is not fixed and %v", v.Name, err)
			}
			if !read[v.ID] {
				d = d[:1]
			}
			doms[slot] = d
			total *= len(d)
			if limit > 0 && total > limit {
				return fmt.Errorf("more than %d initial states with %d processes", limit, c.N)
			}
		}
	}
	vals := make([]int64, c.Size)
	var rec func(i int)
	rec = func(i int) {
		if i == c.Size {
			if c.IsInitial(vals) {
				emit(vals)
			}
			return
		}
		for _, v := range doms[i] {
			vals[i] = v
			rec(i + 1)
		}
	}
	rec(0)
	return nil
}

// Names returns the display name of every slot ("round", "state[2]").
func (c *Concrete) Names() []string {
	names := make([]string, c.Size)
	for _, v := range c.Sys.Vars {
		if !v.Local {
			names[c.base[v.ID]] = v.Name
			continue
		}
		for p := 0; p < c.N; p++ {
			names[c.base[v.ID]+p] = fmt.Sprintf("%s[%d]", v.Name, p)
		}
	}
	return names
}

// Format prints the value of a slot.
func (c *Concrete) Format(slot int, val int64) string {
	i := sort.SearchInts(c.base, slot+1) - 1
	return FormatValue(val, c.Sys.Vars[i].Sort)
}

// Describe prints a transition with its parameters bound, e.g.
// "t21(x=#1, y=#0)".
func (c *Concrete) Describe(ti int, params []int) string {
	t := c.Sys.Trans[ti]
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = fmt.Sprintf("%s=#%d", t.Params[i], p)
	}
	return t.Name + "(" + strings.Join(parts, ", ") + ")"
}

// ReadVars reports, per variable, whether anything reads it: a guard, an
// update's condition or value, the initial formula, an unsafe formula, an
// axiom or a candidate.
func (s *System) ReadVars() []bool {
	read := make([]bool, len(s.Vars))
	var term func(t Term)
	term = func(t Term) {
		if t.Kind == Read {
			read[t.Var.ID] = true
		}
	}
	var form func(f *Formula)
	form = func(f *Formula) {
		if f == nil {
			return
		}
		if f.Kind == Lit {
			term(f.L)
			term(f.R)
		}
		for _, a := range f.Args {
			form(a)
		}
	}
	for _, t := range s.Trans {
		form(t.Guard)
		form(t.UGuard)
		for _, u := range t.Updates {
			for _, cs := range u.Cases {
				form(cs.Cond)
				// An update that copies a variable onto itself does not
				// make it relevant.
				if cs.Val.Kind == Read && cs.Val.Var == u.Var {
					continue
				}
				term(cs.Val)
			}
		}
	}
	qss := [][]*Quant{s.Unsafe, s.Axioms, s.Candidates}
	if s.Init != nil {
		// An initial formula can tie a variable to others (a[x] != b[x]).
		qss = append(qss, []*Quant{s.Init})
	}
	for _, qs := range qss {
		for _, q := range qs {
			form(q.Body)
		}
	}
	return read
}
