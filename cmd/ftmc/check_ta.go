package main

import (
	"fmt"
	"path/filepath"
	"strings"

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
		if !strings.HasPrefix(a, "-") && (strings.EqualFold(filepath.Ext(a), ".ta") || strings.EqualFold(filepath.Ext(a), ".eta")) {
			return true
		}
	}
	return false
}

// checkTA checks the specifications of a threshold automaton on one
// instance (fixed parameters) with param.CheckInstance: safety
// specifications init -> [](!bad) as invariants of the counter system, the
// others by a search for a run of their negation.
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
	// The budget bounds the whole run: the reading and every
	// specification, each of which has what is left.
	ctx, stop := opts.bound(e.ctx)
	defer stop()
	f, code := loadTA(ctx, e, "ftmc check", pos[0])
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
	stopProfile, err := startProfile(opts.profile)
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return 2
	}
	defer stopProfile()
	res, err := param.CheckInstance(ctx, f, vals, specs, so)
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return 2
	}
	rep := &trace.Report{Model: path, Params: probe.Params(), Engine: "explicit (counter system)",
		Verdicts: res.Verdicts, Stats: res.Stats, Warnings: res.Warnings}
	return opts.printReport(e, rep)
}
