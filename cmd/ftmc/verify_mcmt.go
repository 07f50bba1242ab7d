package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"ftmc/backreach"
	"ftmc/explore"
	"ftmc/internal/readfile"
	"ftmc/mcmt"
	"ftmc/mcmt/system"
	"ftmc/smt"
	"ftmc/trace"
)

// verifyMCMT verifies an array-based system (MCMT or Cubicle input) for any
// number of processes by backward reachability, or, with --bounded K, checks
// the instance with K processes explicitly.
func verifyMCMT(e *env, args []string) int {
	fs := newFlags("verify", e.stderr)
	var lim limits
	lim.register(fs)
	lang := fs.String("lang", "", "input language: mcmt, mcmt1 (MCMT's :keyword syntax) or cubicle (default: from the file)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	maxNodes := fs.Int("max-nodes", 20000, "stop with verdict unknown after this many visited cubes (0: no limit)")
	var sf solverFlags
	sf.register(fs, 10*time.Second, "time limit of one SMT query of the fixpoint checks (a timeout counts as not covered)")
	brab := fs.Int("brab", 3, "look for invariants among sub-cubes that no reachable state of an instance with this many processes satisfies (0: off)")
	confirm := fs.Int("confirm", 0, "also require candidate invariants to be unreachable on an instance with this many processes")
	brabLits := fs.Int("brab-lits", 0, "at most this many literals in a candidate invariant (0: 3; -1: no bound)")
	guess := fs.Bool("guess", true, "use a candidate invariant that its bounded proof neither proves nor refutes as a guess, proved together with the property (Cubicle's BRAB: a wrong guess is found reachable and costs a restart); --guess=false: proved candidates only")
	lemmaBudget := fs.Int("lemma-budget", 0, "cubes of the bounded search that tries to prove a candidate invariant (0: 30; -1: no proof, every candidate is a guess)")
	noCand := fs.Bool("no-candidates", false, "ignore the model's suggested negated invariants")
	bounded := fs.Int("bounded", 0, "check the instance with this many processes explicitly instead (0: prove for every number)")
	maxStates := fs.Int64("max-states", 10000000, "state limit of --bounded (0: no limit)")
	quiet := fs.Bool("q", false, "no progress on the terminal")
	logFile := fs.String("log", "", "write the backward search, cube by cube, to `FILE`")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the search to `FILE` (go tool pprof reads it)")
	var files reportFiles
	files.register(fs)
	fs.Lookup("j").Usage = "parallel workers: backward reachability and --bounded run on one, and only 1 is accepted"
	fs.Lookup("memory").Usage = fmt.Sprintf("stop when the process's memory reaches this with verdict unknown (e.g. 8GB; default: %.0f%% of the machine's memory, as ftmc check; 0: no limit)", explore.DefaultMemoryShare*100)
	pos, code := parseCommand(fs, args, "")
	if code >= 0 {
		return code
	}
	solver, err := sf.options()
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
		return 2
	}
	if err := checkMCMTFlags(lim, map[string]int64{"--bounded": int64(*bounded),
		"--max-states": *maxStates, "--max-nodes": int64(*maxNodes), "--brab": int64(*brab), "--confirm": int64(*confirm)}); err != nil {
		fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
		return 2
	}
	switch {
	case *lemmaBudget < -1:
		fmt.Fprintf(e.stderr, "ftmc verify: --lemma-budget %d: expected -1 (no proof, every candidate a guess), 0 (30 cubes) or a positive budget\n", *lemmaBudget)
		return 2
	case *lemmaBudget == -1 && !*guess:
		fmt.Fprintln(e.stderr, "ftmc verify: --lemma-budget -1 makes every candidate a guess, --guess=false uses proved candidates only: give one of them")
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprintln(e.stderr, "ftmc verify: expected a model file (.mcmt, .in or .cub)")
		return 2
	}
	budget := lim.budget(fs, time.Time{})
	ctx, stop := budget.Bound(e.ctx)
	defer stop()
	file, specs := pos[0], pos[1:]
	err = checkOutputsDistinct([]namedPath{{"log", *logFile}, {"cpuprofile", *profile}, {"trail", files.trail}, {"msc", files.chart.msc}}, []namedPath{{"model file", file}})
	if err == nil {
		err = files.checkOutputs(file)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
		return 2
	}
	file, src, err := readInput(ctx, e, file, readfile.ModelLimit, "model file")
	if stoppedReading(e, "ftmc verify", err) {
		return trace.ExitUnknown
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
		return 2
	}
	l := *lang
	if l == "cub" {
		l = mcmt.LangCubicle
	}
	// The limits bound the reading too (unknown, exit 3, when they stop it).
	sys, err := mcmt.ParseContext(ctx, file, src, l)
	if me, ok := err.(*mcmt.Error); ok && me.Stopped() {
		fmt.Fprintf(e.stderr, "ftmc verify: unknown: %s while reading the model (stopped at %s:%d:%d)\n", context.Cause(ctx), file, me.Pos.Line, me.Pos.Col)
		return 3
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return 2
	}
	for _, s := range specs {
		if s != "all" && s != sys.Property {
			fmt.Fprintf(e.stderr, "ftmc verify: %s has one property, %s; found %q\n", file, sys.Property, s)
			return 2
		}
	}
	rep := &trace.Report{Model: file}
	if note := mcmt.Note(sys); note != "" {
		rep.Warnings = append(rep.Warnings, note)
	}
	stopProfile, err := startProfile(*profile)
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
		return 2
	}
	defer stopProfile()
	start := time.Now()
	if *bounded > 0 {
		rep.Engine = "explicit"
		rep.Params = map[string]int64{"processes": int64(*bounded)}
		if code := boundedMCMT(ctx, sys, *bounded, system.ExploreOptions{MaxStates: *maxStates, Search: budget.Search()}, rep); code != 0 {
			fmt.Fprintln(e.stderr, rep.Warnings[len(rep.Warnings)-1])
			return code
		}
	} else {
		rep.Engine = "backreach"
		// Without z3 on PATH, case splitting alone decides the fixpoint
		// checks (a warning says so); a solver named on the command line
		// must be there.
		if sf.path != "" || solver.CrossCheck != nil || sf.name != "z3" {
			if err := smt.LookupAll(solver); err != nil {
				fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
				return 2
			}
		}
		if *maxNodes == 0 {
			*maxNodes = math.MaxInt
		}
		opts := backreach.Options{
			MaxNodes:         *maxNodes,
			Solver:           solver,
			IgnoreCandidates: *noCand,
			Approx:           *brab,
			Confirm:          *confirm,
			ApproxLits:       *brabLits,
			Guess:            *guess,
			LemmaBudget:      *lemmaBudget,
		}
		if *logFile != "" {
			f, err := createOutput(*logFile)
			if err != nil {
				fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
				return 2
			}
			defer f.Close()
			opts.Log = f
		}
		if e.terminal && !*quiet && !*asJSON {
			opts.Progress = func(s backreach.Stats) {
				fmt.Fprintf(e.stderr, "\r%.0fs: %d cubes visited, %d generated, %d covered, %d SMT calls, depth %d ",
					s.Seconds, s.Nodes, s.Generated, s.Covered, s.SMTCalls, s.Depth)
			}
		}
		// The search allocates many small, short-lived cubes over a live
		// heap of a few megabytes: with the default GC target the
		// collector runs every few hundred microseconds and takes about
		// a sixth of the time. GOGC, when set, still decides.
		if os.Getenv("GOGC") == "" {
			defer debug.SetGCPercent(debug.SetGCPercent(400))
		}
		res := backreach.Check(ctx, sys, opts)
		if opts.Progress != nil {
			fmt.Fprint(e.stderr, "\r\033[K")
		}
		r := trace.Result{Property: res.Property, Verdict: res.Verdict, Reason: res.Reason, Counterexample: res.Trace}
		if res.Trace != nil {
			r.Kind = res.Trace.Kind
		}
		rep.Verdicts = []trace.Result{r}
		rep.Stats = trace.Stats{States: res.Stats.Nodes, Transitions: res.Stats.Generated, Depth: int64(res.Stats.Depth),
			Complete: res.Verdict != trace.Unknown, Extra: res.Stats.Figures()}
		rep.Warnings = append(rep.Warnings, res.Warnings...)
		for _, p := range res.Proved {
			rep.Warnings = append(rep.Warnings, "invariant proved and used: "+p)
		}
		for _, l := range res.Lemmas {
			rep.Warnings = append(rep.Warnings, "unreachable (proved and used): "+l)
		}
		if res.Verdict == trace.Holds {
			for _, g := range res.Guesses {
				rep.Warnings = append(rep.Warnings, "unreachable (guessed, proved with the property): "+g)
			}
		}
		for _, p := range res.Refuted {
			rep.Warnings = append(rep.Warnings, "suggested invariant is not one (reachable), dropped: "+p)
		}
	}
	rep.Stats.Seconds = time.Since(start).Seconds()
	var ms explore.MemorySampler
	rep.Stats.MemoryBytes = ms.RuntimeBytes()
	return files.finish(e, "ftmc verify", rep, *asJSON, func() int {
		if *asJSON {
			if err := writeJSON(e.stdout, rep); err != nil {
				fmt.Fprintf(e.stderr, "ftmc verify: %v\n", err)
				return 2
			}
			return trace.ExitCode(rep.Verdicts)
		}
		for _, r := range rep.Verdicts {
			line := trace.VerdictLine(r)
			// The proof for every number of processes in the words of the
			// model's own checker (an instance's verdict is not that).
			if words := mcmt.VerdictWords(sys.Lang, r.Verdict); words != "" && *bounded == 0 {
				line += " (" + words + ")"
			}
			fmt.Fprintln(e.stdout, line)
		}
		for _, r := range rep.Verdicts {
			if r.Counterexample != nil {
				writeMCMTTrace(e.stdout, r.Counterexample)
			}
		}
		for _, w := range rep.Warnings {
			fmt.Fprintf(e.stdout, "note: %s\n", w)
		}
		writeMCMTStats(e.stdout, rep)
		return trace.ExitCode(rep.Verdicts)
	})
}

// boundedMCMT explores the instance with k processes; it returns a
// non-zero exit code (and the reason as the last warning) when the instance
// cannot be built.
func boundedMCMT(ctx context.Context, sys *system.System, k int, opts system.ExploreOptions, rep *trace.Report) int {
	r, st, warnings, err := system.Bounded(ctx, sys, k, opts)
	if err != nil {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("ftmc verify: %s with %s: %v", sys.Name, system.Processes(int64(k)), err))
		if ctx.Err() != nil {
			return 3
		}
		return 2
	}
	rep.Verdicts, rep.Stats = []trace.Result{r}, st
	rep.Warnings = append(rep.Warnings, warnings...)
	return 0
}

// checkMCMTFlags rejects flag values the searches cannot honour, before
// any search starts: an unknown solver, negative limits and counts, and
// -j (both searches run on one worker).
func checkMCMTFlags(lim limits, counts map[string]int64) error {
	if lim.jobs != 1 {
		return fmt.Errorf("-j %d: backward reachability and --bounded run on one worker (-j is for ftmc check and .ta models)", lim.jobs)
	}
	if lim.time < 0 {
		return fmt.Errorf("--time must not be negative")
	}
	if lim.memory < 0 {
		return fmt.Errorf("--memory must not be negative")
	}
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if counts[n] < 0 {
			return fmt.Errorf("%s %d: must not be negative", n, counts[n])
		}
	}
	return nil
}

func writeMCMTTrace(w interface{ Write([]byte) (int, error) }, cx *trace.Counterexample) {
	fmt.Fprintf(w, "counterexample: %s\n", cx.Message)
	fmt.Fprintln(w, "  initial state:")
	for _, v := range cx.Initial {
		fmt.Fprintf(w, "    %s = %s\n", v.Name, v.Value)
	}
	for _, st := range cx.Steps {
		var ch []string
		for _, v := range st.Changes {
			ch = append(ch, v.Name+" = "+v.Value)
		}
		fmt.Fprintf(w, "  %2d. %s: %s\n", st.Num, st.Stmt, strings.Join(ch, ", "))
	}
}

func writeMCMTStats(w interface{ Write([]byte) (int, error) }, rep *trace.Report) {
	s := rep.Stats
	if rep.Engine == "explicit" {
		if !s.Complete {
			// Cut short: the states found include the queue, which was
			// not expanded.
			fmt.Fprintf(w, "%s: %d states found, %d expanded, %d transitions, %.3fs\n",
				system.Processes(rep.Params["processes"]), s.States, s.Expanded, s.Transitions, s.Seconds)
			return
		}
		fmt.Fprintf(w, "%s: %d states, %d transitions, %.3fs\n", system.Processes(rep.Params["processes"]), s.States, s.Transitions, s.Seconds)
		return
	}
	var parts []string
	for _, f := range s.Extra {
		if f.Value != 0 {
			parts = append(parts, fmt.Sprintf("%s %g", strings.ReplaceAll(f.Name, "_", " "), f.Value))
		}
	}
	fmt.Fprintf(w, "%s, %.3fs\n", strings.Join(parts, ", "), s.Seconds)
}
