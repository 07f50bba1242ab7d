package compile

import "ftmc/promela"

// This file proves channel ends exclusive state by state, for the
// channels that processes receive as run parameters (the common style
// proctype node(chan in, out) { ... in?x ... out!y }), where the program
// text alone (exclusiveChans) cannot tell which process holds which
// channel. A FIFO send by process P through its own chan variable is
// safe in a state where the variable names a global buffered channel that
// has room and that no other process can send to, test or take from out
// of order, now or later; a FIFO receive is safe where the channel has a
// message that no other process can take, test or pass with a sorted
// send. What another process can reach is read from the program and the
// state:
//
//   - its proctype names channels in those operations only through chan
//     variables that nothing assigns (parameters and locals named only as
//     channels of operations, run arguments, sent values and xr/xs), whose
//     value in the state is then their value for ever, and global channel
//     variables (an array stands for all its elements); any other operand
//     (an assigned variable, a field, a received channel) could be any
//     channel, and P's operation is not safe while such a process lives;
//   - no other process is at a location from which it can run a process,
//     which could be given the channel.
//
// These are the conditions Spin's xs and xr declarations state (Spin
// trusts them and checks them during the search); here they need no
// declaration and are never trusted.

// chanAccess is what the processes of one proctype can do to channels.
type chanAccess struct {
	// vars and globals, per side (sideSend: the operations that conflict
	// with another process's exclusive send; sideRecv: with its exclusive
	// receive), are the unassigned chan locals and the global chan
	// variables they name; opaque says that some operation names a
	// channel otherwise.
	vars    [2][]*varInfo
	globals [2][]*varInfo
	opaque  [2]bool
	// mayRun says, per location, whether a run can be reached from it.
	mayRun []bool
}

const (
	sideSend = iota
	sideRecv
)

// chanAccesses computes p.access and p.dynChan (per transition id,
// whether it is a send or receive through its process's chan variable,
// safe under the conditions above), or leaves them nil when the program
// offers no such operation.
func (p *program) chanAccesses() {
	if len(p.prog.Inlines) > 0 {
		return // inline bodies name channels before they are expanded
	}
	tainted := p.taintedChans()
	access := make([]*chanAccess, len(p.procs))
	for k, pt := range p.procs {
		a := &chanAccess{}
		access[k] = a
		add := func(x promela.Expr, sides ...int) {
			ix, index := x.(*promela.IndexExpr)
			if index {
				x = ix.X
			}
			for _, side := range sides {
				id, ok := x.(*promela.Ident)
				if !ok || id.Sym == nil || tainted[id.Sym] || p.vars[id.Sym] == nil {
					a.opaque[side] = true
					continue
				}
				v := p.vars[id.Sym]
				if v.local {
					if index || v.size != 1 {
						a.opaque[side] = true // an element of a local array
						continue
					}
					a.vars[side] = append(a.vars[side], v)
				} else if !v.hidden {
					a.globals[side] = append(a.globals[side], v)
				} else {
					a.opaque[side] = true
				}
			}
		}
		promela.Inspect(pt.decl, func(n promela.Node) bool {
			switch n := n.(type) {
			case *promela.SendStmt:
				if n.Sorted {
					add(n.Chan, sideSend, sideRecv)
				} else {
					add(n.Chan, sideSend)
				}
			case *promela.RecvStmt:
				if n.Random || n.Copy {
					add(n.Chan, sideSend, sideRecv)
				} else {
					add(n.Chan, sideRecv)
				}
			case *promela.PollExpr:
				add(n.Chan, sideSend, sideRecv)
			case *promela.CallExpr:
				switch n.Fun {
				case promela.BuiltinLen, promela.BuiltinEmpty, promela.BuiltinNempty, promela.BuiltinFull, promela.BuiltinNfull:
					for _, x := range n.Args {
						add(x, sideSend, sideRecv)
					}
				}
			}
			return true
		})
		a.mayRun = mayRun(pt)
	}
	dyn := make([]bool, len(p.trans))
	some := false
	for _, pt := range p.procs {
		for _, ts := range pt.trans {
			for i := range ts {
				if t := &ts[i]; ownChanTrans(t) {
					dyn[t.id], some = true, true
				}
			}
		}
	}
	if some {
		p.access, p.dynChan = access, dyn
	}
}

// taintedChans returns the chan variables that may change after their
// process starts (or, for globals, after the initial state): every use of
// a chan variable other than as the channel of an operation, an xr or xs,
// a run argument, a sent value or its declaration (without a late
// initialization) counts.
func (p *program) taintedChans() map[*promela.Symbol]bool {
	isChan := func(s *promela.Symbol) bool {
		if s == nil || s.Kind != promela.SymVar || s.Type == nil {
			return false
		}
		t := s.Type
		for t.Kind == promela.TArray && t.Elem != nil {
			t = t.Elem
		}
		return t.Kind == promela.TChan
	}
	refs := map[*promela.Symbol]int{}
	known := map[*promela.Symbol]int{}
	tainted := map[*promela.Symbol]bool{}
	operand := func(x promela.Expr) {
		if ix, ok := x.(*promela.IndexExpr); ok {
			x = ix.X
		}
		if id, ok := x.(*promela.Ident); ok && isChan(id.Sym) {
			known[id.Sym]++
		}
	}
	for _, d := range p.prog.Decls {
		promela.Inspect(d, func(n promela.Node) bool {
			switch n := n.(type) {
			case *promela.Ident:
				if isChan(n.Sym) {
					refs[n.Sym]++
				}
			case *promela.VarDecl:
				if n.Name != nil && isChan(n.Name.Sym) {
					known[n.Name.Sym]++
					if n.Late || n.Init != nil || n.InitList != nil {
						tainted[n.Name.Sym] = true
					}
				}
			case *promela.SendStmt:
				operand(n.Chan)
				for _, a := range n.Args {
					operand(a)
				}
			case *promela.RecvStmt:
				operand(n.Chan)
			case *promela.PollExpr:
				operand(n.Chan)
			case *promela.CallExpr:
				switch n.Fun {
				case promela.BuiltinLen, promela.BuiltinEmpty, promela.BuiltinNempty, promela.BuiltinFull, promela.BuiltinNfull:
					for _, a := range n.Args {
						operand(a)
					}
				}
			case *promela.RunExpr:
				for _, a := range n.Args {
					operand(a)
				}
			case *promela.XStmt:
				for _, c := range n.Chans {
					operand(c)
				}
			}
			return true
		})
	}
	for s, n := range refs {
		if n != known[s] {
			tainted[s] = true
		}
	}
	return tainted
}

// mayRun returns, per location of pt, whether a step that runs a process
// (or a d_step, which may) can be reached from it.
func mayRun(pt *procType) []bool {
	may := make([]bool, len(pt.trans))
	for pc, ts := range pt.trans {
		for i := range ts {
			if runs(&ts[i]) {
				may[pc] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for pc, ts := range pt.trans {
			if may[pc] {
				continue
			}
			for i := range ts {
				if to := ts[i].to; to >= 0 && to < len(may) && may[to] {
					may[pc], changed = true, true
					break
				}
			}
		}
	}
	return may
}

// runs reports whether t may run a process.
func runs(t *trans) bool {
	if t.kind == tRun || t.kind == tDStep || t.elem == nil || t.elem.dstep != nil {
		return true
	}
	if t.elem.stmt == nil {
		return false
	}
	found := false
	promela.Inspect(t.elem.stmt, func(n promela.Node) bool {
		_, r := n.(*promela.RunExpr)
		found = found || r
		return !found
	})
	return found
}

// ownChanTrans reports whether t is a FIFO send or receive through a chan
// variable of its own process, outside atomic sequences and unless, that
// reads and writes only its process's variables otherwise.
func ownChanTrans(t *trans) bool {
	e := t.elem
	if t.atomic || t.etrans != 0 || e == nil || e.kind != eStmt || e.dstep != nil || e.status&(stAtom|stLAtom|stDAtom) != 0 {
		return false
	}
	var ch promela.Expr
	var args []promela.Expr
	switch s := e.stmt.(type) {
	case *promela.SendStmt:
		if t.kind != tSend || s.Sorted {
			return false
		}
		ch, args = s.Chan, s.Args
	case *promela.RecvStmt:
		if t.kind != tRecv || s.Random || s.Copy {
			return false
		}
		ch, args = s.Chan, s.Args
	default:
		return false
	}
	id, ok := ch.(*promela.Ident)
	if !ok || id.Sym == nil || id.Sym.Kind != promela.SymVar || id.Sym.Proc == nil {
		return false
	}
	return localArgs(args)
}

// localArgs reports whether the expressions read and write only their
// process's variables and constants.
func localArgs(args []promela.Expr) bool {
	ok := true
	for _, a := range args {
		promela.Inspect(a, func(n promela.Node) bool {
			switch n := n.(type) {
			case *promela.Ident:
				ok = ok && localName(n)
			case *promela.RemoteRef, *promela.RunExpr, *promela.PollExpr, *promela.CallExpr:
				ok = false
			}
			return ok
		})
	}
	return ok
}

// exclusive reports whether, in the state loaded in the machine, no
// process but pid can reach channel id (1-based) on the given side, now
// or later (see the file's comment), and the channel is a global buffered
// one.
func (md *Model) exclusive(pid int, id int32, side int) bool {
	m := &md.m
	p := md.p
	if len(m.procs) == 0 || int(m.chans[id-1]) >= int(m.procs[0]) {
		return false // a process's channel, which goes when it ends
	}
	if p.segAt(m.vec, int(m.chans[id-1])).ch.cap == 0 {
		return false
	}
	for q, off32 := range m.procs {
		if q == pid {
			continue
		}
		off := int(off32)
		pt := p.segAt(m.vec, off).proc
		if pt == nil {
			return false
		}
		a := p.access[pt.index]
		if a.opaque[side] {
			return false
		}
		if pc := m.pcAt(off, pt); pc < 0 || pc >= len(a.mayRun) || a.mayRun[pc] {
			return false
		}
		for _, v := range a.vars[side] {
			if int32(m.vec[off+v.off]) == id {
				return false
			}
		}
		for _, v := range a.globals[side] {
			for i := 0; i < v.size; i++ {
				if int32(m.vec[v.off+i]) == id {
					return false
				}
			}
		}
	}
	return true
}
