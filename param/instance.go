package param

import (
	"context"
	"fmt"
	"time"

	"ftmc/explore"
	"ftmc/ta"
	"ftmc/trace"
)

// InstanceReport is what CheckInstance finds: a verdict per specification,
// the figures of all its searches, and notes (a specification that holds
// vacuously).
type InstanceReport struct {
	Verdicts []trace.Result
	Stats    trace.Stats
	Warnings []string
}

// CheckInstance checks the specifications specs of f on the instance with
// the parameter values vals (ftmc check MODEL.ta --param): a safety
// specification init -> [](!bad) as an invariant of the counter system,
// whose premise no initial state meeting makes it hold vacuously; the
// others by Explicit's search for a run of their negation. Without
// specifications it checks the counter system for run-time errors (the
// property explore.DefaultProperty). An instance without a run has every
// verdict unknown. opts bounds every search (its time counted from Since,
// so that they share it); ctx ends them too, with verdict unknown. An
// error is bad input: a specification f does not have, parameter values
// the instance refuses.
func CheckInstance(ctx context.Context, f *ta.File, vals map[string]int64, specs []string, opts explore.Options) (*InstanceReport, error) {
	start := time.Now()
	rep := &InstanceReport{Stats: trace.Stats{Complete: true}}
	probe, err := ta.NewInstance(f, vals, ta.InstanceOptions{})
	if err != nil {
		return nil, err
	}
	for _, name := range specs {
		if _, ok := f.SpecByName(name); !ok {
			return nil, fmt.Errorf("%s has no specification %q", f.Path, name)
		}
	}
	noRun, err := probe.NoRun()
	if err != nil {
		return nil, err
	}
	add := func(r trace.Result, st trace.Stats) {
		s := st
		r.Stats = &s
		rep.Verdicts = append(rep.Verdicts, r)
		rep.Stats.Add(st)
	}
	switch {
	case noRun != "":
		// No initial state: nothing to check, for any property.
		if len(specs) == 0 {
			specs = []string{explore.DefaultProperty}
		}
		for _, name := range specs {
			rep.Verdicts = append(rep.Verdicts, trace.Result{Property: name, Verdict: trace.Unknown, Reason: noRun})
		}
		rep.Stats.Complete = false
		specs = nil
	case len(specs) == 0:
		so := opts
		so.Property = ""
		r, st, err := explore.Run(ctx, probe, so)
		if err != nil {
			return nil, err
		}
		add(r, st)
	}
	for _, name := range specs {
		spec, _ := f.SpecByName(name)
		if init, bad, ok := SafetyShape(spec.Formula); ok {
			in, err := ta.NewInstance(f, vals, ta.InstanceOptions{Init: init, Bad: bad, BadName: name})
			if err != nil {
				return nil, err
			}
			if ok, err := in.HasInitial(); err == nil && !ok {
				rep.Verdicts = append(rep.Verdicts, trace.Result{Property: name, Verdict: trace.Holds})
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s holds vacuously: no initial state satisfies its premise %s", name, init))
				continue
			}
			so := opts
			so.Property = name
			r, st, err := explore.Run(ctx, in, so)
			if err != nil {
				return nil, err
			}
			if r.Counterexample != nil {
				r.Counterexample.Params = probe.Params()
			}
			add(r, st)
			continue
		}
		r, st := Explicit(ctx, f, name, vals, opts)
		add(r.Result, st)
	}
	rep.Stats.Seconds = time.Since(start).Seconds()
	return rep, nil
}
