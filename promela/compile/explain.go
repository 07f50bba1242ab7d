package compile

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"ftmc/promela"
	"ftmc/state"
	"ftmc/trace"
)

// recorder follows the steps of one successor computation, to explain a
// step of a counterexample: which statements led from one stored state to
// the next.
type recorder struct {
	md      *Model
	rootID  int32
	rootPid int
	want    []byte // the successor to explain; nil: a failure
	path    []pathStep
	step    *trace.Step // the explanation, once found
}

type pathStep struct {
	pid int
	t   *trans
}

func (r *recorder) push(L, pid int, t *trans) {
	r.path = append(r.path[:L], pathStep{pid, t})
}

func (r *recorder) matchesRoot() bool {
	return len(r.path) > 0 && r.path[0].t.id == r.rootID && r.path[0].pid == r.rootPid
}

func (r *recorder) succ(L int, v []byte) {
	if r.step != nil || r.want == nil || !r.matchesRoot() || !bytes.Equal(v, r.want) {
		return
	}
	r.step = r.md.describe(r.path[:L], "")
}

func (r *recorder) fail(kind, msg string) {
	if r.step != nil || r.want != nil || !r.matchesRoot() {
		return
	}
	r.step = r.md.describe(r.path, msg)
}

type nopSink struct{}

func (nopSink) Succ(state.Trans, []byte)         {}
func (nopSink) Fail(state.Trans, string, string) {}

// Explain describes the step t from from to to: the process, the
// statements it executed (an atomic sequence or a rendezvous is one step),
// and the messages sent and received. For a failing transition (from ==
// to), it describes the steps up to the failure.
func (md *Model) Explain(t state.Trans, from, to []byte) trace.Step {
	// The fork computes the successors again; its levels hold the states
	// along the path being described.
	fork := newModel(md.p)
	fork.merge = md.merge
	r := &recorder{md: fork, rootID: t.ID, rootPid: int(t.Proc)}
	if !bytes.Equal(from, to) {
		r.want = to
	}
	fork.rec = r
	fork.noSpec = true // the steps as compiled for any value, as traced
	fork.Next(from, nopSink{})
	if r.step == nil && r.want == nil {
		// A failing step that is also a successor (or the other way round).
		r.want = to
		fork.Next(from, nopSink{})
	}
	if r.step != nil {
		return *r.step
	}
	st := trace.Step{Pid: int(t.Proc)}
	if t.ID >= 0 && int(t.ID) < len(md.p.trans) {
		tr := md.p.trans[t.ID]
		st.Proc, st.Stmt = tr.pt.name, tr.text
		st.File, st.Line = tr.pos.Filename(), int(tr.pos.Line)
	}
	return st
}

// describe turns the steps of a path into one trace step. It runs while
// the machine's levels still hold the states along the path.
func (md *Model) describe(path []pathStep, note string) *trace.Step {
	first := path[0]
	st := &trace.Step{
		Pid:  first.pid,
		Proc: first.t.pt.name,
		File: first.t.pos.Filename(),
		Line: int(first.t.pos.Line),
		Note: note,
	}
	st.Group = md.group(0, first.pid)
	var texts []string
	for k, s := range path {
		txt := s.t.text
		if s.pid != first.pid {
			txt = fmt.Sprintf("%s[%d]: %s", s.t.pt.name, s.pid, txt)
		}
		// In a step of several statements, the jumps and else guards say
		// nothing the statements around them do not.
		if len(path) == 1 || s.t.elem.kind == eStmt && s.t.kind != tElse {
			texts = append(texts, txt)
		}
		st.Events = append(st.Events, md.events(k, path)...)
		st.Events = append(st.Events, md.localEvents(k, path)...) // msc.go
	}
	if note != "" {
		st.Events = append(st.Events, md.refusedSend(len(path)-1, path)...)
	}
	if n := len(texts); n > maxStmtTexts {
		// An atomic sequence that went round a loop many times (until
		// the step bound): its first and last statements, and how many
		// are left out.
		keep := maxStmtTexts / 2
		texts = append(append(texts[:keep:keep], fmt.Sprintf("... %d statements ...", n-2*keep)), texts[n-keep:]...)
	}
	st.Stmt = strings.Join(texts, "; ")
	return st
}

// maxStmtTexts bounds the statements a step's text lists.
const maxStmtTexts = 40

// events lists the message events of step k of a path (the state before
// it is at level k).
func (md *Model) events(k int, path []pathStep) []trace.Event {
	s := path[k]
	m := &md.m
	if s.t.kind != tSend && s.t.kind != tRecv {
		return nil
	}
	if !md.enter(k, s.pid) {
		return nil
	}
	defer func() { m.fault = "" }()
	partner := -1
	if s.t.kind == tSend {
		id := s.t.send.ch(m)
		off := m.chanOff(id, "send")
		if off < 0 {
			return nil
		}
		ct := md.p.segAt(m.vec, off).ch
		if ct.cap == 0 && k+1 < len(path) {
			partner = path[k+1].pid
		} else if ct.cap > 0 {
			partner = md.reader(id)
		}
		return []trace.Event{{Type: "send", Chan: md.chanName(id), Msg: md.sendValues(ct, s.t.send), Partner: partner}}
	}
	id := s.t.recv.ch(m)
	off := m.chanOff(id, "receive")
	if off < 0 {
		return nil
	}
	ct := md.p.segAt(m.vec, off).ch
	saved := m.boq
	if ct.cap == 0 && k > 0 {
		partner = path[k-1].pid
		// The offer is in the state at level k.
		m.boq = id
	}
	ok := m.recvEnabled(s.t.recv)
	m.boq = saved
	if !ok {
		return nil
	}
	var vals []string
	for j := range ct.fields {
		vals = append(vals, md.valueString(ct.ftypes, j, fieldAt(m.vec, off, ct, m.slot, j)))
	}
	return []trace.Event{{Type: "recv", Chan: md.chanName(id), Msg: strings.Join(vals, ","), Partner: partner}}
}

// reader is the one process that receives from channel id in the state
// the machine is at: the only live process with a receive statement whose
// channel expression, evaluated in that process, is id; -1 when there is
// none or more than one. Charts draw a message that is still in a channel
// at the end towards it.
func (md *Model) reader(id int32) int {
	m := &md.m
	pid0, base0, fault0, kind0 := m.pid, m.base, m.fault, m.faultKind
	defer func() { m.pid, m.base, m.fault, m.faultKind = pid0, base0, fault0, kind0 }()
	found := -1
	for pid, off := range m.procs {
		pt := md.p.segAt(m.vec, int(off)).proc
		if pt == nil || m.pcAt(int(off), pt) == pt.end {
			continue
		}
		m.pid, m.base = pid, int(off)
		if !md.receivesFrom(pt, id) {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = pid
	}
	return found
}

// receivesFrom reports whether a receive statement of pt names channel
// id, evaluated in the process the machine is set to.
func (md *Model) receivesFrom(pt *procType, id int32) bool {
	m := &md.m
	for _, ts := range pt.trans {
		for k := range ts {
			t := &ts[k]
			if t.kind != tRecv || t.recv == nil || t.recv.poll {
				continue
			}
			m.fault = ""
			if t.recv.ch(m) == id && m.fault == "" {
				return true
			}
		}
	}
	return false
}

// refusedSend is, for a step that fails at assert(...full(c)...) (the
// idiom assert(nfull(c)); c!m that reports an overflow), the send that
// follows the assertion, marked Failed with Text "full": the message the
// process could not send, evaluated in the failing state, with its
// receiver. Nothing when the assertion is not followed by a send to a
// full channel.
func (md *Model) refusedSend(k int, path []pathStep) []trace.Event {
	s := path[k]
	if s.t.kind != tAssert || !strings.Contains(s.t.text, "full(") || s.t.to <= 0 || s.t.to >= len(s.t.pt.trans) {
		return nil
	}
	ts := s.t.pt.trans[s.t.to]
	if len(ts) != 1 || ts[0].kind != tSend || ts[0].send == nil {
		return nil
	}
	m := &md.m
	if !md.enter(k, s.pid) {
		return nil
	}
	defer func() { m.fault = "" }()
	op := ts[0].send
	id := op.ch(m)
	off := m.chanOff(id, "send")
	if off < 0 || m.fault != "" {
		return nil
	}
	ct := md.p.segAt(m.vec, off).ch
	if ct.cap == 0 || m.chanLen(off, ct) < ct.slots || len(op.args) != len(ct.fields) {
		return nil
	}
	msg := md.sendValues(ct, op)
	if m.fault != "" {
		return nil
	}
	return []trace.Event{{Type: "send", Chan: md.chanName(id), Msg: msg, Partner: md.reader(id), Failed: true, Text: "full"}}
}

// enter sets the machine to the state at level k of the path being
// explained, in process pid; false when pid does not exist there. The
// caller clears m.fault when done.
func (md *Model) enter(k, pid int) bool {
	m := &md.m
	m.use(k)
	if pid >= len(m.procs) {
		return false
	}
	m.pid, m.base = pid, int(m.procs[pid])
	m.fault = ""
	return true
}

// sendValues is the message of send op on a channel of type ct, evaluated
// in the process the machine is set to, as charts show it.
func (md *Model) sendValues(ct *chanType, op *sendOp) string {
	var vals []string
	for j, a := range op.args {
		vals = append(vals, md.valueString(ct.ftypes, j, ct.fields[j].trunc(a(&md.m))))
	}
	return strings.Join(vals, ",")
}

// valueString shows a value of a message field or variable: mtype
// constants by name.
func (md *Model) valueString(types []*promela.Type, j int, v int32) string {
	if j < len(types) {
		return md.formatValue(types[j], v)
	}
	return strconv.Itoa(int(v))
}

func (md *Model) formatValue(t *promela.Type, v int32) string {
	if t != nil && t.Kind == promela.TMtype {
		if ms := md.p.prog.Mtype(t.Mtype); ms != nil {
			if n := ms.ConstName(int64(v)); n != "" {
				return n
			}
		}
	}
	return strconv.Itoa(int(v))
}

// chanName names a channel by the variable it was created for: c, c[2], or
// P[3]:c for a process's local channel.
func (md *Model) chanName(id int32) string {
	return md.chanNameIn(md.m.vec, md.m.procs, id)
}

// chanNameIn names channel id in a working vector whose processes' segments
// are at procs.
func (md *Model) chanNameIn(vec []byte, procs []int32, id int32) string {
	for _, v := range md.p.globals {
		if v.decl.Chan == nil || v.hidden {
			continue
		}
		if n := chanIn(vec, v, v.off, id); n != "" {
			return n
		}
	}
	for pid, off := range procs {
		pt := md.p.segAt(vec, int(off)).proc
		for _, v := range pt.locals {
			if v.decl.Chan == nil {
				continue
			}
			if n := chanIn(vec, v, int(off)+v.off, id); n != "" {
				return fmt.Sprintf("%s[%d]:%s", pt.name, pid, n)
			}
		}
	}
	return fmt.Sprintf("chan%d", id)
}

func chanIn(vec []byte, v *varInfo, at int, id int32) string {
	if v.typ.Kind == promela.TArray {
		for i := 0; i < int(v.typ.Len); i++ {
			if at+i < len(vec) && int32(vec[at+i]) == id {
				return fmt.Sprintf("%s[%d]", v.name, i)
			}
		}
		return ""
	}
	if at < len(vec) && int32(vec[at]) == id {
		return v.name
	}
	return ""
}

// group is the lifeline group of process pid in charts: the value of its
// parameter named node, if it has one.
func (md *Model) group(L, pid int) string {
	m := &md.m
	l := &m.levels[L]
	if pid >= len(l.procs) {
		return ""
	}
	off := int(l.procs[pid])
	return md.groupAt(l.vec, off, md.p.segAt(l.vec, off).proc)
}

// groupAt is the lifeline group of the process of type pt whose segment
// is at off in vec.
func (md *Model) groupAt(vec []byte, off int, pt *procType) string {
	for _, v := range pt.params {
		if v.name == "node" && v.typ.IsScalar() {
			return md.formatValue(v.typ, cellOf(v.typ).load(vec, off+v.off))
		}
	}
	return ""
}

// Processes lists the processes of the final state last, for charts:
// pid, proctype, group (its node parameter); a process at its end is
// optional (drawn only if its steps draw something). Processes that ended
// and were removed before last are named by their steps.
func (md *Model) Processes(first, last []byte) []trace.Process {
	p := md.p
	vec := make([]byte, p.hidden+len(last))
	copy(vec[p.hidden:], last)
	var out []trace.Process
	pid := 0
	for off := p.segStart; off < len(vec); off += p.segAt(vec, off).size {
		pt := p.segAt(vec, off).proc
		if pt == nil {
			continue
		}
		out = append(out, trace.Process{Pid: pid, Name: pt.name, Role: trace.RoleProcess,
			Group: md.groupAt(vec, off, pt), Optional: p.code(vec, off)-pt.base == pt.end})
		pid++
	}
	return out
}

// Decode returns the values in s: globals, then each process's location
// and locals, then each channel's contents.
func (md *Model) Decode(s []byte) []trace.Var {
	p := md.p
	vec := make([]byte, p.hidden+len(s))
	copy(vec[p.hidden:], s)
	var out []trace.Var
	for _, v := range p.globals {
		if v.hidden {
			continue
		}
		out = md.decodeVar(out, vec, v.name, v.typ, v.off)
	}
	var procs []int32
	for off := p.segStart; off < len(vec); off += p.segAt(vec, off).size {
		if p.segAt(vec, off).proc != nil {
			procs = append(procs, int32(off))
		}
	}
	off := p.segStart
	pid, ch := 0, 1
	for off < len(vec) {
		st := p.segAt(vec, off)
		if pt := st.proc; pt != nil {
			pc := p.code(vec, off) - pt.base
			prefix := fmt.Sprintf("%s[%d]", pt.name, pid)
			out = append(out, trace.Var{Name: prefix + "@", Value: pt.location(pc)})
			for _, v := range pt.locals {
				out = md.decodeVar(out, vec, prefix+":"+v.name, v.typ, off+v.off)
			}
			pid++
		} else {
			ct := st.ch
			n := p.code(vec, off) - ct.base
			var b strings.Builder
			for i := 0; i < n && i < ct.slots; i++ {
				b.WriteByte('[')
				for j := range ct.fields {
					if j > 0 {
						b.WriteByte(',')
					}
					b.WriteString(md.valueString(ct.ftypes, j, fieldAt(vec, off, ct, i, j)))
				}
				b.WriteByte(']')
			}
			out = append(out, trace.Var{Name: fmt.Sprintf("queue %d (%s)", ch, md.chanNameIn(vec, procs, int32(ch))), Value: b.String()})
			ch++
		}
		off += st.size
	}
	return out
}

func (md *Model) decodeVar(out []trace.Var, vec []byte, name string, t *promela.Type, off int) []trace.Var {
	switch t.Kind {
	case promela.TArray:
		es := sizeOf(t.Elem)
		for i := 0; i < int(t.Len); i++ {
			out = md.decodeVar(out, vec, fmt.Sprintf("%s[%d]", name, i), t.Elem, off+i*es)
		}
	case promela.TStruct:
		for _, f := range t.Fields {
			out = md.decodeVar(out, vec, name+"."+f.Name, f.Type, off)
			off += sizeOf(f.Type)
		}
	default:
		if off+int(cellOf(t).size) <= len(vec) {
			out = append(out, trace.Var{Name: name, Value: md.formatValue(t, cellOf(t).load(vec, off))})
		}
	}
	return out
}

// location describes a program counter: the line of the statement it is
// at, or the end.
func (pt *procType) location(pc int) string {
	if pc == pt.end {
		return "end"
	}
	if pc > 0 && pc < len(pt.elems) && pt.elems[pc] != nil {
		e := pt.elems[pc]
		return fmt.Sprintf("line %d (state %d)", e.pos.Line, pc)
	}
	return fmt.Sprintf("state %d", pc)
}
