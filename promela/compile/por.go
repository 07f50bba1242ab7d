package compile

import (
	"ftmc/promela"
	"ftmc/state"
)

// This file gives the search what partial-order reduction needs
// (state.Reducer): for every location of every proctype, whether all its
// transitions are safe in Spin's sense, computed once from the program.
// The analysis is conservative: a safe transition reads and writes only
// the variables of its own process (and the constant _pid), is a guard,
// an assignment, an assertion or a jump, and is neither inside an atomic
// sequence or d_step nor under an unless; an else is safe among such
// transitions (whether it is enabled then depends on the process's
// variables alone), as in Spin. A process's end is safe in a program
// without run and _nr_pr (runsOrCounts) if the process creates no
// channel. Run and timeout are never safe, nor are channel operations
// except those on an exclusive channel (see exclusiveChans): a FIFO send
// to a buffered channel that only this process sends to, and that no
// other process tests, is safe in a state where the channel is not full
// (no other step can disable it, and with the receiver's step it
// commutes); a FIFO receive from one that only this process receives
// from is safe in a state where the channel is not empty. These are
// Spin's rules for the channels a process declares xs and xr; Spin
// trusts the declarations and reports a violation met during the search,
// ftmc proves them from the program text and keeps the channel's
// operations unsafe otherwise; operations through a process's own chan
// variables (run parameters) are proven state by state (porchan.go). A
// program that reads the locals or
// locations of other processes (remote references, enabled, pc_value) or
// _last, which every step writes, gets no reduction at all.

// porTable computes p.safe: per proctype (by its index in p.procs), per
// location, whether the location's transitions may form an ample set. It
// leaves p.safe nil when the program admits no reduction.
func (p *program) porTable() {
	if p.usesLast || p.readsOtherProcesses() {
		return
	}
	xs, xr := p.exclusiveChans()
	ends := !p.runsOrCounts()
	p.chanAccesses()
	safe := make([][]bool, len(p.procs))
	conds := make([][][]*trans, len(p.procs))
	some := false
	for k, pt := range p.procs {
		safe[k] = make([]bool, len(pt.trans))
		conds[k] = make([][]*trans, len(pt.trans))
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
			hasElse := false
			for i := range ts {
				t := &ts[i]
				switch {
				case !ok:
				case safeTrans(t):
				case safeElse(t):
					hasElse = true
				case t.kind == tEnd && ends && !ownsChans(pt):
				case safeChanTrans(t, pt.decl, xs, xr), p.dynChan != nil && p.dynChan[t.id]:
					conds[k][pc] = append(conds[k][pc], t)
				default:
					ok = false
				}
			}
			if hasElse && len(conds[k][pc]) > 0 {
				ok = false
			}
			if !ok {
				conds[k][pc] = nil
			}
			safe[k][pc] = ok
			some = some || ok
		}
	}
	if some {
		p.safe, p.chanSafe = safe, conds
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

// safeElse reports whether t, an else, may be in an ample set: outside
// atomic sequences and unless. Its location's other transitions must be
// safe too (safeTrans; porTable refuses a location that mixes an else
// with channel operations), so that whether it is enabled depends on its
// process's variables alone, which no other step changes.
func safeElse(t *trans) bool {
	e := t.elem
	return t.kind == tElse && !t.atomic && t.etrans == 0 && e != nil && e.dstep == nil && e.status&(stAtom|stLAtom|stDAtom) == 0
}

// runsOrCounts reports whether the program creates processes (run) or
// reads their number (_nr_pr). Otherwise a process's end is safe: it is
// enabled only for the last process, which no other step can change, and
// the removal of the process changes nothing another process reads.
func (p *program) runsOrCounts() bool {
	found := false
	for _, d := range p.prog.Decls {
		promela.Inspect(d, func(n promela.Node) bool {
			switch n := n.(type) {
			case *promela.RunExpr:
				found = true
			case *promela.Ident:
				found = found || n.Sym != nil && n.Sym.Kind == promela.SymPredef && n.Sym.Predef == promela.PredefNrPr
			}
			return !found
		})
	}
	return found
}

// ownsChans reports whether the processes of pt create channels, which
// go with them when they end, under the feet of the processes they were
// passed to.
func ownsChans(pt *procType) bool {
	for _, li := range pt.inits {
		if li.ch != nil {
			return true
		}
	}
	for _, v := range pt.decl.Locals {
		if v.Chan != nil {
			return true
		}
	}
	return false
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
// them, of the processes at a location whose transitions are all safe in
// s (the channel operations among them only when their exclusive channel
// is not full for a send, not empty for a receive, and, through a chan
// variable, exclusive to the process in s).
func (md *Model) Ample(s []byte, buf []int32) []int32 {
	return md.ample(s, buf, nil)
}

// ample is Ample without the locations hidden marks (per proctype and
// location, or nil).
func (md *Model) ample(s []byte, buf []int32, hidden [][]bool) []int32 {
	p := md.p
	if p.safe == nil {
		return buf
	}
	loaded := false
	first := len(buf)
	off := p.segStart - p.hidden
	for pid := 0; off < len(s); {
		st := p.segAt(s, off)
		if pt := st.proc; pt != nil {
			if pc := p.code(s, off) - pt.base; pc >= 0 && pc < len(pt.trans) && p.safe[pt.index][pc] && (hidden == nil || !hidden[pt.index][pc]) {
				ok := true
				if conds := p.chanSafe[pt.index][pc]; len(conds) > 0 {
					if !loaded {
						md.load(s)
						loaded = true
					}
					ok = md.chansReady(conds, pid)
				}
				if ok {
					buf = append(buf, int32(pid))
				}
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

// exclusiveChans finds the global buffered channels whose sends (xs) or
// receives (xr) belong to one process, as its xs or xr declaration
// claims, proven from the program text:
//
//   - every global channel variable (scalar or array) is named only as
//     the channel of a send, receive, poll, len, full, empty, nfull,
//     nempty or xr/xs, never copied, passed or assigned, and every such
//     operation names a global channel variable (or an element of a
//     global array of channels): otherwise a chan parameter, local or
//     overwritten variable could reach any channel, and no channel is
//     exclusive (nor in a program with inlines, whose bodies name
//     channels before they are expanded);
//   - the channel is a scalar declared with a buffer;
//   - exactly one proctype declares it xs (xr), has a single instance
//     (active and never run, or init), and does all its sends (receives);
//   - no other process tests it (len, polls, the family of full and
//     empty), and none of its operations is a sorted send or a random or
//     copying receive, which do not commute with the other end.
func (p *program) exclusiveChans() (xs, xr map[*promela.Symbol]*promela.ProcDecl) {
	type use struct {
		sendBy, recvBy, testBy map[*promela.ProcDecl]bool
		claimXS, claimXR       map[*promela.ProcDecl]bool
		odd                    bool // a sorted send or a random or copying receive
		refs, known            int
	}
	uses := map[*promela.Symbol]*use{}
	candidates := 0
	for _, v := range p.prog.Globals {
		if v.Name == nil || v.Name.Sym == nil || v.Name.Sym.Type == nil {
			continue
		}
		t := v.Name.Sym.Type
		for t.Kind == promela.TArray && t.Elem != nil {
			t = t.Elem
		}
		if t.Kind != promela.TChan {
			continue
		}
		if v.Init != nil || v.InitList != nil {
			return nil, nil
		}
		uses[v.Name.Sym] = &use{
			sendBy: map[*promela.ProcDecl]bool{}, recvBy: map[*promela.ProcDecl]bool{}, testBy: map[*promela.ProcDecl]bool{},
			claimXS: map[*promela.ProcDecl]bool{}, claimXR: map[*promela.ProcDecl]bool{},
		}
		if v.Chan != nil && v.Len == nil && v.Chan.Size > 0 {
			candidates++
		}
	}
	if candidates == 0 || len(p.prog.Inlines) > 0 {
		return nil, nil
	}
	opaque := false
	// chanOf counts x as a channel operand; the scalar's use, or nil.
	chanOf := func(x promela.Expr) *use {
		if ix, ok := x.(*promela.IndexExpr); ok {
			if id, ok := ix.X.(*promela.Ident); ok && id.Sym != nil && uses[id.Sym] != nil {
				uses[id.Sym].known++
				return nil
			}
		}
		if id, ok := x.(*promela.Ident); ok && id.Sym != nil && uses[id.Sym] != nil {
			u := uses[id.Sym]
			u.known++
			return u
		}
		opaque = true
		return nil
	}
	for _, decl := range p.prog.Decls {
		d, _ := decl.(*promela.ProcDecl)
		promela.Inspect(decl, func(n promela.Node) bool {
			switch n := n.(type) {
			case *promela.Ident:
				if u := uses[n.Sym]; n.Sym != nil && u != nil {
					u.refs++
				}
			case *promela.VarDecl:
				if u := uses[n.Name.Sym]; n.Name.Sym != nil && u != nil {
					u.known++
				}
			case *promela.SendStmt:
				if u := chanOf(n.Chan); u != nil {
					u.sendBy[d] = true
					u.odd = u.odd || n.Sorted
				}
			case *promela.RecvStmt:
				if u := chanOf(n.Chan); u != nil {
					u.recvBy[d] = true
					u.odd = u.odd || n.Random || n.Copy
				}
			case *promela.PollExpr:
				if u := chanOf(n.Chan); u != nil {
					u.testBy[d] = true
				}
			case *promela.CallExpr:
				switch n.Fun {
				case promela.BuiltinLen, promela.BuiltinEmpty, promela.BuiltinNempty, promela.BuiltinFull, promela.BuiltinNfull:
					if len(n.Args) == 1 {
						if u := chanOf(n.Args[0]); u != nil {
							u.testBy[d] = true
						}
					}
				}
			case *promela.XStmt:
				for _, c := range n.Chans {
					id, ok := c.(*promela.Ident)
					if !ok || id.Sym == nil || uses[id.Sym] == nil {
						continue
					}
					u := uses[id.Sym]
					u.known++
					if n.Tok == promela.XS {
						u.claimXS[d] = true
					} else {
						u.claimXR[d] = true
					}
				}
			}
			return true
		})
	}
	for _, u := range uses {
		opaque = opaque || u.refs != u.known
	}
	if opaque {
		return nil, nil
	}
	runs := map[*promela.ProcDecl]bool{}
	for _, d := range p.prog.Decls {
		promela.Inspect(d, func(n promela.Node) bool {
			if r, ok := n.(*promela.RunExpr); ok && r.Proc != nil && r.Proc.Sym != nil {
				if pd, ok := r.Proc.Sym.Decl.(*promela.ProcDecl); ok {
					runs[pd] = true
				}
			}
			return true
		})
	}
	single := func(d *promela.ProcDecl) bool {
		if d == nil || runs[d] {
			return false
		}
		return d == p.prog.Init || d.Kind == promela.KindProctype && d.Active && d.Instances == 1
	}
	only := func(m map[*promela.ProcDecl]bool, d *promela.ProcDecl) bool {
		for k := range m {
			if k != d {
				return false
			}
		}
		return true
	}
	one := func(m map[*promela.ProcDecl]bool) *promela.ProcDecl {
		if len(m) != 1 {
			return nil
		}
		for k := range m {
			return k
		}
		return nil
	}
	xs, xr = map[*promela.Symbol]*promela.ProcDecl{}, map[*promela.Symbol]*promela.ProcDecl{}
	for _, v := range p.prog.Globals {
		u := uses[v.Name.Sym]
		if u == nil || v.Chan == nil || v.Len != nil || v.Chan.Size <= 0 || u.odd {
			continue
		}
		if d := one(u.claimXS); single(d) && only(u.sendBy, d) && only(u.testBy, d) {
			xs[v.Name.Sym] = d
		}
		if d := one(u.claimXR); single(d) && only(u.recvBy, d) && only(u.testBy, d) {
			xr[v.Name.Sym] = d
		}
	}
	return xs, xr
}

// safeChanTrans reports whether t, a transition of proctype d, is a FIFO
// send to a channel d owns the sending end of, or a FIFO receive from one
// it owns the receiving end of (exclusiveChans), that reads and writes
// only its process's variables otherwise.
func safeChanTrans(t *trans, d *promela.ProcDecl, xs, xr map[*promela.Symbol]*promela.ProcDecl) bool {
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
		if id, ok := ch.(*promela.Ident); !ok || xs[id.Sym] != d {
			return false
		}
	case *promela.RecvStmt:
		if t.kind != tRecv || s.Random || s.Copy {
			return false
		}
		ch, args = s.Chan, s.Args
		if id, ok := ch.(*promela.Ident); !ok || xr[id.Sym] != d {
			return false
		}
	default:
		return false
	}
	return localArgs(args)
}

// load puts s in the machine's level 0, as Next does, to evaluate
// channel operands.
func (md *Model) load(s []byte) {
	m := &md.m
	l := m.level(0)
	l.vec = l.vec[:0]
	for i := 0; i < md.p.hidden; i++ {
		l.vec = append(l.vec, 0)
	}
	l.vec = append(l.vec, s...)
	m.use(0)
	m.scan()
	m.save()
	m.timeout, m.boq, m.fault = false, 0, ""
}

// chansReady reports whether every exclusive channel operation of ts, of
// process pid, can go on in the loaded state without another process's
// help: a send's channel has room, a receive's has a message, and one
// through the process's chan variable names a channel that is exclusive
// to it in the state (exclusive).
func (md *Model) chansReady(ts []*trans, pid int) bool {
	m := &md.m
	if pid >= len(m.procs) {
		return false
	}
	m.pid, m.base = pid, int(m.procs[pid])
	for _, t := range ts {
		var id int32
		if t.send != nil {
			id = t.send.ch(m)
		} else {
			id = t.recv.ch(m)
		}
		if m.fault != "" || id <= 0 || int(id) > len(m.chans) {
			m.fault = ""
			return false
		}
		off := int(m.chans[id-1])
		ct := m.p.segAt(m.vec, off).ch
		n := m.chanLen(off, ct)
		if t.send != nil && n >= ct.slots || t.recv != nil && n == 0 {
			return false
		}
		if p := m.p; p.dynChan != nil && p.dynChan[t.id] {
			side := sideSend
			if t.recv != nil {
				side = sideRecv
			}
			if !md.exclusive(pid, id, side) {
				return false
			}
		}
	}
	return true
}

// GlobalsOnly reports whether the expressions xs read global variables
// and constants alone: no process's variables or location (remote
// references), no channel (len, polls, full, empty...), no predefined
// variable, no run. A safe step of an ample set (safeTrans, and the
// channels its process owns) cannot change their value: the partial-order
// reduction of an LTL search (Invisible) is invisible to propositions
// that pass.
func GlobalsOnly(xs []promela.Expr) bool { return readsOnly(xs, false) }

// MergeInvisible reports whether the statements a merged step runs after
// its first cannot change the value of the expressions xs: they read
// global variables and constants, as for GlobalsOnly, and global channels
// (len, empty, full, polls...) alone. A merged statement (safeTrans)
// reads and writes its process's variables alone and touches no channel.
func MergeInvisible(xs []promela.Expr) bool { return readsOnly(xs, true) }

// readsOnly reports whether the expressions xs read global variables and
// constants alone and, with chans, global channels.
func readsOnly(xs []promela.Expr, chans bool) bool {
	for _, x := range xs {
		ok := true
		promela.Inspect(x, func(n promela.Node) bool {
			switch n := n.(type) {
			case *promela.Ident:
				s := n.Sym
				ok = ok && s != nil && (s.IsGlobal() || s.IsConst() || s.Kind == promela.SymField)
			case *promela.PollExpr:
				ok = ok && chans
			case *promela.CallExpr:
				switch n.Fun {
				case promela.BuiltinLen, promela.BuiltinEmpty, promela.BuiltinNempty, promela.BuiltinFull, promela.BuiltinNfull, promela.BuiltinEval:
					ok = ok && chans
				default:
					ok = false
				}
			case *promela.RemoteRef, *promela.RunExpr:
				ok = false
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// Invisible returns the reduction for a search whose property reads the
// expressions xs (the propositions of an LTL formula) and, with progress,
// whether some process is at a progress label (the non-progress search):
// Ample less the locations whose steps the property could see. Safe steps
// write only their process's variables and the channels it owns, so
// propositions over global variables and constants cannot see them; a
// proposition that reads a process's variables or location (remote
// references), channels (len, polls, full, empty...), or predefined
// variables leaves no reduction (nil), nor does a program without safe
// steps. With progress, the locations that are progress states or lead
// to one are not candidates.
func (md *Model) Invisible(xs []promela.Expr, progress bool) state.Reducer {
	p := md.p
	if p.safe == nil || !GlobalsOnly(xs) {
		return nil
	}
	if !progress {
		return md
	}
	hidden := make([][]bool, len(p.procs))
	for k, pt := range p.procs {
		hidden[k] = make([]bool, len(pt.trans))
		for pc, ts := range pt.trans {
			h := pc < len(pt.prog) && pt.prog[pc]
			for _, t := range ts {
				h = h || t.to >= 0 && t.to < len(pt.prog) && pt.prog[t.to]
			}
			hidden[k][pc] = h
		}
	}
	return &progressReducer{md: md, hidden: hidden}
}

// progressReducer is a Model's reduction with the steps that reach or
// leave a progress state kept visible.
type progressReducer struct {
	md     *Model
	hidden [][]bool
}

func (r *progressReducer) Ample(s []byte, buf []int32) []int32 { return r.md.ample(s, buf, r.hidden) }
