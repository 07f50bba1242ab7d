package compile

// This file holds statement merging, as Spin does it unless -o3: after a
// step of a process, the process's next statements run in the same step
// while they are safe (por.go's safeTrans: they read and write only the
// process's own variables) and the only statement at their location, so
// that the states between them are not stored. A merged step stops before
// a statement that is not safe, before a location with several
// statements, a location inside an atomic sequence, an end, progress or
// accept label or the process's end, and where its statement is not
// executable (a false local guard stays false until the process moves,
// so that state is stored as it is). An assertion or a run-time error
// inside a merged step is reported there, with the statements that led
// to it (and the failed assertion's position). A program that reads other processes' variables or locations,
// or uses _last, is not merged.
//
// Merging keeps the verdicts of the safety search (assertions, deadlocks,
// invalid end states): the merged statements are independent of every
// other process's steps and invisible to these properties. It keeps those
// of an LTL formula without the next-time operator whose propositions
// read global variables, constants and global channels alone
// (MergeInvisible; ltl/pml says
// which properties qualify): the merged statements after the first
// change none of them, so a state a merged step skips has the
// propositions' values of the state where the step ends, and a run that
// leaves a process for ever between two merged statements has the same
// propositions, step for step up to stuttering, as the run where the
// process finished them first (they commute with the other processes'
// steps). A never claim, whose propositions are arbitrary, is not merged,
// nor is the non-progress search, nor (for want of a proof that the fair
// runs correspond) a search under weak fairness.

// mergeTable computes p.merge: per proctype and location, whether a step
// that reaches the location goes on with its one statement.
func (p *program) mergeTable() {
	if p.usesLast || p.readsOtherProcesses() {
		return
	}
	merge := make([][]bool, len(p.procs))
	some := false
	for k, pt := range p.procs {
		cont := make([]bool, len(pt.trans))
		merge[k] = cont
		if pt.provided != nil {
			continue // the clause reads globals, and blocks the process
		}
		inAtomic := make([]bool, len(pt.trans))
		for _, ts := range pt.trans {
			for i := range ts {
				if t := &ts[i]; t.atomic && t.to >= 0 && t.to < len(inAtomic) {
					inAtomic[t.to] = true
				}
			}
		}
		for pc, ts := range pt.trans {
			cont[pc] = len(ts) == 1 && !inAtomic[pc] && pc != pt.end &&
				!marked(pt.valid, pc) && !marked(pt.prog, pc) && !marked(pt.accept, pc) &&
				ts[0].to > 0 && ts[0].to < len(pt.trans) && safeTrans(&ts[0])
		}
		breakCycles(pt, cont)
		for _, c := range cont {
			some = some || c
		}
	}
	if some {
		p.merge = merge
	}
}

// breakCycles clears cont at one location of every cycle of merged
// statements, so that a merged step ends: each location with cont set has
// one successor, and a walk that comes back to a location of its own path
// has found a cycle.
func breakCycles(pt *procType, cont []bool) {
	const (
		white = iota
		onPath
		done
	)
	color := make([]uint8, len(cont))
	var path []int
	for start := range cont {
		if !cont[start] || color[start] != white {
			continue
		}
		path = path[:0]
		pc := start
		for cont[pc] && color[pc] == white {
			color[pc] = onPath
			path = append(path, pc)
			pc = pt.trans[pc][0].to
		}
		if cont[pc] && color[pc] == onPath {
			cont[pc] = false
		}
		for _, q := range path {
			color[q] = done
		}
	}
}

// SetMerge turns statement merging on or off for the model and its later
// forks (off by default). It reports whether merging is on: a program
// that reads other processes' variables or locations, or has no statement
// to merge, is never merged. The safety search may merge, and an LTL
// search where the property allows it (see above); set it before the
// search starts.
func (md *Model) SetMerge(on bool) bool {
	md.merge = on && md.p.merge != nil
	return md.merge
}

// Merging reports whether the model merges statements.
func (md *Model) Merging() bool { return md.merge }

// merged goes on from the state at level L, reached by a step of process
// pid, with the process's merged statements, and emits the state where
// they stop.
func (md *Model) merged(L, pid int) {
	m := &md.m
	for {
		m.use(L)
		if pid >= len(m.procs) {
			md.emit(L)
			return
		}
		off := int(m.procs[pid])
		pt := md.p.segAt(m.vec, off).proc
		if pt == nil {
			md.emit(L)
			return
		}
		pc := m.pcAt(off, pt)
		if pc < 0 || pc >= len(pt.trans) || !md.p.merge[pt.index][pc] {
			md.emit(L)
			return
		}
		md.merging = true
		trs := md.code(pt, off).trans
		if len(trs[pc]) == 0 {
			// A variant dropped the statement: it is never executable.
			md.emit(L)
			return
		}
		r := md.fire(L, pid, &trs[pc][0], false)
		md.merging = false
		switch r {
		case notEnabled:
			md.emit(L)
			return
		case failed:
			return
		}
		L++
	}
}
