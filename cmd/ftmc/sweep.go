package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"ftmc/explore"
	"ftmc/internal/ident"
	"ftmc/internal/procmem"
	"ftmc/trace"
)

const sweepUsage = `usage: ftmc sweep MODEL [-D NAME=V1,V2,...]... [--param NAME=V1,V2,...]... [flags]
       ftmc sweep MODEL.ta [SPEC...] --param NAME=V1,V2,... [flags]

Runs ftmc check on MODEL once per combination of the macro and parameter
values (the cross product, the first -D or --param varying slowest) and
prints one row each: the values, verdict and kind, states, transitions,
the depth of the counterexample (steps), seconds, states per second and
memory. Each macro and parameter is given once, with all its values;
-D NAME alone means NAME=1, as with cc; --param N=3,4,T=1 gives N the
values 3 and 4 and T the value 1. Without -D and --param the sweep is one
row: the model as it stands. --ltl, --ltl-formula, --fairness,
--non-progress and --assume go to each check as they are.

Each check gets a memory limit: --memory, or by default 85% of the
machine's memory divided by -j. A check cut short by a limit, or that runs
out of memory and dies, is an unknown row with the figures it reached.
`

// cmdSweep runs check over the cross product of macro values.
func cmdSweep(e *env, args []string) int { return sweep(e, args, nil) }

// sweep is cmdSweep with the function that runs one check (nil: ftmc
// check in this process).
func sweep(e *env, args []string, check func(ctx context.Context, args []string, stdout, stderr io.Writer) int) int {
	fs := newFlags("sweep", e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, sweepUsage)
		fs.PrintDefaults()
	}
	o := sweepOptions{check: check}
	fs.Var(defineFlag{&o.defs}, "D", "macro `NAME=V1,V2,...`: one run per value (repeatable, each macro once; -D NAME is NAME=1)")
	fs.Var(paramFlag{&o.defs}, "param", "parameters of a parametric (ByMC) model, `NAME=V1,V2,...[,NAME=V,...]`: one run per combination of values (repeatable, each parameter once)")
	o.ltl.register(fs)
	fs.BoolVar(&o.csv, "csv", false, "print the table as CSV")
	fs.BoolVar(&o.json, "json", false, "print the table as JSON")
	fs.IntVar(&o.jobs, "j", 1, "run this many combinations at the same time")
	durationVar(fs, &o.time, "time", 0, "time limit per combination (e.g. 10m; 0: none); a run cut short is unknown")
	fs.Var(&o.memory, "memory", "memory limit per combination (e.g. 8GB; default: 85% of the machine's memory divided by -j; 0: none)")
	fs.BoolVar(&o.bfs, "bfs", false, "breadth-first search (the default): states until the first counterexample in BFS order")
	fs.BoolVar(&o.dfs, "dfs", false, "depth-first search")
	fs.IntVar(&o.depth, "depth", 0, "do not expand states this many steps deep (0: no bound)")
	fs.BoolVar(&o.compress, "compress", false, "keep the states tree-compressed (ftmc check --compress)")
	fs.BoolVar(&o.lossy.bitstate, "bitstate", false, "lossy bitstate storage (ftmc check --bitstate): depth-first, never holds")
	fs.IntVar(&o.lossy.bitstateBits, "bitstate-bits", explore.DefaultBitstateBits, "with --bitstate: the bit array has 2^`LOG2` bits (ftmc check --bitstate-bits)")
	fs.BoolVar(&o.lossy.hashCompact, "hash-compact", false, "lossy storage of 64-bit fingerprints (ftmc check --hash-compact): depth-first, never holds")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress line on a terminal (the rows that run, their time and states so far)")
	fs.StringVar(&o.trails, "trails", "", "save each combination's report (with its counterexample) as JSON in `DIR`, for ftmc trace")
	pos, code := parseCommand(fs, args, sweepUsage)
	if code >= 0 {
		return code
	}
	isTA := strings.EqualFold(filepath.Ext(pos[0]), ".ta") || strings.EqualFold(filepath.Ext(pos[0]), ".eta")
	if len(pos) > 1 && !isTA {
		// check takes specifications by name for threshold automata only.
		fmt.Fprint(e.stderr, sweepUsage)
		return trace.ExitUsage
	}
	if isTA && o.ltl.given() {
		fmt.Fprintf(e.stderr, "ftmc sweep: %s: the LTL flags are for Promela models; name the specifications of a threshold automaton after it (ftmc sweep %s SPEC...)\n", pos[0], pos[0])
		return trace.ExitUsage
	}
	for _, n := range o.defs.names {
		if isTA && !o.defs.param[n] {
			fmt.Fprintf(e.stderr, "ftmc sweep: %s: -D %s: a threshold automaton has no macros; its parameters are swept with --param\n", pos[0], n)
			return trace.ExitUsage
		}
	}
	o.specs = pos[1:]
	if o.csv && o.json {
		fmt.Fprintln(e.stderr, "ftmc sweep: --csv and --json exclude each other")
		return trace.ExitUsage
	}
	if o.jobs < 1 {
		fmt.Fprintln(e.stderr, "ftmc sweep: -j must be at least 1")
		return trace.ExitUsage
	}
	if o.bfs && o.dfs {
		fmt.Fprintln(e.stderr, "ftmc sweep: --bfs and --dfs exclude each other")
		return trace.ExitUsage
	}
	if o.time < 0 || o.depth < 0 {
		fmt.Fprintln(e.stderr, "ftmc sweep: --time and --depth must not be negative (0: no limit)")
		return trace.ExitUsage
	}
	o.lossy.bfs, o.lossy.compress, o.lossy.limits.jobs, o.lossy.flags = o.bfs, o.compress, 1, fs
	if _, err := o.lossy.lossy(); err != nil {
		fmt.Fprintf(e.stderr, "ftmc sweep: %v\n", err)
		return trace.ExitUsage
	}
	if f := o.lossy.lossyFlag(); f != "" && o.ltl.given() {
		fmt.Fprintf(e.stderr, "ftmc sweep: %s is for safety searches: the LTL searches need every state stored\n", f)
		return trace.ExitUsage
	}
	if f := o.ltl.fairness; f != "" && f != "weak" && f != "none" {
		fmt.Fprintf(e.stderr, "ftmc sweep: --fairness %s: expected weak or none\n", f)
		return trace.ExitUsage
	}
	o.model = pos[0]
	if o.model == "-" {
		fmt.Fprintln(e.stderr, "ftmc sweep: -: a sweep reads the model once per combination, in a process of its own: give a file, not standard input")
		return trace.ExitUsage
	}
	if st, err := os.Stat(o.model); err != nil {
		fmt.Fprintf(e.stderr, "ftmc sweep: %v\n", err)
		return trace.ExitUsage
	} else if !st.Mode().IsRegular() {
		// Each check reads the model: a FIFO or a device would give
		// each another text, or none.
		fmt.Fprintf(e.stderr, "ftmc sweep: %s: not a regular file (each combination's check reads the model again)\n", o.model)
		return trace.ExitUsage
	}
	combos, err := o.combinations()
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc sweep: %v\n", err)
		return trace.ExitUsage
	}
	if n := min(o.jobs, len(combos)); n > 1 {
		// The checks that run at once share the cores too: each gets its
		// part, where alone it would take them all (check's default -j).
		o.checkWorkers = max(1, runtime.GOMAXPROCS(0)/n)
	}
	o.memoryGiven = flagGiven(fs, "memory")
	if !o.memoryGiven {
		// The checks that run at once share the machine: each gets its
		// part of the default.
		limit, from := defaultMemoryLimit(min(o.jobs, len(combos)))
		o.memory, o.memoryFrom = byteSize(limit), from
	}
	if o.trails != "" {
		if err := checkOutputDir("trails", o.trails); err != nil {
			fmt.Fprintf(e.stderr, "ftmc sweep: %v\n", err)
			return trace.ExitUsage
		}
	}
	o.progress = e.terminal && !o.quiet
	return o.run(e, combos)
}

// sweepOptions are the flags of a sweep.
type sweepOptions struct {
	model        string
	defs         sweepDefines
	csv, json    bool
	jobs         int
	checkWorkers int // -j of each check (0: check's default)
	time         time.Duration
	memory       byteSize
	memoryGiven  bool   // --memory was given (0: no limit)
	memoryFrom   string // where the default memory limit comes from
	bfs, dfs     bool
	compress     bool
	lossy        explicitOptions // --bitstate, --bitstate-bits, --hash-compact, passed on
	depth        int
	trails       string
	ltl          ltlFlags // passed on to each check
	specs        []string // of a threshold automaton (default: all)
	quiet        bool
	progress     bool // draw the running rows on the terminal (stderr)

	// check runs one ftmc check command line; tests replace it.
	check func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// sweepDefines collects the -D and --param flags of a sweep in order,
// each macro or parameter with its list of values, and remembers what was
// given twice.
type sweepDefines struct {
	names  []string
	values map[string][]string
	param  map[string]bool // the names given by --param
	err    error           // the first name given twice or with a bad value list
}

func (d *sweepDefines) String() string {
	var parts []string
	for _, n := range d.names {
		parts = append(parts, n+"="+strings.Join(d.values[n], ","))
	}
	return strings.Join(parts, " ")
}

// flagName is the flag that gave name: -D or --param.
func (d *sweepDefines) flagName(name string) string {
	if d.param[name] {
		return "--param"
	}
	return "-D"
}

// add records name's values, given by the flag s (flag is -D or --param).
func (d *sweepDefines) add(flag, s, name string, vals []string) {
	seen := map[string]bool{}
	for _, v := range vals {
		switch {
		case v == "" && d.err == nil:
			d.err = fmt.Errorf("%s %s: expected NAME=V1,V2,... without empty values", flag, s)
		case seen[v] && d.err == nil:
			d.err = fmt.Errorf("%s %s: %s given twice (it would run the same combinations twice)", flag, s, v)
		}
		seen[v] = true
	}
	if d.values == nil {
		d.values, d.param = map[string][]string{}, map[string]bool{}
	}
	if old, dup := d.values[name]; dup {
		if d.err == nil && d.flagName(name) != flag {
			d.err = fmt.Errorf("%s given as a macro (-D) and as a parameter (--param): one name, one column", name)
		} else if d.err == nil {
			d.err = fmt.Errorf("%s given twice: use %s %s=%s", name, flag, name, strings.Join(append(append([]string(nil), old...), vals...), ","))
		}
		return
	}
	d.names = append(d.names, name)
	d.values[name] = vals
	d.param[name] = flag == "--param"
}

// defineFlag is -D: NAME=V1,V2,... and NAME (NAME=1, as with cc and spin).
type defineFlag struct{ d *sweepDefines }

func (f defineFlag) String() string {
	if f.d == nil {
		return ""
	}
	return f.d.String()
}

func (f defineFlag) Set(s string) error {
	name, list, ok := strings.Cut(s, "=")
	if !ok {
		list = "1"
	}
	if !ident.Valid(name) {
		return fmt.Errorf("-D %s: expected NAME=V1,V2,...", s)
	}
	var vals []string
	for _, v := range strings.Split(list, ",") {
		vals = append(vals, strings.TrimSpace(v))
	}
	f.d.add("-D", s, name, vals)
	return nil
}

// paramFlag is --param: NAME=V1,V2,... with integer values, and more
// parameters in the same flag as check takes them (N=3,4,T=1: N is 3 or
// 4, T is 1).
type paramFlag struct{ d *sweepDefines }

func (f paramFlag) String() string { return defineFlag(f).String() }

func (f paramFlag) Set(s string) error {
	var name string
	var vals []string
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		n, v, ok := strings.Cut(item, "=")
		if ok {
			if name != "" {
				f.d.add("--param", s, name, vals)
			}
			name, vals, item = strings.TrimSpace(n), nil, strings.TrimSpace(v)
			if !ident.Valid(name) {
				return fmt.Errorf("--param %s: expected NAME=V1,V2,...[,NAME=V1,...]", s)
			}
		}
		if name == "" {
			return fmt.Errorf("--param %s: expected NAME=V1,V2,...[,NAME=V1,...]", s)
		}
		if item != "" {
			if _, err := strconv.ParseInt(item, 10, 64); err != nil {
				return fmt.Errorf("--param %s: %q is not an integer", s, item)
			}
		}
		vals = append(vals, item)
	}
	f.d.add("--param", s, name, vals)
	return nil
}

// A combination is one value per macro or parameter, in the order of the
// -D and --param flags.
type combination []define

// define is one value of a macro or parameter (sweepDefines.param says
// which).
type define struct{ name, value string }

func (c combination) String() string {
	parts := make([]string, len(c))
	for i, d := range c {
		parts[i] = d.name + "=" + d.value
	}
	return strings.Join(parts, " ")
}

// maxCombinations bounds the rows of a sweep: the rows are made, and held,
// before the first check runs.
const maxCombinations = 100000

// combinations is the cross product of the -D values, the first macro
// varying slowest (so rows group as in the paper's Table 1).
func (o *sweepOptions) combinations() ([]combination, error) {
	if o.defs.err != nil {
		return nil, o.defs.err
	}
	n := 1
	for _, name := range o.defs.names {
		n *= len(o.defs.values[name])
		if n > maxCombinations {
			return nil, fmt.Errorf("the -D values make more than %d combinations, each a check: sweep fewer at a time", maxCombinations)
		}
	}
	combos := make([]combination, 1, n)
	for _, name := range o.defs.names {
		var next []combination
		for _, c := range combos {
			for _, v := range o.defs.values[name] {
				next = append(next, append(append(combination(nil), c...), define{name, v}))
			}
		}
		combos = next
	}
	return combos, nil
}

// checkArgs is the ftmc check command line of one combination.
func (o *sweepOptions) checkArgs(c combination) []string {
	args := append(append([]string{"check", o.model}, o.specs...), "--json")
	for _, d := range c {
		if o.defs.param[d.name] {
			args = append(args, "--param", d.name+"="+d.value)
		} else {
			args = append(args, "-D", d.name+"="+d.value)
		}
	}
	// A lossy search has one worker; so has a depth-first one without -j.
	if o.checkWorkers > 0 && o.lossy.lossyFlag() == "" && !o.dfs {
		args = append(args, "-j", strconv.Itoa(o.checkWorkers))
	}
	if o.time > 0 {
		args = append(args, "--time", o.time.String())
	}
	if o.memory > 0 || o.memoryGiven {
		args = append(args, "--memory", o.memory.String())
	}
	if o.bfs {
		args = append(args, "--bfs")
	}
	if o.dfs {
		args = append(args, "--dfs")
	}
	if o.depth > 0 {
		args = append(args, "--depth", strconv.Itoa(o.depth))
	}
	if o.compress {
		args = append(args, "--compress")
	}
	if f := o.lossy.lossyFlag(); f != "" {
		args = append(args, f)
	}
	if o.lossy.bitstate && o.lossy.flags != nil && flagGiven(o.lossy.flags, "bitstate-bits") {
		args = append(args, "--bitstate-bits", strconv.Itoa(o.lossy.bitstateBits))
	}
	if o.ltl.name != "" {
		args = append(args, "--ltl", o.ltl.name)
	}
	if o.ltl.formula != "" {
		args = append(args, "--ltl-formula", o.ltl.formula)
	}
	if o.ltl.fairness != "" {
		args = append(args, "--fairness", o.ltl.fairness)
	}
	if o.ltl.nonProgress {
		args = append(args, "--non-progress")
	}
	for _, a := range o.ltl.assume {
		args = append(args, "--assume", a)
	}
	return args
}

// A sweepRow is the outcome of one combination.
type sweepRow struct {
	Defines      map[string]string `json:"defines"`
	Params       map[string]int64  `json:"params,omitempty"`
	Verdict      trace.Verdict     `json:"verdict"` // "error" when the run failed
	Kind         string            `json:"kind,omitempty"`
	Reason       string            `json:"reason,omitempty"`
	States       int64             `json:"states"`
	Transitions  int64             `json:"transitions"`
	Depth        int               `json:"depth,omitempty"` // steps of the counterexample
	Seconds      float64           `json:"seconds"`
	StatesPerSec float64           `json:"states_per_sec"`
	MemoryBytes  int64             `json:"memory_bytes"`
	Complete     bool              `json:"complete"`

	combo   combination
	code    int
	figures bool          // the row's figures were measured (a report, a progress line)
	warning string        // said on stderr after the table (a trail not saved)
	report  *trace.Report // the check's, when it printed one
}

func newSweepRow(c combination, param map[string]bool) sweepRow {
	row := sweepRow{Defines: map[string]string{}, combo: c}
	for _, d := range c {
		if !param[d.name] {
			row.Defines[d.name] = d.value
			continue
		}
		if row.Params == nil {
			row.Params = map[string]int64{}
		}
		row.Params[d.name], _ = strconv.ParseInt(d.value, 10, 64) // checked by paramFlag
	}
	return row
}

// checkOne runs ftmc check on one combination and reads its report: the
// sweep reuses check's machinery whatever the model's language.
func (o *sweepOptions) checkOne(ctx context.Context, c combination) sweepRow {
	return o.checkLive(ctx, c, nil)
}

// checkLive is checkOne with the check's stderr read as it comes (live,
// when not nil), for the progress line on the terminal.
func (o *sweepOptions) checkLive(ctx context.Context, c combination, live *sweepLive) sweepRow {
	row := newSweepRow(c, o.defs.param)
	if live == nil {
		live = &sweepLive{}
	}
	var stdout bytes.Buffer
	check := o.check
	if check == nil {
		check = checkProcess
	}
	row.code = check(ctx, o.checkArgs(c), &stdout, live)
	stderr := &live.buf // the check has ended: no more writes
	if stop := explore.StopCause(ctx); stop != "" && row.code != trace.ExitUsage {
		// The sweep was stopped, and the check with it: its report (an
		// unknown verdict with the figures it reached) is the row's; a
		// check that did not print one is unknown with the figures of
		// its last progress line.
		if _, err := trace.ParseReport("ftmc check "+c.String(), stdout.Bytes()); err != nil {
			detail := strings.TrimPrefix(sweepFirstLine(stderr.String()), "ftmc check: ")
			if row.code == exitKilled && detail == "signal: killed" {
				detail = fmt.Sprintf("no report within %v of the signal: killed", stopGrace)
			}
			row.unknownAt(readProgress(stderr.String()), stop, detail)
			return row
		}
	}
	if why, detail := checkDied(row.code, stderr.String()); why != "" {
		// A check that died has no report: the row says why and how far
		// it got by its last progress line.
		row.unknownAt(readProgress(stderr.String()), why, detail)
		return row
	}
	if row.code == trace.ExitUsage {
		row.Verdict = "error"
		row.Reason = sweepFirstLine(stderr.String())
		return row
	}
	rep, err := trace.ParseReport("ftmc check "+c.String(), stdout.Bytes())
	if err != nil {
		row.Verdict, row.Reason, row.code = "error", err.Error(), trace.ExitUsage
		return row
	}
	if o.trails != "" {
		// The row's verdict stands when its trail cannot be saved.
		if err := writeTrail(filepath.Join(o.trails, o.trailName(c)), rep); err != nil {
			row.warning = "the report was not saved: " + err.Error()
		}
	}
	if o.memoryFrom != "" {
		// The check was given the default as --memory: say so.
		at := "memory limit " + explore.FormatBytes(int64(o.memory)) + " reached"
		for i := range rep.Verdicts {
			r := &rep.Verdicts[i]
			r.Reason = strings.Replace(r.Reason, at, "memory limit "+explore.FormatBytes(int64(o.memory))+" ("+o.memoryFrom+") reached", 1)
		}
	}
	row.fromReport(rep)
	return row
}

// fromReport fills the row in from the report of its check.
func (row *sweepRow) fromReport(rep *trace.Report) {
	row.report, row.figures = rep, true
	row.Verdict = trace.Holds
	for _, r := range rep.Verdicts {
		// The row shows the first violation, else the first unknown.
		if r.Verdict == trace.Violated || r.Verdict == trace.Unknown && row.Verdict == trace.Holds {
			row.Verdict, row.Kind, row.Reason = r.Verdict, r.Kind, r.Reason
			if r.Counterexample != nil {
				row.Depth = len(r.Counterexample.Steps)
			}
			if r.Verdict == trace.Violated {
				break
			}
		}
	}
	st := rep.Stats
	row.States, row.Transitions, row.Seconds, row.MemoryBytes, row.Complete = st.States, st.Transitions, st.Seconds, st.MemoryBytes, st.Complete
	row.StatesPerSec = st.StatesPerSec
	if row.StatesPerSec == 0 && st.Seconds > 0 {
		row.StatesPerSec = float64(st.States) / st.Seconds
	}
}

// sweepProperty is the property of a row's report when its check printed
// none (it was not started, was stopped or died first, or its combination
// is bad input): every property the check would have checked.
const sweepProperty = "*"

// asReport is the row as --json prints it: its check's report, or for a
// check that printed none, a report with one unknown verdict that says
// why (and for bad input, the message as its error), with the figures of
// the row.
func (row *sweepRow) asReport(model string) *trace.Report {
	if row.report != nil {
		rep := *row.report
		if rep.Defines == nil {
			rep.Defines = row.Defines
		}
		if rep.Params == nil {
			rep.Params = row.Params
		}
		return &rep
	}
	rep := &trace.Report{Model: model, Defines: row.Defines, Params: row.Params,
		Verdicts: []trace.Result{{Property: sweepProperty, Verdict: trace.Unknown, Reason: row.Reason}},
		Stats: trace.Stats{States: row.States, Transitions: row.Transitions, Seconds: row.Seconds,
			MemoryBytes: row.MemoryBytes, StatesPerSec: row.StatesPerSec}}
	if row.Verdict == "error" {
		rep.Error = row.Reason
		rep.Verdicts[0].Reason = "bad input: " + row.Reason
	}
	return rep
}

// unknownAt makes r the row of a check without a report, stopped for why
// (with detail, when not "") after the figures of its last progress line.
// A check that wrote none has no figures: the row does not say 0 states.
func (r *sweepRow) unknownAt(p explore.Progress, why, detail string) {
	r.Verdict, r.code = trace.Unknown, trace.ExitUnknown
	r.figures = p != explore.Progress{}
	r.Reason = why
	if r.figures {
		r.Reason = fmt.Sprintf("%s after %d states", why, p.States)
	}
	if detail != "" {
		r.Reason += " (" + detail + ")"
	}
	r.States, r.Transitions, r.MemoryBytes, r.Seconds = p.States, p.Transitions, p.MemoryBytes, p.Elapsed.Seconds()
	if p.Elapsed > 0 {
		r.StatesPerSec = float64(p.States) / p.Elapsed.Seconds()
	}
}

// exitKilled is what checkProcess returns for a check that a signal
// killed (the system's out-of-memory killer sends SIGKILL).
const exitKilled = -1

// stopGrace is how long a check has to print its report after the sweep
// passed a signal on to it; then it is killed.
var stopGrace = 10 * time.Second

// checkProcess runs ftmc check in a process of its own (this executable),
// so that each combination's memory figure and --memory limit are its own
// and -j runs them side by side. The check writes a progress line to
// stderr every second (progressEnv), so that a check that dies still says
// how far it got. When ctx is cancelled (the sweep got SIGINT or SIGTERM)
// the check gets the same signal and stopGrace to print its report, as
// unknown with its figures. Where the executable cannot be found it runs
// the check in this process.
func checkProcess(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		return run(&env{ctx: ctx, stdout: stdout, stderr: stderr}, args)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if os.Getenv(progressEnv) == "" {
		cmd.Env = append(os.Environ(), progressEnv+"=1")
	}
	cmd.SysProcAttr = checkProcAttr()
	cmd.Cancel = func() error { return stopCheck(cmd.Process, explore.StopCause(ctx)) }
	cmd.WaitDelay = stopGrace
	procmem.Spawning()
	err = cmd.Run()
	switch ps := cmd.ProcessState; {
	case ps != nil && ps.Exited():
		// Its own exit code, also when it ended after the sweep was
		// stopped (where Run returns the context's error).
		return ps.ExitCode()
	case ps != nil:
		fmt.Fprintf(stderr, "ftmc check: %v\n", err)
		return exitKilled // by a signal
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "ftmc check: not started")
		return trace.ExitUnknown
	}
	fmt.Fprintf(stderr, "ftmc check: %v\n", err)
	return trace.ExitUsage
}

// outOfMemoryRe matches what a Go program that runs out of memory says as
// it dies ("fatal error: out of memory", "runtime: out of memory: cannot
// allocate ...") and what the state store says when the system refuses it
// memory ("cannot allocate memory").
var outOfMemoryRe = regexp.MustCompile(`(?m)^.*(fatal error: out of memory|runtime: out of memory|cannot allocate memory).*$`)

// checkDied says why a check died without a report, out of memory or
// killed by a signal, and the details; "" for a check that ended by itself.
func checkDied(code int, stderr string) (why, detail string) {
	switch {
	case code == exitKilled:
		sig := strings.TrimPrefix(sweepFirstLine(stderr), "ftmc check: ")
		if strings.HasSuffix(sig, "killed") {
			return "killed", sig + "; likely the system out of memory"
		}
		return "killed", sig
	case code == trace.ExitUsage && outOfMemoryRe.MatchString(stderr):
		line := strings.TrimSpace(outOfMemoryRe.FindString(stderr))
		if strings.Contains(stderr, "\nfatal error: out of memory") {
			line = "fatal error: out of memory"
		}
		return "out of memory", "the check died: " + line
	}
	return "", ""
}

// trailName is the file a combination's report is saved in.
func (o *sweepOptions) trailName(c combination) string {
	base := strings.TrimSuffix(filepath.Base(o.model), filepath.Ext(o.model))
	var b strings.Builder
	b.WriteString(base)
	for _, d := range c {
		b.WriteString("_" + d.name + "=" + d.value)
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' {
			return '_'
		}
		return r
	}, b.String()) + ".json"
}

// run checks the combinations, jobs at a time, and prints the rows in
// order as soon as they and all before them are done.
func (o *sweepOptions) run(e *env, combos []combination) int {
	rows := make([]sweepRow, len(combos))
	done := make([]chan struct{}, len(combos))
	for i := range done {
		done[i] = make(chan struct{})
	}
	var bar *sweepProgress
	if o.progress {
		bar = newSweepProgress(e.stderr, len(combos))
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < o.jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if stop := explore.StopCause(e.ctx); stop != "" {
					rows[i] = newSweepRow(combos[i], o.defs.param)
					rows[i].Verdict, rows[i].Reason, rows[i].code = trace.Unknown, stop+" (not started)", trace.ExitUnknown
				} else {
					rows[i] = o.checkLive(e.ctx, combos[i], bar.start(i, combos[i]))
					bar.end(i)
				}
				close(done[i])
			}
		}()
	}
	go func() {
		for i := range combos {
			work <- i
		}
		close(work)
	}()

	out := newSweepTable(o, e.stdout, combos)
	out.header()
	code := trace.ExitHolds
	for i := range combos {
		<-done[i]
		bar.hold(func() { out.row(rows[i]) })
		switch {
		case rows[i].code == trace.ExitUsage:
			code = trace.ExitUsage
		case code == trace.ExitUsage:
		case rows[i].Verdict == trace.Violated:
			code = trace.ExitViolated
		case rows[i].Verdict == trace.Unknown && code == trace.ExitHolds:
			code = trace.ExitUnknown
		}
	}
	wg.Wait()
	bar.stop()
	if err := out.finish(); err != nil {
		fmt.Fprintf(e.stderr, "ftmc sweep: %v\n", err)
		return trace.ExitUsage
	}
	for _, r := range rows {
		// A row of no macros (the model as it stands) is not named.
		which := ""
		if len(r.combo) > 0 {
			which = r.combo.String() + ": "
		}
		if r.Verdict == "error" {
			fmt.Fprintf(e.stderr, "ftmc sweep: %s%s\n", which, r.Reason)
		}
		if r.warning != "" {
			fmt.Fprintf(e.stderr, "ftmc sweep: warning: %s%s\n", which, r.warning)
		}
	}
	return code
}

// sweepTable prints rows as text, CSV or JSON.
type sweepTable struct {
	o      *sweepOptions
	w      io.Writer
	names  []string
	widths []int // of the macro columns
	csv    *csv.Writer
	rows   []sweepRow
	notes  []string // the text table's reasons of unknown rows, printed below it
}

// kindWidth is the width of the text table's kind column: the longest kind
// ("non-progress cycle") and what stopped an unknown run ("memory limit").
const kindWidth = 18

func newSweepTable(o *sweepOptions, w io.Writer, combos []combination) *sweepTable {
	t := &sweepTable{o: o, w: w, names: o.defs.names}
	for i, n := range t.names {
		width := len(n)
		for _, c := range combos {
			width = max(width, len(c[i].value))
		}
		t.widths = append(t.widths, width)
	}
	if o.csv {
		t.csv = csv.NewWriter(w)
	}
	return t
}

func (t *sweepTable) header() {
	switch {
	case t.o.json:
	case t.o.csv:
		t.csv.Write(append(append([]string(nil), t.names...), "verdict", "kind", "reason", "states", "transitions", "depth", "seconds", "states_per_sec", "memory_bytes", "complete"))
	default:
		fmt.Fprintf(t.w, "%s\n", t.o.model)
		var b strings.Builder
		for i, n := range t.names {
			fmt.Fprintf(&b, "%-*s  ", t.widths[i], n)
		}
		fmt.Fprintf(&b, "%-8s  %-*s  %12s  %12s  %6s  %8s  %10s  %9s", "verdict", kindWidth, "kind", "states", "transitions", "depth", "seconds", "states/s", "memory")
		fmt.Fprintln(t.w, strings.TrimRight(b.String(), " "))
	}
}

func (t *sweepTable) row(r sweepRow) {
	switch {
	case t.o.json:
		t.rows = append(t.rows, r)
	case t.o.csv:
		rec := make([]string, 0, len(t.names)+10)
		for _, d := range r.combo {
			rec = append(rec, d.value)
		}
		depth := ""
		if r.Depth > 0 {
			depth = strconv.Itoa(r.Depth)
		}
		figures := []string{strconv.FormatInt(r.States, 10), strconv.FormatInt(r.Transitions, 10), depth,
			strconv.FormatFloat(r.Seconds, 'f', 3, 64), strconv.FormatFloat(r.StatesPerSec, 'f', 0, 64),
			strconv.FormatInt(r.MemoryBytes, 10)}
		if !r.figures {
			// Not started, or stopped before it said how far it got:
			// no figure is 0.
			figures = make([]string, len(figures))
		}
		rec = append(append(rec, string(r.Verdict), r.Kind, r.Reason), figures...)
		rec = append(rec, strconv.FormatBool(r.Complete))
		t.csv.Write(rec)
		t.csv.Flush()
	default:
		var b strings.Builder
		for i, d := range r.combo {
			fmt.Fprintf(&b, "%-*s  ", t.widths[i], d.value)
		}
		kind := r.Kind
		switch r.Verdict {
		case trace.Unknown:
			kind = shortReason(r.Reason)
			t.notes = append(t.notes, r.combo.String()+": "+r.Reason)
		case "error":
			kind = "" // the message goes to stderr
		}
		depth := ""
		if r.Depth > 0 {
			depth = strconv.Itoa(r.Depth)
		}
		rate := ""
		if r.StatesPerSec > 0 {
			rate = strconv.FormatFloat(r.StatesPerSec, 'f', 0, 64)
		}
		mem := ""
		if r.MemoryBytes > 0 {
			mem = fmt.Sprintf("%.1fMB", float64(r.MemoryBytes)/1e6)
		}
		states, transitions, secs := strconv.FormatInt(r.States, 10), strconv.FormatInt(r.Transitions, 10), strconv.FormatFloat(r.Seconds, 'f', 2, 64)
		if !r.figures {
			// The check did not run (bad input, not started) or was
			// stopped before it said how far it got.
			states, transitions, secs = "", "", ""
		}
		fmt.Fprintf(&b, "%-8s  %-*s  %12s  %12s  %6s  %8s  %10s  %9s", r.Verdict, kindWidth, kind, states, transitions, depth, secs, rate, mem)
		fmt.Fprintln(t.w, strings.TrimRight(b.String(), " "))
	}
}

func (t *sweepTable) finish() error {
	switch {
	case t.o.json:
		// The rows as the reports of their checks, in the format of
		// ftmc check --json.
		reps := make([]*trace.Report, len(t.rows))
		for i := range t.rows {
			reps[i] = t.rows[i].asReport(t.o.model)
		}
		return trace.WriteJSONList(t.w, reps)
	case t.o.csv:
		t.csv.Flush()
		return t.csv.Error()
	}
	if len(t.notes) > 0 {
		fmt.Fprintln(t.w)
		for _, n := range t.notes {
			fmt.Fprintln(t.w, n)
		}
	}
	return nil
}

// shortReason is what stopped an unknown run as the text table's kind
// column shows it: the reason up to the states it was reached at (which are
// in their own column) or to its details ("time limit 2m0s", "out of
// memory"), or only its words when that is too wide ("memory limit"). The
// whole reason is printed below the table.
func shortReason(s string) string {
	for _, sep := range []string{" reached after ", " after ", " (", ": ", "; "} {
		if i := strings.Index(s, sep); i >= 0 {
			s = s[:i]
		}
	}
	if len(s) <= kindWidth {
		return s
	}
	words := strings.Fields(s)
	for len(words) > 1 && (len(strings.Join(words, " ")) > kindWidth || words[len(words)-1][0] >= '0' && words[len(words)-1][0] <= '9') {
		words = words[:len(words)-1]
	}
	if w := strings.Join(words, " "); len(w) <= kindWidth {
		return w
	}
	return s[:kindWidth]
}

// sweepFirstLine is the first line of a check's stderr that is not a
// progress line.
func sweepFirstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "progress: ") {
			return line
		}
	}
	return ""
}

// sweepLive is the stderr of a running check, read as it comes: all of it,
// and the figures of its last progress line so far.
type sweepLive struct {
	combo combination
	start time.Time

	mu   sync.Mutex
	buf  bytes.Buffer
	line []byte // the last line, not ended yet
	last explore.Progress
}

// maxProgressLine bounds the part of a line kept to read it as a progress
// line: a longer one is not.
const maxProgressLine = 4096

func (l *sweepLive) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	l.line = append(l.line, p...)
	for {
		i := bytes.IndexByte(l.line, '\n')
		if i < 0 {
			break
		}
		if q := readProgress(string(l.line[:i])); q != (explore.Progress{}) {
			l.last = q
		}
		l.line = l.line[i+1:]
	}
	if len(l.line) > maxProgressLine {
		l.line = nil
	}
	return len(p), nil
}

// status is the running check as the progress line shows it.
func (l *sweepLive) status() string {
	l.mu.Lock()
	p := l.last
	l.mu.Unlock()
	var b strings.Builder
	if len(l.combo) > 0 {
		b.WriteString(l.combo.String() + " ")
	}
	b.WriteString(time.Since(l.start).Round(time.Second).String())
	if p != (explore.Progress{}) {
		fmt.Fprintf(&b, " %s states %s", count(p.States), explore.FormatBytes(p.MemoryBytes))
	}
	return b.String()
}

// sweepProgressEvery is how often the progress line is redrawn.
var sweepProgressEvery = time.Second

// maxProgressWidth keeps the progress line on one line of a terminal, so
// that it is redrawn in place.
const maxProgressWidth = 79

// sweepProgress draws the rows that run on one line of the terminal,
// redrawn in place every sweepProgressEvery: their combination, how long
// they have run, and their states and memory by their last progress line.
// A nil *sweepProgress draws nothing.
type sweepProgress struct {
	w     io.Writer
	total int
	done  chan struct{}
	ended chan struct{}

	mu      sync.Mutex
	running map[int]*sweepLive
	drawn   bool
}

func newSweepProgress(w io.Writer, total int) *sweepProgress {
	p := &sweepProgress{w: w, total: total, running: map[int]*sweepLive{}, done: make(chan struct{}), ended: make(chan struct{})}
	go func() {
		defer close(p.ended)
		tick := time.NewTicker(sweepProgressEvery)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-tick.C:
				p.draw()
			}
		}
	}()
	return p
}

// start registers row i as running and returns what reads its stderr.
func (p *sweepProgress) start(i int, c combination) *sweepLive {
	if p == nil {
		return nil
	}
	l := &sweepLive{combo: c, start: time.Now()}
	p.mu.Lock()
	p.running[i] = l
	p.mu.Unlock()
	return l
}

func (p *sweepProgress) end(i int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	delete(p.running, i)
	p.mu.Unlock()
}

func (p *sweepProgress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	var rows []int
	for i := range p.running {
		rows = append(rows, i)
	}
	if len(rows) == 0 {
		p.clearLocked()
		return
	}
	slices.Sort(rows)
	parts := make([]string, len(rows))
	for k, i := range rows {
		parts[k] = fmt.Sprintf("[%d/%d] %s", i+1, p.total, p.running[i].status())
	}
	line := strings.Join(parts, " | ")
	if r := []rune(line); len(r) > maxProgressWidth {
		line = string(r[:maxProgressWidth-3]) + "..."
	}
	fmt.Fprint(p.w, "\r\033[K"+line)
	p.drawn = true
}

func (p *sweepProgress) clearLocked() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// hold runs print (a row of the table) with the progress line cleared;
// it is drawn again at the next tick.
func (p *sweepProgress) hold(print func()) {
	if p == nil {
		print()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	print()
}

// stop ends the drawing and clears the line.
func (p *sweepProgress) stop() {
	if p == nil {
		return
	}
	close(p.done)
	<-p.ended
	p.mu.Lock()
	p.clearLocked()
	p.mu.Unlock()
}
