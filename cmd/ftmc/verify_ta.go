package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"ftmc/explore"
	"ftmc/param"
	"ftmc/smt"
	"ftmc/ta"
	"ftmc/trace"
)

// verifyTA verifies the specifications of a threshold automaton for all
// parameter values that satisfy its assumptions (the schema engine).
func verifyTA(e *env, args []string) int {
	flags, fs := newSchemaFlags(e, "ta")
	lim, sf, jsonOut, quiet := &flags.lim, &flags.sf, &flags.json, &flags.quiet
	pos, solver, code := flags.parse(e, fs, args, "usage: ftmc verify MODEL.ta [SPEC ... | all] [--json] [-j N] [--time D] [--solver z3|cvc5] [--solver-timeout D] [--cross-check z3|cvc5|none]")
	if code >= 0 {
		return code
	}
	// --time and --memory (by default check's limit) bound the whole run,
	// the reading too (a FIFO that no process writes).
	ctx, cancel := lim.budget(fs, time.Now()).Bound(e.ctx)
	defer cancel()
	// The solver starts while the automaton is read.
	param.Prestart(ctx, solver)
	f, code := loadTA(ctx, e, "ftmc verify", pos[0])
	if f == nil {
		return code
	}
	path := f.Path
	if len(f.Unknowns) == 0 {
		if err := param.Supported(f); err != nil {
			fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
			return 2
		}
	}
	specs := taSpecs(f, pos[1:])
	if len(specs) == 0 {
		fmt.Fprintf(e.stderr, "ftmc verify: %s has no specifications\n", path)
		return 2
	}
	for _, s := range specs {
		if _, ok := f.SpecByName(s); !ok {
			var names []string
			for _, sp := range f.Specs {
				names = append(names, sp.Name)
			}
			fmt.Fprintf(e.stderr, "ftmc verify: %s has no specification %q (it has: %s)\n", path, s, strings.Join(names, ", "))
			return 2
		}
	}
	// Every specification needs the solvers: a missing one is one error,
	// not one unknown verdict per specification.
	if err := smt.LookupAll(solver); err != nil {
		fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
		return 2
	}
	opts := param.Options{Solver: solver, Jobs: lim.jobs, Engine: flags.engine}
	if e.terminal && !*quiet {
		opts.Progress = func(p param.Progress) {
			fmt.Fprintf(e.stderr, "\r%s: %d schemas, %d prefixes (%d pruned), %.0fs   ", p.Spec, p.Schemas, p.Nodes, p.Pruned, p.Elapsed.Seconds())
		}
	}
	start := time.Now()
	if len(f.Unknowns) > 0 {
		return synthesizeTA(ctx, e, f, specs, flags, opts, start)
	}
	rep := &trace.Report{Model: path, Engine: "schema (SMT, " + sf.describe() + ")"}
	resets := param.HasResets(f)
	switch {
	case flags.engine == "cegar":
		rep.Engine = "counter abstraction with refinement (SMT, " + sf.describe() + ")"
	case resets:
		rep.Engine = "counter abstraction (SMT, " + sf.describe() + ")"
	}
	if !*jsonOut && !*quiet {
		fmt.Fprintf(e.stdout, "ftmc verify %s: %d locations, %d rules, parameters %s\n", path, len(f.Locations), len(f.Rules), strings.Join(ta.Names(f.Params), ", "))
	}
	var schemas, nodes, queries int64
	var solverSeconds float64
	var refined []string // the specifications the counter abstraction with refinement checked, by default
	for _, s := range specs {
		r := param.Verify(ctx, f, s, opts)
		if r.CEGAR != nil && flags.engine == "" {
			refined = append(refined, s)
		}
		if opts.Progress != nil {
			fmt.Fprint(e.stderr, "\r\033[K")
		}
		schemas += r.Schemas
		nodes += r.Nodes
		queries += r.Queries
		solverSeconds += r.SolverSeconds
		r.Result.Stats = &trace.Stats{Seconds: r.Seconds, Complete: r.Verdict != trace.Unknown, Extra: []trace.Figure{
			{Name: "schemas", Value: float64(r.Schemas)},
			{Name: "min_length", Value: float64(r.MinLen)},
			{Name: "max_length", Value: float64(r.MaxLen)},
			{Name: "prefixes", Value: float64(r.Nodes)},
			{Name: "pruned", Value: float64(r.Pruned)},
			{Name: "atoms", Value: float64(r.Atoms)},
			{Name: "unordered_atoms", Value: float64(r.Unordered)},
			{Name: "smt_queries", Value: float64(r.Queries)},
			{Name: "single_query", Value: float64(r.Single)},
			{Name: "solver_seconds", Value: r.SolverSeconds},
		}}
		if a := r.Abstract; a != nil {
			r.Result.Stats.States, r.Result.Stats.Transitions, r.Result.Stats.MemoryBytes = a.States, a.Transitions, a.MemoryBytes
		}
		if c := r.CEGAR; c != nil {
			r.Result.Stats.Extra = append(r.Result.Stats.Extra,
				trace.Figure{Name: "refinements", Value: float64(c.Refinements)},
				trace.Figure{Name: "counter_values", Value: float64(c.CounterValues)},
				trace.Figure{Name: "inductive_bounds", Value: float64(c.Invariants)})
		}
		rep.Verdicts = append(rep.Verdicts, r.Result)
		if *jsonOut || *quiet {
			continue
		}
		if c := r.CEGAR; c != nil {
			fmt.Fprintf(e.stdout, "%s: counter abstraction: %d abstract states, %d transitions, %d refinements (counters over %d intervals of %s; %d thresholds over the shared variables, %d bounds proved by induction, %d SMT queries, %.2fs)\n",
				s, r.Abstract.States, r.Abstract.Transitions, c.Refinements, c.CounterValues, strings.Join(c.Thresholds, ", "), r.Abstract.Predicates, c.Invariants, r.Queries, r.Seconds)
		} else if a := r.Abstract; a != nil {
			fmt.Fprintf(e.stdout, "%s: counter abstraction: %d abstract states, %d transitions (%d thresholds, %d SMT queries, %.2fs of solver time, %.2fs)\n",
				s, a.States, a.Transitions, a.Predicates, r.Queries, r.SolverSeconds, r.Seconds)
		} else if !resets {
			thr := fmt.Sprintf("%d thresholds", r.Atoms)
			if r.Unordered > 0 {
				thr = fmt.Sprintf("%d thresholds ordered, %d evaluated where their rules fire", r.Atoms, r.Unordered)
			}
			fmt.Fprintf(e.stdout, "%s: nschemas = %d, min length = %d, max length = %d (%s, %d prefixes checked, %d pruned, %d SMT queries, %.2fs of solver time, %.2fs)\n",
				s, r.Schemas, r.MinLen, r.MaxLen, thr, r.Nodes, r.Pruned, r.Queries, r.SolverSeconds, r.Seconds)
		}
		if r.Single > 0 {
			fmt.Fprintf(e.stdout, "%s: %d of %d disjuncts refuted by one query over all milestone orders (%d SMT queries in all)\n", s, r.Single, r.Cases, r.Queries)
		}
		if r.Forbidden != "" {
			fmt.Fprintf(e.stdout, "%s: %s\n", s, r.Forbidden)
		}
		if r.Dead != "" {
			fmt.Fprintf(e.stdout, "%s: %s\n", s, r.Dead)
		}
		if r.Sliced != "" {
			fmt.Fprintf(e.stdout, "%s: %s\n", s, r.Sliced)
		}
		if r.Contracted != "" {
			fmt.Fprintf(e.stdout, "%s: %s\n", s, r.Contracted)
		}
		switch r.Verdict {
		case trace.Holds:
			fmt.Fprintf(e.stdout, "> Spec %s holds\n", s)
		case trace.Violated:
			fmt.Fprintf(e.stdout, "> counterexample for %s found\n", s)
			trace.WriteCounterexample(e.stdout, r.Counterexample)
		default:
			fmt.Fprintf(e.stdout, "> Spec %s unknown: %s\n", s, r.Reason)
		}
	}
	if len(refined) > 0 {
		rep.Engine += "; counter abstraction with refinement for " + strings.Join(refined, ", ")
	}
	return flags.finishReport(e, rep, start, []trace.Figure{
		{Name: "schemas", Value: float64(schemas)},
		{Name: "prefixes", Value: float64(nodes)},
		{Name: "smt_queries", Value: float64(queries)},
		{Name: "solver_seconds", Value: solverSeconds},
	})
}

// schemaFlags are the flags of the commands that run the schema engine:
// verify MODEL.ta and verify MODEL.pml.
type schemaFlags struct {
	lim         limits
	sf          solverFlags
	json, quiet bool
	files       reportFiles // --trail, --msc, --msc-text
	engine      string      // --engine: schema or cegar
}

// newSchemaFlags returns the flags of verify for a model in lang, and
// the flag set they are registered in, which the caller can add to.
func newSchemaFlags(e *env, lang string) (*schemaFlags, *flag.FlagSet) {
	f, fs := &schemaFlags{}, newFlags("verify", e.stderr)
	f.register(fs, lang)
	return f, fs
}

// parse parses args with fs (parseCommand, usage when the model is
// missing) and checks the flags' values for the model (options). It
// returns the positional arguments and the solver's options, or the exit
// code (-1: go on); errors are said.
func (f *schemaFlags) parse(e *env, fs *flag.FlagSet, args []string, usage string) ([]string, smt.Options, int) {
	pos, code := parseCommand(fs, args, usage)
	if code >= 0 {
		return nil, smt.Options{}, code
	}
	solver, err := f.options(pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
		return nil, smt.Options{}, trace.ExitUsage
	}
	return pos, solver, -1
}

func (f *schemaFlags) register(fs *flag.FlagSet, lang string) {
	f.lim.register(fs)
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
	f.sf.register(fs, 0, "bound on each SMT query (0: none); a query that times out makes the verdict unknown")
	fs.String("lang", lang, "model language ("+lang+")")
	fs.BoolVar(&f.quiet, "q", false, "print only the verdict lines")
	fs.StringVar(&f.engine, "engine", "", "`ENGINE`: schema (reachability and lasso schemas) or cegar (counter abstraction with refinement, the thesis's method); default: schema, and cegar where the schemas cannot check an automaton (a shared variable that decreases, a liveness specification of an automaton whose rules form cycles)")
	f.files.register(fs)
}

// options checks the solver flags and -j, and that the files the flags
// name can be written for the model (reportFiles.checkOutputs).
func (f *schemaFlags) options(model string) (smt.Options, error) {
	solver, err := f.sf.options()
	if err == nil && (f.lim.jobs < 1 || f.lim.jobs > param.MaxJobs) {
		err = fmt.Errorf("-j %d: expected 1 to %d workers (each runs a solver)", f.lim.jobs, param.MaxJobs)
	}
	if err == nil && f.engine != "" && f.engine != "schema" && f.engine != "cegar" {
		err = fmt.Errorf("--engine %s: expected schema or cegar", f.engine)
	}
	if err == nil {
		err = f.files.checkOutputs(model)
	}
	return solver, err
}

// finishReport completes the report of a schema-engine run with its
// statistics, saves, prints (JSON, or the verdict lines) and draws it
// (reportFiles.finish) and returns the exit code.
func (f *schemaFlags) finishReport(e *env, rep *trace.Report, start time.Time, extra []trace.Figure) int {
	// memory_bytes is this process's; the solver processes are not
	// counted. The sampler does not stop the world as ReadMemStats does.
	var ms explore.MemorySampler
	rep.Stats = trace.Stats{Seconds: time.Since(start).Seconds(), MemoryBytes: ms.RuntimeBytes(), Complete: trace.ExitCode(rep.Verdicts) != trace.ExitUnknown, Extra: extra}
	return f.files.finish(e, "ftmc verify", rep, f.json, func() int {
		if f.json {
			if err := writeJSON(e.stdout, rep); err != nil {
				fmt.Fprintln(e.stderr, "ftmc verify:", err)
				return 2
			}
		} else {
			writeVerdicts(e.stdout, rep.Verdicts)
		}
		return trace.ExitCode(rep.Verdicts)
	})
}

// solverFlags are the SMT solver's flags of ftmc verify, for threshold
// automata and array-based systems alike.
type solverFlags struct {
	name, path       string
	timeout          time.Duration
	cross, crossPath string
}

func (s *solverFlags) register(fs *flag.FlagSet, timeout time.Duration, timeoutUsage string) {
	fs.StringVar(&s.name, "solver", "z3", "SMT solver: z3 or cvc5")
	fs.StringVar(&s.path, "solver-path", "", "the solver's binary, `FILE` (default: --solver's name on PATH)")
	durationVar(fs, &s.timeout, "solver-timeout", timeout, timeoutUsage+"; it bounds every other wait on the solver too")
	fs.StringVar(&s.cross, "cross-check", os.Getenv("FTMC_CROSS_CHECK"), "a second SMT solver, z3 or cvc5, that must confirm every unsat answer a verdict holds rests on; when it disagrees the verdict is unknown and names both (none: off; default: $FTMC_CROSS_CHECK, else off)")
	fs.StringVar(&s.crossPath, "cross-check-path", "", "the --cross-check solver's binary, `FILE` (default: its name on PATH)")
}

// options checks the flags' values.
func (s *solverFlags) options() (smt.Options, error) {
	if s.name != "z3" && s.name != "cvc5" {
		return smt.Options{}, fmt.Errorf("--solver %s: expected z3 or cvc5", s.name)
	}
	if s.timeout < 0 {
		return smt.Options{}, fmt.Errorf("--solver-timeout must not be negative")
	}
	opts := smt.Options{Name: s.name, Path: s.path, Timeout: s.timeout}
	switch s.cross {
	case "z3", "cvc5":
		opts.CrossCheck = &smt.Options{Name: s.cross, Path: s.crossPath, Timeout: s.timeout}
	case "", "none":
		if s.crossPath != "" {
			return smt.Options{}, fmt.Errorf("--cross-check-path needs --cross-check z3 or cvc5")
		}
	default:
		return smt.Options{}, fmt.Errorf("--cross-check %s: expected z3, cvc5 or none", s.cross)
	}
	return opts, nil
}

// describe names the solvers for the report's engine.
func (s *solverFlags) describe() string {
	if s.cross == "" || s.cross == "none" {
		return s.name
	}
	return s.name + ", unsat confirmed by " + s.cross
}
