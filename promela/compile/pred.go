package compile

import (
	"errors"
	"fmt"

	"ftmc/promela"
)

// This file holds what the LTL engine needs from a compiled model: atomic
// propositions as predicates over state vectors, and progress labels.

// Predicate compiles a Promela expression of a never claim or an ltl block
// into a test of states: global variables, remote references P[i]@L and
// P[i]:x, channel tests such as len(c), and ByMC's named atomic
// propositions with all, some and card. The predicate may be called
// repeatedly but not concurrently; vectors are read, never kept.
func (md *Model) Predicate(x promela.Expr) (func(s []byte) bool, error) {
	p := md.p
	nerr := len(p.errs)
	c := &comp{p: p}
	f := c.expr(x)
	if len(p.errs) > nerr {
		err := errors.Join(p.errs[nerr:]...)
		p.errs = p.errs[:nerr]
		return nil, err
	}
	m := &machine{p: p}
	hidden := p.hidden
	var buf []byte
	return func(s []byte) bool {
		if hidden == 0 {
			m.vec = s
		} else {
			buf = append(buf[:0], make([]byte, hidden)...)
			buf = append(buf, s...)
			m.vec = buf
		}
		m.scan()
		m.fault = ""
		v := f(m)
		// An expression that cannot be evaluated (an index out of
		// bounds) is false, as a guard that cannot execute, and the
		// fault is kept for PredicateFault.
		if m.fault != "" {
			if md.predFault == "" {
				md.predFault = promela.ExprString(x) + ": " + m.fault
			}
			return false
		}
		return v != 0
	}, nil
}

// PredicateFault returns the first fault met by a predicate of md since the
// last call ("" if none), and clears it: a proposition that cannot be
// evaluated in a state is a run-time error there, as with Spin.
func (md *Model) PredicateFault() string {
	f := md.predFault
	md.predFault = ""
	return f
}

// quantifier compiles ByMC's all(e), some(e) and card(e): e is evaluated
// for every process of the proctype its remote references without an
// index name (Proc:x, Proc@L).
func (c *comp) quantifier(x *promela.CallExpr) evalFn {
	var pt *procType
	promela.Inspect(x.Args[0], func(n promela.Node) bool {
		if r, ok := n.(*promela.RemoteRef); ok && r.Index == nil && pt == nil {
			if d, ok := r.Proc.Sym.Decl.(*promela.ProcDecl); ok {
				pt = c.p.byDecl[d]
			}
		}
		return true
	})
	if pt == nil {
		c.errorf(x.FunPos, "%s(...) must refer to the processes of a proctype, as in %s(P:x == 1)", x.Fun, x.Fun)
		return constFn(0)
	}
	inner := &comp{p: c.p, pt: c.pt, quant: pt, atoms: c.atoms}
	f := inner.expr(x.Args[0])
	fun := x.Fun
	return func(m *machine) int32 {
		saved := m.qpid
		defer func() { m.qpid = saved }()
		n, all, some := int32(0), true, false
		for pid := range m.procs {
			if m.procTypeOf(pid) != pt {
				continue
			}
			m.qpid = pid
			if f(m) != 0 {
				n++
				some = true
			} else {
				all = false
			}
		}
		switch fun {
		case promela.BuiltinAll:
			return b2i(all)
		case promela.BuiltinSome:
			return b2i(some)
		}
		return n
	}
}

// AtProgress reports whether some process is at a progress label in s.
func (md *Model) AtProgress(s []byte) bool {
	return md.someAt(s, func(pt *procType, pc int) bool { return marked(pt.prog, pc) })
}

// HasProgress reports whether the model has progress labels at all.
func (md *Model) HasProgress() bool {
	for _, pt := range md.p.procs {
		for _, b := range pt.prog {
			if b {
				return true
			}
		}
	}
	return false
}

var _ = fmt.Sprint
