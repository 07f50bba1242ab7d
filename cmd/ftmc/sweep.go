package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"ftmc/trace"
)

const sweepUsage = `usage: ftmc sweep MODEL -D NAME=V1,V2,... [-D NAME=V]... [flags]

Runs ftmc check on MODEL once per combination of the macro values (the
cross product, the first -D varying slowest) and prints one row each:
the values, verdict and kind, states, transitions, the depth of the
counterexample (steps), seconds, states per second and memory.
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
	fs.Var(&o.defs, "D", "macro `NAME=V1,V2,...`: one run per value (repeatable)")
	fs.BoolVar(&o.csv, "csv", false, "print the table as CSV")
	fs.BoolVar(&o.json, "json", false, "print the table as JSON")
	fs.IntVar(&o.jobs, "j", 1, "run this many combinations at the same time")
	fs.DurationVar(&o.time, "time", 0, "time limit per combination (e.g. 10m; 0: none); a run cut short is unknown")
	fs.Var(&o.memory, "memory", "memory limit per combination (e.g. 8GB; 0: none)")
	fs.BoolVar(&o.bfs, "bfs", false, "breadth-first search (the default): states until the first counterexample in BFS order")
	fs.BoolVar(&o.dfs, "dfs", false, "depth-first search")
	fs.IntVar(&o.depth, "depth", 0, "do not expand states this many steps deep (0: no bound)")
	fs.StringVar(&o.trails, "trails", "", "save each combination's report (with its counterexample) as JSON in `DIR`, for ftmc trace")
	pos, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return trace.ExitUsage
	}
	if len(pos) != 1 {
		fmt.Fprint(e.stderr, sweepUsage)
		return trace.ExitUsage
	}
	if o.csv && o.json {
		fmt.Fprintln(e.stderr, "ftmc sweep: --csv and --json exclude each other")
		return trace.ExitUsage
	}
	if o.jobs < 1 {
		fmt.Fprintln(e.stderr, "ftmc sweep: -j must be at least 1")
		return trace.ExitUsage
	}
	o.model = pos[0]
	if _, err := os.Stat(o.model); err != nil {
		fmt.Fprintf(e.stderr, "ftmc sweep: %v\n", err)
		return trace.ExitUsage
	}
	combos, err := o.combinations()
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc sweep: %v\n", err)
		return trace.ExitUsage
	}
	if o.trails != "" {
		if err := os.MkdirAll(o.trails, 0o755); err != nil {
			fmt.Fprintf(e.stderr, "ftmc sweep: %v\n", err)
			return trace.ExitUsage
		}
	}
	return o.run(e, combos)
}

// sweepOptions are the flags of a sweep.
type sweepOptions struct {
	model     string
	defs      defines
	csv, json bool
	jobs      int
	time      time.Duration
	memory    byteSize
	bfs, dfs  bool
	depth     int
	trails    string

	// check runs one ftmc check command line; tests replace it.
	check func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// A combination is one value per macro, in the order of the -D flags.
type combination []define

type define struct{ name, value string }

func (c combination) String() string {
	parts := make([]string, len(c))
	for i, d := range c {
		parts[i] = d.name + "=" + d.value
	}
	return strings.Join(parts, " ")
}

// combinations is the cross product of the -D values, the first macro
// varying slowest (so rows group as in the paper's Table 1).
func (o *sweepOptions) combinations() ([]combination, error) {
	combos := []combination{nil}
	for _, name := range o.defs.names {
		var vals []string
		for _, v := range strings.Split(o.defs.values[name], ",") {
			v = strings.TrimSpace(v)
			if v == "" {
				return nil, fmt.Errorf("-D %s=%s: expected NAME=V1,V2,... without empty values", name, o.defs.values[name])
			}
			vals = append(vals, v)
		}
		var next []combination
		for _, c := range combos {
			for _, v := range vals {
				next = append(next, append(append(combination(nil), c...), define{name, v}))
			}
		}
		combos = next
	}
	return combos, nil
}

// checkArgs is the ftmc check command line of one combination.
func (o *sweepOptions) checkArgs(c combination) []string {
	args := []string{"check", o.model, "--json"}
	for _, d := range c {
		args = append(args, "-D", d.name+"="+d.value)
	}
	if o.time > 0 {
		args = append(args, "--time", o.time.String())
	}
	if o.memory > 0 {
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
	return args
}

// A sweepRow is the outcome of one combination.
type sweepRow struct {
	Defines      map[string]string `json:"defines"`
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

	combo combination
	code  int
}

// checkOne runs ftmc check on one combination and reads its report: the
// sweep reuses check's machinery whatever the model's language.
func (o *sweepOptions) checkOne(ctx context.Context, c combination) sweepRow {
	row := sweepRow{Defines: map[string]string{}, combo: c}
	for _, d := range c {
		row.Defines[d.name] = d.value
	}
	var stdout, stderr bytes.Buffer
	check := o.check
	if check == nil {
		check = checkProcess
	}
	row.code = check(ctx, o.checkArgs(c), &stdout, &stderr)
	if ctx.Err() != nil {
		row.Verdict, row.Reason, row.code = trace.Unknown, "interrupted", trace.ExitUnknown
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
		if err := writeTrail(filepath.Join(o.trails, o.trailName(c)), rep); err != nil {
			row.Verdict, row.Reason, row.code = "error", err.Error(), trace.ExitUsage
			return row
		}
	}
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
	return row
}

// checkProcess runs ftmc check in a process of its own (this executable),
// so that each combination's memory figure and --memory limit are its own
// and -j runs them side by side. Where the executable cannot be found it
// runs the check in this process.
func checkProcess(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		return run(&env{ctx: ctx, stdout: stdout, stderr: stderr}, args)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() >= 0 {
			return ee.ExitCode()
		}
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "interrupted")
			return trace.ExitUnknown
		}
		fmt.Fprintf(stderr, "ftmc check: %v\n", err)
		return trace.ExitUsage
	}
	return trace.ExitHolds
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
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < o.jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if e.ctx.Err() != nil {
					rows[i] = sweepRow{Defines: map[string]string{}, combo: combos[i], Verdict: trace.Unknown, Reason: "interrupted", code: trace.ExitUnknown}
				} else {
					rows[i] = o.checkOne(e.ctx, combos[i])
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
		out.row(rows[i])
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
	if err := out.finish(); err != nil {
		fmt.Fprintf(e.stderr, "ftmc sweep: %v\n", err)
		return trace.ExitUsage
	}
	for _, r := range rows {
		if r.Verdict == "error" {
			fmt.Fprintf(e.stderr, "ftmc sweep: %s: %s\n", r.combo, r.Reason)
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
}

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
		fmt.Fprintf(&b, "%-8s  %-17s  %12s  %12s  %6s  %8s  %10s  %9s", "verdict", "kind", "states", "transitions", "depth", "seconds", "states/s", "memory")
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
		rec = append(rec, string(r.Verdict), r.Kind, r.Reason,
			strconv.FormatInt(r.States, 10), strconv.FormatInt(r.Transitions, 10), depth,
			strconv.FormatFloat(r.Seconds, 'f', 3, 64), strconv.FormatFloat(r.StatesPerSec, 'f', 0, 64),
			strconv.FormatInt(r.MemoryBytes, 10), strconv.FormatBool(r.Complete))
		t.csv.Write(rec)
		t.csv.Flush()
	default:
		var b strings.Builder
		for i, d := range r.combo {
			fmt.Fprintf(&b, "%-*s  ", t.widths[i], d.value)
		}
		kind := r.Kind
		if r.Verdict == trace.Unknown || r.Verdict == "error" {
			kind = shortReason(r.Reason)
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
		fmt.Fprintf(&b, "%-8s  %-17s  %12d  %12d  %6s  %8.2f  %10s  %9s", r.Verdict, kind, r.States, r.Transitions, depth, r.Seconds, rate, mem)
		fmt.Fprintln(t.w, strings.TrimRight(b.String(), " "))
	}
}

func (t *sweepTable) finish() error {
	switch {
	case t.o.json:
		enc := json.NewEncoder(t.w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Model  string     `json:"model"`
			Macros []string   `json:"macros"`
			Rows   []sweepRow `json:"rows"`
		}{t.o.model, t.names, t.rows})
	case t.o.csv:
		t.csv.Flush()
		return t.csv.Error()
	}
	return nil
}

// reachedRe is the tail of a limit's reason that the row's states column
// already says ("time limit 2m0s reached after 123 states").
var reachedRe = regexp.MustCompile(` reached after \d+ states`)

// shortReason is a reason as the text table shows it: a limit without
// the states it was reached at, which are in their own column.
func shortReason(s string) string {
	return reachedRe.ReplaceAllString(s, "")
}

func sweepFirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
