package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"ftmc/explore"
	"ftmc/ltl"
	"ftmc/ltl/pml"
	"ftmc/param"
	"ftmc/pia"
	"ftmc/promela"
	"ftmc/smt"
	"ftmc/ta"
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
	model := pmlText{name: path, src: src, defs: defs.Map()}
	var prog *promela.Program
	if err == nil {
		prog, err = promela.Parse(path, src, promela.Options{Defines: model.defs, Context: ctx})
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
	engine := "PIA data abstraction to threshold automata, schema (SMT, " + sf.describe() + ")"
	// The abstraction's unsat answers drop rules and order thresholds, so
	// a holds rests on them too: --cross-check confirms them as well.
	popts := pia.Options{Solver: solver}
	if *thresholds != "" {
		popts.Thresholds = strings.Split(*thresholds, ",")
	}
	res, err := pia.Extract(ctx, prog, popts)
	if err != nil {
		var pe *pia.Error
		if errors.As(err, &pe) {
			fmt.Fprintf(e.stderr, "%v\n", err)
			return 2
		}
		if ctx.Err() != nil {
			// Every specification rests on the abstraction: each is
			// unknown, with why it was not computed.
			specs, ok := pmlSpecs(e, path, pia.Specs(prog), pos[1:])
			if !ok {
				return 2
			}
			rep := &trace.Report{Model: path, Defines: defs.Map(), Engine: engine}
			for _, s := range specs {
				rep.Verdicts = append(rep.Verdicts, trace.Result{Property: s, Verdict: trace.Unknown,
					Reason: explore.StopCause(ctx) + " while the abstraction was computed", Stats: &trace.Stats{Seconds: time.Since(start).Seconds()}})
			}
			return flags.finishReport(e, rep, start, nil)
		}
		// The solver failed (or gave up): no verdict, but the model is
		// not at fault.
		fmt.Fprintf(e.stderr, "ftmc verify: %s: unknown: the abstraction could not be computed: %v\n", path, err)
		return trace.ExitUnknown
	}
	if *emit != "" {
		for i, c := range res.Cases {
			name := *emit
			if i > 0 {
				name = fmt.Sprintf("%s.%d", *emit, i+1)
			}
			if err := os.WriteFile(name, c.Text, 0o644); err != nil {
				fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
				return 2
			}
		}
	}
	specs, ok := pmlSpecs(e, path, res.Specs, pos[1:])
	if !ok {
		return 2
	}
	rep := &trace.Report{Model: path, Defines: defs.Map(), Engine: engine}
	if !*jsonOut && !*quiet {
		c := res.Cases[0]
		fmt.Fprintf(e.stdout, "ftmc verify %s: thresholds %s (from %s); %d case(s) of their order; %d locations, %d rules", path, strings.Join(res.Thresholds, ", "), res.ThresholdsFrom, len(res.Cases), c.Locations, c.Rules)
		if len(c.Justice) > 0 {
			fmt.Fprintf(e.stdout, "; assumed: %s", strings.Join(c.Justice, ", "))
		}
		fmt.Fprintln(e.stdout)
	}
	// PIA over-approximates already and every violation is replayed on the
	// Promela instance, so contraction may over-approximate too.
	opts := param.Options{Solver: solver, Jobs: lim.jobs, Overapprox: true}
	// The thresholds of the model's #pragma (written for ByMC's coarser
	// abstraction) refine the collected ones where those leave a
	// specification undecided.
	var note func(string)
	if !*jsonOut && !*quiet {
		note = func(s string) { fmt.Fprintln(e.stdout, s) }
	}
	var refined *pia.Result
	var refineErr error
	more, morePos, hasMore := pia.ThresholdPragma(prog)
	canRefine := hasMore && *thresholds == ""
	for _, s := range specs {
		specStart := time.Now()
		// Where the #pragma can refine the abstraction, a counterexample
		// that does not replay along its schedule is first tried with the
		// refinement, before its whole instance is searched.
		r, coarse, pending := verifySpecCases(ctx, model, res, s, opts, *lim, begin, canRefine, note)
		if coarse && canRefine && ctx.Err() == nil {
			if refined == nil && refineErr == nil {
				popts.More, popts.MorePos, popts.MoreFrom = more, morePos, "the #pragma at "+morePos.String()
				refined, refineErr = pia.Extract(ctx, prog, popts)
			}
			if refineErr != nil {
				r.Reason += "; the thresholds of the #pragma at " + morePos.String() + " could not refine it: " + refineErr.Error()
			} else if len(refined.Thresholds) > len(res.Thresholds) {
				if !*jsonOut && !*quiet {
					fmt.Fprintf(e.stdout, "> Spec %s unknown with these thresholds (%s); refining with %s: thresholds %s\n", s, r.Reason, refined.ThresholdsFrom, strings.Join(refined.Thresholds, ", "))
				}
				r2, _, _ := verifySpecCases(ctx, model, refined, s, opts, *lim, begin, false, note)
				if r2.Verdict != trace.Unknown {
					r, pending = r2, nil
				} else {
					r.Reason += "; with the thresholds of " + refined.ThresholdsFrom + ": " + r2.Reason
				}
			}
		}
		// Otherwise the deferred counterexamples are checked against
		// their whole instances.
		for _, p := range pending {
			if ctx.Err() != nil {
				break
			}
			if ir, reason, _ := p.replay(ctx, model, s, *lim, begin); ir != nil {
				st := *r.Stats
				st.Seconds, st.Complete = time.Since(specStart).Seconds(), true
				ir.Stats = &st
				r = *ir
				break
			} else {
				r.Reason += "; " + reason
			}
		}
		rep.Verdicts = append(rep.Verdicts, r)
		if *jsonOut || *quiet {
			continue
		}
		switch r.Verdict {
		case trace.Holds:
			fmt.Fprintf(e.stdout, "> Spec %s holds\n", s)
		case trace.Violated:
			fmt.Fprintf(e.stdout, "> counterexample for %s found and replayed on the instance %s\n", s, paramText(r.Counterexample.Params))
			trace.WriteCounterexample(e.stdout, r.Counterexample)
		default:
			fmt.Fprintf(e.stdout, "> Spec %s unknown: %s\n", s, r.Reason)
		}
	}
	return flags.finishReport(e, rep, start, []trace.Figure{
		{Name: "cases", Value: float64(len(res.Cases))},
		{Name: "locations", Value: float64(res.Cases[0].Locations)},
		{Name: "rules", Value: float64(res.Cases[0].Rules)},
		{Name: "abstraction_queries", Value: float64(res.Cases[len(res.Cases)-1].Queries)},
	})
}

// pmlSpecs are the specifications that the command line names (names:
// none or "all" for every one of the model's, all), or, when it names one
// the model does not have, or the model has none, false after the error.
func pmlSpecs(e *env, path string, all, names []string) ([]string, bool) {
	if len(names) == 0 || len(names) == 1 && names[0] == "all" {
		names = all
	}
	for _, s := range names {
		if !slices.Contains(all, s) {
			fmt.Fprintf(e.stderr, "ftmc verify: %s has no specification %q (it has: %s)\n", path, s, strings.Join(all, ", "))
			return nil, false
		}
	}
	if len(names) == 0 {
		fmt.Fprintf(e.stderr, "ftmc verify: %s has no ltl specification (other than fairness)\n", path)
		return nil, false
	}
	return names, true
}

// pmlText is a Promela model as it was read once (from a file or
// standard input): its name, its text and its -D macros.
type pmlText struct {
	name string
	src  []byte
	defs map[string]string
}

// checkInstance checks a property of an instance of the model, as
// pml.CheckInstance does, on the text read once instead of the file read
// again: standard input cannot be read twice. Each check parses the text
// anew, since pml.CheckProgram instantiates the program in place.
func (m pmlText) checkInstance(ctx context.Context, opts pml.InstanceOptions) (trace.Result, trace.Stats, error) {
	prog, err := promela.Parse(m.name, m.src, promela.Options{Defines: m.defs, Context: ctx})
	if err != nil {
		return trace.Result{}, trace.Stats{}, err
	}
	opts.Defines = m.defs
	return pml.CheckProgram(ctx, prog, opts)
}

// paramText writes parameter values as --param takes them: N=4,T=1.
func paramText(p map[string]int64) string {
	ps := params(p)
	return ps.String()
}

// verifySpecCases checks one specification on the automaton of every
// order of the thresholds: it holds when it holds in all of them; a
// violation counts only once the instance check confirms it.
//
// coarse tells that some counterexample of the automata did not replay on
// its instance: more thresholds may decide the specification. A
// counterexample that its schedule does not lead to on the instance is
// checked against the whole instance, which may take long: with defer,
// that is left to the caller (pending), who may first try more
// thresholds.
//
// note, when set, receives what contraction did to each case's automaton.
func verifySpecCases(ctx context.Context, model pmlText, res *pia.Result, spec string, opts param.Options, lim limits, begin time.Time, deferFull bool, note func(string)) (_ trace.Result, coarse bool, pending []pendingReplay) {
	start := time.Now()
	out := trace.Result{Property: spec, Verdict: trace.Holds}
	var schemas int64
	var reasons []string
	stats := func(complete bool) *trace.Stats {
		return &trace.Stats{Seconds: time.Since(start).Seconds(), Complete: complete, Extra: []trace.Figure{{Name: "schemas", Value: float64(schemas)}}}
	}
	for _, c := range res.Cases {
		r := param.Verify(ctx, c.TA, spec, opts)
		schemas += r.Schemas
		if note != nil && r.Contracted != "" {
			if len(res.Cases) > 1 {
				note(fmt.Sprintf("%s (thresholds %s): %s", spec, c.Order, r.Contracted))
			} else {
				note(fmt.Sprintf("%s: %s", spec, r.Contracted))
			}
		}
		switch r.Verdict {
		case trace.Holds:
			continue
		case trace.Unknown:
			out.Verdict = trace.Unknown
			reasons = append(reasons, r.Reason)
			continue
		}
		// Replay the abstract counterexample's parameters on the instance:
		// first along its schedule, then, if that finds nothing, over the
		// whole instance.
		params := r.Counterexample.Params
		if g := guideOf(c, r.Counterexample, r.Merged); g != nil {
			// The schedule bounds a guided search, but the free search
			// after a lasso's prefix may be large: it gets at most
			// maxGuidedTime of what is left, and the other replays the rest.
			budget := maxGuidedTime
			if lim.time > 0 {
				budget = min(budget, max(lim.time-time.Since(begin), time.Millisecond))
			}
			ir, _, err := model.checkInstance(ctx, pml.InstanceOptions{
				Params: params, Spec: spec, Assume: c.Justice, Guide: g,
				Search: ltl.Options{TimeLimit: budget, MemoryLimit: int64(lim.memory), Since: time.Now()},
			})
			if err == nil && ir.Verdict == trace.Violated {
				if ir.Counterexample != nil {
					ir.Counterexample.Params = params
					ir.Counterexample.Message += "; found by replaying the abstract counterexample's schedule on the instance"
				}
				ir.Stats = stats(true)
				return ir, false, nil
			}
		}
		p := pendingReplay{c: c, params: params}
		if deferFull {
			out.Verdict = trace.Unknown
			coarse = true
			pending = append(pending, p)
			reasons = append(reasons, fmt.Sprintf("the abstraction (thresholds %s) has a counterexample with %s, which its schedule does not lead to on that instance", c.Order, paramText(params)))
			continue
		}
		ir, reason, c2 := p.replay(ctx, model, spec, lim, begin)
		if ir != nil {
			ir.Stats = stats(true)
			return *ir, false, nil
		}
		out.Verdict = trace.Unknown
		coarse = coarse || c2
		reasons = append(reasons, reason)
	}
	if out.Verdict == trace.Unknown {
		out.Reason = strings.Join(reasons, "; ")
	}
	out.Stats = stats(out.Verdict != trace.Unknown)
	return out, coarse, pending
}

// pendingReplay is a counterexample of the automaton of c, with the
// parameters params, still to be checked against its whole instance.
type pendingReplay struct {
	c      *pia.Case
	params map[string]int64
}

// replay checks the instance of p's parameters: the instance's
// counterexample, or why there is none (coarse: the instance satisfies the
// specification, so the abstraction is too coarse).
func (p pendingReplay) replay(ctx context.Context, model pmlText, spec string, lim limits, begin time.Time) (_ *trace.Result, reason string, coarse bool) {
	ir, _, err := model.checkInstance(ctx, pml.InstanceOptions{
		Params: p.params, Spec: spec, Assume: p.c.Justice,
		Search: ltl.Options{TimeLimit: lim.time, MemoryLimit: int64(lim.memory), Since: begin},
	})
	switch {
	case err != nil:
		return nil, fmt.Sprintf("the abstract counterexample (thresholds %s) could not be replayed on the instance %s: %v", p.c.Order, paramText(p.params), err), false
	case ir.Verdict == trace.Violated:
		if ir.Counterexample != nil && ir.Counterexample.Params == nil {
			ir.Counterexample.Params = p.params
		}
		return &ir, "", false
	case ir.Verdict == trace.Unknown:
		return nil, fmt.Sprintf("the abstraction (thresholds %s) has a counterexample with %s, whose replay on that instance did not finish: %s", p.c.Order, paramText(p.params), ir.Reason), false
	}
	return nil, fmt.Sprintf("the abstraction (thresholds %s) has a counterexample with %s, but the instance check of those parameters says %s: the abstraction is too coarse here", p.c.Order, paramText(p.params), ir.Verdict), true
}

// maxGuideSteps bounds the schedule of a guided replay, and maxGuidedTime
// its search.
const (
	maxGuideSteps = 1 << 16
	maxGuidedTime = time.Minute
)

// guideOf turns a counterexample of the automaton of c into the schedule
// of process steps its prefix stands for, for a guided replay on the
// instance (free after the prefix when the counterexample is a lasso,
// whose loop the instance check then looks for); nil when it is too long.
// A rule that stands for several (contraction joins their labels with
// "+") is each of them in turn, and a rule fired k times is k processes
// taking it one after another. Locations that contraction merged
// (merged) are one location for the guide.
func guideOf(c *pia.Case, cex *trace.Counterexample, merged map[string]string) *pml.Guide {
	class := func(l string) string {
		if r, ok := merged[l]; ok {
			return r
		}
		return l
	}
	if cex == nil {
		return nil
	}
	steps := cex.Steps
	if cex.LoopStart >= 0 && cex.LoopStart <= len(steps) {
		steps = steps[:cex.LoopStart]
	}
	byID := map[string]*ta.Rule{}
	for _, r := range c.TA.Rules {
		byID[r.ID] = r
	}
	g := &pml.Guide{Initial: map[string]int64{}, Free: cex.LoopStart >= 0}
	for _, v := range cex.Initial {
		if _, ok := c.TA.LocIndex(v.Name); !ok {
			continue
		}
		n, err := strconv.ParseInt(v.Value, 10, 64)
		if err != nil {
			return nil
		}
		if n != 0 {
			g.Initial[class(v.Name)] += n
		}
	}
	for _, st := range steps {
		var path []*ta.Rule
		for _, id := range strings.Split(strings.TrimPrefix(st.Rule, "r"), "+") {
			r, ok := byID[id]
			if !ok {
				return nil
			}
			path = append(path, r)
		}
		times := max(st.Multiplicity, 1)
		if int64(len(g.Steps))+times*int64(len(path)) > maxGuideSteps {
			return nil
		}
		for range times {
			for _, r := range path {
				g.Steps = append(g.Steps, pml.GuideStep{From: class(r.From), To: class(r.To)})
			}
		}
	}
	params := cex.Params
	g.Locate = func(locals map[string]int64) ([]string, error) {
		ls, err := c.Locate(params, locals)
		for i, l := range ls {
			ls[i] = class(l)
		}
		return ls, err
	}
	return g
}
