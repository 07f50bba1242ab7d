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
// has, and checks it: every transition enabled (universal guards over all
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
func (e *engine) run1(hit *node, model map[atom]int64, unsafe bool) (*trace.Counterexample, [][]int64, *system.Concrete, string) {
	n := hit.c.n
	// Process variables get the identifiers 0..n-1 in the order of their
	// values in the witness, which keeps every comparison between them.
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
	rank := make([]int, n)
	for r, k := range order {
		rank[k] = r
	}
	// Solve again with the identifiers pinned, so that values that hold
	// identifiers (id[x] = y) refer to the instance's processes.
	d, err := e.initDNF(n)
	if err != nil {
		return nil, nil, nil, err.Error()
	}
	var pinned map[atom]int64
	for _, conj := range d {
		lits := append(append([]lit(nil), hit.c.lits...), conj...)
		for k := 0; k < n; k++ {
			lits = append(lits, lit{x: procAtom(k), op: opEq, c: int64(rank[k])})
		}
		nc, ok := e.voc.normalize(n, lits)
		if !ok {
			continue
		}
		if st, m := e.solver.check(nc.lits, true); st == sat {
			pinned = m
			break
		}
	}
	why := fmt.Sprintf("the backward search reached an initial state through %d transitions, but the run", hit.depth)
	if pinned == nil {
		return nil, nil, nil, why + " needs process identifiers that are not consecutive; it was not replayed"
	}
	conc, err := system.Compile(e.sys, n)
	if err != nil {
		return nil, nil, nil, why + " could not be replayed: " + err.Error()
	}
	vals := make([]int64, conc.Size)
	for _, v := range e.sys.Vars {
		ps := 1
		if v.Local {
			ps = n
		}
		for k := 0; k < ps; k++ {
			a := globalAtom(v.ID)
			slot := conc.Slot(v, 0)
			if v.Local {
				a = readAtom(v.ID, k)
				slot = conc.Slot(v, rank[k])
			}
			x, ok := pinned[a]
			if !ok {
				dom := e.voc.dom(a)
				x = max(dom.lo, min(0, dom.hi))
			}
			vals[slot] = x
		}
	}
	if !conc.IsInitial(vals) {
		return nil, nil, nil, why + "'s first state is not initial on the instance"
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
		Params: map[string]int64{"processes": int64(n)}, Initial: decode(vals)}
	states := [][]int64{vals}
	holds := func(c *cube, vs []int64) bool {
		get := func(a atom) int64 {
			switch {
			case a.isProc():
				return int64(rank[a.k()])
			case a.local():
				return vs[conc.Slot(e.sys.Vars[a.v()], rank[a.k()])]
			}
			return vs[conc.Slot(e.sys.Vars[a.v()], 0)]
		}
		for _, l := range c.lits {
			x := get(l.x)
			y := int64(0)
			if l.y != 0 {
				y = get(l.y)
			}
			ok := false
			switch l.op {
			case opEq:
				ok = x == y+l.c
			case opNe:
				ok = x != y+l.c
			case opLe:
				ok = x-y <= l.c
			case opGe:
				ok = x >= l.c
			}
			if !ok {
				return false
			}
		}
		return true
	}
	for nd := hit; nd.parent != nil; nd = nd.parent {
		params := make([]int, len(nd.params))
		for i, k := range nd.params {
			params[i] = rank[k]
		}
		desc := conc.Describe(nd.tr, params)
		if !conc.Enabled(nd.tr, params, vals) {
			return nil, nil, nil, fmt.Sprintf("%s does not replay on %d processes: %s is not enabled at step %d (universal guards are over-approximated backwards)", why, n, desc, len(cx.Steps)+1)
		}
		var first, match []int64
		err := conc.Apply(nd.tr, params, vals, func(next []int64) {
			if first == nil {
				first = append([]int64(nil), next...)
			}
			if match == nil && holds(nd.parent.c, next) {
				match = append([]int64(nil), next...)
			}
		})
		if err != nil {
			return nil, nil, nil, why + " could not be replayed: " + err.Error()
		}
		if match == nil {
			match = first
		}
		step := trace.Step{Num: len(cx.Steps) + 1, Pid: -1, Proc: e.sys.Trans[nd.tr].Name, Stmt: desc,
			Line: e.sys.Trans[nd.tr].Pos.Line, Changes: trace.Diff(decode(vals), decode(match))}
		if len(params) > 0 {
			step.Pid = params[0]
		}
		cx.Steps = append(cx.Steps, step)
		vals = match
		states = append(states, vals)
	}
	if !unsafe {
		return nil, states, conc, ""
	}
	i, w := conc.Unsafe(vals)
	if i < 0 {
		return nil, nil, nil, fmt.Sprintf("%s does not end in an unsafe state on %d processes", why, n)
	}
	cx.Final = decode(vals)
	cx.Message = fmt.Sprintf("%s violated on %d processes", e.sys.Property, n)
	q := e.sys.Unsafe[i]
	for j, p := range w {
		cx.Message += fmt.Sprintf(", %s=#%d", q.Vars[j], p)
	}
	return cx, states, conc, ""
}
