package system

import (
	"fmt"

	"ftmc/state"
	"ftmc/trace"
)

// Instance is the system with a fixed number of processes as a state.Model,
// for explicit-state engines: one byte per slot, values in -128..127.
type Instance struct {
	C *Concrete
	// InitLimit bounds the number of initial states enumerated (0: none).
	InitLimit int

	vals, scratch []int64
	env           []int
	buf           []byte
}

var _ state.Model = (*Instance)(nil)
var _ state.Checker = (*Instance)(nil)

// NewInstance compiles s for n processes.
func NewInstance(s *System, n int) (*Instance, error) {
	c, err := Compile(s, n)
	if err != nil {
		return nil, err
	}
	return &Instance{C: c, InitLimit: 1 << 22}, nil
}

func (in *Instance) Name() string { return fmt.Sprintf("%s (%d processes)", in.C.Sys.Name, in.C.N) }

// Decode reads a state vector into values.
func (in *Instance) decode(s []byte, into []int64) []int64 {
	into = into[:0]
	for _, b := range s {
		into = append(into, int64(int8(b)))
	}
	return into
}

// Encode packs values into a state vector; ok is false when a value does
// not fit a byte.
func Encode(vals []int64, into []byte) ([]byte, bool) {
	into = into[:0]
	for _, v := range vals {
		if v < -128 || v > 127 {
			return into, false
		}
		into = append(into, byte(int8(v)))
	}
	return into, true
}

// Values returns the values of a state vector.
func (in *Instance) Values(s []byte) []int64 { return in.decode(s, nil) }

func (in *Instance) Initial(emit func(s []byte)) error {
	var buf []byte
	var bad error
	err := in.C.Initial(in.InitLimit, func(vals []int64) {
		var ok bool
		if buf, ok = Encode(vals, buf); !ok {
			if bad == nil {
				bad = fmt.Errorf("an initial value does not fit in -128..127")
			}
			return
		}
		emit(buf)
	})
	if err != nil {
		return err
	}
	return bad
}

// packParams stores parameter processes in Trans.Aux, 8 bits each.
func packParams(ps []int) int32 {
	var a int32
	for i := len(ps) - 1; i >= 0; i-- {
		a = a<<8 | int32(ps[i])
	}
	return a
}

// UnpackParams returns the m parameter processes stored in a Trans.Aux.
func UnpackParams(aux int32, m int) []int {
	ps := make([]int, m)
	for i := range ps {
		ps[i] = int(aux & 0xff)
		aux >>= 8
	}
	return ps
}

// Trans returns the state.Trans of transition ti with the given parameters.
func Trans(ti int, params []int) state.Trans {
	t := state.Trans{Proc: -1, ID: int32(ti), Aux: packParams(params)}
	if len(params) > 0 {
		t.Proc = int32(params[0])
	}
	return t
}

// outOfRange ends the message of a successor whose values do not fit the
// state vector's bytes: the instance is too large to explore, not wrong.
const outOfRange = "a value leaves -128..127"

func (in *Instance) Next(s []byte, sink state.Sink) {
	in.vals = in.decode(s, in.vals)
	if in.env == nil {
		in.env = make([]int, in.C.EnvSize())
	}
	for ti := range in.C.trans {
		in.C.EnabledParams(ti, in.vals, in.env, func(params []int) {
			tr := Trans(ti, params)
			err := in.C.Apply(ti, params, in.vals, func(next []int64) {
				var ok bool
				if in.buf, ok = Encode(next, in.buf); !ok {
					sink.Fail(tr, state.KindRuntime, fmt.Sprintf("%s: %s", in.C.Describe(ti, params), outOfRange))
					return
				}
				sink.Succ(tr, in.buf)
			})
			if err != nil {
				sink.Fail(tr, state.KindRuntime, err.Error())
			}
		})
	}
}

// ValidEnd: array-based systems have no notion of a proper end; a state
// without successors is not an error.
func (in *Instance) ValidEnd(s []byte) bool { return true }

// Step is the counterexample step of transition ti instantiated with
// params: the moving process is the transition's first parameter (its pid,
// named "#N" as in the transition's description), Rule is the transition's
// name, and its one event is that name, which a chart draws on that
// process's lifeline. A transition without parameters moves no process
// (pid -1, "system").
func (c *Concrete) Step(ti int, params []int) trace.Step {
	tr := c.Sys.Trans[ti]
	st := trace.Step{Pid: -1, Proc: "system", Rule: tr.Name, Stmt: c.Describe(ti, params), Line: tr.Pos.Line,
		Events: []trace.Event{{Type: "local", Text: tr.Name, Partner: -1}}}
	if len(params) > 0 {
		st.Pid, st.Proc = params[0], fmt.Sprintf("#%d", params[0])
	}
	return st
}

// Processes are the lifelines of a counterexample on the instance: every
// process index, named "#N" as in the transitions' descriptions.
func (c *Concrete) Processes() []trace.Process {
	out := make([]trace.Process, c.N)
	for i := range out {
		out[i] = trace.Process{Pid: i, Name: fmt.Sprintf("#%d", i), Role: trace.RoleIndex}
	}
	return out
}

// Processes are the instance's process indexes (Concrete.Processes).
func (in *Instance) Processes(first, last []byte) []trace.Process { return in.C.Processes() }

func (in *Instance) Explain(t state.Trans, from, to []byte) trace.Step {
	ti := int(t.ID)
	params := UnpackParams(t.Aux, len(in.C.Sys.Trans[ti].Params))
	st := in.C.Step(ti, params)
	if from != nil && to != nil {
		st.Changes = trace.Diff(in.Decode(from), in.Decode(to))
	}
	return st
}

func (in *Instance) Decode(s []byte) []trace.Var {
	names := in.C.Names()
	out := make([]trace.Var, len(s))
	for i, b := range s {
		out[i] = trace.Var{Name: names[i], Value: in.C.Format(i, int64(int8(b)))}
	}
	return out
}

func (in *Instance) Fork() state.Model {
	return &Instance{C: in.C, InitLimit: in.InitLimit}
}

// Check reports a state that satisfies an unsafe formula.
func (in *Instance) Check(s []byte) (kind, msg string, bad bool) {
	in.scratch = in.decode(s, in.scratch)
	i, w := in.C.Unsafe(in.scratch)
	if i < 0 {
		return "", "", false
	}
	q := in.C.Sys.Unsafe[i]
	msg = fmt.Sprintf("%s reached", in.C.Sys.Property)
	if len(w) > 0 {
		msg += " with"
		for j, p := range w {
			msg += fmt.Sprintf(" %s=#%d", q.Vars[j], p)
		}
	}
	return state.KindInvariant, msg, true
}

// BrokenAxiom returns the index of a system axiom that s violates, or -1.
func (in *Instance) BrokenAxiom(s []byte) int {
	in.scratch = in.decode(s, in.scratch)
	return in.C.BrokenAxiom(in.scratch)
}
