package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"ftmc/explore"
	"ftmc/state"
	"ftmc/trace"
)

// explicitOptions are the flags of every explicit-state search, whatever the
// front end (Promela, threshold-automaton instances, ...).
type explicitOptions struct {
	bfs, dfs bool
	compress bool
	limits   limits
	depth    int
	noReduce bool // --no-reduce: no partial-order reduction
	noMerge  bool // --no-merge: no statement merging (Promela)
	json     bool
	quiet    bool
	files    reportFiles // --trail, --msc, --msc-text
	profile  string      // --cpuprofile: a CPU profile of the search, for performance work
	since    time.Time   // when the command line was read: --time counts from here

	flags *flag.FlagSet // tells a --memory given from none

	// --bitstate, --bitstate-bits, --hash-compact: lossy state storage
	bitstate, hashCompact bool
	bitstateBits          int
}

// defaultWorkers is the number of workers of a breadth-first search
// without -j: the cores the process may use, as many as the search takes.
func defaultWorkers() int {
	return min(runtime.GOMAXPROCS(0), explore.MaxWorkers)
}

// defaultMemoryLimit is the memory limit of a search without --memory
// (explore.DefaultMemoryLimit; tests replace it).
var defaultMemoryLimit = explore.DefaultMemoryLimit

// progressEnv names the environment variable that asks a search for a
// progress line on stderr every second (FTMC_PROGRESS=1) or at another
// interval (FTMC_PROGRESS=10s) whatever stderr is: ftmc sweep sets it for
// its checks, so that a check that dies still says how far it got.
const progressEnv = "FTMC_PROGRESS"

// progressLines is the interval progressEnv asks for (0: none).
func progressLines() time.Duration {
	v := os.Getenv(progressEnv)
	if v == "1" {
		return time.Second
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0
	}
	return d
}

func (o *explicitOptions) register(fs *flag.FlagSet) {
	o.since = time.Now()
	fs.BoolVar(&o.bfs, "bfs", false, "breadth-first search: shortest counterexamples (the default)")
	fs.BoolVar(&o.dfs, "dfs", false, "depth-first search, as Spin's pan")
	fs.BoolVar(&o.compress, "compress", false, "keep the states tree-compressed: a fraction of the memory, more time per state")
	fs.BoolVar(&o.bitstate, "bitstate", false, "lossy storage, as Spin's -DBITSTATE: a state sets 3 bits in a bit array (--bitstate-bits); a depth-first search on one worker that may miss states, so it never says holds (safety only)")
	fs.IntVar(&o.bitstateBits, "bitstate-bits", explore.DefaultBitstateBits, fmt.Sprintf("with --bitstate: the bit array has 2^`LOG2` bits (%d to %d; 32: 512 MiB, as Spin's -w32)", explore.MinBitstateBits, explore.MaxBitstateBits))
	fs.BoolVar(&o.hashCompact, "hash-compact", false, "lossy storage, as Spin's -DHC: a state is a 64-bit fingerprint in a table that grows as needed; a depth-first search on one worker that may miss states, so it never says holds (safety only)")
	o.limits.register(fs)
	if f := fs.Lookup("j"); f != nil {
		o.limits.jobs = defaultWorkers()
		f.DefValue = strconv.Itoa(o.limits.jobs)
		f.Usage = "workers of the breadth-first safety search, by default as many as there are cores (the depth-first search runs on one without -j); given, also of the depth-first search and of the LTL cycle search without partial-order reduction (CNDFS; without -j it runs on one)"
	}
	if f := fs.Lookup("memory"); f != nil {
		f.Usage = fmt.Sprintf("stop when the process's memory reaches this with verdict unknown (e.g. 8GB; default: %.0f%% of the machine's memory; 0: no limit)", explore.DefaultMemoryShare*100)
	}
	o.flags = fs
	fs.IntVar(&o.depth, "depth", 0, "do not expand states this many steps deep; the verdict is then unknown unless a violation is found (0: no bound)")
	fs.BoolVar(&o.noReduce, "no-reduce", false, "no partial-order reduction: expand every process in every state (the reduction, on by default, preserves the verdicts of safety searches and of LTL properties without X, and stores fewer states)")
	fs.BoolVar(&o.noMerge, "no-merge", false, "no statement merging: store the state after every statement of a Promela model (merging, on by default in the safety search and in the LTL searches whose property cannot see it, runs a process's local statements in one step, as Spin does unless -o3)")
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	o.files.register(fs)
	fs.BoolVar(&o.quiet, "quiet", false, "print only the verdict lines (and warnings, on standard error)")
	fs.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of the search to `FILE` (go tool pprof reads it)")
}

// searchOptions checks the flags and turns them into the engine's options.
func (o *explicitOptions) searchOptions() (explore.Options, error) {
	var so explore.Options
	switch {
	case o.bfs && o.dfs:
		return so, fmt.Errorf("--bfs and --dfs exclude each other")
	case o.limits.time < 0 || o.limits.memory < 0 || o.depth < 0:
		return so, fmt.Errorf("--time, --memory and --depth must not be negative")
	case o.limits.jobs < 1 || o.limits.jobs > explore.MaxWorkers:
		return so, fmt.Errorf("-j %d: expected 1 to %d workers", o.limits.jobs, explore.MaxWorkers)
	}
	lossy, err := o.lossy()
	if err != nil {
		return so, err
	}
	// The run's budget, which also bounds its context (bound): each
	// search watches the memory of its store's table itself.
	so = o.budget().Search()
	if o.dfs {
		so.Order = explore.DepthFirst
	}
	so.MaxDepth = o.depth
	so.Workers = o.limits.jobs
	if so.Order == explore.DepthFirst && (o.flags == nil || !flagGiven(o.flags, "j")) {
		// Depth-first on several workers only when -j asks for them: it
		// keeps a parent per state, and its reduction's proviso is
		// weaker (explore/pdfs.go), so one worker may do better.
		so.Workers = 1
	}
	so.Compress = o.compress
	// A store that would not fit the memory limit plain goes on
	// compressed; one that fits is not slowed.
	so.AutoCompress = true
	so.Reduce = !o.noReduce
	if lossy != explore.Exact {
		so.Order, so.Lossy, so.LossyBits = explore.DepthFirst, lossy, o.bitstateBits
		so.Workers, so.AutoCompress = 1, false
	}
	return so, nil
}

// lossy checks the flags of lossy storage and returns the mode they ask
// for. Its search is depth-first, on one worker, with the vectors
// uncompressed.
func (o *explicitOptions) lossy() (explore.LossyMode, error) {
	mode, name := explore.Exact, ""
	switch {
	case o.bitstate && o.hashCompact:
		return mode, fmt.Errorf("--bitstate and --hash-compact exclude each other")
	case o.bitstate:
		mode, name = explore.Bitstate, "--bitstate"
	case o.hashCompact:
		mode, name = explore.HashCompact, "--hash-compact"
	}
	bitsGiven := o.flags != nil && flagGiven(o.flags, "bitstate-bits")
	switch {
	case bitsGiven && !o.bitstate:
		return mode, fmt.Errorf("--bitstate-bits is the size of --bitstate's bit array: give --bitstate too")
	case o.bitstateBits < explore.MinBitstateBits || o.bitstateBits > explore.MaxBitstateBits:
		return mode, fmt.Errorf("--bitstate-bits %d: expected %d to %d (the log2 of the bit array's size)", o.bitstateBits, explore.MinBitstateBits, explore.MaxBitstateBits)
	case mode == explore.Exact:
		return mode, nil
	case o.bfs:
		return mode, fmt.Errorf("%s with --bfs: lossy storage is for the depth-first search", name)
	case o.compress:
		return mode, fmt.Errorf("%s with --compress: %v", name, explore.ErrLossyCompress)
	case o.limits.jobs > 1 && o.flags != nil && flagGiven(o.flags, "j"):
		return mode, fmt.Errorf("%s with -j %d: the lossy search is depth-first, on one worker", name, o.limits.jobs)
	}
	return mode, nil
}

// lossyFlag names the lossy storage flag given ("" for none), for the
// commands that refuse it.
func (o *explicitOptions) lossyFlag() string {
	switch {
	case o.bitstate:
		return "--bitstate"
	case o.hashCompact:
		return "--hash-compact"
	}
	return ""
}

// budget is what the whole check may spend (limits.budget): --time from
// the reading of the command line, --memory or check's default.
func (o *explicitOptions) budget() explore.Budget {
	return o.limits.budget(o.flags, o.since)
}

// bound is ctx bounded by the check's budget, for the whole run: the
// reading of the model and every search, each of which has what is left.
// The collector's soft limit stays as it is: the watch would set it to the
// limit, and near it the collector runs without end while the reading's
// memory is live. The searches keep their own memory, whose hash tables
// are outside the Go heap, under the limit themselves (explore.Watch).
func (o *explicitOptions) bound(ctx context.Context) (context.Context, func()) {
	old := debug.SetMemoryLimit(-1)
	ctx, stop := o.budget().Bound(ctx)
	debug.SetMemoryLimit(old)
	return ctx, stop
}

// runExplicit searches the states of m, prints the report (statistics, the
// verdict line, the counterexample; or JSON) and returns the exit code. rep
// carries what the caller knows about the run (model, defines, parameters);
// runExplicit fills in the engine, verdicts and statistics.
func runExplicit(e *env, m state.Model, opts explicitOptions, rep *trace.Report) int {
	so, err := opts.searchOptions()
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return trace.ExitUsage
	}
	if so.Workers > 1 && so.Order == explore.DepthFirst && so.MaxDepth > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("-j %d: the depth-first search with --depth runs on one worker", opts.limits.jobs))
	}
	var bar *progressLine
	switch {
	case progressLines() > 0:
		so.Progress = func(p explore.Progress) { writeProgress(e.stderr, p) }
		so.ProgressInterval = progressLines()
	case e.terminal && !opts.quiet && !opts.json:
		bar = &progressLine{w: e.stderr}
		so.Progress = bar.draw
	}
	stopProfile, err := startProfile(opts.profile)
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return trace.ExitUsage
	}
	res, st, err := explore.Run(e.ctx, m, so)
	stopProfile()
	bar.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc check: %v\n", err)
		return trace.ExitUsage
	}
	rep.Engine = "explicit " + map[explore.Order]string{explore.BreadthFirst: "bfs", explore.DepthFirst: "dfs"}[so.Order]
	if so.Order == explore.DepthFirst && so.Workers > 1 && so.MaxDepth <= 0 {
		rep.Engine += fmt.Sprintf(" on %d workers", so.Workers)
	}
	rep.Verdicts = append(rep.Verdicts, res)
	rep.Stats = st
	if mm, ok := m.(interface{ Merging() bool }); ok {
		rep.Stats.Merging = mm.Merging()
	}
	return opts.printReport(e, rep)
}

// prepare checks the flags for a search of model: their values
// (searchOptions) and the files they name (checkOutputs).
func (o *explicitOptions) prepare(model string) (explore.Options, error) {
	so, err := o.searchOptions()
	if err == nil {
		err = o.checkOutputs(model)
	}
	return so, err
}

// checkOutputs makes sure, before the search, that the files the flags
// name (--trail, --msc, --cpuprofile) can be written (reportFiles).
func (o *explicitOptions) checkOutputs(model string) error {
	return o.files.checkOutputs(model, namedPath{"cpuprofile", o.profile})
}

// printReport saves, prints and draws the report (reportFiles.finish): as
// JSON, the verdict lines with --quiet, or text; and returns the verdicts'
// exit code.
func (o *explicitOptions) printReport(e *env, rep *trace.Report) int {
	return o.files.finish(e, "ftmc check", rep, o.json, func() int {
		code := trace.ExitCode(rep.Verdicts)
		switch {
		case o.json:
			if err := writeJSON(e.stdout, rep); err != nil {
				return reportWriteFailure(e.stderr, err, code)
			}
		case o.quiet:
			writeVerdicts(e.stdout, rep.Verdicts)
			writeWarnings(e.stderr, rep.Warnings)
		default:
			trace.WriteText(e.stdout, rep)
		}
		return code
	})
}

// startProfile starts a CPU profile into path (none when path is empty) and
// returns the function that ends it.
func startProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := createOutput(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func writeTrail(path string, rep *trace.Report) error {
	var b bytes.Buffer
	if err := trace.WriteJSON(&b, rep); err != nil {
		return err
	}
	return writeOutput(path, b.Bytes())
}

// progressLine draws the search's progress on one terminal line, redrawn in
// place about once a second.
type progressLine struct {
	w     io.Writer
	drawn bool
}

func (p *progressLine) draw(pr explore.Progress) {
	fmt.Fprintf(p.w, "\r\033[K%s states  %s/s  depth %d  queue %s  memory %s  %s",
		count(pr.States), count(int64(pr.StatesPerSec)), pr.Depth, count(pr.Queue),
		explore.FormatBytes(pr.MemoryBytes), pr.Elapsed.Round(time.Second))
	p.drawn = true
}

func (p *progressLine) clear() {
	if p != nil && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// writeProgress writes a progress line as ftmc sweep reads it back
// (readProgress).
func writeProgress(w io.Writer, p explore.Progress) {
	fmt.Fprintf(w, "progress: states=%d transitions=%d depth=%d memory_bytes=%d seconds=%.3f\n",
		p.States, p.Transitions, p.Depth, p.MemoryBytes, p.Elapsed.Seconds())
}

// readProgress is the last progress line a check wrote (writeProgress).
func readProgress(stderr string) explore.Progress {
	var p explore.Progress
	for _, line := range strings.Split(stderr, "\n") {
		rest, ok := strings.CutPrefix(line, "progress: ")
		if !ok {
			continue
		}
		var q explore.Progress
		var secs float64
		if _, err := fmt.Sscanf(rest, "states=%d transitions=%d depth=%d memory_bytes=%d seconds=%g", &q.States, &q.Transitions, &q.Depth, &q.MemoryBytes, &secs); err == nil {
			q.Elapsed = time.Duration(secs * float64(time.Second))
			p = q
		}
	}
	return p
}

// count writes a number as 1234, 12.3k, 4.56M.
func count(n int64) string {
	switch {
	case n < 10_000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	case n < 1_000_000_000:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2fG", float64(n)/1e9)
}
