package compile

import (
	"ftmc/promela"
)

// sendOp is a compiled send c!e1,e2 (or sorted send c!!...).
type sendOp struct {
	ch     evalFn
	args   []evalFn // the message, a value per field (structures flattened)
	sorted bool
}

// recvOp is a compiled receive c?a,b (random ??, copy ?<...>).
type recvOp struct {
	ch     evalFn
	args   []recvArg // per field
	random bool
	copy   bool
	poll   bool // a poll expression c?[...]: test only
}

// recvArg is what a receive does with one field: compare it with a value,
// or store it in a variable, or drop it (_).
type recvArg struct {
	match evalFn                    // the field must equal this
	store func(m *machine, v int32) // the field goes here
}

// compileSend compiles a send statement.
func (c *comp) compileSend(s *promela.SendStmt) *sendOp {
	op := &sendOp{ch: c.chanExpr(s.Chan), sorted: s.Sorted}
	for _, a := range s.Args {
		op.args = append(op.args, c.values(a)...)
	}
	return op
}

// values compiles an expression that may be a whole structure into the
// values of its scalars.
func (c *comp) values(x promela.Expr) []evalFn {
	switch x.(type) {
	case *promela.Ident, *promela.IndexExpr, *promela.SelectorExpr:
		if t := typeOfRef(x); t != nil && t.Kind == promela.TStruct {
			r, ok := c.compileRef(x)
			if !ok {
				return []evalFn{constFn(0)}
			}
			var out []evalFn
			scalars(r.typ, 0, func(off int, st *promela.Type) {
				rr := *r
				rr.off += off
				rr.typ = st
				out = append(out, c.load(&rr, x.Pos()))
			})
			return out
		}
	}
	return []evalFn{c.expr(x)}
}

// compileRecv compiles the arguments of a receive or poll.
func (c *comp) compileRecv(ch promela.Expr, args []promela.Expr, random, cp, poll bool) *recvOp {
	op := &recvOp{ch: c.chanExpr(ch), random: random, copy: cp, poll: poll}
	for _, a := range args {
		op.args = append(op.args, c.recvArgs(a, poll)...)
	}
	return op
}

func (c *comp) recvArgs(a promela.Expr, poll bool) []recvArg {
	switch x := a.(type) {
	case *promela.IntLit:
		return []recvArg{{match: constFn(int32(x.Value))}}
	case *promela.UnaryExpr:
		if v, ok := c.constValue(x); ok {
			return []recvArg{{match: constFn(int32(v))}}
		}
	case *promela.CallExpr:
		if x.Fun == promela.BuiltinEval && len(x.Args) == 1 {
			return []recvArg{{match: c.expr(x.Args[0])}}
		}
	case *promela.Ident:
		if x.Sym != nil && (x.Sym.Kind == promela.SymMtype || x.Sym.Kind == promela.SymParam) {
			return []recvArg{{match: c.expr(x)}}
		}
	}
	if poll {
		// A poll only tests the constant fields; variables are ignored.
		if t := typeOfRef(a); t != nil && t.Kind == promela.TStruct {
			var out []recvArg
			scalars(t, 0, func(int, *promela.Type) { out = append(out, recvArg{}) })
			return out
		}
		return []recvArg{{}}
	}
	r, ok := c.compileRef(a)
	if !ok {
		return []recvArg{{}}
	}
	if r.write {
		return []recvArg{{}}
	}
	if r.typ.Kind == promela.TStruct {
		var out []recvArg
		scalars(r.typ, 0, func(off int, st *promela.Type) {
			rr := *r
			rr.off += off
			rr.typ = st
			out = append(out, recvArg{store: c.storeFn(&rr, a.Pos())})
		})
		return out
	}
	return []recvArg{{store: c.storeFn(r, a.Pos())}}
}

// ---------------------------------------------------------------------------
// Running channel operations

// fieldAt reads field j of message slot i of the channel at off.
func fieldAt(v []byte, off int, ct *chanType, i, j int) int32 {
	return ct.fields[j].load(v, off+ct.hdr+i*ct.msgSize+ct.foff[j])
}

// sendEnabled reports whether the send can start: the channel exists and
// is not full, and no rendezvous is pending.
func (m *machine) sendEnabled(op *sendOp) bool {
	if m.boq != 0 {
		return false
	}
	return m.sendEnabledTo(op, op.ch(m))
}

// sendEnabledTo is sendEnabled for the channel id, the value of op.ch
// (without a rendezvous pending). When the send can start it leaves the
// channel in m.sent for send.
func (m *machine) sendEnabledTo(op *sendOp, id int32) bool {
	off := m.chanOff(id, "send")
	if off < 0 {
		return false
	}
	ct := m.p.segAt(m.vec, off).ch
	if m.chanLen(off, ct) >= ct.slots {
		return false
	}
	if len(op.args) != len(ct.fields) {
		if len(op.args) > len(ct.fields) {
			m.failf("too many parameters in send (the channel carries %d fields, the send gives %d)", len(ct.fields), len(op.args))
		} else {
			m.failf("too few parameters in send (the channel carries %d fields, the send gives %d)", len(ct.fields), len(op.args))
		}
		return false
	}
	m.sent = chanSel{id: id, off: off, ct: ct}
	return true
}

// send appends (or inserts, sorted) the message; for a rendezvous channel
// it leaves the offer pending in m.boq. Its guard (sendEnabled) has just
// said yes, in the same state or a copy of it, and left the channel in
// m.sent.
func (m *machine) send(op *sendOp) {
	id, off, ct := m.sent.id, m.sent.off, m.sent.ct
	vals := m.vals[:0]
	for _, a := range op.args {
		vals = append(vals, a(m))
	}
	m.vals = vals
	n := m.chanLen(off, ct)
	pos := n
	if op.sorted {
		pos = 0
	slots:
		for ; pos < n; pos++ {
			for j, x := range vals {
				y := fieldAt(m.vec, off, ct, pos, j)
				if x > y {
					continue slots
				}
				if x < y {
					break slots
				}
			}
		}
		start := off + ct.hdr + pos*ct.msgSize
		end := off + ct.hdr + n*ct.msgSize
		copy(m.vec[start+ct.msgSize:end+ct.msgSize], m.vec[start:end])
	}
	base := off + ct.hdr + pos*ct.msgSize
	for j, x := range vals {
		ct.fields[j].store(m.vec, base+ct.foff[j], x)
	}
	m.setChanLen(off, ct, n+1)
	if ct.cap == 0 {
		m.boq = id
	}
}

// recvEnabled reports whether the receive can take a message, and selects
// it in m.slot.
func (m *machine) recvEnabled(op *recvOp) bool {
	id := op.ch(m)
	off := m.chanOff(id, "receive")
	if off < 0 {
		return false
	}
	ct := m.p.segAt(m.vec, off).ch
	if ct.cap == 0 {
		if m.boq != id {
			return false
		}
	} else if m.boq != 0 {
		return false
	}
	n := m.chanLen(off, ct)
	if n == 0 {
		return false
	}
	if len(op.args) > len(ct.fields) {
		m.failf("too many fields in receive (the channel carries %d, the receive names %d)", len(ct.fields), len(op.args))
		return false
	}
	if !op.random {
		if !m.matches(op, off, ct, 0) {
			return false
		}
		m.slot = 0
		m.taken = chanSel{id: id, off: off, ct: ct}
		return true
	}
	for i := 0; i < n; i++ {
		if m.matches(op, off, ct, i) {
			m.slot = i
			m.taken = chanSel{id: id, off: off, ct: ct}
			return true
		}
	}
	return false
}

func (m *machine) matches(op *recvOp, off int, ct *chanType, i int) bool {
	for j, a := range op.args {
		if a.match != nil && a.match(m) != fieldAt(m.vec, off, ct, i, j) {
			return false
		}
	}
	return true
}

// recv stores the selected message's fields and removes it (unless it is
// a copy receive). Its guard (recvEnabled) has just said yes, in the same
// state or a copy of it, and left the channel in m.taken and the message
// in m.slot.
func (m *machine) recv(op *recvOp) {
	off, ct := m.taken.off, m.taken.ct
	slot := m.slot
	for j, a := range op.args {
		if a.store != nil {
			a.store(m, fieldAt(m.vec, off, ct, slot, j))
			if m.fault != "" {
				return
			}
		}
	}
	if op.copy {
		if ct.cap == 0 {
			m.failf("a copy receive (?<...>) on a rendezvous channel")
		}
		return
	}
	if len(op.args) < len(ct.fields) {
		m.failf("missing fields in receive (the channel carries %d, the receive names %d)", len(ct.fields), len(op.args))
		return
	}
	n := m.chanLen(off, ct)
	start := off + ct.hdr + slot*ct.msgSize
	end := off + ct.hdr + n*ct.msgSize
	copy(m.vec[start:end-ct.msgSize], m.vec[start+ct.msgSize:end])
	clear(m.vec[end-ct.msgSize : end])
	m.setChanLen(off, ct, n-1)
	if ct.cap == 0 {
		m.boq = 0
	}
}

// poll evaluates c?[...] and c??[...].
func (c *comp) poll(x *promela.PollExpr) evalFn {
	op := c.compileRecv(x.Chan, x.Args, x.Random, false, true)
	return func(m *machine) int32 {
		off := m.chanOff(op.ch(m), "poll")
		if off < 0 {
			return 0
		}
		ct := m.p.segAt(m.vec, off).ch
		n := m.chanLen(off, ct)
		if len(op.args) > len(ct.fields) {
			m.failf("too many fields in poll (the channel carries %d, the poll names %d)", len(ct.fields), len(op.args))
			return 0
		}
		if !op.random {
			return b2i(n > 0 && m.matches(op, off, ct, 0))
		}
		for i := 0; i < n; i++ {
			if m.matches(op, off, ct, i) {
				return 1
			}
		}
		return 0
	}
}
