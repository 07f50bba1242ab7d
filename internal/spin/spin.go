// Package spin runs Spin, the reference model checker for Promela, as an
// oracle: it generates a verifier (spin -a), compiles it (gcc), runs it (pan)
// in a fresh temporary directory and reads the verdict and the statistics
// from pan's report.
//
// ftmc's tests compare their own verdicts and state counts against these.
// By default Run switches off Spin's data-flow optimisations and statement
// merging (-o1 -o2 -o3) and partial-order reduction (-DNOREDUCE), because
// with those off Spin stores exactly one state per reachable global state,
// which is what ftmc counts.
//
// A search that pan cut short (the depth limit -m was too small, memory ran
// out) has verdict Unknown, never Holds.
package spin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"ftmc/internal/procmem"
	"ftmc/state"
	"ftmc/trace"
)

// Mode is the kind of search pan performs.
type Mode int

const (
	// Safety checks assertions, run-time errors and invalid end states
	// (cc -DSAFETY; pan without -a/-l).
	Safety Mode = iota
	// Acceptance searches for acceptance cycles of a never claim or an ltl
	// block (pan -a).
	Acceptance
	// NonProgress searches for cycles through no progress label (cc -DNP,
	// pan -l).
	NonProgress
)

func (m Mode) String() string {
	switch m {
	case Safety:
		return "safety"
	case Acceptance:
		return "acceptance"
	case NonProgress:
		return "non-progress"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// DefaultDepth is pan's search depth limit (-m) when Options.Depth is zero.
// pan's own default (10000) silently truncates many searches.
const DefaultDepth = 1000000

// maxVectorSize bounds the automatic retries when pan reports that its
// state vector (VECTORSZ) is too small.
const maxVectorSize = 1 << 20

// Options say how to run the oracle. The zero value is a safety search
// without optimisations or partial-order reduction, as ftmc's tests need.
type Options struct {
	// Defines are macro definitions NAME or NAME=VALUE, passed as -D to
	// Spin's preprocessor.
	Defines []string
	Mode    Mode
	// Fair asks for weak fairness (pan -f) in Acceptance and NonProgress
	// modes.
	Fair bool
	// LTL names the ltl block to check (pan -N NAME); empty: the first.
	LTL string
	// Formula is an LTL formula given to spin -f: Spin turns it into a never
	// claim, so it must be the negation of the property to verify.
	Formula string
	// Optimize keeps Spin's optimisations (no -o1 -o2 -o3). State counts
	// are then not comparable with ftmc's.
	Optimize bool
	// Reduce keeps partial-order reduction (no -DNOREDUCE).
	Reduce bool
	// Depth is pan's depth limit -m; 0 means DefaultDepth.
	Depth int
	// VectorSize is cc -DVECTORSZ=N; 0 leaves pan's default and retries
	// with a larger one when pan reports that the vector does not fit.
	VectorSize int
	// HashBits is pan -wN (a hash table of 2^N slots); 0 leaves pan's
	// default (24). It changes speed and memory, not the counts.
	HashBits int
	// CCOpt is the compiler's optimisation flag; empty means -O2. -O0
	// compiles several times faster, which suits small models.
	CCOpt string
	// SpinArgs, CCArgs and PanArgs are appended to the respective command
	// lines, for what the fields above do not cover.
	SpinArgs, CCArgs, PanArgs []string
	// Dir is the working directory; empty means a fresh temporary
	// directory, removed afterwards.
	Dir string
}

// Result is pan's report on one search.
type Result struct {
	Verdict trace.Verdict
	// Kind is one of state's Kind constants when Verdict is Violated.
	Kind string
	// Message is pan's error line without the "pan:1: " prefix and the
	// depth, e.g. "assertion violated (x!=20)".
	Message string
	// Reason says why a search is incomplete (Verdict Unknown).
	Reason string
	// Complete reports that pan searched the whole state space. A search
	// that stops at its first violation is not complete.
	Complete bool

	States      int64 // states stored
	Visited     int64 // states visited (nested searches visit states twice); equals States otherwise
	Matched     int64
	Transitions int64
	AtomicSteps int64
	Depth       int64 // depth reached
	VectorBytes int   // state-vector size in bytes
	Errors      int
	MemoryMB    float64 // total actual memory usage, in megabytes (2^20 bytes)
	Seconds     float64 // pan's elapsed time

	// Commands are the command lines run, in order, for messages.
	Commands []string
	// SpinNotes are the messages spin -a printed about a model it still
	// translated (such as "dubious use of 'else' combined with i/o").
	SpinNotes []string
	// Output is pan's standard output and error.
	Output string
}

// Stats returns the figures in ftmc's form.
func (r *Result) Stats() trace.Stats {
	return trace.Stats{
		States:      r.States,
		Transitions: r.Transitions,
		Seconds:     r.Seconds,
		MemoryBytes: int64(r.MemoryMB * (1 << 20)),
		Matched:     r.Matched,
		Depth:       r.Depth,
		VectorBytes: r.VectorBytes,
		Complete:    r.Complete,
	}
}

func (r *Result) String() string {
	var b strings.Builder
	b.WriteString(string(r.Verdict))
	if r.Kind != "" {
		fmt.Fprintf(&b, " (%s)", r.Kind)
	}
	if r.Message != "" {
		fmt.Fprintf(&b, ": %s", r.Message)
	}
	if r.Reason != "" {
		fmt.Fprintf(&b, ": %s", r.Reason)
	}
	fmt.Fprintf(&b, "; %d states, %d transitions, depth %d", r.States, r.Transitions, r.Depth)
	return b.String()
}

// Error is a failure to get a verdict: Spin rejected the model, the
// verifier did not compile, or pan crashed.
type Error struct {
	Stage   string // "spin", "cc" or "pan"
	Command string
	Output  string
	Err     error
}

func (e *Error) Error() string {
	out := strings.TrimSpace(e.Output)
	if len(out) > 2000 {
		out = out[:2000] + "\n..."
	}
	return fmt.Sprintf("%s failed (%v): %s\n%s", e.Stage, e.Err, e.Command, out)
}

func (e *Error) Unwrap() error { return e.Err }

// Run checks the model in file with Spin. The model's #include lines are
// resolved relative to its own directory, as Spin does.
func Run(ctx context.Context, file string, opts Options) (*Result, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	dir := opts.Dir
	if dir == "" {
		dir, err = os.MkdirTemp("", "ftmc-spin-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	var cmds []string
	// spin writes pan.[chmbtp] into its working directory; pan writes its
	// trail there too (named after the model's base name), never beside the
	// model.
	spinArgs := spinCommand(abs, opts)
	spinOut, err := runCmd(ctx, dir, "spin", spinArgs, &cmds)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "pan.c")); err != nil {
		return nil, &Error{Stage: "spin", Command: cmds[0], Output: spinOut, Err: errors.New("no verifier was written")}
	}
	vsz := opts.VectorSize
	for {
		if _, err := runCmd(ctx, dir, "gcc", ccCommand(opts, vsz), &cmds); err != nil {
			return nil, err
		}
		out, err := runCmd(ctx, dir, "./pan", panCommand(opts), &cmds)
		if err != nil {
			return nil, err
		}
		if need := vectorTooSmall(out, vsz); need > 0 && opts.VectorSize == 0 && need < maxVectorSize {
			// pan says how large the vector grew (or only that it did not
			// fit); give it room to grow on.
			vsz = 2 * need
			continue
		}
		r, err := Parse(out)
		if err != nil {
			return nil, &Error{Stage: "pan", Command: cmds[len(cmds)-1], Output: out, Err: err}
		}
		r.Commands = cmds
		r.SpinNotes = spinNotes(spinOut)
		return r, nil
	}
}

func spinCommand(model string, opts Options) []string {
	args := []string{"-a"}
	if !opts.Optimize {
		args = append(args, "-o1", "-o2", "-o3")
	}
	for _, d := range opts.Defines {
		args = append(args, "-D"+d)
	}
	if opts.Formula != "" {
		args = append(args, "-f", opts.Formula)
	}
	args = append(args, opts.SpinArgs...)
	return append(args, model)
}

func ccCommand(opts Options, vsz int) []string {
	opt := opts.CCOpt
	if opt == "" {
		opt = "-O2"
	}
	args := []string{opt}
	switch opts.Mode {
	case Safety:
		args = append(args, "-DSAFETY")
	case NonProgress:
		args = append(args, "-DNP")
	}
	if !opts.Reduce {
		args = append(args, "-DNOREDUCE")
	}
	if vsz > 0 {
		args = append(args, fmt.Sprintf("-DVECTORSZ=%d", vsz))
	}
	args = append(args, opts.CCArgs...)
	return append(args, "-o", "pan", "pan.c")
}

func panCommand(opts Options) []string {
	depth := opts.Depth
	if depth <= 0 {
		depth = DefaultDepth
	}
	args := []string{fmt.Sprintf("-m%d", depth)}
	switch opts.Mode {
	case Acceptance:
		args = append(args, "-a")
	case NonProgress:
		args = append(args, "-l")
	}
	if opts.Fair && opts.Mode != Safety {
		args = append(args, "-f")
	}
	if opts.LTL != "" {
		args = append(args, "-N", opts.LTL)
	}
	if opts.HashBits > 0 {
		args = append(args, fmt.Sprintf("-w%d", opts.HashBits))
	}
	// -n: no listing of unreached states, which can be long and says nothing
	// about the verdict.
	args = append(args, "-n")
	return append(args, opts.PanArgs...)
}

// runCmd runs name in dir and returns its combined output; a non-zero exit
// or a signal is an *Error.
func runCmd(ctx context.Context, dir, name string, args []string, log *[]string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	line := name + " " + quoteArgs(args)
	*log = append(*log, line)
	procmem.Spawning()
	err := cmd.Run()
	if err != nil {
		stage := map[string]string{"spin": "spin", "gcc": "cc", "./pan": "pan"}[name]
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %v", ctx.Err(), err)
		}
		return out.String(), &Error{Stage: stage, Command: line, Output: out.String(), Err: err}
	}
	return out.String(), nil
}

// spinNotes returns what spin -a printed about a model it translated:
// Spin reports some dubious constructs as "Error" without rejecting the
// model.
func spinNotes(out string) []string {
	var notes []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "spin: ") {
			notes = append(notes, strings.TrimSpace(l))
		}
	}
	return notes
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"!()[]<>&|;$*?") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

var vectorRe = regexp.MustCompile(`VECTORSZ too small, recompile pan\.c with -DVECTORSZ=N with N>(\d+)`)

// defaultVectorSize is pan's VECTORSZ when cc does not set it.
const defaultVectorSize = 1024

// vectorTooSmall returns the vector size pan needs at least, or 0 when the
// vector fitted. pan says either how large the vector grew (when a state
// is stored) or only that it did not fit (when a process or channel is
// added); then the current size, vsz (0: pan's default), is the bound.
func vectorTooSmall(out string, vsz int) int {
	if m := vectorRe.FindStringSubmatch(out); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if strings.Contains(out, "VECTORSZ is too small") {
		if vsz == 0 {
			vsz = defaultVectorSize
		}
		return vsz
	}
	return 0
}

var (
	errorRe    = regexp.MustCompile(`(?m)^pan:\d+: (.*?)(?: \(at depth -?\d+\))?$`)
	vectorLine = regexp.MustCompile(`(?m)^State-vector (\d+) byte, depth reached (\d+), errors: (\d+)`)
	countRe    = regexp.MustCompile(`(?m)^\s*([0-9.e+]+) (states, stored|states, matched|transitions \(=|atomic steps)(?: \(([0-9.e+]+) visited\))?`)
	memoryRe   = regexp.MustCompile(`(?m)^\s*([0-9.]+)\s+total actual memory usage`)
	elapsedRe  = regexp.MustCompile(`(?m)^pan: elapsed time ([0-9.e+-]+) seconds`)
)

// kindOf maps pan's error messages to ftmc's failure kinds.
func kindOf(msg string) string {
	switch {
	case strings.Contains(msg, "invalid array index"),
		strings.Contains(msg, "uninitialized chan"),
		strings.Contains(msg, "too many processes"),
		strings.Contains(msg, "too many queues"),
		strings.Contains(msg, "error to poll rendezvous channel"):
		return state.KindRuntime
	case strings.HasPrefix(msg, "assertion violated"):
		return state.KindAssertion
	case strings.HasPrefix(msg, "invalid end state"):
		return state.KindInvalidEnd
	case strings.HasPrefix(msg, "acceptance cycle"),
		strings.HasPrefix(msg, "accept cycle"),
		strings.HasPrefix(msg, "accept stutter"),
		// A never claim that runs to its end accepts a finite prefix: the
		// property is violated without a cycle.
		strings.HasPrefix(msg, "end state in claim reached"):
		return state.KindAcceptCycle
	case strings.HasPrefix(msg, "non-progress cycle"):
		return state.KindNonProgress
	}
	return state.KindRuntime
}

// Parse reads pan's report (its standard output).
func Parse(out string) (*Result, error) {
	r := &Result{Output: out}
	m := vectorLine.FindStringSubmatch(out)
	if m == nil {
		return nil, errors.New("no statistics in pan's output (expected \"State-vector N byte, depth reached N, errors: N\")")
	}
	r.VectorBytes, _ = strconv.Atoi(m[1])
	r.Depth, _ = strconv.ParseInt(m[2], 10, 64)
	r.Errors, _ = strconv.Atoi(m[3])
	for _, c := range countRe.FindAllStringSubmatch(out, -1) {
		n := parseCount(c[1])
		switch c[2] {
		case "states, stored":
			r.States = n
			r.Visited = n
			if c[3] != "" {
				r.Visited = parseCount(c[3])
			}
		case "states, matched":
			r.Matched = n
		case "transitions (=":
			r.Transitions = n
		case "atomic steps":
			r.AtomicSteps = n
		}
	}
	if m := memoryRe.FindStringSubmatch(out); m != nil {
		r.MemoryMB, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := elapsedRe.FindStringSubmatch(out); m != nil {
		r.Seconds, _ = strconv.ParseFloat(m[1], 64)
	}

	truncated := strings.Contains(out, "error: max search depth too small")
	notDone := strings.Contains(out, "Warning: Search not completed")
	var msgs []string
	for _, e := range errorRe.FindAllStringSubmatch(out, -1) {
		msgs = append(msgs, e[1])
	}
	// "aborting" follows a fatal condition reported on the line before it
	// (VECTORSZ too small, out of memory); it is not a property violation.
	var fatal string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(l, "VECTORSZ too small"), strings.Contains(l, "VECTORSZ is too small"):
			fatal = "pan's state vector is too small (VECTORSZ)"
		case strings.Contains(l, "out of memory"):
			fatal = "pan ran out of memory"
		case strings.HasPrefix(l, "pan: reached -DMEMLIM bound"):
			fatal = "pan reached its memory limit"
		}
	}
	switch {
	case fatal != "":
		r.Verdict, r.Reason = trace.Unknown, fatal
	case r.Errors > 0 && len(msgs) > 0:
		r.Verdict = trace.Violated
		r.Message = msgs[0]
		r.Kind = kindOf(r.Message)
	case r.Errors > 0:
		return nil, errors.New("pan counted errors but printed no error line")
	case truncated:
		r.Verdict = trace.Unknown
		r.Reason = "pan's search depth limit was too small (max search depth too small)"
	case notDone:
		r.Verdict, r.Reason = trace.Unknown, "pan did not complete its search"
	default:
		r.Verdict = trace.Holds
		r.Complete = true
	}
	return r, nil
}

// parseCount reads pan's %9.8g figures: integers up to 1e8, then exponents.
func parseCount(s string) int64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return -1
	}
	return int64(f + 0.5)
}

// Available reports whether spin and a C compiler are installed.
func Available() error {
	var missing []string
	for _, b := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(b); err != nil {
			missing = append(missing, b)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("not installed: %s", strings.Join(missing, ", "))
	}
	return nil
}
