package pml

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ftmc/state"
	"ftmc/trace"
)

// Guide restricts an instance check to the runs that follow a schedule of
// process steps, each named by the locations of an abstraction that the
// moving process is in before and after it: the replay of a counterexample
// of the abstraction on the instance, which visits the states the
// schedule leads to instead of every state. The guided runs are runs of
// the instance and the property is evaluated on the instance's states, so
// a violation found among them is one of the instance; finding none says
// nothing about the instance.
//
// Besides the steps of the schedule, a process may take steps that keep it
// in its location (the abstraction's stuttering); after the schedule, with
// Free, any step. Every step of the schedule advances it, so the cycle of
// a lasso lies after the schedule; with Free the guide holds no process
// back there, and the fairness of the cycle is the instance's. Without
// Free only bad prefixes count.
type Guide struct {
	// Steps is the schedule: one step of one process each.
	Steps []GuideStep
	// Free lets every step follow the schedule (to find the loop of a
	// lasso).
	Free bool
	// Initial is how many processes each location holds initially;
	// locations not named hold none.
	Initial map[string]int64
	// Locate names the locations that stand for a process whose locals
	// (by name) have the values given.
	Locate func(locals map[string]int64) ([]string, error)
}

// GuideStep is a step of one process from a location to a location.
type GuideStep struct{ From, To string }

// guided is the instance restricted by a guide. Its states are the
// instance's followed by the number of steps of the schedule taken (four
// bytes); after the last, a process may only take steps that keep it in
// its location.
type guided struct {
	m     state.Model
	g     *Guide
	procs string // the process type's name, as Decode writes it
	err   error
}

func newGuided(m state.Model, g *Guide, proc string) *guided {
	return &guided{m: m, g: g, procs: proc}
}

func (w *guided) Name() string { return w.m.Name() + " (guided)" }

func split(s []byte) ([]byte, uint32) {
	n := len(s) - 4
	return s[:n], binary.LittleEndian.Uint32(s[n:])
}

func join(s []byte, pos uint32) []byte {
	return binary.LittleEndian.AppendUint32(append([]byte(nil), s...), pos)
}

// locations returns the locations of every process in s, by pid.
func (w *guided) locations(s []byte) [][]string {
	vals := map[int]map[string]int64{}
	for _, v := range w.m.Decode(s) {
		rest, ok := strings.CutPrefix(v.Name, w.procs+"[")
		if !ok {
			continue
		}
		i := strings.Index(rest, "]:")
		if i < 0 {
			continue
		}
		pid, err := strconv.Atoi(rest[:i])
		if err != nil {
			continue
		}
		x, err := strconv.ParseInt(v.Value, 10, 64)
		if err != nil {
			continue
		}
		if vals[pid] == nil {
			vals[pid] = map[string]int64{}
		}
		vals[pid][rest[i+2:]] = x
	}
	out := make([][]string, len(vals))
	for pid := range out {
		l, err := w.g.Locate(vals[pid])
		if err != nil && w.err == nil {
			w.err = fmt.Errorf("process %d: %v", pid, err)
		}
		out[pid] = l
	}
	return out
}

func (w *guided) Initial(emit func(s []byte)) error {
	return w.m.Initial(func(s []byte) {
		count := map[string]int64{}
		for _, ls := range w.locations(s) {
			if len(ls) > 0 {
				count[ls[0]]++
			}
		}
		for l, n := range count {
			if w.g.Initial[l] != n {
				return
			}
		}
		for l, n := range w.g.Initial {
			if count[l] != n {
				return
			}
		}
		emit(join(s, 0))
	})
}

type guidedSink struct {
	w      *guided
	pos    uint32
	before [][]string
	out    state.Sink
}

func (k *guidedSink) Succ(t state.Trans, s []byte) {
	w := k.w
	p := int(t.Proc)
	if p < 0 || p >= len(k.before) {
		return
	}
	after := w.locations(s)
	if p >= len(after) {
		return
	}
	// (Past the schedule with Free, Next passes every step on itself.)
	if int(k.pos) < len(w.g.Steps) {
		st := w.g.Steps[k.pos]
		if slices.Contains(k.before[p], st.From) && slices.Contains(after[p], st.To) {
			k.out.Succ(t, join(s, k.pos+1))
		}
	}
	// A step that keeps the process in its location is a stuttering step
	// of the abstraction: the schedule does not name it, but a process may
	// need several (one message received at a time) before its next move.
	for _, l := range after[p] {
		if slices.Contains(k.before[p], l) {
			k.out.Succ(t, join(s, k.pos))
			return
		}
	}
}

func (k *guidedSink) Fail(t state.Trans, kind, msg string) { k.out.Fail(t, kind, msg) }

func (w *guided) Next(s []byte, sink state.Sink) {
	c, pos := split(s)
	if w.g.Free && int(pos) >= len(w.g.Steps) {
		// Past the schedule every step goes: no need to locate anyone.
		w.m.Next(c, &freeSink{pos: pos, out: sink})
		return
	}
	w.m.Next(c, &guidedSink{w: w, pos: pos, before: w.locations(c), out: sink})
}

// freeSink passes every successor on, past the schedule.
type freeSink struct {
	pos uint32
	out state.Sink
}

func (k *freeSink) Succ(t state.Trans, s []byte) { k.out.Succ(t, join(s, k.pos)) }

func (k *freeSink) Fail(t state.Trans, kind, msg string) { k.out.Fail(t, kind, msg) }

func (w *guided) ValidEnd(s []byte) bool {
	c, _ := split(s)
	return w.m.ValidEnd(c)
}

func (w *guided) Explain(t state.Trans, from, to []byte) trace.Step {
	a, _ := split(from)
	b, _ := split(to)
	return w.m.Explain(t, a, b)
}

func (w *guided) Processes(first, last []byte) []trace.Process {
	a, _ := split(first)
	b, _ := split(last)
	return state.Processes(w.m, a, b)
}

func (w *guided) Decode(s []byte) []trace.Var {
	c, _ := split(s)
	return w.m.Decode(c)
}

func (w *guided) Fork() state.Model {
	return &guided{m: w.m.Fork(), g: w.g, procs: w.procs}
}
