package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"ftmc/explore"
	"ftmc/param"
	"ftmc/ta"
	"ftmc/trace"
)

// isTAModel reports whether the command line names a threshold automaton.
func isTAModel(args []string) bool {
	for i, a := range args {
		if a == "--lang=ta" || (a == "--lang" || a == "-lang") && i+1 < len(args) && args[i+1] == "ta" {
			return true
		}
		if !strings.HasPrefix(a, "-") && strings.EqualFold(filepath.Ext(a), ".ta") {
			return true
		}
	}
	return false
}

// checkTA checks the specifications of a threshold automaton on one
// instance (fixed parameters): safety specifications init -> [](!bad) with
// the explicit engine on the counter system, the others with an explicit
// lasso search.
func checkTA(e *env, args []string) int {
	fs := newFlags("check", e.stderr)
	var opts explicitOptions
	opts.register(fs)
	var ps params
	fs.Var(&ps, "param", "parameter values, e.g. N=4,T=1,F=1 (repeatable)")
	fs.String("lang", "ta", "model language: promela (pml) or ta; a model on standard input (-) is Promela unless --lang ta says otherwise")
	pos, code := parseCommand(fs, args, "usage: ftmc check MODEL.ta --param N=4,T=1,F=1 [SPEC ... | all] [--json] [--dfs] [--time D]")
	if code >= 0 {
		return code
	}
	so, err := opts.prepare(pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return 2
	}
	ctx, cancel := timeBound(e.ctx, opts.since, opts.limits.time)
	f, code := loadTA(ctx, e, "ftmc check", pos[0])
	cancel()
	if f == nil {
		return code
	}
	path := f.Path
	vals := map[string]int64(ps)
	probe, err := ta.NewInstance(f, vals, ta.InstanceOptions{})
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %s: %v\n", path, err)
		return 2
	}
	specs := taSpecs(f, pos[1:])
	for _, name := range specs {
		if _, ok := f.SpecByName(name); !ok {
			fmt.Fprintf(e.stderr, "ftmc check: %s has no specification %q\n", path, name)
			return 2
		}
	}
	rep := &trace.Report{Model: path, Params: probe.Params(), Engine: "explicit (counter system)"}
	noRun, err := probe.NoRun()
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return 2
	}
	stopProfile, err := startProfile(opts.profile)
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return 2
	}
	defer stopProfile()
	start := time.Now()
	budget := explore.Budget{Time: so.TimeLimit, Since: so.Since, Memory: so.MemoryLimit, MemoryFrom: so.MemoryLimitFrom}
	if noRun != "" {
		// No initial state: nothing to check, for any property.
		if len(specs) == 0 {
			specs = []string{explore.DefaultProperty}
		}
		for _, name := range specs {
			rep.Verdicts = append(rep.Verdicts, trace.Result{Property: name, Verdict: trace.Unknown, Reason: noRun})
		}
		rep.Stats.Seconds = time.Since(start).Seconds()
		return opts.printReport(e, rep)
	}
	if len(specs) == 0 {
		res, st, err := explore.Run(e.ctx, probe, so)
		if err != nil {
			fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
			return 2
		}
		rep.Verdicts, rep.Stats = append(rep.Verdicts, res), st
	}
	for _, name := range specs {
		spec, ok := f.SpecByName(name)
		if !ok {
			fmt.Fprintf(e.stderr, "ftmc check: %s has no specification %q\n", path, name)
			return 2
		}
		if init, bad, ok := param.SafetyShape(spec.Formula); ok {
			in, err := ta.NewInstance(f, vals, ta.InstanceOptions{Init: init, Bad: bad, BadName: name})
			if err != nil {
				fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
				return 2
			}
			if ok, err := in.HasInitial(); err == nil && !ok {
				rep.Verdicts = append(rep.Verdicts, trace.Result{Property: name, Verdict: trace.Holds})
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s holds vacuously: no initial state satisfies its premise %s", name, init))
				continue
			}
			so.Property = name
			res, st, err := explore.Run(e.ctx, in, so)
			if err != nil {
				fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
				return 2
			}
			if res.Counterexample != nil {
				res.Counterexample.Params = probe.Params()
			}
			rep.Verdicts = append(rep.Verdicts, res)
			rep.Stats.States += st.States
			rep.Stats.Transitions += st.Transitions
			rep.Stats.Complete = st.Complete
			if st.MemoryBytes > rep.Stats.MemoryBytes {
				rep.Stats.MemoryBytes = st.MemoryBytes
			}
			continue
		}
		// The lasso search has what is left of the run's --time and
		// --memory: once they are spent it stops before it starts.
		ctx, stop := budget.Bound(e.ctx)
		r, st := param.Explicit(ctx, f, name, vals, 0)
		stop()
		r.Result.Stats = &trace.Stats{Seconds: st.Seconds, States: st.States, Transitions: st.Transitions, Complete: st.Complete}
		rep.Verdicts = append(rep.Verdicts, r.Result)
		rep.Stats.States += st.States
		rep.Stats.Transitions += st.Transitions
	}
	rep.Stats.Seconds = time.Since(start).Seconds()
	return opts.printReport(e, rep)
}
