package param

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"ftmc/smt"
	"ftmc/state"
	"ftmc/ta"
	"ftmc/trace"
)

// maxReplay bounds the single rule firings of a replayed counterexample.
const maxReplay = 2_000_000

// maxShrink bounds the extra queries spent on smaller parameters.
const maxShrink = 12

// counterexample reads the solver's model (found under the assumption lit,
// if any; with loop, the run is a lasso) into a schedule, replays it rule by
// rule on the instance with the same parameters and checks the negated
// specification on the resulting run before reporting it. It first looks
// for the smallest sum of parameters that has a counterexample on the same
// schema, since small instances are easier to read and to check.
func (w *worker) counterexample(ctx context.Context, lit string, loop bool) error {
	p := w.s.p
	m := p.m
	var assume []string
	if lit != "" {
		assume = []string{lit}
	}
	if err := w.shrinkParams(ctx, assume); err != nil {
		return err
	}
	loopLit := ""
	if loop {
		loopLit = lit
	}
	var names []string
	for i := range m.f.Params {
		names = append(names, paramName(i))
	}
	t0 := stateNames("t0")
	for l := 0; l < m.nloc; l++ {
		names = append(names, t0.k(l))
	}
	for v := 0; v < m.nsh; v++ {
		names = append(names, t0.x(v))
	}
	for _, fr := range w.frames {
		for _, f := range fr.deltas {
			names = append(names, f.name)
		}
		for _, f := range fr.accs {
			names = append(names, f.name)
		}
	}
	vals, err := w.solver.Values(ctx, names...)
	if err != nil {
		return err
	}
	val := map[string]int64{}
	for i, n := range names {
		x, ok := vals[i].Int64()
		if !ok {
			return fmt.Errorf("solver gave a non-integer value for %s", n)
		}
		val[n] = x
	}
	sched := schedule{}
	for _, fr := range w.frames {
		for _, group := range [][]flow{fr.deltas, fr.accs} {
			for _, f := range group {
				if n := val[f.name]; n > 0 {
					sched = append(sched, firing{rule: f.rule, times: n})
				}
			}
		}
	}
	cex, why, err := p.runCex(val, sched, loopLit != "")
	if err != nil {
		return err
	}
	if cex == nil {
		w.s.noteUnknown(why)
		return nil
	}
	w.s.report(cex)
	return nil
}

// runCex replays the schedule from the initial configuration and the
// parameters in val (SMT names) on the instance, and checks the negated
// specification on the run (a lasso with loop). It returns the
// counterexample, or nil and why the run is none.
func (p *problem) runCex(val map[string]int64, sched schedule, loop bool) (*trace.Counterexample, string, error) {
	m := p.m
	t0 := stateNames("t0")
	params := map[string]int64{}
	pv := make([]int64, len(m.f.Params))
	for i, d := range m.f.Params {
		pv[i] = val[paramName(i)]
		if d.Quotient == nil { // a quotient follows from the others
			params[d.Name] = pv[i]
		}
	}
	k := make([]int64, m.nloc)
	x := make([]int64, m.nsh)
	for l := range k {
		k[l] = val[t0.k(l)]
	}
	for v := range x {
		x[v] = val[t0.x(v)]
	}
	cex := &trace.Counterexample{Params: params, LoopStart: -1}
	cex.Initial = decodeVars(m.f, k, x)
	cex.Processes = m.f.Processes(k)
	states, err := replay(m, pv, k, x, sched)
	if err != nil {
		return nil, "a schema's counterexample did not replay on its instance: " + err.Error(), nil
	}
	loopAt := -1
	if loop {
		// End with a self-loop rule enabled in the last configuration
		// (firing it changes nothing, so the replayed states stay).
		last := states[len(states)-1]
		for _, i := range p.stutters {
			r := m.rules[i]
			if last.k[r.src] >= 1 && holds(r.r.Guard, pv, last.k, last.x) {
				loopAt = len(sched)
				sched = append(sched, firing{rule: i, times: 1})
				break
			}
		}
		if loopAt < 0 {
			return nil, "", fmt.Errorf("internal error: the lasso's loop has no enabled self-loop rule")
		}
	}
	if !evalLasso(p.lc.form, m, pv, states, loop) {
		return nil, "a schema's counterexample does not violate the property when replayed step by step (the formula is outside the exactly decided fragment)", nil
	}
	ck, cx := append([]int64(nil), k...), append([]int64(nil), x...)
	for i, f := range sched {
		r := m.rules[f.rule]
		before := decodeVars(m.f, ck, cx)
		ck, cx = schedule{f}.apply(m, ck, cx)
		step := m.f.Step(r.r, f.times)
		step.Num = i + 1
		step.Changes = trace.Diff(before, decodeVars(m.f, ck, cx))
		if i == loopAt {
			cex.LoopStart = i
			step.Note = "loop: repeats forever"
		}
		cex.Steps = append(cex.Steps, step)
	}
	cex.Final = decodeVars(m.f, ck, cx)
	if loop {
		cex.Kind = state.KindAcceptCycle
		cex.Message = "lasso: the run ends in a configuration it never leaves"
	} else {
		cex.Kind = state.KindInvariant
		cex.Message = "a configuration that violates the property is reachable"
	}
	return cex, "", nil
}

type firing struct {
	rule  int
	times int64
}

type schedule []firing

func (s schedule) apply(m *model, k, x []int64) ([]int64, []int64) {
	k = append([]int64(nil), k...)
	x = append([]int64(nil), x...)
	for _, f := range s {
		r := m.rules[f.rule]
		k[r.src] -= f.times
		k[r.dst] += f.times
		for v, c := range r.inc {
			x[v] += c * f.times
		}
	}
	return k, x
}

func decodeVars(f *ta.File, k, x []int64) []trace.Var {
	var out []trace.Var
	for l, loc := range f.Locations {
		out = append(out, trace.Var{Name: loc.Name, Value: strconv.FormatInt(k[l], 10)})
	}
	for v, d := range f.Shared {
		out = append(out, trace.Var{Name: d.Name, Value: strconv.FormatInt(x[v], 10)})
	}
	return out
}

func valuation(pv, k, x []int64) func(ta.Var) int64 {
	return func(v ta.Var) int64 {
		switch v.Kind {
		case ta.Param:
			return pv[v.Index]
		case ta.Local:
			return k[v.Index]
		case ta.Shared:
			return x[v.Index]
		}
		return 0
	}
}

func holds(e ta.Expr, pv, k, x []int64) bool {
	v, err := ta.Eval(e, valuation(pv, k, x))
	return err == nil && v != 0
}

// check is holds for replay: a condition whose value does not fit in an
// int64 is an error of its own, not a false condition.
func check(m *model, e ta.Expr, pv, k, x []int64) (bool, error) {
	v, err := ta.Eval(e, valuation(pv, k, x))
	if err != nil {
		return false, fmt.Errorf("%s:%v", m.f.Path, err)
	}
	return v != 0, nil
}

type config struct{ k, x []int64 }

func because(err error) string {
	if err != nil {
		return " (" + err.Error() + ")"
	}
	return ""
}

// replay fires the schedule one process at a time, checking the
// assumptions, the initial conditions, and every guard and counter. The
// solver's values may be as large as an int64 holds: no sum wraps around.
func replay(m *model, pv, k, x []int64, sched schedule) ([]config, error) {
	for _, a := range m.f.Assumptions {
		if ok, err := check(m, a, pv, k, x); !ok || err != nil {
			return nil, fmt.Errorf("the parameters violate the assumption %s%s", a, because(err))
		}
	}
	for _, e := range m.f.Inits {
		if ok, err := check(m, e, pv, k, x); !ok || err != nil {
			return nil, fmt.Errorf("the initial configuration violates %s%s", e, because(err))
		}
	}
	var total int64
	for _, f := range sched {
		if f.times < 0 || f.times > maxReplay-total {
			return nil, fmt.Errorf("the schedule has more than %d steps", maxReplay)
		}
		total += f.times
	}
	k = append([]int64(nil), k...)
	x = append([]int64(nil), x...)
	states := []config{{append([]int64(nil), k...), append([]int64(nil), x...)}}
	for _, f := range sched {
		r := m.rules[f.rule]
		for j := int64(0); j < f.times; j++ {
			if k[r.src] < 1 {
				return nil, fmt.Errorf("rule %s fires with no process in %s", r.r.ID, r.r.From)
			}
			if ok, err := check(m, r.r.Guard, pv, k, x); err != nil {
				return nil, fmt.Errorf("rule %s fires where its guard %s cannot be evaluated: %v", r.r.ID, r.r.Guard, err)
			} else if !ok {
				return nil, fmt.Errorf("rule %s fires while its guard %s is false", r.r.ID, r.r.Guard)
			}
			if k[r.dst] == math.MaxInt64 {
				return nil, fmt.Errorf("rule %s moves a process to %s, whose counter is already %d", r.r.ID, r.r.To, k[r.dst])
			}
			k[r.src]--
			k[r.dst]++
			for v, c := range r.inc {
				if x[v] > math.MaxInt64-c { // c >= 0 (prepare)
					return nil, fmt.Errorf("rule %s increments %s beyond %d", r.r.ID, m.f.Shared[v].Name, int64(math.MaxInt64))
				}
				x[v] += c
			}
			if !r.stutter {
				states = append(states, config{append([]int64(nil), k...), append([]int64(nil), x...)})
			}
		}
	}
	return states, nil
}

// evalLasso evaluates a formula in negation normal form at the start of the
// run states; with loop, the last state repeats forever, else the run is
// finite (and the formula has no G).
func evalLasso(t *tform, m *model, pv []int64, states []config, loop bool) bool {
	n := len(states)
	var ev func(t *tform, i int) bool
	ev = func(t *tform, i int) bool {
		switch t.op {
		case 'p':
			return holds(t.p, pv, states[i].k, states[i].x)
		case '&':
			for _, k := range t.kids {
				if !ev(k, i) {
					return false
				}
			}
			return true
		case '|':
			for _, k := range t.kids {
				if ev(k, i) {
					return true
				}
			}
			return false
		case 'F':
			for j := i; j < n; j++ {
				if ev(t.kids[0], j) {
					return true
				}
			}
			return false
		case 'G':
			if !loop {
				return false
			}
			for j := i; j < n; j++ {
				if !ev(t.kids[0], j) {
					return false
				}
			}
			return true
		}
		return false
	}
	return ev(t, 0)
}

// shrinkParams leaves the solver with a model of the current schema whose
// parameters have a small sum (shrinkSum).
func (w *worker) shrinkParams(ctx context.Context, assume []string) error {
	return shrinkSum(ctx, w.solver, len(w.s.p.m.f.Params), fmt.Sprintf("small%d", len(w.frames)), assume, w.check)
}

// shrinkSum leaves solver, whose last check under assume was sat, with a
// model whose n parameters have a small sum: a binary search on the bound
// of the sum, at most maxShrink queries under assume and a literal named
// after tag; the smallest bound found satisfiable is the last query.
// Small instances are easier to read and to check (a counterexample of
// the Promela front end is replayed by an explicit search of its
// instance, whose size is what costs).
func shrinkSum(ctx context.Context, solver smt.Solver, n int, tag string, assume []string, check func(context.Context, ...string) (smt.Status, error)) error {
	if n == 0 {
		return nil
	}
	names := make([]string, n)
	for i := range names {
		names[i] = paramName(i)
	}
	sum := smt.Sum(names...)
	vals, err := solver.Values(ctx, sum)
	if err != nil {
		return err
	}
	under := func(lit string, bound int64) []string {
		solver.Send(smt.DeclareConst(lit, "Bool"), "(assert (=> "+lit+" (<= "+sum+" "+smt.Int(bound)+")))")
		return append(append([]string(nil), assume...), lit)
	}
	lo := int64(0) // no model with sum < lo
	best, ok := vals[0].Int64()
	if !ok {
		// The sum is beyond an int64 (the solver is free to pick huge
		// values): look for a model whose values fit first.
		best = math.MaxInt64
		st, err := check(ctx, under(tag+"fit", best)...)
		if err != nil || st != smt.Sat {
			if err == nil {
				err = recheck(ctx, solver, assume, check) // the original model
			}
			return err
		}
	}
	for i := 0; i < maxShrink && lo < best; i++ {
		mid := lo + (best-lo)/2
		if best-lo > 1<<16 {
			// Bisect on a logarithmic scale, so that a model with huge
			// values shrinks to small ones within the few queries.
			mid = lo + int64(math.Sqrt(float64(best-lo)))
		}
		st, err := check(ctx, under(fmt.Sprintf("%s_%d", tag, i), mid)...)
		if err != nil {
			return err
		}
		switch st {
		case smt.Sat:
			best = mid
		case smt.Unsat:
			lo = mid + 1
		default:
			i = maxShrink // keep what we have
		}
	}
	// Leave the solver with a model at the best bound found.
	st, err := check(ctx, under(tag+"best", best)...)
	if err != nil {
		return err
	}
	if st != smt.Sat {
		// The solver gave up on a bound it had found satisfiable (its
		// timeout): fall back to the original model.
		return recheck(ctx, solver, assume, check)
	}
	return nil
}

// recheck leaves solver with a model under assume again, as before
// shrinkSum's first query, or says why it cannot: a solver with a timeout
// may give up on a query it answered before, and then it has no model to
// read.
func recheck(ctx context.Context, solver smt.Solver, assume []string, check func(context.Context, ...string) (smt.Status, error)) error {
	st, err := check(ctx, assume...)
	if err != nil {
		return err
	}
	if st != smt.Sat {
		return fmt.Errorf("no model of the counterexample's schema again: %s", solver.Reason())
	}
	return nil
}

// Processes are the lifelines of the product's counterexamples: the
// instance's locations (ta.File.Processes), with the counts of the first
// configuration.
func (p *product) Processes(first, last []byte) []trace.Process {
	a, _ := split(first)
	b, _ := split(last)
	return p.in.Processes(a, b)
}
