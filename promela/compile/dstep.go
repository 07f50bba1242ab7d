package compile

import "fmt"

// dstepCode is a compiled d_step: its steps run one after the other, in
// one transition, taking the first executable option of every choice.
type dstepCode struct {
	elem  *element
	start int // the first state inside
}

// maxDStepSteps bounds the steps of one d_step (a loop inside a d_step
// that never ends is an error).
const maxDStepSteps = 1 << 20

func (c *comp) compileDStep(e *element) *dstepCode {
	dc := &dstepCode{elem: e, start: huntstart(e.body.frst).seqno}
	// The steps inside are compiled like any other.
	pt := c.pt
	for i, ts := range pt.trans {
		if i < len(pt.elems) && pt.elems[i] != nil && pt.elems[i].dstep == e {
			for k := range ts {
				c.compileTrans(&ts[k])
			}
		}
	}
	return dc
}

// runDStep executes the d_step of transition t in place on the machine's
// current vector. It returns false if the d_step cannot start (its first
// step is not executable) or if it failed (m.fault is set).
func (md *Model) runDStep(pid int, t *trans) bool {
	m := &md.m
	dc := t.dstep
	pt := t.pt
	state := dc.start
	for steps := 0; ; steps++ {
		if state <= 0 || state >= len(pt.elems) || pt.elems[state] == nil || pt.elems[state].dstep != dc.elem {
			return true
		}
		if steps >= maxDStepSteps {
			m.failf("a d_step did not end after %d steps", maxDStepSteps)
			return false
		}
		var next *trans
		executed := false
		ts := pt.trans[state]
		for k := range ts {
			u := &ts[k]
			if u.etrans != 0 {
				continue
			}
			ok := true
			switch u.kind {
			case tCond:
				ok = u.cond(m) != 0
			case tElse:
				ok = !executed
			case tEnd:
				ok = pid == len(m.procs)-1
			case tSend:
				ok = m.sendEnabled(u.send)
			case tRecv:
				ok = m.recvEnabled(u.recv)
			case tDStep:
				m.failf("a d_step inside a d_step")
				return false
			}
			if m.fault != "" {
				return false
			}
			if ok {
				next = u
				break
			}
		}
		if next == nil {
			if steps == 0 {
				return false
			}
			m.failf("a d_step blocks inside (at %s: %s)", pt.elems[state].pos, firstText(pt.trans[state]))
			return false
		}
		switch next.kind {
		case tAssign:
			next.effect(m)
		case tRun:
			m.failf("run inside a d_step (use atomic)")
		case tAssert:
			if next.cond(m) == 0 && m.fault == "" {
				m.fault = "assertion violated: " + next.assertText()
				m.faultKind = kindAssertion
			}
		case tSend:
			m.send(next.send)
			if m.boq != 0 {
				m.boq = 0
				m.failf("a rendezvous send inside a d_step")
			}
		case tRecv:
			m.recv(next.recv)
		case tEnd:
			m.delProc(pid)
		}
		if m.fault != "" {
			return false
		}
		state = next.to
	}
}

func firstText(ts []trans) string {
	if len(ts) == 0 {
		return "?"
	}
	return fmt.Sprint(ts[0].text)
}
