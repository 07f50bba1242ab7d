package main

import (
	"errors"
	"flag"
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
	fs.String("lang", "ta", "model language")
	pos, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprintln(e.stderr, "usage: ftmc check MODEL.ta --param N=4,T=1,F=1 [SPEC ... | all] [--json] [--dfs] [--time D]")
		return 2
	}
	so, err := opts.searchOptions()
	if err == nil {
		err = opts.checkOutputs(pos[0])
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return 2
	}
	// The budget bounds the whole run: the reading and every
	// specification, each of which has what is left.
	ctx, stop := opts.bound(e.ctx)
	defer stop()
	path := pos[0]
	f, err := ta.ParseFileContext(ctx, path)
	if stoppedReading(e, "ftmc check", err) {
		return trace.ExitUnknown
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return 2
	}
	vals := map[string]int64(ps)
	probe, err := ta.NewInstance(f, vals, ta.InstanceOptions{})
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %s: %v\n", path, err)
		return 2
	}
	specs := pos[1:]
	if len(specs) == 0 || len(specs) == 1 && specs[0] == "all" {
		specs = nil
		for _, s := range f.Specs {
			specs = append(specs, s.Name)
		}
	}
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
	// Each search's verdict has its statistics; the run's add them up
	// (addStats), complete only when every search is.
	searches := 0
	add := func(r trace.Result, st trace.Stats) {
		s := st
		r.Stats = &s
		rep.Verdicts = append(rep.Verdicts, r)
		addStats(&rep.Stats, st, searches == 0)
		searches++
	}
	if len(specs) == 0 {
		res, st, err := explore.Run(ctx, probe, so)
		if err != nil {
			fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
			return 2
		}
		add(res, st)
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
			res, st, err := explore.Run(ctx, in, so)
			if err != nil {
				fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
				return 2
			}
			if res.Counterexample != nil {
				res.Counterexample.Params = probe.Params()
			}
			add(res, st)
			continue
		}
		// The lasso search has what is left of the run's budget: once it
		// is spent it stops before it starts.
		r, st := param.Explicit(ctx, f, name, vals, 0)
		add(r.Result, st)
	}
	rep.Stats.Seconds = time.Since(start).Seconds()
	return opts.printReport(e, rep)
}
