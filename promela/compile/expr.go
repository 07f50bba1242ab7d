package compile

import (
	"fmt"

	"ftmc/promela"
)

// evalFn computes an expression in the machine's current state. Values are
// C ints, as in Spin's generated code: 32-bit, wrapping.
type evalFn func(m *machine) int32

// comp compiles expressions and statements of one proctype (pt nil: global
// context, as in never claims and atomic propositions).
type comp struct {
	p  *program
	pt *procType
	// quant is the proctype that all/some/card range over, while their
	// argument is compiled.
	quant *procType
	atoms map[*promela.AtomicPropDecl]bool // being expanded

	// spec is the parameter whose value is the constant specVal in the
	// variant being compiled (spec.go), nil otherwise; errs, when set,
	// collects the errors instead of the program.
	spec    *promela.Symbol
	specVal int32
	errs    *[]error
	// noTab: the expression being compiled is being tabulated (tab.go).
	noTab bool
}

func (c *comp) errorf(pos promela.Pos, format string, args ...any) {
	if c.errs != nil {
		*c.errs = append(*c.errs, fmt.Errorf("%s: %s", pos, fmt.Sprintf(format, args...)))
		return
	}
	c.p.errorf(pos, format, args...)
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func constFn(v int32) evalFn { return func(*machine) int32 { return v } }

// ---------------------------------------------------------------------------
// Variable references

// ref is a compiled variable reference: a base (globals, the running
// process, or another process), a constant offset and run-time indices.
type ref struct {
	typ    *promela.Type
	local  bool
	remote evalFn    // P[i]:x: the pid
	rproc  *procType // P of P[i]:x
	off    int
	dyn    []dynIndex
	text   string
	write  bool // the write-only variable _
	hidden bool
}

type dynIndex struct {
	idx    evalFn
	n      int
	stride int
	// byteIdx: the index is imul*v+iadd for a byte-sized scalar variable v
	// at a fixed offset (ioff, relative to the running process's segment
	// when ilocal): the reference reads it directly instead of calling idx.
	byteIdx    bool
	ilocal     bool
	ioff       int
	imul, iadd int
	// tab: the index is a function of one byte variable (at toff,
	// relative to the running process's segment when tlocal) that never
	// fails, given by its table (tab.go).
	tab    *[256]int32
	toff   int
	tlocal bool
}

// isConst reports whether the reference's address is known at compile
// time (relative to its base).
func (r *ref) isConst() bool { return len(r.dyn) == 0 && r.remote == nil }

// addrFn returns a function computing the reference's offset in the
// working vector, or -1 after recording a fault.
func (r *ref) addrFn() func(m *machine) int {
	off, local, dyn, remote, rproc := r.off, r.local, r.dyn, r.remote, r.rproc
	text := r.text
	if remote != nil {
		return func(m *machine) int {
			pid := int(remote(m))
			if pid >= len(m.procs) && m.fault == "" {
				// A process that has ended and been removed: Spin reads
				// its cleared memory, zeros.
				return -2
			}
			if pid < 0 || m.procTypeOf(pid) != rproc {
				m.failf("%s: process %d is not a %s", text, pid, rproc.name)
				return -1
			}
			a := int(m.procs[pid]) + off
			for _, d := range dyn {
				i := d.idx(m)
				if i < 0 || int(i) >= d.n {
					m.failf("invalid array index %d in %s (length %d)", i, text, d.n)
					return -1
				}
				a += int(i) * d.stride
			}
			return a
		}
	}
	switch {
	case len(dyn) == 0 && local:
		return func(m *machine) int { return m.base + off }
	case len(dyn) == 0:
		return func(*machine) int { return off }
	case len(dyn) == 1 && dyn[0].byteIdx:
		d := dyn[0]
		n, stride, ioff, ilocal, imul, iadd := d.n, d.stride, d.ioff, d.ilocal, d.imul, d.iadd
		return func(m *machine) int {
			ia := ioff
			if ilocal {
				ia += m.base
			}
			i := int(m.vec[ia])*imul + iadd
			if uint(i) >= uint(n) {
				m.failf("invalid array index %d in %s (length %d)", i, text, n)
				return -1
			}
			a := off + i*stride
			if local {
				a += m.base
			}
			return a
		}
	case len(dyn) == 1:
		d := dyn[0]
		n, stride, idx := d.n, d.stride, d.idx
		if local {
			return func(m *machine) int {
				i := idx(m)
				if uint32(i) >= uint32(n) {
					m.failf("invalid array index %d in %s (length %d)", i, text, n)
					return -1
				}
				return m.base + off + int(i)*stride
			}
		}
		return func(m *machine) int {
			i := idx(m)
			if uint32(i) >= uint32(n) {
				m.failf("invalid array index %d in %s (length %d)", i, text, n)
				return -1
			}
			return off + int(i)*stride
		}
	}
	return func(m *machine) int {
		a := off
		if local {
			a += m.base
		}
		for _, d := range dyn {
			i := d.idx(m)
			if uint32(i) >= uint32(d.n) {
				m.failf("invalid array index %d in %s (length %d)", i, text, d.n)
				return -1
			}
			a += int(i) * d.stride
		}
		return a
	}
}

// compileRef compiles a variable reference (an Ident, IndexExpr or
// SelectorExpr, or a remote variable P[i]:x).
func (c *comp) compileRef(x promela.Expr) (*ref, bool) {
	switch x := x.(type) {
	case *promela.Ident:
		s := x.Sym
		if s == nil {
			c.errorf(x.Pos(), "unresolved name %s", x.Name)
			return nil, false
		}
		if s.Kind == promela.SymPredef && s.Predef == promela.PredefWrite {
			return &ref{typ: &promela.Type{Kind: promela.TInt}, write: true, text: "_"}, true
		}
		if s.Kind != promela.SymVar {
			c.errorf(x.Pos(), "%s is a %s, not a variable", x.Name, s.Kind)
			return nil, false
		}
		v := c.p.vars[s]
		if v == nil {
			c.errorf(x.Pos(), "variable %s has no place in the state (not supported here)", x.Name)
			return nil, false
		}
		if v.local && (c.pt == nil || v.proc != c.pt) {
			c.errorf(x.Pos(), "local variable %s of %s used outside its process (write %s[pid]:%s)", x.Name, v.proc.name, v.proc.name, x.Name)
			return nil, false
		}
		return &ref{typ: v.typ, local: v.local, off: v.off, text: x.Name, hidden: v.hidden}, true
	case *promela.IndexExpr:
		r, ok := c.compileRef(x.X)
		if !ok {
			return nil, false
		}
		if r.typ.Kind != promela.TArray {
			c.errorf(x.Lbrack, "%s is not an array", promela.ExprString(x.X))
			return nil, false
		}
		idx := c.expr(x.Index)
		stride := sizeOf(r.typ.Elem)
		n := int(r.typ.Len)
		r.text = promela.ExprString(x)
		if v, ok := c.constValue(x.Index); ok && v >= 0 && v < int64(n) && len(r.dyn) == 0 {
			r.off += int(v) * stride
		} else {
			d := dynIndex{idx: idx, n: n, stride: stride}
			d.ioff, d.ilocal, d.imul, d.iadd, d.byteIdx = c.affineByte(x.Index)
			if v, ok := c.tabulable(x.Index); ok && !d.byteIdx && !c.noTab && !c.p.plain {
				if _, tab, _, anyBad := c.table(x.Index, v); !anyBad {
					d.tab, d.toff, d.tlocal = tab, v.off, v.local
				}
			}
			r.dyn = append(r.dyn, d)
		}
		r.typ = r.typ.Elem
		return r, true
	case *promela.SelectorExpr:
		r, ok := c.compileRef(x.X)
		if !ok {
			return nil, false
		}
		t := r.typ
		if t.Kind == promela.TArray {
			// a.f for an array a of structures means a[0].f, as in Spin.
			t = t.Elem
		}
		if t.Kind != promela.TStruct {
			c.errorf(x.Dot, "%s is not a structure", promela.ExprString(x.X))
			return nil, false
		}
		off, ft := fieldOffset(t, x.Sel.Name)
		if ft == nil {
			c.errorf(x.Sel.NamePos, "%s has no field %s", t.Name, x.Sel.Name)
			return nil, false
		}
		r.off += off
		r.typ = ft
		r.text = promela.ExprString(x)
		return r, true
	case *promela.RemoteRef:
		if x.Var == nil {
			break
		}
		pd, _ := x.Proc.Sym.Decl.(*promela.ProcDecl)
		pt := c.p.byDecl[pd]
		if pt == nil {
			c.errorf(x.Pos(), "%s is not a proctype", x.Proc.Name)
			return nil, false
		}
		inner := &comp{p: c.p, pt: pt, errs: c.errs}
		var r *ref
		var ok bool
		if ix, isIndex := x.Var.(*promela.IndexExpr); isIndex {
			// The index is the reader's expression.
			r, ok = inner.compileRef(ix.X)
			if ok && r.typ.Kind == promela.TArray {
				stride := sizeOf(r.typ.Elem)
				r.dyn = append(r.dyn, dynIndex{idx: c.expr(ix.Index), n: int(r.typ.Len), stride: stride})
				r.typ = r.typ.Elem
			} else if ok {
				c.errorf(ix.Lbrack, "%s is not an array", promela.ExprString(ix.X))
				return nil, false
			}
		} else {
			r, ok = inner.compileRef(x.Var)
		}
		if !ok {
			return nil, false
		}
		if !r.local {
			return r, true
		}
		r.local = false
		r.rproc = pt
		r.remote = c.remotePid(x, pt)
		r.text = promela.ExprString(x)
		// Indices inside the remote variable are evaluated in the process
		// that reads, as in Spin.
		return r, true
	}
	c.errorf(x.Pos(), "%s is not a variable", promela.ExprString(x))
	return nil, false
}

// remotePid compiles the process of a remote reference: P[i] is pid i;
// P alone is the process running P with the lowest pid (as Spin).
func (c *comp) remotePid(x *promela.RemoteRef, pt *procType) evalFn {
	if x.Index != nil {
		return c.expr(x.Index)
	}
	if c.quant == pt {
		// Inside all/some/card over P: the process being looked at.
		return func(m *machine) int32 { return int32(m.qpid) }
	}
	return func(m *machine) int32 {
		// With several processes running P, Spin takes the one with the
		// lowest pid.
		for pid := range m.procs {
			if m.procTypeOf(pid) == pt {
				return int32(pid)
			}
		}
		// The process has ended and been removed (or has not started):
		// Spin reads its cleared memory, zeros, and it is at no label.
		return int32(len(m.procs))
	}
}

// scalarType returns the type a reference holds as a number: arrays used
// without an index stand for their first element, as in Spin.
func scalarType(t *promela.Type) *promela.Type {
	for t.Kind == promela.TArray {
		t = t.Elem
	}
	return t
}

// load compiles reading a scalar reference.
func (c *comp) load(r *ref, pos promela.Pos) evalFn {
	t := scalarType(r.typ)
	if t.Kind == promela.TStruct {
		c.errorf(pos, "%s is a structure, not a number", r.text)
		return constFn(0)
	}
	if r.write {
		c.errorf(pos, "_ can only be written")
		return constFn(0)
	}
	ce := cellOf(t)
	if r.isConst() {
		off := r.off
		if r.local {
			switch {
			case ce.size == 1:
				return func(m *machine) int32 { return int32(m.vec[m.base+off]) }
			case ce.size == 2 && ce.signed:
				return func(m *machine) int32 {
					v := m.vec[m.base+off:]
					return int32(int16(uint16(v[0]) | uint16(v[1])<<8))
				}
			}
			return func(m *machine) int32 { return ce.load(m.vec, m.base+off) }
		}
		switch {
		case ce.size == 1:
			return func(m *machine) int32 { return int32(m.vec[off]) }
		case ce.size == 2 && ce.signed:
			return func(m *machine) int32 {
				v := m.vec[off:]
				return int32(int16(uint16(v[0]) | uint16(v[1])<<8))
			}
		}
		return func(m *machine) int32 { return ce.load(m.vec, off) }
	}
	if r.remote == nil && len(r.dyn) == 1 && ce.size == 1 {
		return r.loadByte1()
	}
	addr := r.addrFn()
	return func(m *machine) int32 {
		a := addr(m)
		if a < 0 {
			return 0
		}
		return ce.load(m.vec, a)
	}
}

// loadByte1 compiles reading a byte-sized element of an array of the
// globals or of the running process with one run-time index (the most
// common reference in models over arrays indexed by a process number):
// the address is computed in place.
func (r *ref) loadByte1() evalFn {
	d := r.dyn[0]
	off, local, text := r.off, r.local, r.text
	n, stride := d.n, d.stride
	if d.byteIdx {
		ioff, ilocal, imul, iadd := d.ioff, d.ilocal, d.imul, d.iadd
		return func(m *machine) int32 {
			ia := ioff
			if ilocal {
				ia += m.base
			}
			i := int(m.vec[ia])*imul + iadd
			if uint(i) >= uint(n) {
				m.failf("invalid array index %d in %s (length %d)", i, text, n)
				return 0
			}
			a := off + i*stride
			if local {
				a += m.base
			}
			return int32(m.vec[a])
		}
	}
	if tab := d.tab; tab != nil && !local {
		toff, tlocal := d.toff, d.tlocal
		return func(m *machine) int32 {
			ta := toff
			if tlocal {
				ta += m.base
			}
			i := tab[m.vec[ta]]
			if uint32(i) >= uint32(n) {
				m.failf("invalid array index %d in %s (length %d)", i, text, n)
				return 0
			}
			return int32(m.vec[off+int(i)*stride])
		}
	}
	idx := d.idx
	return func(m *machine) int32 {
		i := idx(m)
		if uint32(i) >= uint32(n) {
			m.failf("invalid array index %d in %s (length %d)", i, text, n)
			return 0
		}
		a := off + int(i)*stride
		if local {
			a += m.base
		}
		return int32(m.vec[a])
	}
}

// affineByte reports whether x is mul*v+add for a byte-sized scalar
// variable v at a fixed offset (byteVar) and small constants mul and add,
// as array indices computed from a process number are: such an index is
// computed in place. The constants are small enough that the value needs
// no 32-bit wrapping.
func (c *comp) affineByte(x promela.Expr) (off int, local bool, mul, add int, ok bool) {
	off, local, mul, add, ok = c.affine(x)
	const small = 1 << 16
	if !ok || mul <= -small || mul >= small || add <= -small || add >= small {
		return 0, false, 0, 0, false
	}
	return off, local, mul, add, true
}

func (c *comp) affine(x promela.Expr) (off int, local bool, mul, add int, ok bool) {
	const small = 1 << 16
	if off, local, ok := c.byteVar(x); ok {
		return off, local, 1, 0, true
	}
	b, isBin := x.(*promela.BinaryExpr)
	if !isBin {
		return 0, false, 0, 0, false
	}
	v, yconst := c.constValue(b.Y)
	u, xconst := c.constValue(b.X)
	if !yconst && !xconst || v <= -small || v >= small || u <= -small || u >= small {
		return 0, false, 0, 0, false
	}
	switch b.Op {
	case promela.ADD, promela.MUL:
		y := b.X
		if xconst {
			y, v = b.Y, u
		}
		off, local, mul, add, ok := c.affineByte(y)
		if !ok {
			return 0, false, 0, 0, false
		}
		if b.Op == promela.ADD {
			add += int(v)
		} else {
			mul, add = mul*int(v), add*int(v)
		}
		return off, local, mul, add, true
	case promela.SUB:
		if !yconst {
			return 0, false, 0, 0, false
		}
		off, local, mul, add, ok := c.affineByte(b.X)
		if !ok {
			return 0, false, 0, 0, false
		}
		return off, local, mul, add - int(v), true
	}
	return 0, false, 0, 0, false
}

// byteVar reports where x is stored when it is a byte-sized scalar variable
// at a fixed offset of the globals or of the running process (reading it
// is reading one byte of the vector). It records no error: x is compiled
// on its own too.
func (c *comp) byteVar(x promela.Expr) (off int, local, ok bool) {
	id, isIdent := x.(*promela.Ident)
	if !isIdent || id.Sym == nil || id.Sym.Kind != promela.SymVar || id.Sym == c.spec {
		return 0, false, false
	}
	v := c.p.vars[id.Sym]
	if v == nil || v.local && (c.pt == nil || v.proc != c.pt) {
		return 0, false, false
	}
	switch v.typ.Kind {
	case promela.TArray, promela.TStruct:
		return 0, false, false
	}
	if cellOf(v.typ).size != 1 {
		return 0, false, false
	}
	return v.off, v.local, true
}

// storeFn compiles writing a scalar reference: it returns a function that
// stores v truncated to the variable's type.
func (c *comp) storeFn(r *ref, pos promela.Pos) func(m *machine, v int32) {
	if r.write {
		return func(*machine, int32) {}
	}
	t := scalarType(r.typ)
	if t.Kind == promela.TStruct {
		c.errorf(pos, "cannot assign a number to structure %s", r.text)
		return func(*machine, int32) {}
	}
	ce := cellOf(t)
	if r.isConst() {
		off := r.off
		if r.local {
			if ce.size == 1 {
				mask := byte(ce.mask)
				return func(m *machine, v int32) { m.vec[m.base+off] = byte(v) & mask }
			}
			return func(m *machine, v int32) { ce.store(m.vec, m.base+off, v) }
		}
		if ce.size == 1 {
			mask := byte(ce.mask)
			return func(m *machine, v int32) { m.vec[off] = byte(v) & mask }
		}
		return func(m *machine, v int32) { ce.store(m.vec, off, v) }
	}
	if r.remote == nil && len(r.dyn) == 1 && ce.size == 1 && r.dyn[0].byteIdx {
		d := r.dyn[0]
		off, local, text := r.off, r.local, r.text
		n, stride, ioff, ilocal, imul, iadd := d.n, d.stride, d.ioff, d.ilocal, d.imul, d.iadd
		mask := byte(ce.mask)
		return func(m *machine, v int32) {
			ia := ioff
			if ilocal {
				ia += m.base
			}
			i := int(m.vec[ia])*imul + iadd
			if uint(i) >= uint(n) {
				m.failf("invalid array index %d in %s (length %d)", i, text, n)
				return
			}
			a := off + i*stride
			if local {
				a += m.base
			}
			m.vec[a] = byte(v) & mask
		}
	}
	addr := r.addrFn()
	return func(m *machine, v int32) {
		a := addr(m)
		if a < 0 {
			return
		}
		ce.store(m.vec, a, v)
	}
}

// ---------------------------------------------------------------------------
// Expressions

// expr compiles an expression to a function of the state.
func (c *comp) expr(x promela.Expr) evalFn {
	if v, ok := c.constValue(x); ok {
		return constFn(int32(v))
	}
	if !c.noTab && !c.p.plain {
		if v, ok := c.tabulable(x); ok {
			return c.tabulate(x, v)
		}
	}
	switch x := x.(type) {
	case *promela.IntLit:
		return constFn(int32(x.Value))
	case *promela.Ident:
		return c.ident(x)
	case *promela.IndexExpr, *promela.SelectorExpr:
		r, ok := c.compileRef(x)
		if !ok {
			return constFn(0)
		}
		return c.load(r, x.Pos())
	case *promela.UnaryExpr:
		a := c.expr(x.X)
		switch x.Op {
		case promela.SUB:
			return func(m *machine) int32 { return -a(m) }
		case promela.TILDE:
			return func(m *machine) int32 { return ^a(m) }
		case promela.NOT:
			return func(m *machine) int32 { return b2i(a(m) == 0) }
		}
	case *promela.BinaryExpr:
		return c.binary(x)
	case *promela.CondExpr:
		cond, a, b := c.expr(x.Cond), c.expr(x.Then), c.expr(x.Else)
		if k, ok := c.constValue(x.Then); ok {
			k := int32(k)
			return func(m *machine) int32 {
				if cond(m) != 0 {
					return k
				}
				return b(m)
			}
		}
		return func(m *machine) int32 {
			if cond(m) != 0 {
				return a(m)
			}
			return b(m)
		}
	case *promela.CallExpr:
		return c.call(x)
	case *promela.PollExpr:
		return c.poll(x)
	case *promela.RemoteRef:
		if x.Var != nil {
			r, ok := c.compileRef(x)
			if !ok {
				return constFn(0)
			}
			return c.load(r, x.Pos())
		}
		return c.remoteLabel(x)
	case *promela.RunExpr:
		c.errorf(x.Run, "run inside an expression is not supported (use it as a statement or as the right side of an assignment)")
		return constFn(0)
	}
	c.errorf(x.Pos(), "unsupported expression %s", promela.ExprString(x))
	return constFn(0)
}

func (c *comp) ident(x *promela.Ident) evalFn {
	s := x.Sym
	if s == nil {
		c.errorf(x.Pos(), "unresolved name %s", x.Name)
		return constFn(0)
	}
	switch s.Kind {
	case promela.SymMtype:
		return constFn(int32(s.Value))
	case promela.SymParam:
		if s.Bound {
			return constFn(int32(s.Value))
		}
		c.errorf(x.Pos(), "parameter %s has no value", x.Name)
		return constFn(0)
	case promela.SymPredef:
		switch s.Predef {
		case promela.PredefPid:
			if c.pt == nil {
				c.errorf(x.Pos(), "_pid outside a process")
			}
			return func(m *machine) int32 { return int32(m.pid) }
		case promela.PredefNrPr:
			return func(m *machine) int32 { return int32(len(m.procs)) }
		case promela.PredefTimeout:
			return func(m *machine) int32 { return b2i(m.timeout) }
		case promela.PredefNP:
			// np_: no process is at a progress label.
			return func(m *machine) int32 {
				for pid := range m.procs {
					off := int(m.procs[pid])
					pt := m.p.segAt(m.vec, off).proc
					if pc := m.pcAt(off, pt); pc < len(pt.prog) && pt.prog[pc] {
						return 0
					}
				}
				return 1
			}
		case promela.PredefLast:
			if !c.p.usesLast {
				c.p.usesLast = true
			}
			return func(m *machine) int32 { return int32(m.vec[m.p.lastOff]) }
		}
		c.errorf(x.Pos(), "%s is not supported here", x.Name)
		return constFn(0)
	case promela.SymVar:
		if s == c.spec {
			return constFn(c.specVal)
		}
		r, ok := c.compileRef(x)
		if !ok {
			return constFn(0)
		}
		return c.load(r, x.Pos())
	case promela.SymAtomic:
		d, ok := s.Decl.(*promela.AtomicPropDecl)
		if !ok {
			break
		}
		if c.atoms[d] {
			c.errorf(x.Pos(), "atomic proposition %s refers to itself", x.Name)
			return constFn(0)
		}
		if c.atoms == nil {
			c.atoms = map[*promela.AtomicPropDecl]bool{}
		}
		c.atoms[d] = true
		f := c.expr(d.X)
		delete(c.atoms, d)
		return f
	}
	c.errorf(x.Pos(), "%s is a %s, not a value", x.Name, s.Kind)
	return constFn(0)
}

func (c *comp) binary(x *promela.BinaryExpr) evalFn {
	switch x.Op {
	case promela.LAND, promela.EQL, promela.NEQ, promela.LSS, promela.LEQ, promela.GTR, promela.GEQ:
		if !c.p.plain {
			if f := c.byteTests(x); f != nil {
				return f
			}
		}
	}
	a, b := c.expr(x.X), c.expr(x.Y)
	bv, bconst := c.constValue(x.Y)
	k := int32(bv)
	if bconst {
		if r, ok := c.byteOperand(x.X); ok {
			if f := compareByte(x.Op, r, k); f != nil {
				return f
			}
		}
	} else if r, ok := c.byteOperand(x.Y); ok {
		if f := withByte(x.Op, a, r); f != nil {
			return f
		}
	}
	switch x.Op {
	case promela.ADD:
		if bconst {
			return func(m *machine) int32 { return a(m) + k }
		}
		return func(m *machine) int32 { return a(m) + b(m) }
	case promela.SUB:
		if bconst {
			return func(m *machine) int32 { return a(m) - k }
		}
		return func(m *machine) int32 { return a(m) - b(m) }
	case promela.MUL:
		if bconst {
			return func(m *machine) int32 { return a(m) * k }
		}
		return func(m *machine) int32 { return a(m) * b(m) }
	case promela.QUO:
		if bconst && k != 0 {
			return func(m *machine) int32 { return a(m) / k }
		}
		return func(m *machine) int32 {
			u, v := a(m), b(m)
			if v == 0 {
				m.failf("division by zero")
				return 0
			}
			return u / v
		}
	case promela.REM:
		if bconst && k > 0 {
			// Most remainders are of a sum of numbers below k (the
			// next process on a ring): no division.
			return func(m *machine) int32 {
				u := a(m)
				if uint32(u) < uint32(k) {
					return u
				}
				if uint32(u) < 2*uint32(k) && k < 1<<30 {
					return u - k
				}
				return u % k
			}
		}
		return func(m *machine) int32 {
			u, v := a(m), b(m)
			if v == 0 {
				m.failf("division by zero (remainder)")
				return 0
			}
			return u % v
		}
	case promela.AND:
		if bconst {
			return func(m *machine) int32 { return a(m) & k }
		}
		return func(m *machine) int32 { return a(m) & b(m) }
	case promela.OR:
		return func(m *machine) int32 { return a(m) | b(m) }
	case promela.XOR:
		return func(m *machine) int32 { return a(m) ^ b(m) }
	case promela.SHL:
		return func(m *machine) int32 { return a(m) << (uint32(b(m)) & 31) }
	case promela.SHR:
		return func(m *machine) int32 { return a(m) >> (uint32(b(m)) & 31) }
	case promela.LAND:
		if av, ok := c.constValue(x.X); ok && av != 0 {
			return truth(x.Y, b)
		}
		if bconst && bv != 0 {
			return truth(x.X, a)
		}
		return func(m *machine) int32 { return b2i(a(m) != 0 && b(m) != 0) }
	case promela.LOR:
		if av, ok := c.constValue(x.X); ok && av == 0 {
			return truth(x.Y, b)
		}
		if bconst && bv == 0 {
			return truth(x.X, a)
		}
		return func(m *machine) int32 { return b2i(a(m) != 0 || b(m) != 0) }
	case promela.EQL:
		if bconst {
			return func(m *machine) int32 { return b2i(a(m) == k) }
		}
		return func(m *machine) int32 { return b2i(a(m) == b(m)) }
	case promela.NEQ:
		if bconst {
			return func(m *machine) int32 { return b2i(a(m) != k) }
		}
		return func(m *machine) int32 { return b2i(a(m) != b(m)) }
	case promela.LSS:
		if bconst {
			return func(m *machine) int32 { return b2i(a(m) < k) }
		}
		return func(m *machine) int32 { return b2i(a(m) < b(m)) }
	case promela.LEQ:
		if bconst {
			return func(m *machine) int32 { return b2i(a(m) <= k) }
		}
		return func(m *machine) int32 { return b2i(a(m) <= b(m)) }
	case promela.GTR:
		if bconst {
			return func(m *machine) int32 { return b2i(a(m) > k) }
		}
		return func(m *machine) int32 { return b2i(a(m) > b(m)) }
	case promela.GEQ:
		if bconst {
			return func(m *machine) int32 { return b2i(a(m) >= k) }
		}
		return func(m *machine) int32 { return b2i(a(m) >= b(m)) }
	}
	c.errorf(x.OpPos, "operator %s is not supported here", x.Op)
	return constFn(0)
}

// byteRef is a byte-sized scalar variable, or an element of an array of
// them indexed by a constant or by imul*v+iadd for a byte variable v
// (affineByte), of the globals or of the running process: the most common
// operands of guards and assignments in models over arrays indexed by a
// process number. It is read and written in place, without closures.
type byteRef struct {
	off, ioff  int
	local      bool
	indexed    bool
	ilocal     bool
	imul, iadd int
	n          int
	mask       byte
	text       string
}

// byteOperand reports whether x is a byteRef. It records no error: x is
// compiled on its own too.
func (c *comp) byteOperand(x promela.Expr) (*byteRef, bool) {
	if off, local, ok := c.byteVar(x); ok {
		v := c.p.vars[x.(*promela.Ident).Sym]
		return &byteRef{off: off, local: local, mask: byte(cellOf(v.typ).mask)}, true
	}
	ix, isIndex := x.(*promela.IndexExpr)
	if !isIndex {
		return nil, false
	}
	id, isIdent := ix.X.(*promela.Ident)
	if !isIdent || id.Sym == nil || id.Sym.Kind != promela.SymVar {
		return nil, false
	}
	v := c.p.vars[id.Sym]
	if v == nil || v.local && (c.pt == nil || v.proc != c.pt) || v.typ.Kind != promela.TArray {
		return nil, false
	}
	et := v.typ.Elem
	if et.Kind == promela.TArray || et.Kind == promela.TStruct || cellOf(et).size != 1 {
		return nil, false
	}
	r := &byteRef{off: v.off, local: v.local, mask: byte(cellOf(et).mask), n: int(v.typ.Len), text: promela.ExprString(x)}
	if k, ok := c.constValue(ix.Index); ok {
		if k < 0 || k >= int64(r.n) {
			return nil, false
		}
		r.off += int(k)
		return r, true
	}
	var ok bool
	r.ioff, r.ilocal, r.imul, r.iadd, ok = c.affineByte(ix.Index)
	r.indexed = true
	return r, ok
}

// addr is the reference's offset in the working vector, or -1 when the
// index is out of bounds (fail records the fault).
func (r *byteRef) addr(m *machine) int {
	a := r.off
	if r.local {
		a += m.base
	}
	if r.indexed {
		ia := r.ioff
		if r.ilocal {
			ia += m.base
		}
		i := int(m.vec[ia])*r.imul + r.iadd
		if uint(i) >= uint(r.n) {
			return -1
		}
		a += i // the elements are bytes
	}
	return a
}

// fail records the fault of an index out of bounds.
func (r *byteRef) fail(m *machine) {
	ia := r.ioff
	if r.ilocal {
		ia += m.base
	}
	i := int(m.vec[ia])*r.imul + r.iadd
	m.failf("invalid array index %d in %s (length %d)", i, r.text, r.n)
}

// get reads the reference; false when the index is out of bounds (the
// caller calls fail: get stays small enough to be inlined).
func (r *byteRef) get(m *machine) (int32, bool) {
	if a := r.addr(m); a >= 0 {
		return int32(m.vec[a]), true
	}
	return 0, false
}

func (r *byteRef) read(m *machine) int32 {
	if a := r.addr(m); a >= 0 {
		return int32(m.vec[a])
	}
	r.fail(m)
	return 0
}

func (r *byteRef) write(m *machine, v int32) {
	if a := r.addr(m); a >= 0 {
		m.vec[a] = byte(v) & r.mask
		return
	}
	r.fail(m)
}

// truth compiles x != 0 given f, the compiled x: f itself when x is
// always 0 or 1 (a comparison, a logical operator, a channel predicate).
func truth(x promela.Expr, f evalFn) evalFn {
	switch x := x.(type) {
	case *promela.BinaryExpr:
		switch x.Op {
		case promela.EQL, promela.NEQ, promela.LSS, promela.LEQ, promela.GTR, promela.GEQ, promela.LAND, promela.LOR:
			return f
		}
	case *promela.UnaryExpr:
		if x.Op == promela.NOT {
			return f
		}
	case *promela.CallExpr:
		switch x.Fun {
		case promela.BuiltinEmpty, promela.BuiltinNempty, promela.BuiltinFull, promela.BuiltinNfull:
			return f
		}
	}
	return func(m *machine) int32 { return b2i(f(m) != 0) }
}

// withByte compiles a op r; nil for operators it does not cover.
func withByte(op promela.Token, a evalFn, r *byteRef) evalFn {
	switch op {
	case promela.ADD:
		return func(m *machine) int32 {
			x := a(m)
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return x + v
		}
	case promela.SUB:
		return func(m *machine) int32 {
			x := a(m)
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return x - v
		}
	case promela.EQL:
		return func(m *machine) int32 {
			x := a(m)
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(x == v)
		}
	case promela.NEQ:
		return func(m *machine) int32 {
			x := a(m)
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(x != v)
		}
	case promela.LSS:
		return func(m *machine) int32 {
			x := a(m)
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(x < v)
		}
	case promela.LEQ:
		return func(m *machine) int32 {
			x := a(m)
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(x <= v)
		}
	case promela.GTR:
		return func(m *machine) int32 {
			x := a(m)
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(x > v)
		}
	case promela.GEQ:
		return func(m *machine) int32 {
			x := a(m)
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(x >= v)
		}
	}
	return nil
}

// compareByte compiles r op k for a constant k; nil for operators it does
// not cover.
func compareByte(op promela.Token, r *byteRef, k int32) evalFn {
	switch op {
	case promela.EQL:
		return func(m *machine) int32 {
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(v == k)
		}
	case promela.NEQ:
		return func(m *machine) int32 {
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(v != k)
		}
	case promela.LSS:
		return func(m *machine) int32 {
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(v < k)
		}
	case promela.LEQ:
		return func(m *machine) int32 {
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(v <= k)
		}
	case promela.GTR:
		return func(m *machine) int32 {
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(v > k)
		}
	case promela.GEQ:
		return func(m *machine) int32 {
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return b2i(v >= k)
		}
	case promela.ADD:
		return func(m *machine) int32 {
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return v + k
		}
	case promela.SUB:
		return func(m *machine) int32 {
			v, ok := r.get(m)
			if !ok {
				r.fail(m)
			}
			return v - k
		}
	}
	return nil
}

// chanExpr compiles an expression whose value is a channel id.
func (c *comp) chanExpr(x promela.Expr) evalFn {
	return c.expr(x)
}

func (c *comp) call(x *promela.CallExpr) evalFn {
	if len(x.Args) != 1 {
		c.errorf(x.FunPos, "%s takes one argument", x.Fun)
		return constFn(0)
	}
	switch x.Fun {
	case promela.BuiltinLen, promela.BuiltinEmpty, promela.BuiltinNempty, promela.BuiltinFull, promela.BuiltinNfull:
		ch := c.chanExpr(x.Args[0])
		what := x.Fun.String()
		if r, ok := c.byteOperand(x.Args[0]); ok {
			// An element of an array of channels indexed by a byte.
			switch x.Fun {
			case promela.BuiltinLen:
				return func(m *machine) int32 { n, _ := m.chanFillRef(r, what); return int32(n) }
			case promela.BuiltinEmpty:
				return func(m *machine) int32 { n, s := m.chanFillRef(r, what); return b2i(s >= 0 && n == 0) }
			case promela.BuiltinNempty:
				return func(m *machine) int32 { n, _ := m.chanFillRef(r, what); return b2i(n > 0) }
			case promela.BuiltinFull:
				return func(m *machine) int32 { n, s := m.chanFillRef(r, what); return b2i(n == s) }
			case promela.BuiltinNfull:
				return func(m *machine) int32 { n, s := m.chanFillRef(r, what); return b2i(s >= 0 && n != s) }
			}
		}
		switch x.Fun {
		case promela.BuiltinLen:
			return func(m *machine) int32 { n, _ := m.chanFill(ch(m), what); return int32(n) }
		case promela.BuiltinEmpty:
			return func(m *machine) int32 { n, s := m.chanFill(ch(m), what); return b2i(s >= 0 && n == 0) }
		case promela.BuiltinNempty:
			return func(m *machine) int32 { n, _ := m.chanFill(ch(m), what); return b2i(n > 0) }
		case promela.BuiltinFull:
			return func(m *machine) int32 { n, s := m.chanFill(ch(m), what); return b2i(n == s) }
		case promela.BuiltinNfull:
			return func(m *machine) int32 { n, s := m.chanFill(ch(m), what); return b2i(s >= 0 && n != s) }
		}
	case promela.BuiltinPcValue:
		pid := c.expr(x.Args[0])
		return func(m *machine) int32 {
			p := int(pid(m))
			pt := m.procTypeOf(p)
			if pt == nil {
				return 0
			}
			return int32(m.pcAt(int(m.procs[p]), pt))
		}
	case promela.BuiltinAll, promela.BuiltinSome, promela.BuiltinCard:
		return c.quantifier(x)
	case promela.BuiltinEnabled:
		pid := c.expr(x.Args[0])
		return func(m *machine) int32 { return b2i(m.enabled(int(pid(m)))) }
	}
	c.errorf(x.FunPos, "%s is not supported here", x.Fun)
	return constFn(0)
}

// chanFill returns the length and the number of slots of channel id; -1
// slots after recording a fault (no comparison of the two holds then).
func (m *machine) chanFill(id int32, what string) (n, slots int) {
	if id <= 0 || int(id) > len(m.chans) {
		m.chanOff(id, what)
		return 0, -1
	}
	off := int(m.chans[id-1])
	ct := m.p.segAt(m.vec, off).ch
	return m.chanLen(off, ct), ct.slots
}

// chanFillRef is chanFill of the channel whose id r holds.
func (m *machine) chanFillRef(r *byteRef, what string) (n, slots int) {
	id, ok := r.get(m)
	if !ok {
		r.fail(m)
	}
	if id <= 0 || int(id) > len(m.chans) {
		return m.chanFill(id, what) // records the fault
	}
	// As chanFill, inline.
	off := int(m.chans[id-1])
	ct := m.p.segAt(m.vec, off).ch
	return m.chanLen(off, ct), ct.slots
}

// remoteLabel compiles P[i]@L: process i runs P and is at label L.
func (c *comp) remoteLabel(x *promela.RemoteRef) evalFn {
	pd, _ := x.Proc.Sym.Decl.(*promela.ProcDecl)
	pt := c.p.byDecl[pd]
	if pt == nil || x.Label == nil {
		c.errorf(x.Pos(), "bad remote reference %s", promela.ExprString(x))
		return constFn(0)
	}
	st, ok := pt.labels[x.Label.Name]
	if !ok {
		c.errorf(x.Label.NamePos, "%s has no label %s", pt.name, x.Label.Name)
		return constFn(0)
	}
	pid := c.remotePid(x, pt)
	return func(m *machine) int32 {
		p := int(pid(m))
		if m.procTypeOf(p) != pt {
			return 0
		}
		return b2i(m.pcAt(int(m.procs[p]), pt) == st)
	}
}

func (c *comp) errorfUnsupported(pos promela.Pos, what string) evalFn {
	c.errorf(pos, "%s is not supported", what)
	return constFn(0)
}

var _ = fmt.Sprint
