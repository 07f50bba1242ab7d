package compile

import (
	"ftmc/promela"
)

// maxProcs and maxChans are Spin's limits.
const (
	maxProcs = 255
	maxChans = 255
)

// compileRun compiles run P(args): a function that starts the process and
// returns its pid.
func (c *comp) compileRun(x *promela.RunExpr) func(m *machine) int32 {
	var pt *procType
	if x.Proc.Sym != nil {
		if d, ok := x.Proc.Sym.Decl.(*promela.ProcDecl); ok {
			pt = c.p.byDecl[d]
		}
	}
	if pt == nil {
		c.errorf(x.Run, "run %s: not a proctype", x.Proc.Name)
		return func(*machine) int32 { return 0 }
	}
	var args []evalFn
	for _, a := range x.Args {
		args = append(args, c.expr(a))
	}
	if len(args) > len(pt.params) {
		c.errorf(x.Run, "run %s: %d arguments for %d parameters", pt.name, len(args), len(pt.params))
	}
	return func(m *machine) int32 {
		var buf [16]int32
		vals := buf[:0]
		for _, a := range args {
			vals = append(vals, a(m))
		}
		if m.fault != "" {
			return 0
		}
		return m.addProc(pt, vals)
	}
}

// grow appends n zero bytes to the machine's vector.
func (m *machine) grow(n int) int {
	off := len(m.vec)
	if cap(m.vec)-off >= n {
		m.vec = m.vec[:off+n]
		clear(m.vec[off:])
	} else {
		m.vec = append(m.vec, make([]byte, n)...)
	}
	return off
}

// addProc starts a process of type pt with the given arguments and
// returns its pid.
func (m *machine) addProc(pt *procType, args []int32) int32 {
	if len(m.procs) >= maxProcs {
		m.failf("too many processes (at most %d)", maxProcs)
		return 0
	}
	off := m.grow(pt.size)
	m.setPC(off, pt, pt.start)
	pid := len(m.procs)
	if len(m.levels) > 0 {
		m.procs = m.addOffset(m.procs, &m.levels[m.cur].pbuf, int32(off))
	} else {
		m.procs = append(m.procs, int32(off))
	}
	for i, pv := range pt.params {
		if i < len(args) && scalarType(pv.typ).Kind != promela.TStruct {
			cellOf(scalarType(pv.typ)).store(m.vec, off+pv.off, args[i])
		}
	}
	savePid, saveBase := m.pid, m.base
	m.pid, m.base = pid, off
	for i := range pt.inits {
		m.initVar(&pt.inits[i], off)
	}
	m.pid, m.base = savePid, saveBase
	return int32(pid)
}

// initVar sets a variable to its initial value; base is the offset its
// own offset is relative to (a process segment, or 0 for globals).
func (m *machine) initVar(li *localInit, base int) {
	v := li.v
	at := base + v.off
	switch {
	case li.ch != nil:
		n := 1
		if v.typ.Kind == promela.TArray {
			n = int(v.typ.Len)
		}
		for i := 0; i < n; i++ {
			id := m.addChan(li.ch)
			m.vec[at+i] = byte(id)
		}
	case li.value != nil:
		x := li.value(m)
		scalars(v.typ, at, func(o int, st *promela.Type) { cellOf(st).store(m.vec, o, x) })
	case li.list != nil:
		i := 0
		scalars(v.typ, at, func(o int, st *promela.Type) {
			if i < len(li.list) {
				cellOf(st).store(m.vec, o, li.list[i](m))
			}
			i++
		})
	}
	for _, f := range li.field {
		f.c.store(m.vec, at+f.off, f.value)
	}
}

// addChan creates a channel at the end of the vector and returns its id.
func (m *machine) addChan(ct *chanType) int32 {
	if len(m.chans) >= maxChans {
		m.failf("too many channels (at most %d)", maxChans)
		return 0
	}
	off := m.grow(ct.size)
	m.setChanLen(off, ct, 0)
	if len(m.levels) > 0 {
		m.chans = m.addOffset(m.chans, &m.levels[m.cur].cbuf, int32(off))
	} else {
		m.chans = append(m.chans, int32(off))
	}
	return int32(len(m.chans))
}

// delProc removes process pid, the last one, with the channels created
// after it.
func (m *machine) delProc(pid int) {
	off := m.procs[pid]
	m.procs = m.procs[:pid:pid] // shared with other levels (copyLevel)
	k := len(m.chans)
	for k > 0 && m.chans[k-1] > off {
		k--
	}
	m.chans = m.chans[:k:k]
	m.vec = m.vec[:off]
}

// buildInitial computes the initial state: globals with their initial
// values and global channels, then the active processes (and init) in the
// order of their declarations.
func (p *program) buildInitial(decls []*promela.ProcDecl) {
	m := &machine{p: p}
	m.vec = make([]byte, p.segStart)
	c := &comp{p: p}
	for _, v := range p.globals {
		li, ok := c.localInit(v)
		if !ok {
			continue
		}
		m.initVar(&li, 0)
	}
	for _, d := range decls {
		pt := p.byDecl[d]
		n := 0
		switch {
		case d.Kind == promela.KindInit:
			n = 1
		case d.Active:
			n = int(d.Instances)
		}
		for i := 0; i < n; i++ {
			m.addProc(pt, nil)
		}
	}
	if m.fault != "" {
		p.errorf(p.prog.Pos(), "cannot compute the initial state: %s", m.fault)
		return
	}
	p.initial = append([]byte(nil), m.vec[p.hidden:]...)
}
