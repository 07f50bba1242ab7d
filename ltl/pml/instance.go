package pml

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"ftmc/ltl"
	"ftmc/promela"
	"ftmc/promela/compile"
	"ftmc/state"
	"ftmc/trace"
)

// This file checks the instances of ByMC's parametric models as ByMC reads
// them:
//
//   - the initial states are those where every process has run its
//     initialisation, the statements before its main loop
//     (compile.Model.Initialised), and the properties are evaluated from
//     there;
//   - a counterexample to a property is an infinite run where every
//     process takes infinitely many steps (ByMC's system model: Gmeiner's
//     thesis, section 2.1): a run that ends in a deadlock is not one
//     (ltl.Options.NoStutter), nor is a run where some process stops
//     moving (ltl.Options.Fairness: the processes of ByMC's models can
//     always take a step, so weak fairness says that); the fairness
//     constraints of the model, when assumed, narrow the runs further;
//   - the assumptions are not added to safety properties (SafetyShape),
//     and the ltl blocks named fairness... are not properties
//     (Selection.ByMC).

// InstanceOptions say which instance of a ByMC model to check, and how.
type InstanceOptions struct {
	// Defines are the model's macros, as -D gives them.
	Defines map[string]string
	// Params are the values of the model's parameters.
	Params map[string]int64
	// Spec is the ltl block to check.
	Spec string
	// Assume names the ltl blocks assumed for Spec (ByMC's fairness and
	// fairness2; FairnessNames lists them).
	Assume []string
	// Search bounds the search: TimeLimit, MemoryLimit, Since, MaxDepth,
	// Progress. Property, Fairness and NoStutter are set by the check.
	Search ltl.Options
	// Guide, when set, restricts the search to the runs that follow its
	// schedule: a violation is one of the instance, but holds only means
	// that the schedule leads to none.
	Guide *Guide
}

// Instance compiles the instance of a ByMC model for the parameter values
// params, with ByMC's initial states. prog is instantiated in place
// (promela.Instantiate): it may be instantiated again, but not while
// another instance of it is being made. The warnings say which of the
// model's assume(...) the values violate.
func Instance(prog *promela.Program, params map[string]int64) (*compile.Model, []promela.Warning, error) {
	if !prog.ByMC() {
		return nil, nil, fmt.Errorf("%s declares no symbolic parameter: it is not a ByMC model", prog.Filename)
	}
	w, err := promela.Instantiate(prog, params)
	if err != nil {
		return nil, nil, err
	}
	m, err := compile.Compile(prog)
	if err != nil {
		return nil, nil, err
	}
	m, err = m.Initialised()
	if err != nil {
		return nil, nil, err
	}
	return m, w, nil
}

// CheckInstance checks one property of one instance of the ByMC model in
// the file path, as ByMC reads it (see above). The error is for bad input
// (the model, the parameters, the property's name); a search cut short by
// ctx or a limit says unknown with the reason.
func CheckInstance(ctx context.Context, path string, opts InstanceOptions) (trace.Result, trace.Stats, error) {
	prog, err := promela.Load(path, promela.Options{Defines: opts.Defines, Context: ctx})
	if err != nil {
		return trace.Result{}, trace.Stats{}, err
	}
	return CheckProgram(ctx, prog, opts)
}

// CheckProgram is CheckInstance for a model already read (with
// opts.Defines; they are not read again). prog is instantiated in place
// (see Instance).
func CheckProgram(ctx context.Context, prog *promela.Program, opts InstanceOptions) (trace.Result, trace.Stats, error) {
	m, _, err := Instance(prog, opts.Params)
	if err != nil {
		return trace.Result{}, trace.Stats{}, err
	}
	if opts.Spec == "" {
		return trace.Result{}, trace.Stats{}, fmt.Errorf("%s: no property named", prog.Filename)
	}
	props, err := Properties(prog, m, Selection{Name: opts.Spec, Assume: opts.Assume, ByMC: true})
	if err != nil {
		return trace.Result{}, trace.Stats{}, err
	}
	so := opts.Search
	so.Failures = true
	var r trace.Result
	var st trace.Stats
	if g := opts.Guide; g != nil {
		if len(prog.Procs) != 1 {
			return trace.Result{}, trace.Stats{}, fmt.Errorf("%s: a guided replay needs one proctype", prog.Filename)
		}
		w := newGuided(m, g, prog.Procs[0].ProcName())
		p := props[0]
		atoms := make([]ltl.Predicate, len(p.Atoms))
		for i, a := range p.Atoms {
			atoms[i] = func(s []byte) bool { c, _ := split(s); return a(c) }
		}
		p.Atoms = atoms
		r, st, err = checkProperty(ctx, m, w, p, so)
		if err == nil && w.err != nil {
			err = w.err
		}
		if err == nil && !g.Free && r.Verdict == trace.Violated && r.Counterexample != nil && r.Counterexample.LoopStart >= 0 {
			r = trace.Result{Property: r.Property, Verdict: trace.Unknown, Reason: "the guided runs violate it only with a loop"}
		}
	} else {
		r, st, err = CheckProperty(ctx, m, props[0], so)
	}
	if err != nil {
		return trace.Result{}, trace.Stats{}, err
	}
	if r.Counterexample != nil {
		r.Counterexample.Params = opts.Params
	}
	return r, st, nil
}

// CheckProperty checks the property p of the compiled model m with
// ltl.Check and words its counterexample: which property the run
// violates, and, for a model made by compile.Model.Initialised, that the
// run starts after the initialisation. For a ByMC instance only the
// infinite runs where every process moves infinitely often count
// (opts.NoStutter and opts.Fairness are set). A model that merges
// statements (compile.Model.SetMerge) merges them in this search only
// where the property allows it (Property.Merge) and without weak
// fairness; the stats say whether it did.
func CheckProperty(ctx context.Context, m *compile.Model, p Property, opts ltl.Options) (trace.Result, trace.Stats, error) {
	return checkProperty(ctx, m, m, p, opts)
}

// checkProperty is CheckProperty searching sm, a model whose states are
// m's (a guided one, whose atoms p evaluates).
func checkProperty(ctx context.Context, m *compile.Model, sm state.Model, p Property, opts ltl.Options) (trace.Result, trace.Stats, error) {
	opts.Property = p.Name
	init := m.Initialisation()
	if m.ByMC() {
		// ByMC's system model: a run is infinite, and every process
		// takes infinitely many steps (its processes can always step,
		// so weak fairness says just that).
		opts.NoStutter, opts.Fairness = true, true
	}
	if opts.Fault == nil {
		opts.Fault = m.PredicateFault
	}
	if sm == state.Model(m) && p.exprs != nil && opts.ForkAtoms == nil {
		// The workers of a parallel search read atoms of their own.
		opts.ForkAtoms = func(fm state.Model) ([]ltl.Predicate, func() string, error) {
			cm, ok := fm.(*compile.Model)
			if !ok {
				return nil, nil, fmt.Errorf("%s: not a compiled model", fm.Name())
			}
			preds, err := predicates(cm, p.Automaton.Atoms, p.exprs)
			return preds, cm.PredicateFault, err
		}
	}
	// Statement merging, when the caller turned it on, only where the
	// property cannot see it (Property.Merge), and not under weak
	// fairness: nothing here shows that the fair runs of the merged model
	// are those of the full one.
	merging := m.Merging()
	defer m.SetMerge(merging)
	merged := m.SetMerge(merging && p.Merge && !opts.Fairness)
	r, st, err := ltl.Check(ctx, sm, p.Automaton, p.Atoms, opts)
	st.Merging = merged
	if err != nil {
		return r, st, fmt.Errorf("%s: %v", p.Name, err)
	}
	if c := r.Counterexample; c != nil && r.Kind == state.KindAcceptCycle {
		what := p.Source()
		if c.LoopStart < 0 {
			// A bad prefix: fairness plays no part.
			c.Message = fmt.Sprintf("every run that begins with these steps violates %s", what)
		} else {
			c.Message = fmt.Sprintf("%s violates %s", map[bool]string{true: "this weakly fair run", false: "this run"}[opts.Fairness], what)
		}
		if init != "" {
			c.Message += "; it starts where " + init + ", as in ByMC"
		}
	}
	return r, st, nil
}

// Source names the property for messages: its ltl block with the block's
// place in the model, or Text for a never claim or a property without a
// place.
func (p Property) Source() string {
	if !p.Pos.IsValid() || strings.HasPrefix(p.Text, "never claim") {
		return p.Text
	}
	return fmt.Sprintf("ltl %s (%s:%d): %s", p.Name, filepath.Base(p.Pos.Filename()), p.Pos.Line, p.Text)
}
