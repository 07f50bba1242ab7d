package compile

import "fmt"

// machine is the scratch space in which transitions run: the working
// vector being read or changed, the running process, and the offsets of
// the vector's segments. Compiled expressions and statements are closures
// over a *machine.
type machine struct {
	p *program

	vec   []byte  // the working vector (hidden prefix, globals, segments)
	procs []int32 // offset of each process's segment, by pid
	chans []int32 // offset of each channel's segment, by channel id - 1
	pid   int     // the running process
	qpid  int     // the process all/some/card is looking at
	base  int     // offset of the running process's segment

	timeout bool  // no process could move: timeout is true
	boq     int32 // a rendezvous offer is pending on this channel (0: none)

	// slot is the message a receive's guard selected, for its effect;
	// taken and sent are the channels of the last receive and send whose
	// guards said yes, for their effects.
	slot  int
	taken chanSel
	sent  chanSel
	vals  []int32 // scratch for the values of a message

	// assumeFailed counts the assume statements found false: inside an
	// atomic sequence they discard the run instead of blocking it.
	assumeFailed int

	// fault is a run-time error met while evaluating (an index out of
	// bounds, division by zero, an uninitialized channel, ...).
	fault     string
	faultKind string

	// Per depth of a step: a vector and its segment offsets.
	levels []level
	cur    int
}

// chanSel is a channel an operation's guard found: its id, the offset of
// its segment and its type.
type chanSel struct {
	id  int32
	off int
	ct  *chanType
}

type level struct {
	vec   []byte
	procs []int32
	chans []int32
	// The level's own storage for its segment offsets, used when a
	// process or channel is added (addOffset).
	pbuf, cbuf []int32
}

// failf records a run-time error; the step that met it fails.
func (m *machine) failf(format string, args ...any) {
	if m.fault == "" {
		m.fault = fmt.Sprintf(format, args...)
		m.faultKind = kindRuntime
	}
}

// level returns level i, creating it if needed.
func (m *machine) level(i int) *level {
	for len(m.levels) <= i {
		m.levels = append(m.levels, level{})
	}
	return &m.levels[i]
}

// use makes level i the machine's current vector.
func (m *machine) use(i int) {
	l := &m.levels[i]
	m.cur = i
	m.vec, m.procs, m.chans = l.vec, l.procs, l.chans
}

// save stores the machine's current vector back into its level (effects
// may grow the vector or change its segments).
func (m *machine) save() {
	l := &m.levels[m.cur]
	l.vec, l.procs, l.chans = m.vec, m.procs, m.chans
}

// copyLevel makes level dst a copy of level src. The segment offsets
// change only when a process or a channel is created or removed: dst
// shares them with src, with its capacity cut to its length so that
// adding one copies them (addProc, addChan), and removing one cuts the
// capacity too (delProc); they are never changed in place.
func (m *machine) copyLevel(src, dst int) {
	d := m.level(dst)
	s := &m.levels[src]
	d.vec = append(d.vec[:0], s.vec...)
	d.procs = s.procs[:len(s.procs):len(s.procs)]
	d.chans = s.chans[:len(s.chans):len(s.chans)]
}

// addOffset returns offs, the current level's process or channel offsets
// (own is that level's storage for them), with off added. offs may be
// shared with other levels (copyLevel): they are copied into own first.
func (m *machine) addOffset(offs []int32, own *[]int32, off int32) []int32 {
	*own = append(append((*own)[:0], offs...), off)
	return *own
}

// scan computes the segment offsets of the current vector.
func (m *machine) scan() {
	m.procs = m.procs[:0]
	m.chans = m.chans[:0]
	off := m.p.segStart
	for off < len(m.vec) {
		st := m.p.segAt(m.vec, off)
		if st.proc != nil {
			m.procs = append(m.procs, int32(off))
		} else {
			m.chans = append(m.chans, int32(off))
		}
		off += st.size
	}
}

// chanOff returns the offset of channel id's segment, or -1 after
// recording a fault (id 0 is an uninitialized channel).
func (m *machine) chanOff(id int32, what string) int {
	if id <= 0 || int(id) > len(m.chans) {
		if id == 0 {
			m.failf("%s: the channel is not initialized", what)
		} else {
			m.failf("%s: channel %d does not exist", what, id)
		}
		return -1
	}
	return int(m.chans[id-1])
}

// procType returns the proctype of process pid, or nil.
func (m *machine) procTypeOf(pid int) *procType {
	if pid < 0 || pid >= len(m.procs) {
		return nil
	}
	return m.p.segAt(m.vec, int(m.procs[pid])).proc
}

// pc returns the program counter of the process whose segment is at off.
func (m *machine) pcAt(off int, pt *procType) int {
	return m.p.code(m.vec, off) - pt.base
}

func (m *machine) setPC(off int, pt *procType, pc int) {
	m.p.putCode(m.vec, off, pt.base+pc)
}

// chanLen returns the length of the channel whose segment is at off.
func (m *machine) chanLen(off int, ct *chanType) int {
	return m.p.code(m.vec, off) - ct.base
}

func (m *machine) setChanLen(off int, ct *chanType, n int) {
	m.p.putCode(m.vec, off, ct.base+n)
}
