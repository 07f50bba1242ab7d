package compile

// chainTable computes the jumps of the transitions (trans.jump). Inside an
// atomic sequence, a location whose one transition is a skip (a printf, a
// goto, a break, the end of an if) that keeps the process in the sequence
// is never stored and changes nothing but the program counter: an atomic
// sequence that reaches it goes on at once from where the skip leads. So
// the successor computation (Model.chain) jumps over such locations
// instead of taking a step at each. A proctype with a provided clause,
// which is evaluated at every step, does not jump; nor does a run that
// records its steps (Explain), whose trace shows the skips.
func (p *program) chainTable() {
	for _, pt := range p.procs {
		for pc := range pt.trans {
			for k := range pt.trans[pc] {
				t := &pt.trans[pc][k]
				t.jump = t.to
				if t.atomic && pt.provided == nil {
					t.jump = pastSkips(pt.trans, t.to)
				}
			}
		}
		if pt.provided == nil {
			fuseAssignments(pt.trans)
		}
	}
}

// maxThen bounds the assignments run in one step of an atomic sequence
// (a loop of assignments inside atomic has no end).
const maxThen = 8

// fuseAssignments sets the then of every assignment that is the one
// statement of its location (trans.then), after the jumps are set.
func fuseAssignments(trs [][]trans) {
	for pc := range trs {
		if len(trs[pc]) != 1 {
			continue
		}
		t := &trs[pc][0]
		t.then = nil
		if t.kind != tAssign {
			continue
		}
		last := t
		for len(t.then) < maxThen && last.atomic && last.etrans == 0 {
			next := last.jump
			if next <= 0 || next >= len(trs) || len(trs[next]) != 1 || next == pc {
				break
			}
			u := &trs[next][0]
			if u.kind != tAssign || u.etrans != 0 {
				break
			}
			t.then = append(t.then, u)
			last = u
		}
	}
}

// pastSkips follows, from location pc inside an atomic sequence, the
// locations whose one transition is a skip inside the sequence, and
// returns the first location that is not one (a location on a cycle of
// them when there is no such location: the sequence does not end, which
// Model.chain reports).
func pastSkips(trs [][]trans, pc int) int {
	for steps := 0; steps < len(trs); steps++ {
		if pc <= 0 || pc >= len(trs) || len(trs[pc]) != 1 {
			return pc
		}
		u := &trs[pc][0]
		if u.kind != tSkip || !u.atomic || u.etrans != 0 || u.to <= 0 {
			return pc
		}
		pc = u.to
	}
	return pc
}
