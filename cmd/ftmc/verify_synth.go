package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"ftmc/param"
	"ftmc/ta"
	"ftmc/trace"
)

// synthesizeTA looks for values of the unknowns of the sketch f with which
// every specification in specs holds for all parameters (param.Synthesize),
// and reports the solution's verdicts, or why there is none.
func synthesizeTA(ctx context.Context, e *env, f *ta.File, specs []string, flags *schemaFlags, opts param.Options, start time.Time) int {
	engine := "the schema engine"
	if flags.engine == "cegar" {
		engine = "the counter abstraction with refinement"
	}
	rep := &trace.Report{Model: f.Path, Engine: "guard synthesis: candidates by SMT, each verified by " + engine + " (SMT, " + flags.sf.describe() + ")"}
	text := !flags.json && !flags.quiet
	if text {
		fmt.Fprintf(e.stdout, "ftmc verify %s: %d locations, %d rules, parameters %s; unknowns %s: guard synthesis\n", f.Path, len(f.Locations), len(f.Rules), strings.Join(ta.Names(f.Params), ", "), strings.Join(ta.Names(f.Unknowns), ", "))
	}
	progress := opts.Progress
	opts.Progress = nil
	n := 0
	syn := param.Synthesize(ctx, f, specs, opts, func(c param.Candidate) {
		n++
		if progress != nil && !text {
			fmt.Fprintf(e.stderr, "\r%d candidates, %.0fs   ", n, time.Since(start).Seconds())
		}
		if !text {
			return
		}
		line := fmt.Sprintf("candidate %d: %s: ", n, ta.FormatUnknowns(f, c.Values))
		switch {
		case c.RefutedBy != nil:
			r := c.RefutedBy
			line += r.Property + " violated"
			if r.Counterexample != nil && len(r.Counterexample.Params) > 0 {
				line += " (" + trace.FormatParams(r.Counterexample.Params, ", ") + ")"
			}
		case c.Undecided != nil:
			line += c.Undecided.Property + " unknown: " + c.Undecided.Reason
		default:
			line += "every specification holds"
		}
		fmt.Fprintln(e.stdout, line)
	})
	if progress != nil && !text {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	rep.Synthesis = &trace.Synthesis{Unknowns: syn.Unknowns, Candidates: syn.Candidates, Refuted: syn.Refuted, Generalized: syn.Generalized, Undecided: syn.Undecided}
	if syn.Solution != nil {
		rep.Synthesis.Solution = map[string]int64{}
		for i, v := range syn.Solution {
			rep.Synthesis.Solution[syn.Unknowns[i]] = v
		}
		for _, r := range syn.Results {
			r.Result.Stats = &trace.Stats{Seconds: r.Seconds, Complete: true}
			rep.Verdicts = append(rep.Verdicts, r.Result)
		}
		if text {
			fmt.Fprintf(e.stdout, "> synthesized: %s (%d candidates, %d refuted, %.2fs)\n", ta.FormatUnknowns(f, syn.Solution), syn.Candidates, syn.Refuted, syn.Seconds)
		}
	} else {
		r := trace.Result{Property: "synthesis", Verdict: trace.Unknown, Reason: syn.Reason}
		if syn.Complete {
			r.Verdict, r.Kind = trace.Violated, "no solution"
		}
		rep.Verdicts = append(rep.Verdicts, r)
		if text {
			fmt.Fprintf(e.stdout, "> no solution: %s\n", syn.Reason)
		}
	}
	return flags.finishReport(e, rep, start, []trace.Figure{
		{Name: "candidates", Value: float64(syn.Candidates)},
		{Name: "refuted", Value: float64(syn.Refuted)},
		{Name: "generalized", Value: float64(syn.Generalized)},
	})
}
