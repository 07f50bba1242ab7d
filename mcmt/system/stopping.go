package system

import (
	"context"
	"errors"
	"fmt"

	"ftmc/explore"
	"ftmc/state"
	"ftmc/trace"
)

// The stopping-failures semantics of an instance: besides the transitions
// of the system, any process may stop at any time, after which it takes no
// step, is not checked by universal guards and is no longer subject to the
// system axioms. This is the semantics that backward reachability computes
// (MCMT and Cubicle instantiate universal guards over the processes a cube
// mentions only), so its reachable states are the ones a negated invariant
// found by that search must avoid; the states of the plain instance are a
// subset of them.

// StoppingOptions bound an exploration in the stopping-failures semantics.
type StoppingOptions struct {
	MaxStates int64 // 0: no limit
	// Axioms prunes the states that violate a system axiom over the
	// processes still running, as backward reachability does.
	Axioms bool
	// OnState sees every reachable state once: the values (the slots of
	// stopped processes read 0) and the set of running processes (bit p
	// for process p). Both are valid during the call only.
	OnState func(vals []int64, running uint64)
}

// StoppingResult is the outcome of ExploreStopping.
type StoppingResult struct {
	States   int64
	Complete bool
	Reason   string // why not complete
}

// ExploreStopping explores the instance with n processes breadth first in
// the stopping-failures semantics, with explore's engine.
func ExploreStopping(ctx context.Context, s *System, n int, opts StoppingOptions) (*StoppingResult, error) {
	if n > 16 {
		return nil, fmt.Errorf("at most 16 processes in the stopping-failures semantics")
	}
	c, err := Compile(s, n)
	if err != nil {
		return nil, err
	}
	m := newStoppingModel(c, opts.Axioms)
	m.maxStates = opts.MaxStates
	eo := explore.Options{Order: explore.BreadthFirst}
	eo.Visit = func(st []byte, _ func(kind, msg string) *trace.Counterexample) {
		if m.admit(st) && opts.OnState != nil {
			opts.OnState(m.seen, running(st[c.Size:]))
		}
	}
	r, st, err := explore.Run(ctx, m, eo)
	switch {
	case m.err != nil:
		return nil, m.err
	case err != nil && m.initErr == nil && st.States == 0:
		// No initial state: nothing to explore.
		return &StoppingResult{Complete: true}, nil
	case err != nil:
		return nil, err
	}
	return &StoppingResult{States: m.states, Complete: st.Complete, Reason: r.Reason}, nil
}

// running reads the two bytes of running processes that end a state of
// the stopping-failures semantics.
func running(b []byte) uint64 { return uint64(b[0]) | uint64(b[1])<<8 }

// stoppingModel is an instance in the stopping-failures semantics as a
// state.Model: a state is the instance's vector followed by two bytes of
// running processes (bit p for process p); a process stops by a transition
// of its own. With axioms, a state that breaks one is rejected when the
// search stores it (admit), and has no successors: each state is checked
// once, as the search matches the others.
type stoppingModel struct {
	c         *Concrete
	axioms    bool
	maxStates int64 // 0: no limit

	initErr  error               // the error enumerating the initial states
	err      error               // a value out of a byte's range, or a failing transition: it stops the search
	rejected map[string]struct{} // the stored states that break an axiom
	states   int64               // the stored states that do not

	vals, seen, stopped, applyNext []int64
	env, applyEnv, axEnv           []int
	buf                            []byte
}

var _ state.Model = (*stoppingModel)(nil)

func newStoppingModel(c *Concrete, axioms bool) *stoppingModel {
	axEnv := make([]int, 2)
	for _, q := range c.axioms {
		axEnv = make([]int, max(len(axEnv), q.k+2))
	}
	return &stoppingModel{c: c, axioms: axioms, rejected: map[string]struct{}{},
		vals: make([]int64, c.Size), seen: make([]int64, c.Size), stopped: make([]int64, c.Size), applyNext: make([]int64, c.Size),
		env: make([]int, c.EnvSize()), applyEnv: make([]int, c.EnvSize()), axEnv: axEnv}
}

func (m *stoppingModel) Name() string {
	return fmt.Sprintf("%s (%d processes, stopping failures)", m.c.Sys.Name, m.c.N)
}

// admit decides on a state the search stores: false if it breaks an axiom
// over its running processes. m.seen holds its values.
func (m *stoppingModel) admit(st []byte) bool {
	for i := range m.seen {
		m.seen[i] = int64(int8(st[i]))
	}
	if m.axioms && m.c.brokenAxiomAmong(m.seen, running(st[m.c.Size:]), m.axEnv) >= 0 {
		m.rejected[string(st)] = struct{}{}
		return false
	}
	m.states++
	return true
}

// encode packs the values and running processes into m.buf; it is false
// (and m.err set) when a value does not fit a byte.
func (m *stoppingModel) encode(vals []int64, run uint64) bool {
	var ok bool
	if m.buf, ok = Encode(vals, m.buf); !ok {
		m.err = errors.New(outOfRange)
		return false
	}
	m.buf = append(m.buf, byte(run), byte(run>>8))
	return true
}

func (m *stoppingModel) Initial(emit func(s []byte)) error {
	all := uint64(1)<<uint(m.c.N) - 1
	m.initErr = m.c.Initial(1<<22, func(vals []int64) {
		if m.err == nil && m.encode(vals, all) {
			emit(m.buf)
		}
	})
	return m.initErr
}

// Next reports the successors of s: the system's transitions among the
// running processes (the slots of stopped processes cleared), then each
// running process stopping. A rejected state has none, and the search
// stops, unknown, when it has stored more than maxStates states.
func (m *stoppingModel) Next(s []byte, sink state.Sink) {
	c := m.c
	if m.maxStates > 0 && m.states > m.maxStates {
		sink.Fail(state.Trans{Proc: -1}, state.KindLimitReached, fmt.Sprintf("state limit %d reached", m.maxStates))
		return
	}
	if len(m.rejected) > 0 {
		if _, ok := m.rejected[string(s)]; ok {
			return
		}
	}
	for i := range m.vals {
		m.vals[i] = int64(int8(s[i]))
	}
	run := running(s[c.Size:])
	for ti := range c.trans {
		c.enabledAmong(ti, m.vals, m.env, run, func(params []int) {
			if m.err != nil {
				return
			}
			tr := Trans(ti, params)
			err := c.apply(ti, params, m.vals, m.applyEnv, m.applyNext, func(next []int64) {
				if m.err != nil {
					return
				}
				c.clearStopped(next, run)
				if !m.encode(next, run) {
					sink.Fail(tr, state.KindLimitReached, m.err.Error())
					return
				}
				sink.Succ(tr, m.buf)
			})
			if err != nil && m.err == nil {
				m.err = err
				sink.Fail(tr, state.KindLimitReached, err.Error())
			}
		})
		if m.err != nil {
			return
		}
	}
	// A state where a process of an axiom-abiding state stopped abides by
	// the axioms too (they quantify over fewer processes); admit checks it
	// all the same, once, when the search stores it.
	for p := 0; p < c.N; p++ {
		if run&(1<<uint(p)) == 0 {
			continue
		}
		copy(m.stopped, m.vals)
		r := run &^ (1 << uint(p))
		c.clearStopped(m.stopped, r)
		m.encode(m.stopped, r) // the values are those of s
		sink.Succ(m.stopTrans(p), m.buf)
	}
}

// stopTrans is the step where process p stops: the transition number past
// the system's.
func (m *stoppingModel) stopTrans(p int) state.Trans {
	return state.Trans{Proc: int32(p), ID: int32(len(m.c.trans)), Aux: int32(p)}
}

// ValidEnd: a state without successors (every process stopped) is no error.
func (m *stoppingModel) ValidEnd([]byte) bool { return true }

func (m *stoppingModel) Explain(t state.Trans, from, to []byte) trace.Step {
	ti := int(t.ID)
	if ti == len(m.c.trans) {
		name := fmt.Sprintf("#%d", t.Aux)
		return trace.Step{Pid: int(t.Aux), Proc: name, Stmt: name + " stops",
			Events: []trace.Event{{Type: "local", Text: "stop", Partner: -1}}}
	}
	return m.c.Step(ti, UnpackParams(t.Aux, len(m.c.Sys.Trans[ti].Params)))
}

func (m *stoppingModel) Decode(s []byte) []trace.Var {
	names := m.c.Names()
	out := make([]trace.Var, 0, len(names)+1)
	for i, name := range names {
		out = append(out, trace.Var{Name: name, Value: m.c.Format(i, int64(int8(s[i])))})
	}
	return append(out, trace.Var{Name: "running", Value: fmt.Sprintf("%0*b", m.c.N, running(s[m.c.Size:]))})
}

func (m *stoppingModel) Fork() state.Model { return newStoppingModel(m.c, m.axioms) }

// clearStopped sets the local slots of stopped processes to 0: nothing
// reads them any more, and equal states merge.
func (c *Concrete) clearStopped(vals []int64, running uint64) {
	for _, v := range c.Sys.Vars {
		if !v.Local {
			continue
		}
		for p := 0; p < c.N; p++ {
			if running&(1<<uint(p)) == 0 {
				vals[c.base[v.ID]+p] = 0
			}
		}
	}
}

// brokenAxiomAmong is BrokenAxiom over the running processes; env is
// scratch space with room for every axiom's variables.
func (c *Concrete) brokenAxiomAmong(vals []int64, running uint64, env []int) int {
	for i := range c.axioms {
		if !c.axiomAmong(&c.axioms[i], 0, vals, running, env) {
			return i
		}
	}
	return -1
}

// axiomAmong reports whether q holds for every placement of its variables
// from j on over the running processes.
func (c *Concrete) axiomAmong(q *cquant, j int, vals []int64, running uint64, env []int) bool {
	if j == q.k {
		return c.holds(q.body, vals, env)
	}
	for p := 0; p < c.N; p++ {
		if running&(1<<uint(p)) == 0 {
			continue
		}
		env[j] = p
		if !c.axiomAmong(q, j+1, vals, running, env) {
			return false
		}
	}
	return true
}
