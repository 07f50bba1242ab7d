package compile

import "ftmc/promela"

// chainTable computes the jumps of the transitions (trans.jump). Inside an
// atomic sequence, a location whose one transition is a skip (a printf, a
// goto, a break, the end of an if) that keeps the process in the sequence
// is never stored and changes nothing but the program counter: an atomic
// sequence that reaches it goes on at once from where the skip leads; so
// does a choice whose options lead to the same place, one and only one of
// them executable (passOver: if :: x == 1 -> printf(...) :: else fi). So
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
					t.jump = pastSkips(pt.trans, t.to, pt.decl.D)
				}
			}
		}
		if pt.provided == nil {
			fuseAssignments(pt.trans)
			chooseTable(pt.trans)
		}
	}
}

// chooseTable sets the choose of the first transition of every location
// whose options are conditions, with an else last or not: Model.chain
// evaluates them without taking the general path. The choice returns the
// index of the one executable option, -1 when none is, and -2 when more
// than one is or a condition failed (the general path then takes each
// option, or reports the failure, evaluating them again: conditions
// change nothing but the machine's fault). Conditions of which no two
// hold together, and none fails once an earlier one held (safe and
// exclusive, or complementary: nfull(ch) and full(ch) of a send), are
// tried in order until one holds.
func chooseTable(trs [][]trans) {
	for _, ts := range trs {
		if len(ts) > 0 {
			ts[0].choose = chooser(ts)
		}
	}
}

func chooser(ts []trans) func(m *machine) int {
	n := len(ts)
	hasElse := n > 1 && ts[n-1].kind == tElse
	var conds []evalFn
	var codes []*code
	safe := true
	for k := range ts {
		t := &ts[k]
		if t.etrans != 0 {
			return nil
		}
		if k == n-1 && hasElse {
			continue
		}
		if t.kind != tCond || t.code == nil {
			return nil
		}
		conds = append(conds, t.cond)
		codes = append(codes, t.code)
		safe = safe && t.code.safe
	}
	none := -1
	if hasElse {
		none = n - 1
	}
	// excl: once a condition holds, the later ones would not, nor fail.
	excl := true
	for i := range codes {
		for j := range i {
			a, b := codes[j], codes[i]
			if !(a.safe && b.safe && exclusive(a, b)) && !complementary(a, b) {
				excl = false
			}
		}
	}
	switch {
	case len(conds) == 1 && safe:
		c := conds[0]
		return func(m *machine) int {
			if c(m) != 0 {
				return 0
			}
			return none
		}
	case len(conds) == 2 && excl && safe:
		c, d := conds[0], conds[1]
		return func(m *machine) int {
			if c(m) != 0 {
				return 0
			}
			if d(m) != 0 {
				return 1
			}
			return none
		}
	case excl && !safe:
		// The conditions tried until one holds are those the general
		// path would evaluate before the later ones, which do not fail.
		return func(m *machine) int {
			for k, c := range conds {
				v := c(m)
				if m.fault != "" {
					m.fault = ""
					return -2
				}
				if v != 0 {
					return k
				}
			}
			return none
		}
	case excl:
		return func(m *machine) int {
			for k, c := range conds {
				if c(m) != 0 {
					return k
				}
			}
			return none
		}
	}
	return func(m *machine) int {
		found := -1
		for k, c := range conds {
			if c(m) != 0 {
				if found >= 0 {
					found = -2
					break
				}
				found = k
			}
		}
		if m.fault != "" {
			m.fault = ""
			return -2
		}
		if found == -1 {
			return none
		}
		return found
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
// locations that change nothing but the program counter (passOver), and
// returns the first location that is not one (a location on a cycle of
// them when there is no such location: the sequence does not end, which
// Model.chain reports). d says whether the proctype is a D_proctype.
func pastSkips(trs [][]trans, pc int, d bool) int {
	return pastSkipsDepth(trs, pc, d, maxBranchDepth)
}

// maxBranchDepth bounds the nesting of choices passOver looks through.
const maxBranchDepth = 4

func pastSkipsDepth(trs [][]trans, pc int, d bool, depth int) int {
	for steps := 0; steps < len(trs); steps++ {
		next, ok := passOver(trs, pc, d, depth)
		if !ok {
			return pc
		}
		pc = next
	}
	return pc
}

// passOver reports where an atomic sequence at location pc goes on when
// the location changes nothing but the program counter and lets the
// sequence go on, in exactly one way, to the same location: its one
// transition is a skip inside the sequence, or it is a choice (if, do) of
// conditions that cannot fail (code.safe) and of which at most one holds
// in any state (exclusive), with an else last, whose options all lead,
// past skips, to the same location inside the sequence (if :: x == 1 ->
// printf(...) :: else -> skip fi). Whichever option is executable, the
// successor computation would reach that location with the same vector,
// in one step. Not in a D_proctype.
func passOver(trs [][]trans, pc int, d bool, depth int) (int, bool) {
	if pc <= 0 || pc >= len(trs) || len(trs[pc]) == 0 {
		return pc, false
	}
	ts := trs[pc]
	if len(ts) == 1 {
		u := &ts[0]
		if u.kind != tSkip || !u.atomic || u.etrans != 0 || u.to <= 0 {
			return pc, false
		}
		return u.to, true
	}
	if d || depth <= 0 || ts[len(ts)-1].kind != tElse {
		return pc, false
	}
	dest := -1
	for k := range ts {
		u := &ts[k]
		if !u.atomic || u.etrans != 0 || u.to <= 0 {
			return pc, false
		}
		if k < len(ts)-1 {
			if u.kind != tCond || u.code == nil || !u.code.safe {
				return pc, false
			}
			for j := range k {
				if !exclusive(ts[j].code, u.code) {
					return pc, false
				}
			}
		}
		to := pastSkipsDepth(trs, u.to, d, depth-1)
		if to == pc || dest >= 0 && to != dest {
			return pc, false
		}
		dest = to
	}
	return dest, true
}

// complementary reports whether conditions a and b are full(ch) and
// nfull(ch), or empty(ch) and nempty(ch), of the same channel expression:
// when one is evaluated without failing, the other holds exactly when it
// does not, and evaluating it would not fail either.
func complementary(a, b *code) bool {
	if a.chanArg == "" || a.chanArg != b.chanArg {
		return false
	}
	switch a.chanFun {
	case promela.BuiltinFull:
		return b.chanFun == promela.BuiltinNfull
	case promela.BuiltinNfull:
		return b.chanFun == promela.BuiltinFull
	case promela.BuiltinEmpty:
		return b.chanFun == promela.BuiltinNempty
	case promela.BuiltinNempty:
		return b.chanFun == promela.BuiltinEmpty
	}
	return false
}

// exclusive reports whether conditions a and b never hold together: one
// of them has a conjunct that is always false, or each has a conjunct
// that is a test of the same variable, and no value passes both tests.
func exclusive(a, b *code) bool {
	if a.never || b.never {
		return true
	}
	for _, s := range a.tests {
		for _, t := range b.tests {
			if s.off != t.off || s.local != t.local {
				continue
			}
			both := false
			for v := range 256 {
				if s.admits(byte(v)) && t.admits(byte(v)) {
					both = true
					break
				}
			}
			if !both {
				return true
			}
		}
	}
	return false
}
