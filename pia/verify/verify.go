// Package verify verifies a ByMC Parametric Promela model for all parameter
// values: the PIA data abstraction (package pia) gives a threshold automaton
// per order of the thresholds, the schema engine (package param) checks
// each, and every violation is replayed on a concrete instance (package
// ltl/pml) before it counts. It composes those packages, which none of them
// may import without a cycle of meaning: pia is the abstraction only.
package verify

import (
	"context"
	"errors"
	"fmt"
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

// Options configure Verify.
type Options struct {
	// Solver runs the queries of the abstraction and of the schema
	// engine. The abstraction's unsat answers drop rules and order
	// thresholds, so a holds rests on them too: a cross-check confirms
	// them as well.
	Solver smt.Options
	// Jobs is the number of workers of the schema engine.
	Jobs int
	// Engine is param.Options.Engine: "cegar" checks each automaton on
	// the counter abstraction with refinement instead of with schemas.
	Engine string
	// Thresholds, when not empty, replaces the thresholds found in the
	// model (ByMC's -O piaDom.thresholds), and the model's #pragma does
	// not refine them.
	Thresholds []string
	// Budget bounds the replays on instances: its time, counted from
	// Since (the run's start), and its memory. The run's context, which
	// the caller bounds by the same budget, bounds everything else.
	Budget explore.Budget
	// Note, when set, receives what the engine does along the way: what
	// contraction did to each automaton, a refinement of the thresholds.
	Note func(string)
	// Abstracted, when set, sees the abstraction once it is computed and
	// the specifications are checked, before any is verified; an error it
	// returns ends Verify with that error.
	Abstracted func(*pia.Result) error
	// Verdict, when set, receives each specification's verdict as soon
	// as verifying it decides it (not the verdicts of an abstraction
	// that the run's context stopped).
	Verdict func(trace.Result)
}

// Result is the outcome of Verify.
type Result struct {
	// Abstraction is the automata of the model's thresholds (or of
	// Options.Thresholds), not of a refinement; nil when the run's
	// context stopped it.
	Abstraction *pia.Result
	// Verdicts has one verdict per specification, in order.
	Verdicts []trace.Result
}

// Figures are the abstraction's figures for a report (none without one).
func (r *Result) Figures() []trace.Figure {
	if r.Abstraction == nil {
		return nil
	}
	cs := r.Abstraction.Cases
	return []trace.Figure{
		{Name: "cases", Value: float64(len(cs))},
		{Name: "locations", Value: float64(cs[0].Locations)},
		{Name: "rules", Value: float64(cs[0].Rules)},
		{Name: "abstraction_queries", Value: float64(cs[len(cs)-1].Queries)},
	}
}

// Model is a Parametric Promela model as it was read once (from a file or
// standard input): its name, its text and its -D macros.
type Model struct {
	Name    string
	Src     []byte
	Defines map[string]string
}

// checkInstance checks a property of an instance of the model, as
// pml.CheckInstance does, on the text read once instead of the file read
// again: standard input cannot be read twice. Each check parses the text
// anew, since pml.CheckProgram instantiates the program in place.
func (m Model) checkInstance(ctx context.Context, opts pml.InstanceOptions) (trace.Result, trace.Stats, error) {
	prog, err := promela.Parse(m.Name, m.Src, promela.Options{Defines: m.Defines, Context: ctx})
	if err != nil {
		return trace.Result{}, trace.Stats{}, err
	}
	opts.Defines = m.Defines
	return pml.CheckProgram(ctx, prog, opts)
}

// InputError says that the specifications asked for do not fit the model.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// AbstractionError says that the solver failed or gave up on the
// abstraction, so that there is no verdict; the model is not at fault.
type AbstractionError struct{ Err error }

func (e *AbstractionError) Error() string {
	return "unknown: the abstraction could not be computed: " + e.Err.Error()
}

func (e *AbstractionError) Unwrap() error { return e.Err }

// Verify checks the specifications specs of prog (all of them when specs is
// empty), the program that model's text parses to, for all parameter
// values. A verdict is holds when the specification holds in the
// automaton of every order of the thresholds, violated only with a
// counterexample of a concrete instance, and unknown otherwise, with the
// reason; every verdict is unknown when ctx stops the abstraction (and the
// Result has no Abstraction). The error is a *pia.Error for a model outside
// the class the abstraction handles, an *AbstractionError, an *InputError
// (checked after those two), or the error of Options.Abstracted.
func Verify(ctx context.Context, prog *promela.Program, model Model, specs []string, opts Options) (*Result, error) {
	start := time.Now()
	// The counter abstraction with refinement checks automata with
	// cycles, so it gets the model's cycles rather than merged locations.
	popts := pia.Options{Solver: opts.Solver, Thresholds: opts.Thresholds, Cycles: opts.Engine == "cegar"}
	abs, err := pia.Extract(ctx, prog, popts)
	var pe *pia.Error
	if opts.Engine == "" && ctx.Err() == nil && (errors.As(err, &pe) || err == nil && abs.Decreases()) {
		// A shared variable that decreases takes the automaton out of
		// the schemas' class, and so does a proposition that a location
		// merged from a cycle does not decide: the counter abstraction
		// with refinement checks the automaton with the model's cycles.
		popts.Cycles = true
		if abs2, err2 := pia.Extract(ctx, prog, popts); err2 == nil || err == nil {
			abs, err = abs2, err2
		}
	}
	stopped := err != nil
	if err != nil {
		if errors.As(err, &pe) {
			return nil, err
		}
		if ctx.Err() == nil {
			return nil, &AbstractionError{Err: err}
		}
	}
	if specs, err = checkSpecs(model.Name, pia.Specs(prog), specs); err != nil {
		return nil, err
	}
	if stopped {
		// The run's context stopped the abstraction, on which every
		// specification rests: each is unknown, with why.
		res := &Result{}
		for _, s := range specs {
			res.Verdicts = append(res.Verdicts, trace.Result{Property: s, Verdict: trace.Unknown,
				Reason: explore.StopCause(ctx) + " while the abstraction was computed", Stats: &trace.Stats{Seconds: time.Since(start).Seconds()}})
		}
		return res, nil
	}
	if opts.Abstracted != nil {
		if err := opts.Abstracted(abs); err != nil {
			return nil, err
		}
	}
	v := &verifier{ctx: ctx, model: model, opts: opts,
		// PIA over-approximates already and every violation is
		// replayed on the Promela instance, so contraction may
		// over-approximate too.
		param: param.Options{Solver: opts.Solver, Jobs: opts.Jobs, Overapprox: true, Engine: opts.Engine}}
	res := &Result{Abstraction: abs}
	// The thresholds of the model's #pragma (written for ByMC's coarser
	// abstraction) refine the found ones where those leave a
	// specification undecided.
	var refined *pia.Result
	var refineErr error
	more, morePos, hasMore := pia.ThresholdPragma(prog)
	canRefine := hasMore && len(opts.Thresholds) == 0
	for _, s := range specs {
		specStart := time.Now()
		// Where the #pragma can refine the abstraction, a counterexample
		// that does not replay along its schedule is first tried with the
		// refinement, before its whole instance is searched.
		r, coarse, pending := v.cases(abs, s, canRefine)
		if coarse && canRefine && ctx.Err() == nil {
			if refined == nil && refineErr == nil {
				popts.More, popts.MorePos, popts.MoreFrom = more, morePos, "the #pragma at "+morePos.String()
				refined, refineErr = pia.Extract(ctx, prog, popts)
			}
			if refineErr != nil {
				r.Reason += "; the thresholds of the #pragma at " + morePos.String() + " could not refine it: " + refineErr.Error()
			} else if len(refined.Thresholds) > len(abs.Thresholds) {
				v.note(fmt.Sprintf("> Spec %s unknown with these thresholds (%s); refining with %s: thresholds %s", s, r.Reason, refined.ThresholdsFrom, strings.Join(refined.Thresholds, ", ")))
				r2, _, _ := v.cases(refined, s, false)
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
			if ir, reason, _ := v.replay(p, s); ir != nil {
				st := *r.Stats
				st.Seconds, st.Complete = time.Since(specStart).Seconds(), true
				ir.Stats = &st
				r = *ir
				break
			} else {
				r.Reason += "; " + reason
			}
		}
		// A run the budget stopped after the abstraction's verdict skips
		// the refinement and the replays: the reason says so first.
		if stop := explore.StopCause(ctx); stop != "" && r.Verdict == trace.Unknown && !strings.HasPrefix(r.Reason, stop) {
			r.Reason = stop + " before the counterexample was refined or replayed; " + r.Reason
		}
		res.Verdicts = append(res.Verdicts, r)
		if opts.Verdict != nil {
			opts.Verdict(r)
		}
	}
	return res, nil
}

// checkSpecs returns the specifications to verify: specs, each of which
// must be among the model's (all), or all of them when specs is empty.
func checkSpecs(path string, all, specs []string) ([]string, error) {
	if len(specs) == 0 {
		specs = all
	}
	for _, s := range specs {
		if !slices.Contains(all, s) {
			return nil, &InputError{fmt.Sprintf("%s has no specification %q (it has: %s)", path, s, strings.Join(all, ", "))}
		}
	}
	if len(specs) == 0 {
		return nil, &InputError{fmt.Sprintf("%s has no ltl specification (other than fairness)", path)}
	}
	return specs, nil
}

// verifier is one run of Verify.
type verifier struct {
	ctx   context.Context
	model Model
	opts  Options
	param param.Options
}

func (v *verifier) note(s string) {
	if v.opts.Note != nil {
		v.opts.Note(s)
	}
}

// cases checks one specification on the automaton of every order of the
// thresholds of abs: it holds when it holds in all of them; a violation
// counts only once the instance check confirms it.
//
// coarse tells that some counterexample of the automata did not replay on
// its instance: more thresholds may decide the specification. A
// counterexample that its schedule does not lead to on the instance is
// checked against the whole instance, which may take long: with
// deferFull, that is left to the caller (pending), who may first try more
// thresholds.
func (v *verifier) cases(abs *pia.Result, spec string, deferFull bool) (_ trace.Result, coarse bool, pending []pendingReplay) {
	start := time.Now()
	out := trace.Result{Property: spec, Verdict: trace.Holds}
	var schemas, states, transitions int64
	var refinements int
	var reasons []string
	refined := false // the counter abstraction with refinement checked some case
	stats := func(complete bool) *trace.Stats {
		st := &trace.Stats{Seconds: time.Since(start).Seconds(), Complete: complete, Extra: []trace.Figure{{Name: "schemas", Value: float64(schemas)}}}
		if refined {
			st.States, st.Transitions = states, transitions
			st.Extra = []trace.Figure{{Name: "refinements", Value: float64(refinements)}}
		}
		return st
	}
	for _, c := range abs.Cases {
		r := param.Verify(v.ctx, c.TA, spec, v.param)
		schemas += r.Schemas
		if r.CEGAR != nil {
			refined = true
			refinements += r.CEGAR.Refinements
			states += r.Abstract.States
			transitions += r.Abstract.Transitions
		}
		for _, what := range []string{r.Dead, r.Sliced, r.Contracted} {
			switch {
			case what == "":
			case len(abs.Cases) > 1:
				v.note(fmt.Sprintf("%s (thresholds %s): %s", spec, c.Order, what))
			default:
				v.note(fmt.Sprintf("%s: %s", spec, what))
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
		if ir, ok := v.guided(c, r, spec); ok {
			ir.Stats = stats(true)
			return ir, false, nil
		}
		p := pendingReplay{c: c, params: params}
		if deferFull {
			out.Verdict = trace.Unknown
			coarse = true
			pending = append(pending, p)
			reasons = append(reasons, fmt.Sprintf("the abstraction (thresholds %s) has a counterexample with %s, which its schedule does not lead to on that instance", c.Order, paramText(params)))
			continue
		}
		ir, reason, c2 := v.replay(p, spec)
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

// guided replays the counterexample of the automaton of c, r's, along its
// schedule on the instance of its parameters: the instance's
// counterexample, if the schedule leads to one.
func (v *verifier) guided(c *pia.Case, r param.SpecResult, spec string) (trace.Result, bool) {
	g := guideOf(c, r.Counterexample, r.Merged)
	if g == nil {
		return trace.Result{}, false
	}
	params := r.Counterexample.Params
	// The schedule bounds a guided search, but the free search after a
	// lasso's prefix may be large: it stores at most maxGuidedStates (a
	// bound that does not depend on how busy the machine is), within what
	// is left of the run's time, and the other replays do the rest.
	var budget time.Duration
	if b := v.opts.Budget; b.Time > 0 {
		budget = max(b.Time-time.Since(b.Since), time.Millisecond)
	}
	ir, _, err := v.model.checkInstance(v.ctx, pml.InstanceOptions{
		Params: params, Spec: spec, Assume: c.Justice, Guide: g,
		Search: ltl.Options{TimeLimit: budget, MaxStates: maxGuidedStates, MemoryLimit: v.opts.Budget.Memory, Since: time.Now()},
	})
	if err != nil || ir.Verdict != trace.Violated {
		return trace.Result{}, false
	}
	if ir.Counterexample != nil {
		ir.Counterexample.Params = params
		ir.Counterexample.Message += "; found by replaying the abstract counterexample's schedule on the instance"
	}
	return ir, true
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
func (v *verifier) replay(p pendingReplay, spec string) (_ *trace.Result, reason string, coarse bool) {
	b := v.opts.Budget
	ir, _, err := v.model.checkInstance(v.ctx, pml.InstanceOptions{
		Params: p.params, Spec: spec, Assume: p.c.Justice,
		Search: ltl.Options{TimeLimit: b.Time, MemoryLimit: b.Memory, Since: b.Since},
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

// paramText writes parameter values as --param takes them: N=4,T=1.
func paramText(p map[string]int64) string { return trace.FormatParams(p, ",") }

// maxGuideSteps bounds the schedule of a guided replay, and
// maxGuidedStates its search (a minute's work on an idle machine).
const (
	maxGuideSteps   = 1 << 16
	maxGuidedStates = 400_000
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
