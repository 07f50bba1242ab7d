package main

import (
	"context"
	"errors"
	"fmt"

	"ftmc/internal/readfile"
	"ftmc/promela"
	"ftmc/promela/compile"
	"ftmc/trace"
)

// pmlCheck is a parsed `ftmc check MODEL.pml` command line.
type pmlCheck struct {
	opts    explicitOptions
	defines defines
	params  params
	path    string   // as given: "-" is standard input
	name    string   // the model's name in errors and the report (stdinName for "-")
	src     []byte   // the model's text, read once
	ltl     ltlFlags // LTL properties: ltl.go
}

// parsePMLCheck reads the flags of ftmc check for a Promela model.
func parsePMLCheck(e *env, args []string) (*pmlCheck, int) {
	c := &pmlCheck{}
	fs := newFlags("check", e.stderr)
	c.opts.register(fs)
	fs.Var(&c.defines, "D", "define a macro for the preprocessor: `NAME[=VALUE]` (repeatable; also -DNAME=VALUE)")
	fs.Var(&c.params, "param", "values of the parameters of a parametric (ByMC) model: `N=4,T=1,F=1`")
	lang := fs.String("lang", "promela", "model language: promela (pml) or ta; a model on standard input (-) is Promela unless --lang ta says otherwise")
	c.ltl.register(fs)
	pos, code := parseCommand(fs, args, "")
	if code >= 0 {
		return nil, code
	}
	if len(pos) != 1 {
		fmt.Fprintln(e.stderr, "usage: ftmc check MODEL.pml [-D NAME=VALUE]... [--param N=4,T=1,F=1] [--bfs|--dfs] [--time D] [--memory SIZE] [--json] [--trail FILE]")
		return nil, trace.ExitUsage
	}
	if *lang != "promela" && *lang != "pml" {
		fmt.Fprintf(e.stderr, "ftmc check: --lang %s: expected promela, pml or ta\n", *lang)
		return nil, trace.ExitUsage
	}
	if f := c.opts.lossyFlag(); f != "" && c.ltl.given() {
		fmt.Fprintf(e.stderr, "ftmc check: %s is for safety searches: the LTL searches need every state stored (drop %s to check LTL properties)\n", f, f)
		return nil, trace.ExitUsage
	}
	c.path = pos[0]
	if err := c.opts.checkOutputs(c.path); err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return nil, trace.ExitUsage
	}
	return c, -1
}

// load reads, instantiates and compiles the model. Errors are printed;
// the returned code is then the exit code. The run's context (its budget,
// an interrupt) bounds the reading too: a reading it stops ends with
// verdict unknown (exit 3). The searches have what is left.
func (c *pmlCheck) load(e *env) (*promela.Program, *compile.Model, int) {
	popts := promela.Options{Defines: c.defines.Map()}
	if len(c.params) > 0 {
		popts.Params = map[string]int64(c.params)
	}
	popts.Context = e.ctx
	var err error
	c.name, c.src, err = readPromela(e.ctx, e, c.path)
	var prog *promela.Program
	if err == nil {
		prog, err = promela.Parse(c.name, c.src, popts)
	}
	if readingStopped(e, err) {
		return nil, nil, trace.ExitUnknown
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%v\n", err)
		return nil, nil, trace.ExitUsage
	}
	if err := prog.RequireConcrete(); err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return nil, nil, trace.ExitUsage
	}
	m, err := compile.Compile(prog)
	if err == nil && prog.ByMC() {
		// A ByMC model starts where its processes have run their
		// initialisations, as ByMC reads it.
		m, err = m.Initialised()
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%v\n", err)
		return nil, nil, trace.ExitUsage
	}
	return prog, m, -1
}

// readPromela reads a Promela model, path or "-" (readInput), with
// promela.Load's errors.
func readPromela(ctx context.Context, e *env, path string) (string, []byte, error) {
	name, src, err := readInput(ctx, e, path, readfile.ModelLimit, "model file")
	var tl *readfile.TooLargeError
	var se *readfile.StoppedError
	if err != nil && !errors.As(err, &tl) && !errors.As(err, &se) {
		err = fmt.Errorf("cannot read model: %w", err)
	}
	return name, src, err
}

// readingStopped reports whether the reading of the model failed because
// the run's context is done (a limit, an interrupt), and then says so:
// while reading which file (stoppedReading), or where in the model the
// reading stopped.
func readingStopped(e *env, err error) bool {
	ctx := e.ctx
	if err == nil || ctx.Err() == nil {
		return false
	}
	if stoppedReading(e, "ftmc check", err) {
		return true
	}
	at := ""
	var pe *promela.Error
	if errors.As(err, &pe) {
		at = " (stopped at " + pe.Pos.String() + ")"
	}
	fmt.Fprintf(e.stderr, "ftmc check: unknown: %s while reading the model%s\n", context.Cause(ctx), at)
	return true
}

// stoppedReading reports whether err is (or holds) a reading of a file
// that the run's context stopped (a FIFO that no process writes), and then
// says so for command cmd: unknown, while reading which file, and for an
// included file, at which #include.
func stoppedReading(e *env, cmd string, err error) bool {
	var se *readfile.StoppedError
	if !errors.As(err, &se) {
		return false
	}
	what := se.Name
	var list *promela.ErrorList
	if errors.As(err, &list) {
		for _, pe := range list.List {
			if errors.As(pe.Err, &se) {
				what = se.Name + " (#include at " + pe.Pos.String() + ")"
				break
			}
		}
	}
	fmt.Fprintf(e.stderr, "%s: unknown: %v while reading %s\n", cmd, se.Cause, what)
	return true
}

// report starts the report of a run: the model, its defines and parameters,
// and the front end's warnings.
func (c *pmlCheck) report(prog *promela.Program) *trace.Report {
	rep := &trace.Report{Model: c.name, Defines: c.defines.Map()}
	if len(c.params) > 0 {
		rep.Params = map[string]int64(c.params)
	}
	for _, w := range prog.Warnings {
		rep.Warnings = append(rep.Warnings, warningText(w))
	}
	return rep
}

// checkPromela explores all states of a Promela model (one instance, for
// parametric models) and reports assertion violations, run-time errors
// and invalid end states.
func checkPromela(e *env, args []string) int {
	c, code := parsePMLCheck(e, args)
	if c == nil {
		return code
	}
	ctx, stop := c.opts.bound(e.ctx)
	defer stop()
	e = e.within(ctx)
	prog, m, code := c.load(e)
	if m == nil {
		return code
	}
	if c.wantsLTL(prog, m) {
		if f := c.opts.lossyFlag(); f != "" {
			fmt.Fprintf(e.stderr, "ftmc check: %s: %s is for safety searches, and the model has LTL properties or a never claim, whose search needs every state stored (drop %s, or check a copy of the model without them)\n", c.name, f, f)
			return trace.ExitUsage
		}
		return checkLTL(e, c, prog, m)
	}
	// The safety search merges statements (checkLTL merges in the LTL
	// searches that allow it).
	m.SetMerge(!c.opts.noMerge)
	return runExplicit(e, m, c.opts, c.report(prog))
}

// warningText is a front-end warning for a report (whose renderer says
// "warning:" itself).
func warningText(w promela.Warning) string {
	if w.Pos.IsValid() {
		return w.Pos.String() + ": " + w.Msg
	}
	return w.Msg
}
