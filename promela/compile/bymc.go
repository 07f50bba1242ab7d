package compile

import (
	"fmt"
	"sort"
	"strings"

	"ftmc/promela"
	"ftmc/state"
)

// This file holds ByMC's reading of the start of a parametric model. ByMC
// splits the body of a process into its declarations, its initialisation
// (the statements before the first label, usually `end:` in front of the
// main loop) and its main loop; the initial states of the system are
// those where every process has run its initialisation, and its
// properties are evaluated from there. Initialised gives a model with
// these initial states.

// mainLoop returns the element of the first top-level statement of d's body
// that has a label or is a do loop (ByMC writes the main loop either as
// `lab: atomic { ... }; goto lab` or as `do :: atomic { ... } od`), or nil.
func mainLoop(f *flow, d *promela.ProcDecl) *element {
	if d.Kind != promela.KindProctype || d.Body == nil {
		return nil
	}
	for _, s := range d.Body.Stmts {
		switch s := s.(type) {
		case *promela.LabeledStmt:
			return f.labels[s.Label.Name]
		case *promela.DoStmt:
			for _, e := range f.elems {
				if e != nil && e.kind == eDo && e.stmt == s {
					return e
				}
			}
			return nil
		}
	}
	return nil
}

// initStates marks the states of pt's initialisation: those reachable from
// its start without passing the head of its main loop. It returns nil when
// the process has no initialisation.
func initStates(pt *procType) []bool {
	if pt.head <= 0 || pt.head == pt.start || pt.head >= pt.nstates {
		return nil
	}
	in := make([]bool, pt.nstates)
	in[pt.start] = true
	stack := []int{pt.start}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range pt.trans[s] {
			if t.to > 0 && t.to < pt.nstates && t.to != pt.head && !in[t.to] {
				in[t.to] = true
				stack = append(stack, t.to)
			}
		}
	}
	return in
}

// initialising reports whether a process of type pt at pc is still in its
// initialisation.
func (pt *procType) initialising(pc int) bool {
	return pc >= 0 && pc < len(pt.inInit) && pt.inInit[pc]
}

// procAt returns the offset and type of process pid in the state s (without
// the hidden prefix), or -1 and nil.
func (p *program) procAt(s []byte, pid int) (int, *procType) {
	off, k := p.segStart-p.hidden, 0
	for off < len(s) {
		st := p.segAt(s, off)
		if st.proc != nil {
			if k == pid {
				return off, st.proc
			}
			k++
		}
		off += st.size
	}
	return -1, nil
}

// MaxInitialStates bounds the states Initialised visits.
const MaxInitialStates = 1 << 20

// initSink keeps the successors reached by a step of process pid.
type initSink struct {
	pid  int32
	succ [][]byte
	fail string
}

func (k *initSink) Succ(t state.Trans, s []byte) {
	if t.Proc == k.pid {
		k.succ = append(k.succ, append([]byte(nil), s...))
	}
}

func (k *initSink) Fail(t state.Trans, kind, msg string) {
	if t.Proc == k.pid && k.fail == "" {
		k.fail = kind + ": " + msg
	}
}

// Initialised returns a model that shares md's program and whose initial
// states are ByMC's: the states where every process that has an
// initialisation (the statements before its main loop) has run it to the
// end, for every combination of its nondeterministic choices. The
// processes run their initialisations one after another, in the order of
// their pids (ByMC's initialisations set the process's own variables, so
// the order does not matter). A choice whose initialisation blocks gives
// no initial state; a failing statement (an assertion) in an
// initialisation is an error, as is an initialisation that visits more
// than MaxInitialStates states. A model none of whose processes has an
// initialisation is returned as it is.
func (md *Model) Initialised() (*Model, error) {
	p := md.p
	nproc := 0
	var sections []string
	seenType := map[*procType]bool{}
	for off := p.segStart - p.hidden; off < len(p.initial); {
		st := p.segAt(p.initial, off)
		if pt := st.proc; pt != nil {
			nproc++
			if pt.inInit != nil && !seenType[pt] {
				seenType[pt] = true
				sections = append(sections, fmt.Sprintf("%s before line %d", pt.name, pt.elems[pt.head].pos.Line))
			}
		}
		off += st.size
	}
	if len(sections) == 0 {
		return md, nil
	}
	work := newModel(p)
	sink := &initSink{}
	frontier := [][]byte{p.initial}
	seen := map[string]bool{}
	for pid := 0; pid < nproc; pid++ {
		var done [][]byte
		queue := frontier
		clear(seen)
		for len(queue) > 0 {
			s := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			off, pt := p.procAt(s, pid)
			if pt == nil || !pt.initialising(p.code(s, off)-pt.base) {
				done = append(done, s)
				continue
			}
			sink.pid, sink.succ, sink.fail = int32(pid), sink.succ[:0], ""
			work.Next(s, sink)
			if sink.fail != "" {
				return nil, fmt.Errorf("%s: the initialisation of %s(%d) fails: %s", p.prog.Filename, pt.name, pid, sink.fail)
			}
			for _, x := range sink.succ {
				if k := string(x); !seen[k] {
					seen[k] = true
					if len(seen) > MaxInitialStates {
						return nil, fmt.Errorf("%s: the initialisation of %s(%d) visits more than %d states", p.prog.Filename, pt.name, pid, MaxInitialStates)
					}
					queue = append(queue, x)
				}
			}
		}
		if len(done) == 0 {
			_, pt := p.procAt(frontier[0], pid)
			return nil, fmt.Errorf("%s: no initial state: the initialisation of %s(%d) blocks", p.prog.Filename, pt.name, pid)
		}
		frontier = done
	}
	// A stable order of the initial states: the order of the search that
	// found them does not matter, and sorted vectors make the searches
	// that start from them reproducible.
	sort.Slice(frontier, func(i, j int) bool { return string(frontier[i]) < string(frontier[j]) })
	out := newModel(p)
	out.inits = frontier
	out.initNote = "every process has run its initialisation (the statements of " + strings.Join(sections, ", ") + ")"
	return out, nil
}

// ByMC reports whether the model is a ByMC model's instance (its program
// declares symbolic parameters): its checks follow ByMC's semantics
// (package ltl/pml).
func (md *Model) ByMC() bool { return md.p.prog.ByMC() }

// Initialisation says how the initial states of a model made by
// Initialised were computed, or "" for a model with Promela's initial
// state.
func (md *Model) Initialisation() string { return md.initNote }

// InitialStates returns the number of initial states.
func (md *Model) InitialStates() int {
	if md.inits != nil {
		return len(md.inits)
	}
	return 1
}
