package backreach

import (
	"fmt"
	"sort"

	"ftmc/mcmt/system"
	"ftmc/state"
	"ftmc/trace"
)

// replay turns a backward path from a cube that meets the initial states
// into a forward run on an instance with as many processes as the cube
// has (see run1 for when it needs more), and checks it: every transition enabled (universal guards over all
// processes included) and the last state unsafe. It returns nil and the
// reason when the path does not replay — an artefact of the approximation
// of universal guards or of nondeterministic assignments.
func (e *engine) replay(hit *node, model map[atom]int64) (*trace.Counterexample, string) {
	cx, _, _, why := e.run1(hit, model, true)
	return cx, why
}

// reachedStates replays the path from hit to its root and returns the
// states of the run (all reachable) on an instance of conc's size, or nil
// when the path does not replay.
func (e *engine) reachedStates(hit *node, model map[atom]int64) ([][]int64, *system.Concrete) {
	_, states, conc, why := e.run1(hit, model, false)
	if why != "" {
		return nil, nil
	}
	return states, conc
}

// run1 replays the path from hit to its root; unsafe demands that the run
// end in an unsafe state.
//
// The instance has the cube's processes and, when a value of the process
// sort (a global T : proc, an array of processes) must name a process the
// cube does not have, as many more as such values: the cube's T <> #1 on
// one process means that T names another one. The instance sizes are
// tried from the smallest; a path that does not replay on any of them is
// reported with the reason of the attempt that got furthest.
func (e *engine) run1(hit *node, model map[atom]int64, unsafe bool) (*trace.Counterexample, [][]int64, *system.Concrete, string) {
	n := hit.c.n
	why := fmt.Sprintf("the backward search reached an initial state through %d transitions, but the run", hit.depth)
	// Values of the process sort: the globals, and the arrays' entries of
	// every process of the instance.
	var procGlobals, procArrays []int
	for _, v := range e.sys.Vars {
		if v.Sort.Kind == system.Proc {
			if v.Local {
				procArrays = append(procArrays, v.ID)
			} else {
				procGlobals = append(procGlobals, v.ID)
			}
		}
	}
	largest := min(max(1, n+len(procGlobals)+n*len(procArrays)), maxReplayProcs)
	best, bestStage := "", -1
	for size := max(1, n); size <= largest; size++ {
		// On the cube's own processes, the identifiers first follow the
		// order of the witness's values; then any order will do.
		for _, ordered := range []bool{true, false} {
			if ordered && (size != n || n == 0) {
				continue
			}
			cx, states, conc, stage, reason := e.runOn(hit, model, size, ordered, procGlobals, procArrays, unsafe, why)
			if reason == "" {
				return cx, states, conc, ""
			}
			if stage > bestStage {
				best, bestStage = reason, stage
			}
		}
	}
	return nil, nil, nil, best
}

// maxReplayProcs bounds the instance a backward path is replayed on.
const maxReplayProcs = maxProcs + 4

// Stages of a replay, to tell which failed attempt got furthest.
const (
	stageSolve = iota
	stageInit
	stageSteps
)

// runOn replays the path from hit on an instance with size processes, the
// cube's processes 0..hit.c.n-1 and size-n others. With ordered, the
// identifiers of the cube's processes keep the order of their values in
// the witness; otherwise the solver picks them. On failure it returns the
// stage it reached and the reason.
func (e *engine) runOn(hit *node, model map[atom]int64, size int, ordered bool, procGlobals, procArrays []int, unsafe bool, why string) (*trace.Counterexample, [][]int64, *system.Concrete, int, string) {
	n := hit.c.n
	// Solve again with the identifiers pinned to the instance's processes
	// 0..size-1, and with every value of the process sort naming one of
	// them, so that the witness is a state of the instance.
	var pins []lit
	if ordered {
		// Process variables get the identifiers 0..n-1 in the order of
		// their values in the witness, which keeps every comparison
		// between them.
		order := make([]int, n)
		for k := range order {
			order[k] = k
		}
		val := func(k int) int64 {
			if v, ok := model[procAtom(k)]; ok {
				return v
			}
			return inf
		}
		sort.SliceStable(order, func(a, b int) bool { return val(order[a]) < val(order[b]) })
		for r, k := range order {
			pins = append(pins, lit{x: procAtom(k), op: opEq, c: int64(r)})
		}
	} else {
		for k := 0; k < size; k++ {
			pins = append(pins, lit{x: procAtom(k), op: opLe, c: int64(size - 1)})
		}
	}
	for _, v := range procGlobals {
		pins = append(pins, lit{x: globalAtom(v), op: opLe, c: int64(size - 1)})
	}
	for _, v := range procArrays {
		for k := 0; k < size; k++ {
			pins = append(pins, lit{x: readAtom(v, k), op: opLe, c: int64(size - 1)})
		}
	}
	d, err := e.initDNF(size)
	if err != nil {
		return nil, nil, nil, stageSolve, err.Error()
	}
	var pinned map[atom]int64
	for _, conj := range d {
		lits := append(append(append([]lit(nil), hit.c.lits...), conj...), pins...)
		nc, ok := e.voc.normalize(size, lits)
		if !ok {
			continue
		}
		if st, m := e.solver.check(nc.lits, true); st == sat {
			pinned = m
			break
		}
	}
	if pinned == nil {
		if size > n {
			return nil, nil, nil, stageSolve, fmt.Sprintf("%s has no initial state on %d processes", why, size)
		}
		return nil, nil, nil, stageSolve, why + " needs process identifiers that are not consecutive; it was not replayed"
	}
	// id maps the processes of the cube, then the others, to the
	// instance's.
	id := make([]int, size)
	for k := range id {
		id[k] = k
		if x, ok := pinned[procAtom(k)]; ok {
			id[k] = int(x)
		}
	}
	if n < size {
		// The others take the identifiers the cube's processes left, in
		// order, unless the solver placed them.
		taken := make([]bool, size)
		placed := make([]bool, size)
		for k := range id {
			if _, ok := pinned[procAtom(k)]; ok {
				taken[id[k]], placed[k] = true, true
			}
		}
		next := 0
		for k := range id {
			if placed[k] {
				continue
			}
			for taken[next] {
				next++
			}
			id[k], taken[next] = next, true
		}
	}
	conc, err := system.Compile(e.sys, size)
	if err != nil {
		return nil, nil, nil, stageSolve, why + " could not be replayed: " + err.Error()
	}
	vals := make([]int64, conc.Size)
	for _, v := range e.sys.Vars {
		ps := 1
		if v.Local {
			ps = size
		}
		for k := 0; k < ps; k++ {
			a := globalAtom(v.ID)
			slot := conc.Slot(v, 0)
			if v.Local {
				a = readAtom(v.ID, k)
				slot = conc.Slot(v, id[k])
			}
			x, ok := pinned[a]
			if !ok {
				dom := e.voc.dom(a)
				x = max(dom.lo, min(0, dom.hi))
			}
			vals[slot] = x
		}
	}
	// Every value of the process sort names a process of the instance.
	for _, v := range e.sys.Vars {
		if v.Sort.Kind != system.Proc {
			continue
		}
		ps := 1
		if v.Local {
			ps = size
		}
		for k := 0; k < ps; k++ {
			if x := vals[conc.Slot(v, k)]; x < 0 || x >= int64(size) {
				return nil, nil, nil, stageInit, fmt.Sprintf("%s's first state gives %s the value %d, not a process of the instance with %d", why, v.Name, x, size)
			}
		}
	}
	if !conc.IsInitial(vals) {
		return nil, nil, nil, stageInit, why + "'s first state is not initial on the instance"
	}
	names := conc.Names()
	decode := func(vs []int64) []trace.Var {
		out := make([]trace.Var, len(vs))
		for i, x := range vs {
			out[i] = trace.Var{Name: names[i], Value: conc.Format(i, x)}
		}
		return out
	}
	cx := &trace.Counterexample{Kind: state.KindInvariant, LoopStart: -1,
		Params: map[string]int64{"processes": int64(size)}, Initial: decode(vals), Processes: conc.Processes()}
	states := [][]int64{vals}
	for nd := hit; nd.parent != nil; nd = nd.parent {
		params := make([]int, len(nd.params))
		for i, k := range nd.params {
			params[i] = id[k]
		}
		desc := conc.Describe(nd.tr, params)
		if !conc.Enabled(nd.tr, params, vals) {
			return nil, nil, nil, stageSteps, fmt.Sprintf("%s does not replay on %d processes: %s is not enabled at step %d (universal guards are over-approximated backwards)", why, size, desc, len(cx.Steps)+1)
		}
		var first, match []int64
		err := conc.Apply(nd.tr, params, vals, func(next []int64) {
			if first == nil {
				first = append([]int64(nil), next...)
			}
			if match == nil && e.holdsIn(nd.parent.c.lits, conc, next, id) {
				match = append([]int64(nil), next...)
			}
		})
		if err != nil {
			return nil, nil, nil, stageSteps, why + " could not be replayed: " + err.Error()
		}
		if match == nil {
			match = first
		}
		step := conc.Step(nd.tr, params)
		step.Num, step.Changes = len(cx.Steps)+1, trace.Diff(decode(vals), decode(match))
		cx.Steps = append(cx.Steps, step)
		vals = match
		states = append(states, vals)
	}
	if !unsafe {
		return nil, states, conc, stageSteps, ""
	}
	i, w := conc.Unsafe(vals)
	if i < 0 {
		return nil, nil, nil, stageSteps, fmt.Sprintf("%s does not end in an unsafe state on %d processes", why, size)
	}
	cx.Final = decode(vals)
	cx.Message = fmt.Sprintf("%s violated on %d processes", e.sys.Property, size)
	q := e.sys.Unsafe[i]
	for j, p := range w {
		cx.Message += fmt.Sprintf(", %s=#%d", q.Vars[j], p)
	}
	return cx, states, conc, stageSteps, ""
}
