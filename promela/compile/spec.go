package compile

import (
	"sync"
	"sync/atomic"

	"ftmc/promela"
)

// Specialised proctypes. A byte-sized parameter that no statement of the
// program writes keeps, in every process, the value the process started
// with: Task(node) reads mutex[node], node == 1 or a[(node+k)%N] with the
// same node at every step. A proctype with such a parameter has, besides
// its transitions compiled for any value, variants compiled for one value
// each, in which the parameter is a constant: its array elements have
// constant addresses and comparisons of it are folded. A variant has the
// same automaton (the same transitions, ids, targets and jumps) with
// other compiled statements; the state vector is the same, the parameter
// still in it. The successor computation picks the variant by the value
// the process's segment holds, so a process is specialised however it
// started (run with any expression, active, or an initial state given by
// Initialised). Variants are compiled when a value is first met, by
// whichever search worker meets it first; a value that decides no
// condition of the proctype (prune) and lets no atomic sequence jump
// further (its array elements at fixed addresses make conditions that
// could fail safe: passOver) gets the proctype's own transitions.

// maxSpecValues is the number of values of a byte-sized parameter.
const maxSpecValues = 256

// variant is a proctype's transitions and provided clause compiled for
// one value of its specialised parameter.
type variant struct {
	trans    [][]trans
	provided evalFn
}

// specTable holds the variants of a proctype, by the parameter's value.
type specTable struct {
	mu sync.Mutex // held while a variant is compiled
	by [maxSpecValues]atomic.Pointer[variant]
}

// specParams chooses, for every proctype, the parameter its variants are
// specialised on: the first byte-sized scalar parameter that nothing in
// the program writes (assigns, increments, receives into, selects, loops
// over or havocs), directly or as a remote variable.
func (p *program) specParams() {
	written := writtenSyms(p.prog)
	for _, pt := range p.procs {
		for _, v := range pt.params {
			if v.typ.Kind == promela.TArray || v.typ.Kind == promela.TStruct || cellOf(v.typ).size != 1 || written[v.sym] {
				continue
			}
			pt.spec, pt.specOff = v, v.off
			pt.variants = &specTable{}
			break
		}
	}
}

// writtenSyms returns the variables that some statement of the program
// writes.
func writtenSyms(prog *promela.Program) map[*promela.Symbol]bool {
	w := map[*promela.Symbol]bool{}
	lvalue := func(x promela.Expr) {
		for {
			switch y := x.(type) {
			case *promela.Ident:
				if y.Sym != nil {
					w[y.Sym] = true
				}
				return
			case *promela.IndexExpr:
				x = y.X
			case *promela.SelectorExpr:
				x = y.X
			case *promela.RemoteRef:
				if y.Var == nil {
					return
				}
				x = y.Var
			default:
				// Not a variable: nothing more to mark (no write of
				// another shape is known; be safe and mark every name
				// it mentions).
				promela.Inspect(x, func(n promela.Node) bool {
					if id, ok := n.(*promela.Ident); ok && id.Sym != nil {
						w[id.Sym] = true
					}
					return true
				})
				return
			}
		}
	}
	promela.Inspect(prog, func(n promela.Node) bool {
		switch s := n.(type) {
		case *promela.AssignStmt:
			lvalue(s.LHS)
		case *promela.IncDecStmt:
			lvalue(s.X)
		case *promela.RecvStmt:
			for _, a := range s.Args {
				switch a := a.(type) {
				case *promela.IntLit:
				case *promela.CallExpr:
					if a.Fun != promela.BuiltinEval {
						lvalue(a)
					}
				default:
					lvalue(a)
				}
			}
		case *promela.SelectStmt:
			lvalue(s.Var)
		case *promela.ForStmt:
			lvalue(s.Var)
		case *promela.HavocStmt:
			lvalue(s.X)
		}
		return true
	})
	return w
}

// code returns the transitions and the provided clause for the process of
// type pt whose segment is at off in the machine's vector: those of the
// variant for its parameter's value when pt has variants, those of pt
// otherwise or when the model is set to run without them (noSpec, as
// Explain's recording fork is).
func (md *Model) code(pt *procType, off int) *variant {
	if pt.variants == nil || md.noSpec {
		return &pt.plain
	}
	v := md.m.vec[off+pt.specOff]
	if vr := pt.variants.by[v].Load(); vr != nil {
		return vr
	}
	return md.p.variant(pt, v)
}

// variant returns the variant of pt for value v of its parameter,
// compiling it if no worker has. A variant whose compilation reports an
// error (none is expected: the statements compiled for any value) is pt's
// own transitions.
func (p *program) variant(pt *procType, v byte) *variant {
	tb := pt.variants
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if vr := tb.by[v].Load(); vr != nil {
		return vr
	}
	var errs []error
	c := &comp{p: p, pt: pt, spec: pt.spec.sym, specVal: int32(v), errs: &errs}
	vr := &variant{trans: make([][]trans, len(pt.trans))}
	codes := map[*element]*code{}
	for i, ts := range pt.trans {
		if ts == nil {
			continue
		}
		vr.trans[i] = append([]trans(nil), ts...)
		for k := range vr.trans[i] {
			t := &vr.trans[i][k]
			cd := codes[t.elem]
			if cd == nil {
				cd = c.compileElem(t.elem)
				codes[t.elem] = cd
			}
			t.bind(cd)
		}
	}
	if pt.decl.Provided != nil {
		vr.provided = c.expr(pt.decl.Provided)
	}
	gain := c.prune(vr.trans)
	if pt.provided == nil {
		for _, ts := range vr.trans {
			for k := range ts {
				if t := &ts[k]; t.atomic {
					t.jump = pastSkips(vr.trans, t.to, pt.decl.D)
				}
			}
		}
		fuseAssignments(vr.trans)
		chooseTable(vr.trans)
		if gain == 0 {
			gain = newJumps(vr.trans, pt.trans)
		}
	}
	if len(errs) > 0 || gain == 0 {
		// A variant in which the value decides no condition and
		// makes no jump saves little and costs its own copy of the
		// transitions in the processor's caches: the process runs
		// pt's.
		vr = &pt.plain
	}
	tb.by[v].Store(vr)
	return vr
}

// newJumps returns the number of transitions of a variant (trs) whose
// atomic sequences jump further than pt's (plain): conditions that can
// fail in pt, where the parameter indexes an array, cannot in the variant
// (passOver). The variant has pt's transitions (nothing pruned).
func newJumps(trs, plain [][]trans) int {
	n := 0
	for pc := range trs {
		for k := range trs[pc] {
			if trs[pc][k].jump != plain[pc][k].jump {
				n++
			}
		}
	}
	return n
}

// prune simplifies the transitions of a variant where the parameter made
// conditions constant: a condition that is always false is never
// executable and is dropped; one that is always true, and an else left
// alone in its location, are executable whenever a skip is, and become
// skips, which atomic sequences jump over (chainTable). It returns the
// number of transitions dropped or made skips.
func (c *comp) prune(trs [][]trans) int {
	n := 0
	for pc, ts := range trs {
		out := ts[:0]
		for _, t := range ts {
			if t.kind == tCond && t.elem != nil && t.elem.kind == eStmt {
				if s, ok := t.elem.stmt.(*promela.ExprStmt); ok {
					if v, ok := c.constValue(s.X); ok {
						n++
						if v == 0 {
							continue
						}
						t.kind = tSkip
					}
				}
			}
			out = append(out, t)
		}
		if len(out) == 1 && out[0].kind == tElse && len(ts) > 1 {
			out[0].kind = tSkip
			n++
		}
		trs[pc] = out
	}
	return n
}

// usesSpec reports whether x mentions the parameter being specialised on.
func (c *comp) usesSpec(x promela.Expr) bool {
	found := false
	promela.Inspect(x, func(n promela.Node) bool {
		if id, ok := n.(*promela.Ident); ok && id.Sym == c.spec {
			found = true
		}
		return !found
	})
	return found
}

// constValue is promela.ConstValue, with the parameter being specialised
// on (if any) a constant.
func (c *comp) constValue(x promela.Expr) (int64, bool) {
	if c.spec == nil || !c.usesSpec(x) {
		return promela.ConstValue(x)
	}
	v, ok := c.fold32(x)
	return int64(v), ok
}

// fold32 evaluates x when its value depends only on constants and on the
// parameter being specialised on, as the compiled expression would: with
// 32-bit wrapping values, and not at all when it would fail (a division by
// zero). The left operand of && and || and the condition of a conditional
// expression decide alone when they are constant, as at run time, where
// the other side is not evaluated.
func (c *comp) fold32(x promela.Expr) (int32, bool) {
	if !c.usesSpec(x) {
		v, ok := promela.ConstValue(x)
		return int32(v), ok
	}
	switch x := x.(type) {
	case *promela.Ident:
		return c.specVal, x.Sym == c.spec
	case *promela.UnaryExpr:
		a, ok := c.fold32(x.X)
		if !ok {
			return 0, false
		}
		switch x.Op {
		case promela.SUB:
			return -a, true
		case promela.TILDE:
			return ^a, true
		case promela.NOT:
			return b2i(a == 0), true
		}
	case *promela.CondExpr:
		cond, ok := c.fold32(x.Cond)
		if !ok {
			return 0, false
		}
		if cond != 0 {
			return c.fold32(x.Then)
		}
		return c.fold32(x.Else)
	case *promela.BinaryExpr:
		a, ok := c.fold32(x.X)
		if !ok {
			return 0, false
		}
		switch {
		case x.Op == promela.LAND && a == 0:
			return 0, true
		case x.Op == promela.LOR && a != 0:
			return 1, true
		}
		b, ok := c.fold32(x.Y)
		if !ok {
			return 0, false
		}
		return binary32(x.Op, a, b)
	}
	return 0, false
}

// binary32 is a op b as the compiled binary expression computes it; false
// when it would fail or the operator is not foldable.
func binary32(op promela.Token, a, b int32) (int32, bool) {
	switch op {
	case promela.ADD:
		return a + b, true
	case promela.SUB:
		return a - b, true
	case promela.MUL:
		return a * b, true
	case promela.QUO:
		if b == 0 {
			return 0, false
		}
		return a / b, true
	case promela.REM:
		if b == 0 {
			return 0, false
		}
		return a % b, true
	case promela.AND:
		return a & b, true
	case promela.OR:
		return a | b, true
	case promela.XOR:
		return a ^ b, true
	case promela.SHL:
		return a << (uint32(b) & 31), true
	case promela.SHR:
		return a >> (uint32(b) & 31), true
	case promela.LAND:
		return b2i(a != 0 && b != 0), true
	case promela.LOR:
		return b2i(a != 0 || b != 0), true
	case promela.EQL:
		return b2i(a == b), true
	case promela.NEQ:
		return b2i(a != b), true
	case promela.LSS:
		return b2i(a < b), true
	case promela.LEQ:
		return b2i(a <= b), true
	case promela.GTR:
		return b2i(a > b), true
	case promela.GEQ:
		return b2i(a >= b), true
	}
	return 0, false
}
