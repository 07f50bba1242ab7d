package ta

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"ftmc/state"
	"ftmc/trace"
)

// Instance is the counter system of a threshold automaton for fixed
// parameter values: a state holds one counter per location (how many
// processes are there) and the shared variables. A rule moves one process.
// It implements state.Model (and state.Checker when a bad condition is set).
type Instance struct {
	f      *File
	params []int64
	nloc   int
	nsh    int
	bound  int64
	opts   InstanceOptions
	// scratch
	buf []byte
}

// InstanceOptions restrict an instance to the runs a property talks about.
type InstanceOptions struct {
	// Init, when set, keeps only the initial states it accepts (for
	// example the premise of init -> [](!bad)).
	Init Expr
	// Bad, when set, is reported by Check as an invariant violation.
	Bad Expr
	// BadName names the property Bad belongs to.
	BadName string
}

const slotBytes = 2
const maxSlot = 1<<16 - 1

// NewInstance instantiates f with the parameter values vals (every
// parameter must be given), checking the assumptions.
func NewInstance(f *File, vals map[string]int64, opts InstanceOptions) (*Instance, error) {
	if len(f.Unknowns) > 0 {
		return nil, fmt.Errorf("the automaton has unknowns (%s); instances need concrete guards", strings.Join(Names(f.Unknowns), ", "))
	}
	in := &Instance{f: f, nloc: len(f.Locations), nsh: len(f.Shared), opts: opts}
	in.params = make([]int64, len(f.Params))
	var missing []string
	for i, p := range f.Params {
		v, ok := vals[p.Name]
		if !ok && p.Quotient == nil {
			missing = append(missing, p.Name)
			continue
		}
		in.params[i] = v
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing parameter values for %s (give --param %s)", strings.Join(missing, ", "), exampleParams(f))
	}
	var unknown []string
	for k := range vals {
		found := false
		for _, p := range f.Params {
			found = found || p.Name == k
		}
		if !found {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("no parameter named %s (parameters: %s)", strings.Join(unknown, ", "), strings.Join(Names(f.Params), ", "))
	}
	// Parameters are natural numbers (as in the parameterized engine), and
	// an instance's counters hold up to maxSlot: their sum plus one must
	// fit. The sum is checked before it is formed, so that no value wraps
	// around.
	var sum int64
	for i, p := range in.params {
		if p < 0 {
			return nil, fmt.Errorf("parameter %s=%d is negative: parameters are natural numbers", f.Params[i].Name, p)
		}
		if p > maxSlot-1-sum {
			return nil, fmt.Errorf("parameters %s are too large for an explicit instance (their sum must be below %d)", in.ParamString(), maxSlot)
		}
		sum += p
	}
	// A parameter that stands for a division not given is computed from
	// the others (which come first); one given must meet its assumptions.
	for i, p := range f.Params {
		if _, given := vals[p.Name]; given || p.Quotient == nil {
			continue
		}
		num, err := Eval(p.Quotient.Num, in.val(nil))
		if err != nil {
			return nil, fmt.Errorf("parameters %s: %v", in.ParamString(), err)
		}
		q := num / p.Quotient.Den
		if num%p.Quotient.Den < 0 {
			q-- // rounded down
		}
		if q < 0 {
			return nil, fmt.Errorf("parameters %s make %s negative: parameters are natural numbers", in.ParamString(), p.Name)
		}
		in.params[i] = q
	}
	in.bound = sum + 1
	for _, a := range f.Assumptions {
		v, err := Eval(a, in.val(nil))
		if err != nil {
			return nil, fmt.Errorf("parameters %s: %v", in.ParamString(), err)
		}
		if v == 0 {
			return nil, fmt.Errorf("parameters %s violate the assumption %s (%s:%s)", in.ParamString(), a, f.Path, a.Position())
		}
	}
	in.buf = make([]byte, (in.nloc+in.nsh)*slotBytes)
	return in, nil
}

func exampleParams(f *File) string {
	var parts []string
	for _, p := range f.Params {
		if p.Quotient == nil {
			parts = append(parts, p.Name+"=...")
		}
	}
	return strings.Join(parts, ",")
}

// ParamString is N=4,T=1,F=1 in declaration order.
func (in *Instance) ParamString() string {
	var parts []string
	for i, p := range in.f.Params {
		if p.Quotient == nil {
			parts = append(parts, fmt.Sprintf("%s=%d", p.Name, in.params[i]))
		}
	}
	return strings.Join(parts, ",")
}

// Params returns the parameter values by name.
func (in *Instance) Params() map[string]int64 {
	m := map[string]int64{}
	for i, p := range in.f.Params {
		if p.Quotient == nil {
			m[p.Name] = in.params[i]
		}
	}
	return m
}

func (in *Instance) get(s []byte, i int) int64 {
	return int64(binary.LittleEndian.Uint16(s[i*slotBytes:]))
}

func (in *Instance) set(s []byte, i int, v int64) {
	binary.LittleEndian.PutUint16(s[i*slotBytes:], uint16(v))
}

// val returns the valuation of a state (nil: parameters only).
func (in *Instance) val(s []byte) func(Var) int64 {
	return func(v Var) int64 {
		switch v.Kind {
		case Param:
			return in.params[v.Index]
		case Local:
			if s != nil {
				return in.get(s, v.Index)
			}
		case Shared:
			if s != nil {
				return in.get(s, in.nloc+v.Index)
			}
		}
		return 0
	}
}

// Holds evaluates a state condition in s.
func (in *Instance) Holds(e Expr, s []byte) bool {
	v, err := Eval(e, in.val(s))
	return err == nil && v != 0
}

// Value returns the counter of a location or the value of a shared variable.
func (in *Instance) Value(s []byte, v Var) int64 { return in.val(s)(v) }

// Encode builds a state from counters and shared values.
func (in *Instance) Encode(counters, shared []int64) []byte {
	s := make([]byte, (in.nloc+in.nsh)*slotBytes)
	for i, c := range counters {
		in.set(s, i, c)
	}
	for i, x := range shared {
		in.set(s, in.nloc+i, x)
	}
	return s
}

func (in *Instance) Name() string { return in.f.Path }

// Initial enumerates the states that satisfy the inits (and opts.Init).
// Variables the inits leave open range over 0..bound, where bound exceeds
// the sum of the parameters.
func (in *Instance) Initial(emit func(s []byte)) error {
	return in.initial(func(s []byte) bool { emit(s); return true })
}

// initial enumerates the initial states until emit returns false.
func (in *Instance) initial(emit func(s []byte) bool) error {
	n := in.nloc + in.nsh
	assigned := make([]bool, n)
	vals := make([]int64, n)
	slotOf := func(v Var) int {
		if v.Kind == Local {
			return v.Index
		}
		return in.nloc + v.Index
	}
	// The equations of the inits, as l == 0, solve for open variables.
	type equation struct {
		l Lin
		e Expr
	}
	var eqs []equation
	for _, e := range in.f.Inits {
		if b, ok := e.(*Binary); ok && b.Op == "==" {
			l, err1 := Linear(b.X)
			r, err2 := Linear(b.Y)
			if err1 == nil && err2 == nil {
				eqs = append(eqs, equation{l.Add(r.Scale(-1)), e}) // at most 2*MaxCoef
			}
		}
	}
	tooLarge := func(eq equation) error {
		return fmt.Errorf("%s:%s: the value of %s does not fit in a 64-bit integer with %s", in.f.Path, eq.e.Position(), eq.e, in.ParamString())
	}
	valOf := func(v Var) int64 {
		if v.Kind == Param {
			return in.params[v.Index]
		}
		return vals[slotOf(v)]
	}
	conds := append([]Expr(nil), in.f.Inits...)
	if in.opts.Init != nil {
		conds = append(conds, in.opts.Init)
	}
	s := make([]byte, n*slotBytes)
	stop := false
	var rec func(count int) error
	rec = func(count int) error {
		if count == n {
			for i := 0; i < n; i++ {
				in.set(s, i, vals[i])
			}
			for _, c := range conds {
				v, err := Eval(c, in.val(s))
				if err != nil {
					return fmt.Errorf("%s:%v", in.f.Path, err)
				}
				if v == 0 {
					return nil
				}
			}
			stop = !emit(s)
			return nil
		}
		// Solve an equation with one open variable of coefficient +-1:
		// the others' part, rest, is evaluated without wrapping around.
		for _, eq := range eqs {
			open := -1
			var coef int64
			known := Lin{Const: eq.l.Const, Coef: map[Var]int64{}}
			ok := true
			for v, c := range eq.l.Coef {
				if v.Kind == Param || assigned[slotOf(v)] {
					known.Coef[v] = c
					continue
				}
				if open >= 0 {
					ok = false
					break
				}
				open, coef = slotOf(v), c
			}
			if !ok || open < 0 || (coef != 1 && coef != -1) {
				continue
			}
			rest, fits := known.Eval(valOf)
			if !fits {
				return tooLarge(eq)
			}
			// coef*x + rest == 0
			x := rest
			if coef == 1 {
				if x, fits = negInt(rest); !fits {
					return nil // x would be above maxSlot
				}
			}
			if x < 0 || x > maxSlot {
				return nil
			}
			assigned[open], vals[open] = true, x
			err := rec(count + 1)
			assigned[open] = false
			return err
		}
		// Prune: an equation whose variables are all set must hold.
		for _, eq := range eqs {
			all := true
			for v := range eq.l.Coef {
				if v.Kind != Param && !assigned[slotOf(v)] {
					all = false
					break
				}
			}
			if !all {
				continue
			}
			v, fits := eq.l.Eval(valOf)
			if !fits {
				return tooLarge(eq)
			}
			if v != 0 {
				return nil
			}
		}
		for i := 0; i < n; i++ {
			if assigned[i] {
				continue
			}
			assigned[i] = true
			for x := int64(0); x <= in.bound && !stop; x++ {
				vals[i] = x
				if err := rec(count + 1); err != nil {
					return err
				}
			}
			assigned[i] = false
			return nil
		}
		return nil
	}
	return rec(0)
}

// Next fires every enabled rule once (moving one process).
func (in *Instance) Next(s []byte, sink state.Sink) {
	val := in.val(s)
	for ri, r := range in.f.Rules {
		if in.get(s, r.Src) < 1 {
			continue
		}
		g, err := Eval(r.Guard, val)
		t := state.Trans{Proc: -1, ID: int32(ri)}
		if err != nil {
			sink.Fail(t, state.KindRuntime, err.Error())
			continue
		}
		if g == 0 {
			continue
		}
		copy(in.buf, s)
		in.set(in.buf, r.Src, in.get(s, r.Src)-1)
		if c := in.get(in.buf, r.Dst) + 1; c > maxSlot {
			sink.Fail(t, state.KindRuntime, "counter overflow")
			continue
		} else {
			in.set(in.buf, r.Dst, c)
		}
		bad := ""
		for _, u := range r.Updates {
			x, err := Eval(u.Expr, val)
			if err != nil {
				bad = err.Error()
				break
			}
			if x < 0 || x > maxSlot {
				bad = fmt.Sprintf("%s' == %d is out of range 0..%d", u.Var.Name, x, maxSlot)
				break
			}
			in.set(in.buf, in.nloc+u.Var.Index, x)
		}
		if bad != "" {
			sink.Fail(t, state.KindRuntime, bad)
			continue
		}
		sink.Succ(t, in.buf)
	}
}

// ValidEnd: a counter system has no end states to get wrong; a state where
// no rule applies is simply where the run stops.
func (in *Instance) ValidEnd(s []byte) bool { return true }

func (in *Instance) Explain(t state.Trans, from, to []byte) trace.Step {
	r := in.f.Rules[t.ID]
	return in.f.Step(r, 0)
}

// Processes are the automaton's locations (File.Processes), with the
// counts of first.
func (in *Instance) Processes(first, last []byte) []trace.Process {
	counts := make([]int64, in.nloc)
	for i := range counts {
		counts[i] = in.get(first, i)
	}
	return in.f.Processes(counts)
}

func (in *Instance) Decode(s []byte) []trace.Var {
	out := make([]trace.Var, 0, in.nloc+in.nsh)
	for i, l := range in.f.Locations {
		out = append(out, trace.Var{Name: l.Name, Value: strconv.FormatInt(in.get(s, i), 10)})
	}
	for i, v := range in.f.Shared {
		out = append(out, trace.Var{Name: v.Name, Value: strconv.FormatInt(in.get(s, in.nloc+i), 10)})
	}
	return out
}

func (in *Instance) Fork() state.Model {
	c := *in
	c.buf = make([]byte, len(in.buf))
	return &c
}

// Check reports opts.Bad.
func (in *Instance) Check(s []byte) (kind, msg string, bad bool) {
	if in.opts.Bad == nil {
		return "", "", false
	}
	name := in.opts.BadName
	if name == "" {
		name = "bad state"
	}
	v, err := Eval(in.opts.Bad, in.val(s))
	if err != nil {
		return state.KindRuntime, fmt.Sprintf("%s: %s:%v", name, in.f.Path, err), true
	}
	if v == 0 {
		return "", "", false
	}
	return state.KindInvariant, fmt.Sprintf("%s: reached %s", name, in.opts.Bad), true
}

var _ state.Model = (*Instance)(nil)
var _ state.Checker = (*Instance)(nil)

// HasInitial reports whether some initial state satisfies the inits (and
// opts.Init). A property whose premise no initial state meets holds
// vacuously, while explicit engines treat a model without initial states as
// an error.
func (in *Instance) HasInitial() (bool, error) {
	found := false
	err := in.initial(func([]byte) bool { found = true; return false })
	return found, err
}

// NoRun returns why the instance has no run, or "": no configuration
// satisfies the automaton's initial condition with these parameter values
// (opts.Init aside). A verdict on such an instance is unknown with this
// reason, since holds would say nothing.
func (in *Instance) NoRun() (string, error) {
	c := *in
	c.opts.Init = nil
	ok, err := c.HasInitial()
	if err != nil || ok {
		return "", err
	}
	return fmt.Sprintf("the instance %s has no initial state: no configuration satisfies the initial condition, so nothing was checked", in.ParamString()), nil
}
