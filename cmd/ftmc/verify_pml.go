package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"ftmc/pia"
	piaverify "ftmc/pia/verify"
	"ftmc/promela"
	"ftmc/smt"
	"ftmc/trace"
)

// byMCOptions collects ByMC's -O name=value options; piaDom.thresholds is
// the one ftmc reads, the others (schema.incremental, ...) tune ByMC's
// own engine and are accepted without effect.
type byMCOptions []string

func (o *byMCOptions) String() string { return strings.Join(*o, " ") }

func (o *byMCOptions) Set(s string) error {
	if !strings.Contains(s, "=") {
		return fmt.Errorf("expected NAME=VALUE, as ByMC's -O piaDom.thresholds=0,F,N-T")
	}
	*o = append(*o, s)
	return nil
}

// verifyPML verifies a ByMC Parametric Promela model for all parameter
// values: the PIA data abstraction extracts a threshold automaton (one per
// order of the thresholds), the schema engine checks it, and every
// violation is replayed on a concrete instance before it is reported.
func verifyPML(e *env, args []string) int {
	flags, fs := newSchemaFlags(e, "promela")
	lim, sf, jsonOut, quiet := &flags.lim, &flags.sf, &flags.json, &flags.quiet
	var defs defines
	fs.Var(&defs, "D", "define a macro for the preprocessor: `NAME[=VALUE]` (repeatable; also -DNAME=VALUE)")
	thresholds := fs.String("thresholds", "", "the thresholds of the interval abstraction, replacing those found in the model: `LIST` of expressions over the parameters, e.g. 0,F,MAJ,N-T (ByMC's -O piaDom.thresholds)")
	var bopts byMCOptions
	fs.Var(&bopts, "O", "ByMC's option `NAME=VALUE`: piaDom.thresholds=LIST is --thresholds; others are accepted and ignored")
	emit := fs.String("emit-ta", "", "write the extracted threshold automaton to `FILE` in ByMC's .ta syntax (one file per order of the thresholds: FILE, FILE.2, ...)")
	pos, solver, code := flags.parse(e, fs, args, "usage: ftmc verify MODEL.pml [SPEC ... | all] [-D NAME=VALUE]... [--thresholds LIST] [--emit-ta FILE] [--json] [-j N] [--time D] [--solver z3|cvc5]")
	if code >= 0 {
		return code
	}
	for _, o := range bopts {
		if v, ok := strings.CutPrefix(o, "piaDom.thresholds="); ok {
			*thresholds = strings.Trim(v, "'\"")
		}
	}
	begin := time.Now()
	// --time and --memory (by default check's limit: a replay on an
	// instance can take all of the machine's memory) bound the whole run.
	ctx, cancel := lim.budget(fs, begin).Bound(e.ctx)
	defer cancel()
	path, src, err := readPromela(ctx, e, pos[0])
	model := piaverify.Model{Name: path, Src: src, Defines: defs.Map()}
	var prog *promela.Program
	if err == nil {
		prog, err = promela.Parse(path, src, promela.Options{Defines: model.Defines, Context: ctx})
	}
	if stoppedReading(e, "ftmc verify", err) {
		return trace.ExitUnknown
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%v\n", err)
		return 2
	}
	if err := smt.LookupAll(solver); err != nil {
		fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
		return 2
	}
	start := time.Now()
	text := !*jsonOut && !*quiet
	var specs []string // all of them
	if len(pos) > 1 && !(len(pos) == 2 && pos[1] == "all") {
		specs = pos[1:]
	}
	vopts := piaverify.Options{Solver: solver, Jobs: lim.jobs, Budget: lim.budget(fs, begin), Engine: flags.engine}
	if *thresholds != "" {
		vopts.Thresholds = strings.Split(*thresholds, ",")
	}
	vopts.Abstracted = func(res *pia.Result) error {
		if err := emitTA(*emit, res); err != nil {
			return err
		}
		if text {
			c := res.Cases[0]
			fmt.Fprintf(e.stdout, "ftmc verify %s: thresholds %s (from %s); %d case(s) of their order; %d locations, %d rules", path, strings.Join(res.Thresholds, ", "), res.ThresholdsFrom, len(res.Cases), c.Locations, c.Rules)
			if len(c.Justice) > 0 {
				fmt.Fprintf(e.stdout, "; assumed: %s", strings.Join(c.Justice, ", "))
			}
			fmt.Fprintln(e.stdout)
		}
		return nil
	}
	if text {
		vopts.Note = func(s string) { fmt.Fprintln(e.stdout, s) }
		vopts.Verdict = func(r trace.Result) { printPMLVerdict(e, r) }
	}
	res, err := piaverify.Verify(ctx, prog, model, specs, vopts)
	var pe *pia.Error
	var ae *piaverify.AbstractionError
	switch {
	case errors.As(err, &pe):
		fmt.Fprintf(e.stderr, "%v\n", err)
		return 2
	case errors.As(err, &ae):
		fmt.Fprintf(e.stderr, "ftmc verify: %s: %v\n", path, err)
		return trace.ExitUnknown
	case err != nil: // a specification the model lacks, a file --emit-ta cannot write
		fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
		return 2
	}
	rep := &trace.Report{Model: path, Defines: defs.Map(), Engine: "PIA data abstraction to threshold automata, schema (SMT, " + sf.describe() + ")"}
	if flags.engine == "cegar" {
		rep.Engine = "PIA data abstraction, counter abstraction with refinement (SMT, " + sf.describe() + ")"
	}
	if flags.engine == "" {
		var refined []string // the specifications the counter abstraction with refinement checked, by default
		for _, r := range res.Verdicts {
			if r.Stats != nil && slices.ContainsFunc(r.Stats.Extra, func(x trace.Figure) bool { return x.Name == "refinements" }) {
				refined = append(refined, r.Property)
			}
		}
		if len(refined) > 0 {
			rep.Engine += "; counter abstraction with refinement for " + strings.Join(refined, ", ")
		}
	}
	rep.Verdicts = res.Verdicts
	return flags.finishReport(e, rep, start, res.Figures())
}

// emitTA writes the automaton of each order of the thresholds of res to
// name, name.2, ... (nothing when name is empty).
func emitTA(name string, res *pia.Result) error {
	if name == "" {
		return nil
	}
	for i, c := range res.Cases {
		file := name
		if i > 0 {
			file = fmt.Sprintf("%s.%d", name, i+1)
		}
		if err := os.WriteFile(file, c.Text, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// printPMLVerdict prints the verdict of one specification.
func printPMLVerdict(e *env, r trace.Result) {
	if st := r.Stats; st != nil {
		for _, x := range st.Extra {
			if x.Name == "refinements" {
				fmt.Fprintf(e.stdout, "%s: counter abstraction: %d abstract states, %d transitions, %.0f refinements (%.2fs)\n", r.Property, st.States, st.Transitions, x.Value, st.Seconds)
			}
		}
	}
	switch r.Verdict {
	case trace.Holds:
		fmt.Fprintf(e.stdout, "> Spec %s holds\n", r.Property)
	case trace.Violated:
		fmt.Fprintf(e.stdout, "> counterexample for %s found and replayed on the instance %s\n", r.Property, paramText(r.Counterexample.Params))
		trace.WriteCounterexample(e.stdout, r.Counterexample)
	default:
		fmt.Fprintf(e.stdout, "> Spec %s unknown: %s\n", r.Property, r.Reason)
	}
}

// paramText writes parameter values as --param takes them: N=4,T=1.
func paramText(p map[string]int64) string { return trace.FormatParams(p, ",") }
