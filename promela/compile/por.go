package compile

import "ftmc/promela"

// This file gives the search what partial-order reduction needs
// (state.Reducer): for every location of every proctype, whether all its
// transitions are safe in Spin's sense, computed once from the program.
// The analysis is conservative: a safe transition reads and writes only
// the variables of its own process (and the constant _pid), is a guard,
// an assignment, an assertion or a jump, and is neither inside an atomic
// sequence or d_step nor under an unless. Channel operations (Spin's xs
// and xr exclusivity), run, process ends, else and timeout are never safe.
// A program that reads the locals or locations of other processes (remote
// references, enabled, pc_value) or _last, which every step writes, gets
// no reduction at all.

// porTable computes p.safe: per proctype (by its index in p.procs), per
// location, whether the location's transitions may form an ample set. It
// leaves p.safe nil when the program admits no reduction.
func (p *program) porTable() {
	if p.usesLast || p.readsOtherProcesses() {
		return
	}
	safe := make([][]bool, len(p.procs))
	some := false
	for k, pt := range p.procs {
		safe[k] = make([]bool, len(pt.trans))
		inAtomic := make([]bool, len(pt.trans))
		for _, ts := range pt.trans {
			for i := range ts {
				if t := &ts[i]; t.atomic && t.to >= 0 && t.to < len(inAtomic) {
					inAtomic[t.to] = true
				}
			}
		}
		if pt.provided != nil {
			continue // the clause reads globals, and blocks the process
		}
		for pc, ts := range pt.trans {
			ok := len(ts) > 0 && !inAtomic[pc]
			for i := range ts {
				ok = ok && safeTrans(&ts[i])
			}
			safe[k][pc] = ok
			some = some || ok
		}
	}
	if some {
		p.safe = safe
	}
}

// safeTrans reports whether t touches only its own process's variables and
// keeps to Spin's conditions for a step of an ample set.
func safeTrans(t *trans) bool {
	switch t.kind {
	case tSkip, tCond, tAssign, tAssert:
	default:
		return false
	}
	e := t.elem
	if t.atomic || t.etrans != 0 || e == nil || e.dstep != nil || e.status&(stAtom|stLAtom|stDAtom) != 0 {
		return false
	}
	switch e.kind {
	case eGoto, eDot, eBreak:
		return true
	case eStmt:
	default:
		return false
	}
	if e.stmt == nil {
		return false
	}
	ok := true
	promela.Inspect(e.stmt, func(n promela.Node) bool {
		switch n := n.(type) {
		case *promela.Ident:
			ok = ok && localName(n)
		case *promela.RemoteRef, *promela.RunExpr, *promela.PollExpr, *promela.CallExpr:
			ok = false
		}
		return ok
	})
	return ok
}

// localName reports whether the name denotes something the process alone
// reads and writes, or a constant.
func localName(id *promela.Ident) bool {
	s := id.Sym
	if s == nil {
		return false
	}
	switch s.Kind {
	case promela.SymVar:
		return s.Proc != nil
	case promela.SymField, promela.SymMtype:
		return true
	case promela.SymParam:
		return s.Bound
	case promela.SymPredef:
		return s.Predef == promela.PredefPid
	}
	return false
}

// readsOtherProcesses reports whether a process of the program reads
// another's variables or location, so that no step is local.
func (p *program) readsOtherProcesses() bool {
	found := false
	for _, pt := range p.procs {
		promela.Inspect(pt.decl, func(n promela.Node) bool {
			switch n := n.(type) {
			case *promela.RemoteRef:
				found = true
			case *promela.CallExpr:
				found = found || n.Fun == promela.BuiltinEnabled || n.Fun == promela.BuiltinPcValue
			}
			return !found
		})
	}
	return found
}

// Ample implements state.Reducer: the pids, last first as Next tries
// them, of the processes at a location whose transitions are all safe.
func (md *Model) Ample(s []byte, buf []int32) []int32 {
	p := md.p
	if p.safe == nil {
		return buf
	}
	first := len(buf)
	off := p.segStart - p.hidden
	for pid := 0; off < len(s); {
		st := p.segAt(s, off)
		if pt := st.proc; pt != nil {
			if pc := p.code(s, off) - pt.base; pc >= 0 && pc < len(pt.trans) && p.safe[pt.index][pc] {
				buf = append(buf, int32(pid))
			}
			pid++
		}
		off += st.size
	}
	for a, b := first, len(buf)-1; a < b; a, b = a+1, b-1 {
		buf[a], buf[b] = buf[b], buf[a]
	}
	return buf
}
