package ltl

import (
	"encoding/binary"
	"sync"
	"time"

	"ftmc/explore"
	"ftmc/state"
	"ftmc/trace"
)

// An expander computes the successors of product states for one goroutine:
// the nested depth-first search has one, each worker of the parallel
// search (cndfs.go) one of its own, with a model of its own (Fork).
type expander struct {
	m         state.Model
	a         *Automaton
	atoms     []Predicate
	opts      Options
	excl      Exclusive
	noStutter bool
	sfx       int // bytes after the model's vector
	// readMu, when set, is held while the atoms are read: predicates may
	// not be called concurrently (compile.Model.Predicate), and their
	// faults (Options.Fault) are the model's.
	readMu *sync.Mutex
	// narrow, when set, narrows the model's successors (mvec, mend, mtr)
	// of a state whose model vector it is given: partial-order reduction.
	narrow func(model []byte)

	// scratch for one expansion
	cur     []byte
	vec     []byte
	mvec    []byte // the model's successors, back to back
	mend    []int
	mtr     []state.Trans
	enabled [4]uint64 // pids with a successor
	maxPid  int
	claim   []int

	// the product successors of the last expansion, back to back
	out    []byte
	outEnd []int
	outTr  []state.Trans

	fail failure
}

// failure is a failing transition or proposition (Options.Failures,
// Options.Fault) met in an expansion: why, the failing step, and whether
// it is a proposition's, which fails in the state itself.
type failure struct {
	kind, msg string
	tr        state.Trans
	inState   bool
}

func newExpander(m state.Model, a *Automaton, atoms []Predicate, opts Options) expander {
	e := expander{m: m, a: a, atoms: atoms, opts: opts, sfx: 2}
	if opts.Fairness {
		e.sfx = 4
	}
	e.excl, _ = m.(Exclusive)
	return e
}

func (e *expander) product(model []byte, q int, fair uint16) []byte {
	e.vec = appendProduct(e.vec[:0], model, q, fair, e.opts.Fairness)
	return e.vec
}

func appendProduct(out, model []byte, q int, fair uint16, fairness bool) []byte {
	out = append(out, model...)
	out = binary.LittleEndian.AppendUint16(out, uint16(q))
	if fairness {
		out = binary.LittleEndian.AppendUint16(out, fair)
	}
	return out
}

// split returns the parts of a product vector.
func (e *expander) split(v []byte) (model []byte, q int, fair uint16) {
	n := len(v) - e.sfx
	q = int(binary.LittleEndian.Uint16(v[n:]))
	if e.opts.Fairness {
		fair = binary.LittleEndian.Uint16(v[n+2:])
	}
	return v[:n], q, fair
}

// acceptingVec reports whether the product state v is accepting.
func (e *expander) acceptingVec(v []byte) bool {
	_, q, fair := e.split(v)
	if e.opts.Fairness {
		return fair == fairDone
	}
	return e.a.States[q].Accepting
}

// Succ and Fail collect the model's successors (state.Sink).
func (e *expander) Succ(t state.Trans, v []byte) {
	e.mvec = append(e.mvec, v...)
	e.mend = append(e.mend, len(e.mvec))
	e.mtr = append(e.mtr, t)
	if t.Proc >= 0 && t.Proc < 256 {
		e.enabled[t.Proc>>6] |= 1 << (t.Proc & 63)
		if int(t.Proc) > e.maxPid {
			e.maxPid = int(t.Proc)
		}
	}
}

// Fail: a failing transition (an assertion, a run-time error) has no
// successor in the product; it is a violation with Options.Failures, else
// the safety search reports it.
func (e *expander) Fail(t state.Trans, kind, msg string) {
	if e.opts.Failures && e.fail.kind == "" {
		e.fail = failure{kind: kind, msg: msg, tr: t}
	}
}

func (e *expander) isEnabled(pid int) bool {
	return pid < 256 && e.enabled[pid>>6]&(1<<(pid&63)) != 0
}

func (e *expander) read(model []byte) reading {
	if e.readMu != nil {
		e.readMu.Lock()
		defer e.readMu.Unlock()
	}
	return read(e.atoms, e.opts.Fault, model)
}

// expand computes the product successors of the product state v into
// out, outEnd and outTr; a failure it meets goes to e.fail.
func (e *expander) expand(v []byte) {
	e.out, e.outEnd, e.outTr = e.out[:0], e.outEnd[:0], e.outTr[:0]
	e.cur = append(e.cur[:0], v...)
	model, q, fair := e.split(e.cur)
	r := e.read(model)
	claim := func() bool {
		var fault string
		if e.claim, fault = e.a.next(q, r, e.claim[:0]); fault != "" {
			e.fail = failure{kind: state.KindRuntime, msg: fault, inState: true}
			return false
		}
		return len(e.claim) > 0 // else the claim blocks: this run is not accepted
	}
	excl := e.excl != nil && e.excl.Exclusive(model)
	if !excl && !claim() {
		return
	}
	e.mvec, e.mend, e.mtr = e.mvec[:0], e.mend[:0], e.mtr[:0]
	e.enabled = [4]uint64{}
	e.maxPid = -1
	e.m.Next(model, e)
	if len(e.mend) == 0 {
		if excl {
			// Atomicity is lost; the claim moves after all.
			excl = false
			if !claim() {
				return
			}
		}
		if e.noStutter {
			return
		}
		e.mvec = append(e.mvec, model...)
		e.mend = append(e.mend, len(e.mvec))
		e.mtr = append(e.mtr, stutter)
	}
	if excl {
		e.claim = append(e.claim[:0], q)
	} else if e.narrow != nil && e.mtr[0] != stutter {
		e.narrow(model)
	}
	// Fairness: the counter before the step (Spin's rules 1 and 3 apply
	// only outside atomic sequences).
	c := fair
	if e.opts.Fairness && !excl {
		if c == fairDone {
			c = fairWait
		}
		if c == fairWait && e.a.States[q].Accepting {
			c = 1
		}
		if c != fairWait {
			// Blocked processes have their turn for free.
			pid := int(c) - 1
			for pid <= e.maxPid && !e.isEnabled(pid) {
				pid++
			}
			if pid > e.maxPid {
				c = fairDone
			} else {
				c = uint16(pid + 1)
			}
		}
	}
	start := 0
	for k, end := range e.mend {
		next := e.mvec[start:end]
		start = end
		t := e.mtr[k]
		c2 := c
		if e.opts.Fairness && c != fairWait && c != fairDone && int(t.Proc) == int(c)-1 {
			c2 = c + 1
		}
		for _, q2 := range e.claim {
			e.out = appendProduct(e.out, next, q2, c2, e.opts.Fairness)
			e.outEnd = append(e.outEnd, len(e.out))
			e.outTr = append(e.outTr, t)
		}
	}
}

// succ returns the k-th successor of the last expansion.
func (e *expander) succ(k int) []byte {
	start := 0
	if k > 0 {
		start = e.outEnd[k-1]
	}
	return e.out[start:e.outEnd[k]]
}

// found is a violation: the product states of its path (vectors), the
// steps into them (tr[0] is stutter), where the cycle starts (-1: the path
// ends in a failure), and the failure.
type found struct {
	path   [][]byte
	tr     []state.Trans
	loopAt int
	fail   failure
}

// result is the verdict of a search that found f (nil: none), stopped
// for stop ("" when it did not), or was truncated by MaxDepth, with states
// stored.
func (e *expander) result(kind string, f *found, stop string, truncated bool, states int) trace.Result {
	r := trace.Result{Property: e.opts.Property}
	if f == nil {
		r.Verdict, r.Reason = explore.Undecided(stop, truncated, e.opts.MaxDepth, states)
		return r
	}
	r.Verdict = trace.Violated
	r.Kind = kind
	if f.fail.kind != "" {
		r.Kind = f.fail.kind
	}
	r.Counterexample = e.counterexample(kind, f)
	return r
}

// counterexample turns the lasso of product states into model steps.
func (e *expander) counterexample(kind string, f *found) *trace.Counterexample {
	c := &trace.Counterexample{Kind: kind, LoopStart: f.loopAt, Steps: []trace.Step{}}
	switch {
	case f.fail.kind != "":
		c.Kind, c.Message = f.fail.kind, f.fail.msg
	case kind == state.KindNonProgress:
		c.Message = "non-progress cycle: from the marked step on, the run repeats forever without passing a progress label"
	default:
		c.Message = "acceptance cycle: from the marked step on, the run repeats forever and violates the property"
	}
	if e.opts.Fairness && f.fail.kind == "" {
		c.Message += " (every process moves or is blocked in the cycle)"
	}
	models := make([][]byte, len(f.path))
	for k, v := range f.path {
		m, _, _ := e.split(v)
		models[k] = m
	}
	c.Initial = e.m.Decode(models[0])
	last := len(models) - 1
	for k := 1; k < len(models); k++ {
		from, to, t := models[k-1], models[k], f.tr[k]
		if t == stutter {
			// From here on the model stays in its final state; the text
			// and JSON say so with a loop start after the last step.
			last = k - 1
			if c.LoopStart >= len(c.Steps) {
				c.LoopStart = len(c.Steps)
			}
			break
		}
		step := e.m.Explain(t, from, to)
		if len(step.Changes) == 0 {
			step.Changes = trace.Diff(e.m.Decode(from), e.m.Decode(to))
		}
		step.Num = k
		c.Steps = append(c.Steps, step)
	}
	if c.LoopStart > len(c.Steps) {
		c.LoopStart = len(c.Steps)
	}
	c.Final = e.m.Decode(models[last])
	c.Processes = state.Processes(e.m, models[0], models[last])
	switch {
	case f.fail.kind != "" && !f.fail.inState:
		// The failing step has no successor: it is explained as a step
		// from the last state to itself.
		step := e.m.Explain(f.fail.tr, models[last], models[last])
		step.Note = f.fail.msg
		step.Num = len(c.Steps) + 1
		c.Steps = append(c.Steps, step)
	case f.fail.kind != "" && len(c.Steps) > 0:
		c.Steps[len(c.Steps)-1].Note = f.fail.msg
	}
	return c
}

// reporter calls Options.Progress about every ProgressInterval.
type reporter struct {
	last       time.Time
	lastStates int64
}

// report reports p at now unless the last report is too recent; p's
// Elapsed and StatesPerSec it fills in.
func (r *reporter) report(o Options, w *explore.Watch, now time.Time, p explore.Progress) {
	if o.Progress == nil || now.Sub(r.last) < o.ProgressInterval {
		return
	}
	p.MemoryBytes, p.Elapsed = w.Memory(), now.Sub(w.Start())
	if dt := now.Sub(r.last).Seconds(); dt > 0 {
		p.StatesPerSec = float64(p.States-r.lastStates) / dt
	}
	r.last, r.lastStates = now, p.States
	o.Progress(p)
}
