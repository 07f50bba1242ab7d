package ltl

import (
	"fmt"
	"strconv"

	"ftmc/state"
	"ftmc/trace"
)

// gcModel is a test model of guarded commands: the state is a vector of
// byte variables, each process a list of commands.
type gcModel struct {
	name     string
	vars     []string
	init     [][]byte
	procs    [][]gcmd
	excl     func(s []byte) bool // nil: no atomic sequences
	progress func(s []byte) bool
}

type gcmd struct {
	name  string
	guard func(s []byte) bool
	act   func(s []byte)
}

func (m *gcModel) Name() string { return m.name }

func (m *gcModel) Initial(emit func([]byte)) error {
	for _, v := range m.init {
		emit(v)
	}
	return nil
}

func (m *gcModel) Next(s []byte, sink state.Sink) {
	var buf []byte
	for pid, cmds := range m.procs {
		if m.excl != nil && m.excl(s) && pid != int(s[0]) {
			continue // the convention of exclModel: s[0] holds atomicity
		}
		for id, c := range cmds {
			if c.guard != nil && !c.guard(s) {
				continue
			}
			buf = append(buf[:0], s...)
			if c.act != nil {
				c.act(buf)
			}
			sink.Succ(state.Trans{Proc: int32(pid), ID: int32(id)}, buf)
		}
	}
}

func (m *gcModel) ValidEnd(s []byte) bool { return true }

func (m *gcModel) Explain(t state.Trans, from, to []byte) trace.Step {
	return trace.Step{Pid: int(t.Proc), Proc: "P" + strconv.Itoa(int(t.Proc)), Stmt: m.procs[t.Proc][t.ID].name}
}

func (m *gcModel) Decode(s []byte) []trace.Var {
	out := make([]trace.Var, len(s))
	for i, b := range s {
		name := fmt.Sprintf("v%d", i)
		if i < len(m.vars) {
			name = m.vars[i]
		}
		out[i] = trace.Var{Name: name, Value: strconv.Itoa(int(b))}
	}
	return out
}

func (m *gcModel) Fork() state.Model { return m }

// exclusiveModel adds the Exclusive interface.
type exclusiveModel struct{ *gcModel }

func (m exclusiveModel) Exclusive(s []byte) bool { return m.excl(s) }

// progressModel adds the ProgressLabels interface.
type progressModel struct{ *gcModel }

func (m progressModel) AtProgress(s []byte) bool { return m.progress(s) }
