package compile

import (
	"fmt"

	"ftmc/state"
)

// Model is a compiled Promela program; it implements state.Model.
type Model struct {
	p *program
	m machine

	sink state.Sink
	// The first step of the successor being computed: the transition taken
	// from the stored state, and its process.
	root    *trans
	rootPid int

	// rec, when set, is called with every successor and failure together
	// with the steps that led to it (for Explain).
	rec *recorder

	// predFault is the first fault of a predicate (Predicate) since
	// PredicateFault last read it.
	predFault string

	// inits, when set, are the initial states instead of the program's
	// (Initialised), and initNote says how they were made.
	inits    [][]byte
	initNote string

	// merge: statement merging is on (SetMerge); merging: a merged
	// statement is being executed (its failed assertion says where).
	merge, merging bool

	// slow: atomic sequences take every step through explore, as when
	// steps are recorded (for the tests of the fast paths).
	slow bool
	// noSpec: processes run the transitions of their proctype compiled
	// for any value of its parameters, not its variants (spec.go); set
	// with rec.
	noSpec bool
}

func newModel(p *program) *Model {
	md := &Model{p: p}
	md.m.p = p
	return md
}

// Name returns the model's file name.
func (md *Model) Name() string { return md.p.name }

// Initial emits the initial state (the initial states of a model made by
// Initialised).
func (md *Model) Initial(emit func(s []byte)) error {
	if md.inits != nil {
		for _, s := range md.inits {
			emit(s)
		}
		return nil
	}
	emit(md.p.initial)
	return nil
}

// Fork returns a model sharing the compiled program and its initial
// states, with its own scratch space.
func (md *Model) Fork() state.Model {
	f := newModel(md.p)
	f.inits, f.initNote = md.inits, md.initNote
	f.merge = md.merge
	return f
}

// maxLevels bounds the steps of one atomic sequence: a sequence that does
// not leave its atomic block (a loop inside atomic) is reported.
const maxLevels = 100000

type fireResult uint8

const (
	notEnabled fireResult = iota
	fired
	failed
)

// Next computes the successors of s: for every process (the last created
// first, as pan does) every executable transition from its state, followed
// through atomic sequences and rendezvous handshakes to the next state pan
// would store. When no process can move, timeout becomes true and the
// processes are tried again.
func (md *Model) Next(s []byte, sink state.Sink) {
	m := &md.m
	md.sink = sink
	md.load(s)
	if md.explore(0, -1) == 0 && len(m.levels[0].procs) > 0 {
		m.timeout = true
		md.explore(0, -1)
		m.timeout = false
	}
	md.sink = nil
}

// explore tries the transitions of every process (or only of process excl,
// inside an atomic sequence) in the state at level L. It returns how many
// were executed.
func (md *Model) explore(L int, excl int) int {
	m := &md.m
	count := 0
	nproc := len(m.levels[L].procs)
	for pid := nproc - 1; pid >= 0; pid-- {
		if excl >= 0 && pid != excl {
			continue
		}
		ts, faulted := md.ready(L, pid)
		if faulted {
			count++
			continue
		}
		executed := false
		estate := 0
		for k := range ts {
			t := &ts[k]
			if estate > 0 && estate != t.etrans {
				break
			}
			if L == 0 {
				md.root, md.rootPid = t, pid
			}
			if t.kind == tHavoc {
				if md.fireHavoc(L, pid, t) {
					count++
					executed = true
					estate = t.etrans
				}
				continue
			}
			switch md.fire(L, pid, t, executed) {
			case notEnabled:
				continue
			case failed:
				count++
				executed = true
				estate = t.etrans
				continue
			}
			if md.after(L+1, pid, t) {
				count++
				executed = true
				estate = t.etrans
			}
		}
	}
	return count
}

// ready makes the state at level L current and gives the transitions of
// process pid at its location: none when its provided clause blocks it,
// and none with faulted set when evaluating that clause failed (the failure
// is reported).
func (md *Model) ready(L, pid int) (ts []trans, faulted bool) {
	m := &md.m
	m.use(L)
	off := int(m.procs[pid])
	pt := md.p.segAt(m.vec, off).proc
	pc := m.pcAt(off, pt)
	vr := md.code(pt, off)
	if vr.provided != nil {
		m.pid, m.base = pid, off
		ok := vr.provided(m) != 0
		if m.fault != "" {
			md.failFault(pid, nil)
			return nil, true
		}
		if !ok {
			return nil, false
		}
	}
	return vr.trans[pc], false
}

// fire executes transition t of process pid from the state at level L into
// level L+1.
func (md *Model) fire(L, pid int, t *trans, executed bool) fireResult {
	m := &md.m
	m.use(L)
	off := int(m.procs[pid])
	m.pid, m.base = pid, off
	if md.rec != nil {
		md.rec.push(L, pid, t)
	}
	ok := md.guard(t, pid, executed)
	if m.fault != "" {
		md.failFault(pid, t)
		return failed
	}
	if !ok {
		return notEnabled
	}
	if executed && t.pt.decl.D && t.kind != tElse {
		md.failWith(pid, t, kindRuntime, fmt.Sprintf("%s: non-determinism in D_proctype %s (%s)", t.pos, t.pt.name, t.text))
		return failed
	}
	if L+1 >= maxLevels {
		md.failWith(pid, t, kindRuntime, fmt.Sprintf("an atomic sequence of %s did not end after %d steps", t.pt.name, maxLevels))
		return failed
	}
	m.copyLevel(L, L+1)
	m.use(L + 1)
	m.base = off
	return md.apply(pid, off, t)
}

// guard reports whether transition t of process pid can execute in the
// machine's current state (executed: an earlier transition of the same
// state was executed, which disables else).
func (md *Model) guard(t *trans, pid int, executed bool) bool {
	m := &md.m
	switch t.kind {
	case tSkip, tAssign, tAssert, tRun, tDStep:
		return m.boq == 0
	case tCond:
		return m.boq == 0 && t.cond(m) != 0
	case tAssume:
		ok := m.boq == 0 && t.cond(m) != 0
		if !ok && m.boq == 0 {
			m.assumeFailed++
		}
		return ok
	case tElse:
		return m.boq == 0 && !executed
	case tEnd:
		return m.boq == 0 && pid == len(m.procs)-1
	case tSend:
		return m.sendEnabled(t.send)
	case tRecv:
		return m.recvEnabled(t.recv)
	}
	return true
}

// apply executes transition t of process pid (whose segment is at off) in
// place, on the machine's current level, after its guard said yes.
func (md *Model) apply(pid, off int, t *trans) fireResult {
	m := &md.m
	switch t.kind {
	case tAssign, tRun:
		t.effect(m)
	case tAssert:
		if t.cond(m) == 0 && m.fault == "" {
			m.save()
			msg := "assertion violated: " + t.assertText()
			if md.merging {
				msg += fmt.Sprintf(" (at %s)", t.pos)
			}
			md.failWith(pid, t, kindAssertion, msg)
			return failed
		}
	case tSend:
		m.send(t.send)
	case tRecv:
		m.recv(t.recv)
	case tEnd:
		m.delProc(pid)
	case tDStep:
		if !md.runDStep(pid, t) {
			if m.fault != "" {
				m.save()
				md.failFault(pid, t)
				return failed
			}
			return notEnabled
		}
	}
	if m.fault != "" {
		m.save()
		md.failFault(pid, t)
		return failed
	}
	if t.to > 0 {
		m.setPC(off, t.pt, t.to)
	}
	if md.p.usesLast {
		m.vec[md.p.lastOff] = byte(pid)
	}
	m.save()
	return fired
}

// after continues from the state at level L that transition t of process
// pid reached: a rendezvous offer waits for a receiver, an atomic sequence
// continues, anything else is a successor. It reports whether t counts as
// executed (a rendezvous offer nobody takes does not).
func (md *Model) after(L, pid int, t *trans) bool {
	m := &md.m
	if m.boq != 0 {
		n := md.handshake(L, pid)
		m.boq = 0
		return n > 0
	}
	if t.atomic {
		saved := m.timeout
		m.timeout = false
		md.chain(L, pid, t)
		m.timeout = saved
		return true
	}
	if md.merge && t.kind != tEnd {
		md.merged(L, pid)
		return true
	}
	md.emit(L)
	return true
}

// stepped ends step t of process pid (at offset off, of proctype pt)
// inside chain, as apply does: the jump, _last, and when t leaves the
// atomic sequence the successor, emitted from level L (true: the
// sequence ended).
func (md *Model) stepped(L, pid, off int, pt *procType, t *trans) bool {
	m := &md.m
	if t.to > 0 {
		m.setPC(off, pt, t.jump)
	}
	if md.p.usesLast {
		m.vec[md.p.lastOff] = byte(pid)
	}
	if !t.atomic {
		m.save()
		md.emit(L)
		return true
	}
	return false
}

// chain continues the atomic sequence of process pid from the state at
// level L, which belongs to it: while the process has exactly one
// executable transition, it runs in place. It emits the states where the
// sequence ends, and the state where it blocks (pan stores that state and
// lets every process move). A false assume inside it discards the run.
// from is the transition that brought the process there.
func (md *Model) chain(L, pid int, from *trans) {
	m := &md.m
	var buf [8]*trans
	m.use(L)
	off := int(m.procs[pid])
	// The process is where from, its last transition, led.
	pt, pc := from.pt, from.to
	if pc <= 0 {
		pt = md.p.segAt(m.vec, off).proc
		pc = m.pcAt(off, pt)
	}
	m.pid, m.base = pid, off
	general := md.rec != nil || md.slow
	if !general && from.to > 0 && from.jump != pc {
		// As the steps below go on after a transition: past the
		// locations that change nothing but the program counter.
		pc = from.jump
		m.setPC(off, pt, pc)
	}
	vr := md.code(pt, off)
	trs, provided := vr.trans, vr.provided
	dproc := pt.decl.D
	for steps := 0; ; steps++ {
		if steps >= maxLevels {
			md.failWith(pid, nil, kindRuntime, fmt.Sprintf("an atomic sequence of %s did not end after %d steps", pt.name, maxLevels))
			return
		}
		if provided != nil {
			ok := provided(m) != 0
			if m.fault != "" {
				md.failFault(pid, nil)
				return
			}
			if !ok {
				m.save()
				md.emit(L)
				return
			}
		}
		ts := trs[pc]
		if len(ts) == 1 && !general {
			// Most steps of an atomic sequence are one assignment or skip:
			// executable without a guard, they run at once.
			if t := &ts[0]; t.kind == tAssign || t.kind == tSkip {
				// As apply does.
				if t.kind == tAssign {
					t.effect(m)
					if m.fault != "" {
						m.save()
						md.failFault(pid, t)
						return
					}
					for _, u := range t.then {
						u.effect(m)
						if m.fault != "" {
							m.save()
							md.failFault(pid, u)
							return
						}
						t = u
					}
				}
				if md.stepped(L, pid, off, pt, t) {
					return
				}
				pc = t.jump
				continue
			}
			// A receive or a send to a buffered channel alone at its
			// location: as the loop below does with it.
			if t := &ts[0]; t.kind == tRecv || t.kind == tSend {
				var ok bool
				if t.kind == tRecv {
					ok = m.recvEnabled(t.recv)
				} else if id, buffered := md.bufferedSend(t); buffered {
					ok = m.boq == 0 && m.sendEnabledTo(t.send, id)
				} else {
					goto loop
				}
				if m.fault != "" {
					md.failFault(pid, t)
					return
				}
				if !ok {
					m.save()
					md.emit(L)
					return
				}
				if t.kind == tRecv {
					m.recv(t.recv)
				} else {
					m.send(t.send)
				}
				if m.fault != "" {
					m.save()
					md.failFault(pid, t)
					return
				}
				if md.stepped(L, pid, off, pt, t) {
					return
				}
				pc = t.jump
				continue
			}
		}
	loop:
		if len(ts) > 0 && ts[0].choose != nil && !general {
			// A choice of conditions (chooseTable): as the loop below
			// when one option or none is executable; the loop takes
			// the others (-2).
			k := ts[0].choose(m)
			if k == -1 {
				m.save()
				md.emit(L)
				return
			}
			if k >= 0 {
				t := &ts[k]
				if md.stepped(L, pid, off, pt, t) {
					return
				}
				pc = t.jump
				continue
			}
		}
		failedBefore := m.assumeFailed
		en := buf[:0]
		executed, estate := false, 0
		for k := range ts {
			if general {
				break
			}
			t := &ts[k]
			if estate > 0 && estate != t.etrans {
				break
			}
			var ok bool
			switch t.kind {
			case tSkip, tAssign, tAssert, tRun:
				ok = true
			case tCond:
				ok = t.cond(m) != 0
			case tElse:
				ok = !executed
			case tDStep, tHavoc:
				general = true
				continue
			case tSend:
				// As rendezvous and sendEnabled, the channel evaluated
				// once.
				id := t.send.ch(m)
				if id <= 0 || int(id) > len(m.chans) || md.p.segAt(m.vec, int(m.chans[id-1])).ch.cap == 0 {
					general = true // the general path reports a bad channel
					continue
				}
				ok = m.boq == 0 && m.sendEnabledTo(t.send, id)
			default:
				ok = md.guard(t, pid, executed)
			}
			if m.fault != "" {
				md.failFault(pid, t)
				return
			}
			if ok {
				if executed && dproc && t.kind != tElse {
					md.failWith(pid, t, kindRuntime, fmt.Sprintf("%s: non-determinism in D_proctype %s (%s)", t.pos, pt.name, t.text))
					return
				}
				if len(en) == cap(en) {
					general = true
					continue
				}
				en = append(en, t)
				executed, estate = true, t.etrans
			}
		}
		if general {
			m.save() // the steps in place above changed the machine's vector only
			m.assumeFailed = failedBefore
			n := md.explore(L, pid)
			if n == 0 && m.assumeFailed == failedBefore {
				md.emit(L)
			}
			return
		}
		switch len(en) {
		case 0:
			if m.assumeFailed == failedBefore {
				m.save()
				md.emit(L)
			}
			return
		case 1:
			t := en[0]
			switch t.kind {
			case tCond, tElse, tSkip:
				// As apply does for a statement without an effect.
				if t.to > 0 {
					m.setPC(off, pt, t.jump)
				}
				if md.p.usesLast {
					m.vec[md.p.lastOff] = byte(pid)
				}
			default:
				if md.apply(pid, off, t) != fired {
					return
				}
				if t.jump != t.to {
					m.setPC(off, pt, t.jump)
				}
			}
			if !t.atomic {
				m.save()
				md.emit(L)
				return
			}
			pc = t.jump
		default:
			m.save()
			for _, t := range en {
				if L+1 >= maxLevels {
					md.failWith(pid, t, kindRuntime, fmt.Sprintf("an atomic sequence of %s did not end after %d steps", t.pt.name, maxLevels))
					return
				}
				m.copyLevel(L, L+1)
				m.use(L + 1)
				m.pid, m.base = pid, off
				switch t.kind {
				case tRecv:
					// The guards of the transitions after t selected
					// their own channels and messages: select t's
					// again (a random receive's need not be the first).
					m.recvEnabled(t.recv)
				case tSend:
					m.sendEnabled(t.send)
				}
				if md.apply(pid, off, t) == fired {
					md.after(L+1, pid, t)
				}
			}
			return
		}
	}
}

// bufferedSend returns the channel of send t in the machine's current
// state, and whether it exists and is buffered (a rendezvous is not, nor
// a bad channel, which the general path reports).
func (md *Model) bufferedSend(t *trans) (int32, bool) {
	m := &md.m
	id := t.send.ch(m)
	return id, m.fault == "" && id > 0 && int(id) <= len(m.chans) && md.p.segAt(m.vec, int(m.chans[id-1])).ch.cap > 0
}

// fireHavoc executes havoc(x) of process pid from level L: x takes every
// value of its domain, each a way to continue.
func (md *Model) fireHavoc(L, pid int, t *trans) bool {
	m := &md.m
	m.use(L)
	off := int(m.procs[pid])
	m.pid, m.base = pid, off
	if md.rec != nil {
		md.rec.push(L, pid, t)
	}
	if m.boq != 0 {
		return false
	}
	lo, hi := t.havoc.bounds(m)
	if m.fault != "" {
		md.failFault(pid, t)
		return true
	}
	any := false
	for v := lo; v <= hi; v++ {
		m.copyLevel(L, L+1)
		m.use(L + 1)
		m.base = off
		t.havoc.store(m, int32(v))
		if m.fault != "" {
			m.save()
			md.failFault(pid, t)
			return true
		}
		if t.to > 0 {
			m.setPC(off, t.pt, t.to)
		}
		if md.p.usesLast {
			m.vec[md.p.lastOff] = byte(pid)
		}
		m.save()
		if md.after(L+1, pid, t) {
			any = true
		}
		m.use(L)
		m.pid, m.base = pid, off
	}
	return any
}

// handshake completes a rendezvous offered by process sender at level L:
// every receive of another process that can take the message is a way to
// continue.
func (md *Model) handshake(L, sender int) int {
	m := &md.m
	ch := m.boq
	saved := m.timeout
	m.timeout = false
	count := 0
	nproc := len(m.levels[L].procs)
	for pid := nproc - 1; pid >= 0; pid-- {
		if pid == sender {
			continue
		}
		ts, faulted := md.ready(L, pid)
		if faulted {
			count++
			continue
		}
		executed := false
		estate := 0
		for k := range ts {
			t := &ts[k]
			if estate > 0 && estate != t.etrans {
				break
			}
			if t.kind != tRecv {
				continue
			}
			m.boq = ch
			switch md.fire(L, pid, t, executed) {
			case notEnabled:
				continue
			case failed:
				count++
				continue
			}
			m.boq = 0
			if t.atomic {
				md.chain(L+1, pid, t)
			} else {
				md.emit(L + 1)
			}
			count++
			executed = true
			estate = t.etrans
		}
	}
	m.boq = ch
	m.timeout = saved
	return count
}

// emit reports the state at level L as a successor.
func (md *Model) emit(L int) {
	v := md.m.levels[L].vec[md.p.hidden:]
	t := state.Trans{Proc: int32(md.rootPid), ID: md.root.id}
	if md.rec != nil {
		md.rec.succ(L, v)
	}
	if md.sink != nil {
		md.sink.Succ(t, v)
	}
}

// failFault reports the run-time error recorded in the machine.
func (md *Model) failFault(pid int, t *trans) {
	m := &md.m
	msg := m.fault
	if t != nil {
		msg = fmt.Sprintf("%s: %s (in %s)", t.pos, m.fault, t.text)
	}
	md.failWith(pid, t, m.faultKind, msg)
	m.fault = ""
}

func (md *Model) failWith(pid int, t *trans, kind, msg string) {
	md.m.fault = ""
	root := md.root
	if root == nil {
		root = t
	}
	st := state.Trans{Proc: int32(md.rootPid), ID: -1}
	if root != nil {
		st.ID = root.id
	}
	if md.rec != nil {
		md.rec.fail(kind, msg)
	}
	if md.sink != nil {
		md.sink.Fail(st, kind, msg)
	}
}

const (
	kindRuntime   = state.KindRuntime
	kindAssertion = state.KindAssertion
)

// assertText is the asserted expression.
func (t *trans) assertText() string {
	s := t.text
	if len(s) > 8 && s[:7] == "assert(" && s[len(s)-1] == ')' {
		return s[7 : len(s)-1]
	}
	return s
}

// ValidEnd reports whether every process is at its end or at an end label.
func (md *Model) ValidEnd(s []byte) bool {
	return !md.someAt(s, func(pt *procType, pc int) bool { return !marked(pt.valid, pc) })
}

// someAt reports whether some process in s is at a location pc of its
// proctype pt for which at holds.
func (md *Model) someAt(s []byte, at func(pt *procType, pc int) bool) bool {
	p := md.p
	off := p.segStart - p.hidden
	for off < len(s) {
		st := p.segAt(s, off)
		if pt := st.proc; pt != nil && at(pt, p.code(s, off)-pt.base) {
			return true
		}
		off += st.size
	}
	return false
}

// marked reports whether location pc is marked in a proctype's table of
// valid end or progress locations.
func marked(table []bool, pc int) bool { return pc < len(table) && table[pc] }

// enabled reports whether process pid has an executable transition in the
// machine's current state (Spin's enabled(pid)).
func (m *machine) enabled(pid int) bool {
	pt := m.procTypeOf(pid)
	if pt == nil {
		return false
	}
	// The guards below select channels and messages: those of the
	// running process's guards stay, for its effects.
	saveP, saveB, saveSlot, saveTaken, saveSent := m.pid, m.base, m.slot, m.taken, m.sent
	defer func() { m.pid, m.base, m.slot, m.taken, m.sent = saveP, saveB, saveSlot, saveTaken, saveSent }()
	m.pid, m.base = pid, int(m.procs[pid])
	pc := m.pcAt(m.base, pt)
	if pt.provided != nil && pt.provided(m) == 0 {
		return false
	}
	ts := pt.trans[pc]
	for k := range ts {
		t := &ts[k]
		switch t.kind {
		case tSkip, tAssign, tAssert, tRun, tDStep, tElse:
			return true
		case tCond:
			if t.cond(m) != 0 {
				return true
			}
		case tEnd:
			if pid == len(m.procs)-1 {
				return true
			}
		case tSend:
			if m.sendEnabled(t.send) {
				return true
			}
		case tRecv:
			if m.recvEnabled(t.recv) {
				return true
			}
		}
	}
	return false
}
