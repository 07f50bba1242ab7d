// Package smt is ftmc's client for SMT solvers that speak SMT-LIB 2 over a
// pipe (z3 -in, cvc5 --incremental). The parameterized engines (threshold
// automata, array-based systems) keep one long-lived solver process per
// worker and talk to it incrementally: push/pop, check-sat-assuming with
// activation literals, get-value, unsat cores.
//
// Terms are SMT-LIB 2 text; the helpers in terms.go build it. A query that
// times out, or a solver that crashes, answers Unknown with a reason — an
// engine turns that into the verdict unknown, never holds. Every wait on a
// solver, for an answer or for it to read its input, is bounded by the
// context and by the solver timeout, and a solver that is killed is reaped
// with the processes it started. A solver that keeps dying, that answers
// something that is not SMT-LIB, or that a second solver contradicts
// (Options.CrossCheck) fails the call with an *Error naming it.
package smt

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"ftmc/internal/procmem"
)

// Status is a check-sat answer.
type Status int

const (
	Unknown Status = iota
	Sat
	Unsat
)

func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Solver is an incremental SMT solver. It is not safe for concurrent use;
// use one per worker.
type Solver interface {
	// Send queues commands (declarations, assertions, options) given as
	// SMT-LIB 2 text. Errors the solver reports are returned by the next
	// call that waits for an answer.
	Send(cmds ...string)
	// Assert queues (assert term).
	Assert(term string)
	Push()
	Pop(n int)
	// Check runs (check-sat) or, with assumptions, (check-sat-assuming ...).
	// On Unknown with a nil error, Reason says why (timeout, incomplete,
	// the process stopped and restarts at the next call). An error is a
	// failure the caller cannot work around: the context's, an error the
	// solver reported, or an *Error (the solver is broken or contradicted).
	Check(ctx context.Context, assumptions ...string) (Status, error)
	// Reason says why the last Check answered Unknown.
	Reason() string
	// Values returns the model's values of the terms after Sat.
	Values(ctx context.Context, terms ...string) ([]Value, error)
	// UnsatCore returns the assumptions of the last Unsat check-sat-assuming
	// that the solver found sufficient: a subset of them.
	UnsatCore(ctx context.Context) ([]string, error)
	// Stats are the counts of this solver's queries.
	Stats() Stats
	Close() error
}

// Stats counts a solver's work.
type Stats struct {
	Checks   int64
	Sat      int64
	Unsat    int64
	Unknown  int64
	Restarts int64
	Time     time.Duration // spent waiting for check-sat answers
	// CrossChecks counts the unsat answers the second solver was asked
	// to confirm (Options.CrossCheck), and CrossTime is its time.
	CrossChecks int64
	CrossTime   time.Duration
	// Hedges counts the checks also asked of a process of Options.Hedge,
	// and HedgeWins those it answered first.
	Hedges, HedgeWins int64
}

// Options configure a solver process.
type Options struct {
	// Name is "z3" (default) or "cvc5".
	Name string
	// Path overrides the binary found on PATH.
	Path string
	// Timeout bounds each check-sat; 0 means none. The solver is asked to
	// give up itself (answering unknown); if it does not answer shortly
	// after, the process is killed and the check answers Unknown. It also
	// bounds every other wait on the solver (at least a second; a minute
	// when Timeout is 0).
	Timeout time.Duration
	// RLimit bounds each check-sat of z3 by its resource count (rlimit),
	// which counts the solver's work, not the clock's time: a query stops
	// at the same point however loaded the machine is. 0: none; cvc5
	// ignores it. A check that reaches it answers Unknown.
	RLimit uint64
	// AutoConfig keeps z3's auto_config and its default arithmetic
	// solver. Off by default: ftmc's z3 runs without auto_config, which
	// is much slower on the unrolled counter-system queries of threshold
	// automata, and with the simplex arithmetic of smt.arith.solver=2,
	// which decides them in a fifth to a half of the time of z3 4.8's
	// default (the single query of a Ben-Or agreement specification:
	// 0.5-0.6 s against 1.8-3.1 s over five seeds), and without its eager
	// equality axioms for arithmetic (smt.arith.eager_eq_axioms=false),
	// which takes another 30% off those queries and 70% off a tree search
	// of rabc's.
	AutoConfig bool
	// Logic is sent as (set-logic ...) when non-empty, e.g. "QF_LIA".
	Logic string
	// Log, when non-nil, receives a transcript of everything sent.
	Log io.Writer
	// Hedge, when set, is a second configuration of the solver for the
	// checks that take long: a check not answered within HedgeAfter is
	// asked of a new process of Hedge too, brought to the same
	// assertions, and the first of the two to answer sat or unsat is
	// taken. When the second is first, it takes the first's place for
	// the rest of the session (and is not hedged again). On one query,
	// z3 can take ten times longer in one configuration than in another,
	// and no configuration is the fastest on every query. Only without
	// Timeout and RLimit, which bound one process's check.
	Hedge      *Options
	HedgeAfter time.Duration
	// HedgeIf, when set, tells whether a hedge may start now, under the
	// check's context: a memory budget may have no room for a second
	// solver, whose first pages come faster than a budget samples them.
	HedgeIf func(context.Context) bool
	// CrossCheck, when set, is a second solver that receives the same
	// commands and must confirm every unsat answer: Check asks it the
	// unsat core of the first solver's answer, and answers Unsat only when
	// it agrees. When it finds the core satisfiable, Check fails with an
	// *Error naming both solvers; when it cannot tell, Check answers
	// Unknown. Sat answers are not confirmed: engines replay the runs they
	// lead to.
	CrossCheck *Options
}

// ErrNoSolver is wrapped by New when the solver binary is not installed.
var ErrNoSolver = errors.New("SMT solver not found")

// Error is a solver's failure that a restart does not cure: the process
// failed to start or to answer maxFailures times in a row, it answered
// something that is not an SMT-LIB answer (or one too deep or too long),
// or a second solver contradicted it. The text names the solver.
type Error struct {
	msg string
	// restart marks a process that stopped (exited, stopped answering or
	// reading) and restarts at the next call: Check answers Unknown.
	restart bool
	timeout bool // a check-sat that did not answer in time
}

func (e *Error) Error() string { return e.msg }

// maxFailures is how many times in a row a solver may fail to start or to
// answer before the calls stop restarting it.
const maxFailures = 3

// defaultReplyLimit bounds the answers other than check-sat's, and the
// solver's reading of its input, when no Timeout is set.
const defaultReplyLimit = time.Minute

// Lookup returns the binary of the solver that opts describe: opts.Path,
// or the solver's name (default z3) on PATH. Its error wraps ErrNoSolver.
func Lookup(opts Options) (string, error) {
	name := opts.Name
	if name == "" {
		name = "z3"
	}
	if opts.Path != "" {
		p, err := exec.LookPath(opts.Path)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %v", ErrNoSolver, opts.Path, errors.Unwrap(err))
		}
		return p, nil
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %s is not on PATH; install it (Debian: apt-get install %s)", ErrNoSolver, name, name)
	}
	return p, nil
}

// LookupAll finds, before any query, the binaries of the solvers opts
// name: the solver and, with opts.CrossCheck, the second one, so that a
// missing solver is one error for a run rather than one per query. Its
// error wraps ErrNoSolver; when the solver is named (no opts.Path) and the
// other solver New knows is on PATH, it says so.
func LookupAll(opts Options) error {
	if _, err := Lookup(opts); err != nil {
		if alt := alternative(opts); alt != "" {
			return fmt.Errorf("%w; or use %s, which is on PATH (--solver %s)", err, alt, alt)
		}
		return err
	}
	if opts.CrossCheck != nil {
		if _, err := Lookup(*opts.CrossCheck); err != nil {
			return fmt.Errorf("cross-check solver: %w", err)
		}
	}
	return nil
}

// alternative is the solver other than the one opts name that New knows
// and that is on PATH, or "" (also when opts give a path).
func alternative(opts Options) string {
	if opts.Path != "" {
		return ""
	}
	alt := map[string]string{"": "cvc5", "z3": "cvc5", "cvc5": "z3"}[opts.Name]
	if alt == "" {
		return ""
	}
	if _, err := exec.LookPath(alt); err != nil {
		return ""
	}
	return alt
}

// New starts a solver process and waits, within ctx and the solver's
// limits, for it to acknowledge its options. With opts.CrossCheck it
// starts both solvers.
func New(ctx context.Context, opts Options) (Solver, error) {
	if opts.CrossCheck != nil {
		second := *opts.CrossCheck
		first := opts
		first.CrossCheck = nil
		a, err := New(ctx, first)
		if err != nil {
			return nil, err
		}
		b, err := New(ctx, second)
		if err != nil {
			a.Close()
			return nil, err
		}
		return &crossCheck{a: a.(*process), b: b.(*process)}, nil
	}
	opts, path, args, err := command(opts)
	if err != nil {
		return nil, err
	}
	// A context already done starts nothing.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pool := poolFor(ctx, opts)
	if p := pool.take(ctx, opts, path, args); p != nil {
		return p, nil
	}
	p := &process{opts: opts, path: path, args: args, replay: [][]string{nil}, pool: pool}
	if err := p.start(ctx); err != nil {
		p.kill()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return p, nil
}

// command is how New runs the solver of opts: opts with the defaults
// filled in, the program's path and its arguments.
func command(opts Options) (Options, string, []string, error) {
	if opts.Name == "" {
		opts.Name = "z3"
	}
	var args []string
	switch opts.Name {
	case "z3":
		args = []string{"-in", "-smt2"}
		if !opts.AutoConfig {
			args = append(args, "auto_config=false", "smt.arith.solver=2", "smt.arith.eager_eq_axioms=false")
		}
	case "cvc5":
		args = []string{"--lang=smt2", "--incremental", "--produce-models", "--produce-unsat-assumptions"}
		if opts.Logic == "" {
			opts.Logic = "ALL"
		}
	default:
		return opts, "", nil, fmt.Errorf("unknown solver %q (want z3 or cvc5)", opts.Name)
	}
	path, err := Lookup(opts)
	return opts, path, args, err
}

// Prestart starts a process for opts (its first solver, when it has a
// cross-check) in the pool of ctx and keeps it there idle, so that the
// process's start overlaps with what the caller does before its first
// New: z3 takes some 9 ms before its first answer, most of it building
// its context at its first (push 1). The first New for the same solver
// takes it; a start that fails is left to New to find again and report.
// Without a pool, and for the solvers a pool does not keep, Prestart does
// nothing.
func Prestart(ctx context.Context, opts Options) {
	opts.CrossCheck = nil
	opts, path, args, err := command(opts)
	pool := poolFor(ctx, opts)
	if err != nil || pool == nil {
		return
	}
	p := &process{opts: opts, path: path, args: args, replay: [][]string{nil}, pool: pool}
	if p.launch() != nil {
		p.kill()
		return
	}
	// The level below the user's, as start makes it: its answer and
	// those of the options are read by take.
	p.raw("(push 1)")
	if p.flush(ctx) != nil || !pool.keep(p) {
		p.kill()
	}
}

// poolFor is the pool of ctx that keeps the processes of opts: z3's
// without a log; nil for the others, or without a pool.
func poolFor(ctx context.Context, opts Options) *Pool {
	pool, _ := ctx.Value(poolKey{}).(*Pool)
	if opts.Name != "z3" || opts.Log != nil {
		return nil
	}
	return pool
}

// process is a solver behind a pipe. Commands are buffered and written when
// an answer is needed; with :print-success on, every command is answered,
// and the answers are read (and checked for errors) before the next answer
// that matters. A goroutine reads the answers as they come (answers), so
// that the solver never waits on a full pipe of acknowledgements while ftmc
// waits on a full pipe of commands: thousands of assertions before a
// check-sat deadlocked the two processes that way. Writes have a deadline
// (the pipe is ftmc's own os.Pipe), so that a solver that stops reading
// cannot block ftmc either.
type process struct {
	opts Options
	path string
	args []string

	cmd    *exec.Cmd
	stdin  *os.File // ftmc's end of the solver's standard input
	stdout *os.File // ftmc's end of its standard output
	stderr *tail
	ex     *exit
	out    *answers

	wbuf     []byte // commands not yet written
	pending  int    // answers ("success" or an error) not yet read
	err      error  // the first error answered since the last drain
	dead     bool
	exitSent bool // Close asked the solver to exit, rather than stopping it
	reason   string
	stats    Stats
	failures int    // starts and answers that failed in a row
	broken   *Error // after maxFailures failures: what every call answers
	assumed  []string

	// replay is what was sent since start, by stack level, so that a
	// restarted process can be brought back to the same assertions.
	replay [][]string
	// pool, when set, keeps the process for reuse when it is closed.
	pool *Pool
	// hedged: the process is one of Options.Hedge's (awaitCheck).
	hedged bool
}

// exit is the end of one solver process, reaped by a goroutine of its own.
type exit struct {
	done chan struct{}
	err  error // cmd.Wait's, once done is closed
}

// desc names the solver in messages: "z3 (/usr/bin/z3)".
func (p *process) desc() string { return fmt.Sprintf("%s (%s)", p.opts.Name, p.path) }

// replyLimit bounds the answers other than check-sat's, and writes.
func (p *process) replyLimit() time.Duration {
	if p.opts.Timeout > 0 {
		return max(p.opts.Timeout, time.Second)
	}
	return defaultReplyLimit
}

// checkLimit bounds a check-sat's answer: the solver gives up itself at
// Timeout and answers unknown, within a grace period.
func (p *process) checkLimit() time.Duration {
	if p.opts.Timeout > 0 {
		return p.opts.Timeout + p.opts.Timeout/2 + time.Second
	}
	return 0
}

func (p *process) start(ctx context.Context) error {
	if err := p.launch(); err != nil {
		return err
	}
	if p.pool != nil {
		// The options first, as without a pool. Then a level below the
		// user's, which release pops to clear what the user left: it
		// is acknowledged with the user's first commands.
		if err := p.drain(ctx); err != nil {
			return err
		}
		p.raw("(push 1)")
	}
	for i, level := range p.replay {
		if i > 0 {
			p.raw("(push 1)")
		}
		for _, c := range level {
			p.raw(c)
		}
	}
	if p.pool != nil && len(p.replay) == 1 && len(p.replay[0]) == 0 {
		return nil
	}
	return p.drain(ctx)
}

// launch starts the process and queues the options of every start.
func (p *process) launch() error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	cmd := exec.Command(p.path, p.args...)
	cmd.Stdin, cmd.Stdout = inR, outW
	p.stderr = &tail{}
	cmd.Stderr = p.stderr
	// Wait returns even when a process the solver started keeps stderr.
	cmd.WaitDelay = time.Second
	cmd.Env = solverEnv()
	ownGroup(cmd)
	procmem.Spawning()
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return &Error{msg: fmt.Sprintf("solver %s: cannot start: %v", p.desc(), err)}
	}
	ex := &exit{done: make(chan struct{})}
	go func() {
		ex.err = cmd.Wait()
		close(ex.done)
	}()
	p.cmd, p.stdin, p.stdout, p.ex = cmd, inW, outR, ex
	p.out = readAnswers(outR)
	p.wbuf, p.pending, p.err, p.dead = p.wbuf[:0], 0, nil, false
	p.raw("(set-option :print-success true)")
	if p.opts.Name == "z3" {
		p.raw("(set-option :produce-models true)")
		p.raw("(set-option :produce-unsat-assumptions true)")
	}
	if p.opts.Logic != "" {
		p.raw("(set-logic " + p.opts.Logic + ")")
	}
	return nil
}

// solverTunables are the allocator settings a solver process runs with
// unless GLIBC_TUNABLES is set: glibc's malloc backs its heap with
// transparent huge pages and grows it 16 MB at a time. z3 touches some
// 18 MB in its first command; in 4 KB pages that is 4,600 page faults,
// and the command takes 17 ms on a virtual machine, against 570 faults
// and 9 ms in huge pages (z3 4.8.12 told the logic QF_LIA, glibc 2.36).
// Large queries take the same time, and 3-4 MB more memory. An allocator
// other than glibc's ignores them.
const solverTunables = "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=16777216"

// solverEnv is the environment of a solver process: ftmc's, with
// solverTunables.
func solverEnv() []string {
	env := os.Environ()
	if _, set := os.LookupEnv("GLIBC_TUNABLES"); !set {
		env = append(env, "GLIBC_TUNABLES="+solverTunables)
	}
	return env
}

// write queues text for the solver; it answers nothing that drain reads.
func (p *process) write(cmd string) {
	if p.opts.Log != nil {
		fmt.Fprintln(p.opts.Log, cmd)
	}
	p.wbuf = append(p.wbuf, cmd...)
	p.wbuf = append(p.wbuf, '\n')
}

// raw queues one command that answers success.
func (p *process) raw(cmd string) {
	if p.dead {
		return
	}
	p.write(cmd)
	p.pending++
}

func (p *process) Send(cmds ...string) {
	for _, c := range cmds {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		p.replay[len(p.replay)-1] = append(p.replay[len(p.replay)-1], c)
		p.raw(c)
	}
}

func (p *process) Assert(term string) { p.Send("(assert " + term + ")") }

func (p *process) Push() {
	p.replay = append(p.replay, nil)
	p.raw("(push 1)")
}

func (p *process) Pop(n int) {
	if n <= 0 {
		return
	}
	if n > len(p.replay)-1 {
		n = len(p.replay) - 1
	}
	p.replay = p.replay[:len(p.replay)-n]
	p.raw(fmt.Sprintf("(pop %d)", n))
}

// flush writes the queued commands, within the reply limit and ctx.
func (p *process) flush(ctx context.Context) error {
	if len(p.wbuf) == 0 {
		return nil
	}
	limit := p.replyLimit()
	p.stdin.SetWriteDeadline(time.Now().Add(limit))
	unblocked := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(unblocked)
		p.stdin.SetWriteDeadline(time.Unix(1, 0))
	})
	_, err := p.stdin.Write(p.wbuf)
	if !stop() {
		<-unblocked
	}
	p.wbuf = p.wbuf[:0]
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		p.kill()
		return ctx.Err()
	case errors.Is(err, os.ErrDeadlineExceeded):
		return p.fail(fmt.Sprintf("solver %s did not read its input within %v", p.desc(), limit), true)
	}
	return p.exited()
}

// next reads the next answer, waiting at most limit (0: no limit). On
// failure the process is stopped and the error says why; what says what
// the solver failed to do ("answer (check-sat)"). Running out of time
// counts as a failure of the process unless slow is set: a check-sat may
// take its time.
func (p *process) next(ctx context.Context, limit time.Duration, what string, slow bool) (Sexp, error) {
	var timer <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timer = t.C
	}
	e, err := p.out.next(ctx, timer)
	var bad *errAnswer
	switch {
	case err == nil:
		return e, nil
	case ctx.Err() != nil:
		p.kill()
		return Sexp{}, ctx.Err()
	case err == errTimeout:
		se := p.fail(fmt.Sprintf("solver %s did not %s within %v", p.desc(), what, limit), !slow)
		se.timeout = slow && se != p.broken
		return Sexp{}, se
	case errors.As(err, &bad):
		p.kill()
		return Sexp{}, &Error{msg: fmt.Sprintf("solver %s wrote %s", p.desc(), bad.msg)}
	}
	return Sexp{}, p.exited()
}

// drain writes the queued commands and reads their answers.
func (p *process) drain(ctx context.Context) error {
	if err := p.flush(ctx); err != nil {
		return err
	}
	for p.pending > 0 {
		e, err := p.next(ctx, p.replyLimit(), "acknowledge its commands", false)
		if err != nil {
			return err
		}
		p.pending--
		if isError(e) {
			if p.err == nil {
				p.err = p.errorOf(e)
			}
			continue
		}
		if err := p.notSuccess(e); err != nil {
			return err
		}
	}
	err := p.err
	p.err = nil
	return err
}

// notSuccess is the error of e, an answer to a command that answers
// success and not an error, when it is something else.
func (p *process) notSuccess(e Sexp) error {
	// z3 answers some options with "unsupported"; harmless.
	if e.IsList || e.Atom != "success" && e.Atom != "unsupported" {
		return p.protocol("answered %s to a command that answers success", e)
	}
	return nil
}

// ask writes a query and reads its answer.
func (p *process) ask(ctx context.Context, query string, limit time.Duration) (Sexp, error) {
	if err := p.drain(ctx); err != nil {
		return Sexp{}, err
	}
	p.write(query)
	if err := p.flush(ctx); err != nil {
		return Sexp{}, err
	}
	return p.next(ctx, limit, "answer "+query, false)
}

func isError(e Sexp) bool {
	return e.IsList && len(e.List) >= 1 && !e.List[0].IsList && e.List[0].Atom == "error"
}

func errorText(e Sexp) string {
	if len(e.List) >= 2 {
		return strings.Trim(e.List[1].Atom, `"`)
	}
	return e.String()
}

// errorOf is the error the solver's answer e, an (error ...), reports.
// With a timeout set, z3 cancels more than check-sat when the timer
// fires ("push canceled", a model that is not available after it): the
// error then says that the timeout is the cause.
func (p *process) errorOf(e Sexp) error {
	text := errorText(e)
	if p.opts.Timeout > 0 && (strings.Contains(text, "canceled") || strings.Contains(text, "model is not available")) {
		return fmt.Errorf("solver timeout (%v): solver %s: %s", p.opts.Timeout, p.desc(), text)
	}
	return fmt.Errorf("solver %s: %s", p.desc(), text)
}

// protocol stops a solver that answered out of turn: what it says next
// cannot be matched with the questions any more.
func (p *process) protocol(format string, args ...any) error {
	p.kill()
	msg := fmt.Sprintf(format, args...)
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	return &Error{msg: fmt.Sprintf("solver %s %s", p.desc(), msg)}
}

// exited stops a process whose output or input closed: it exited, or is
// about to. The message has its exit status and the last line it wrote
// to standard error.
func (p *process) exited() error {
	if p.dead {
		return &Error{msg: p.reason, restart: true}
	}
	var msg string
	select {
	case <-p.ex.done:
		status := "exit status 0"
		if p.ex.err != nil {
			status = p.ex.err.Error()
		}
		msg = fmt.Sprintf("solver %s exited: %s", p.desc(), status)
	case <-time.After(200 * time.Millisecond):
		msg = fmt.Sprintf("solver %s closed its output", p.desc())
	}
	p.kill()
	if line := p.stderr.last(); line != "" {
		msg += ": " + line
	}
	return p.fail(msg, true)
}

// fail stops the process (when it is still running) for reason msg; a
// failure counts towards giving up on the solver.
func (p *process) fail(msg string, failure bool) *Error {
	p.kill()
	p.reason = msg
	if failure {
		p.failures++
		if p.failures >= maxFailures && p.broken == nil {
			p.broken = &Error{msg: fmt.Sprintf("%s (%d failures in a row, given up)", msg, p.failures)}
		}
	}
	if p.broken != nil {
		return p.broken
	}
	return &Error{msg: msg, restart: true}
}

// kill stops the process and every process it started, and reaps it:
// its memory is free when kill returns.
func (p *process) kill() {
	if p.stop() {
		<-p.ex.done
	}
}

// stop kills the process and every process it started, without waiting
// for it to end (its goroutine reaps it), and reports whether it signalled
// one.
func (p *process) stop() bool {
	if p.dead {
		return false
	}
	p.dead = true
	p.reason = "cancelled"
	if p.cmd == nil || p.cmd.Process == nil {
		return false
	}
	killGroup(p.cmd.Process)
	p.stdin.Close()
	p.stdout.Close()
	p.wbuf = p.wbuf[:0]
	return true
}

// answers is what a solver process has written, read as it comes by a
// goroutine of its own and kept until asked for, up to maxQueued bytes.
type answers struct {
	mu     sync.Mutex
	queue  []answer
	queued int           // bytes of the answers in queue
	ready  chan struct{} // a token when the queue may have grown
}

type answer struct {
	e    Sexp
	err  error
	size int
}

// maxQueued bounds the answers read and not yet asked for.
const maxQueued = 64 << 20

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += n
	return n, err
}

func readAnswers(r io.Reader) *answers {
	a := &answers{ready: make(chan struct{}, 1)}
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 1<<16)
	go func() {
		for {
			before := cr.n - br.Buffered()
			e, err := readSexp(br)
			size := cr.n - br.Buffered() - before
			a.mu.Lock()
			if err == nil && a.queued+size > maxQueued {
				err = &errAnswer{fmt.Sprintf("more than %d MB of answers nobody asked for", maxQueued>>20)}
			}
			a.queue = append(a.queue, answer{e, err, size})
			a.queued += size
			a.mu.Unlock()
			select {
			case a.ready <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return a
}

// next returns the oldest answer not yet taken, waiting for it until ctx
// is done or timer fires (errTimeout). After a read error the error is
// answered for ever.
func (a *answers) next(ctx context.Context, timer <-chan time.Time) (Sexp, error) {
	for {
		a.mu.Lock()
		if len(a.queue) > 0 {
			r := a.queue[0]
			if r.err == nil {
				a.queue[0] = answer{}
				a.queue = a.queue[1:]
				a.queued -= r.size
			}
			a.mu.Unlock()
			return r.e, r.err
		}
		a.mu.Unlock()
		select {
		case <-a.ready:
		case <-ctx.Done():
			return Sexp{}, ctx.Err()
		case <-timer:
			return Sexp{}, errTimeout
		}
	}
}

var errTimeout = errors.New("timeout")

// waiting reports whether an answer is queued, not yet taken.
func (a *answers) waiting() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.queue) > 0
}

// wait waits until an answer is queued or ctx is done, and reports
// whether one of them happened before timer fired.
func (a *answers) wait(ctx context.Context, timer <-chan time.Time) bool {
	for {
		if a.waiting() {
			return true
		}
		select {
		case <-a.ready:
		case <-ctx.Done():
			return true
		case <-timer:
			return false
		}
	}
}

// waitEither waits until a or b has an answer queued, or ctx is done; it
// reports true for a (and for ctx), false for b.
func waitEither(ctx context.Context, a, b *answers) bool {
	for {
		if a.waiting() {
			return true
		}
		if b.waiting() {
			return false
		}
		select {
		case <-a.ready:
			// The token is spent: next looks at the queue first.
		case <-b.ready:
		case <-ctx.Done():
			return true
		}
	}
}

func (p *process) Check(ctx context.Context, assumptions ...string) (Status, error) {
	p.assumed = append(p.assumed[:0], assumptions...)
	st, err := p.check(ctx, assumptions)
	p.count(st)
	return st, err
}

// count counts a check that answered st.
func (p *process) count(st Status) {
	p.stats.Checks++
	switch st {
	case Sat:
		p.stats.Sat++
	case Unsat:
		p.stats.Unsat++
	default:
		p.stats.Unknown++
	}
}

// checkAnswer is the status that e, an answer to check-sat, says, or
// false when e is not one.
func checkAnswer(e Sexp) (Status, bool) {
	if e.IsList {
		return Unknown, false
	}
	switch e.Atom {
	case "sat":
		return Sat, true
	case "unsat":
		return Unsat, true
	case "unknown":
		return Unknown, true
	}
	return Unknown, false
}

func (p *process) check(ctx context.Context, assumptions []string) (Status, error) {
	if p.broken != nil {
		p.reason = p.broken.Error()
		return Unknown, p.broken
	}
	if err := ctx.Err(); err != nil {
		p.reason = "cancelled"
		return Unknown, err
	}
	if p.dead {
		p.stats.Restarts++
		if err := p.start(ctx); err != nil {
			return p.unknown(ctx, err)
		}
	}
	if p.opts.RLimit > 0 && p.opts.Name != "cvc5" {
		p.raw(fmt.Sprintf("(set-option :rlimit %d)", p.opts.RLimit))
	}
	if p.opts.Timeout > 0 {
		ms := p.opts.Timeout.Milliseconds()
		if p.opts.Name == "cvc5" {
			p.raw(fmt.Sprintf("(set-option :tlimit-per %d)", ms))
		} else {
			p.raw(fmt.Sprintf("(set-option :timeout %d)", ms))
		}
	}
	q := "(check-sat)"
	if len(assumptions) > 0 {
		q = "(check-sat-assuming (" + strings.Join(assumptions, " ") + "))"
	}
	// The check goes with the commands before it, whose acknowledgements
	// come first: one round trip instead of two.
	start := time.Now()
	p.write(q)
	if err := p.drain(ctx); err != nil {
		if !p.dead {
			// An error answered to a command: the check is answered too.
			p.next(ctx, p.checkLimit(), "answer (check-sat)", true)
		}
		p.stats.Time += time.Since(start)
		return p.unknown(ctx, err)
	}
	e, err := p.awaitCheck(ctx, q)
	p.stats.Time += time.Since(start)
	if se := (*Error)(nil); errors.As(err, &se) && se.timeout {
		p.reason = fmt.Sprintf("solver timeout (%v)", p.opts.Timeout)
		return Unknown, nil
	}
	if err != nil {
		return p.unknown(ctx, err)
	}
	if st, ok := checkAnswer(e); ok {
		p.failures = 0
		if st == Unknown {
			p.reason = p.reasonUnknown(ctx, time.Since(start))
		}
		return st, nil
	}
	if isError(e) {
		return Unknown, p.errorOf(e)
	}
	return Unknown, p.protocol("answered %s to check-sat", e)
}

// awaitCheck reads the answer to the check q, which has been sent, and
// asks it of a process of the hedge configuration too when it takes
// longer than HedgeAfter (Options.Hedge).
func (p *process) awaitCheck(ctx context.Context, q string) (Sexp, error) {
	first := func() (Sexp, error) { return p.next(ctx, p.checkLimit(), "answer (check-sat)", true) }
	if p.opts.Hedge == nil || p.hedged || p.opts.Timeout > 0 || p.opts.RLimit > 0 {
		return first()
	}
	t := time.NewTimer(p.opts.HedgeAfter)
	answered := p.out.wait(ctx, t.C)
	t.Stop()
	if answered || p.opts.HedgeIf != nil && !p.opts.HedgeIf(ctx) {
		return first()
	}
	hopts := *p.opts.Hedge
	hopts.Hedge, hopts.HedgeIf, hopts.CrossCheck, hopts.Log = nil, nil, nil, nil
	hopts, path, args, err := command(hopts)
	if err != nil {
		return first()
	}
	h := &process{opts: hopts, path: path, args: args, replay: p.replay}
	p.stats.Hedges++
	if err := h.start(ctx); err != nil {
		h.kill()
		return first()
	}
	h.write(q)
	if err := h.flush(ctx); err != nil {
		h.kill()
		return first()
	}
	if !waitEither(ctx, p.out, h.out) {
		e, err := h.next(ctx, 0, "answer (check-sat)", true)
		if st, ok := checkAnswer(e); err == nil && ok && st != Unknown {
			p.kill()
			p.adopt(h)
			p.stats.HedgeWins++
			return e, nil
		}
	}
	h.kill()
	return first()
}

// adopt makes h, a process of the hedge configuration with the same
// assertions, p's process.
func (p *process) adopt(h *process) {
	p.path, p.args = h.path, h.args
	p.cmd, p.stdin, p.stdout, p.stderr, p.ex, p.out = h.cmd, h.stdin, h.stdout, h.stderr, h.ex, h.out
	p.wbuf, p.pending, p.err, p.dead = h.wbuf, h.pending, h.err, false
	// It has no pool's base level below the user's: it is not kept.
	p.pool = nil
	p.hedged = true
}

// unknown is Check's answer after err: Unknown, with the error when it is
// not one that a restart cures.
func (p *process) unknown(ctx context.Context, err error) (Status, error) {
	if ctx.Err() != nil {
		p.reason = "cancelled"
		return Unknown, ctx.Err()
	}
	var se *Error
	if errors.As(err, &se) && se.restart {
		p.reason = se.msg
		return Unknown, nil
	}
	p.reason = err.Error()
	return Unknown, err
}

// reasonUnknown asks the solver why it answered unknown to a check that
// took elapsed.
func (p *process) reasonUnknown(ctx context.Context, elapsed time.Duration) string {
	e, err := p.ask(ctx, "(get-info :reason-unknown)", p.replyLimit())
	if err != nil {
		return "solver answered unknown"
	}
	// (:reason-unknown "timeout")
	if e.IsList && len(e.List) == 2 {
		r := strings.Trim(e.List[1].Atom, `"`)
		if r == "timeout" || r == "canceled" {
			// z3 says canceled for both of its limits.
			if p.opts.RLimit > 0 && (p.opts.Timeout == 0 || elapsed < p.opts.Timeout) {
				return fmt.Sprintf("solver resource limit (%d)", p.opts.RLimit)
			}
			return fmt.Sprintf("solver timeout (%v)", p.opts.Timeout)
		}
		return "solver answered unknown: " + r
	}
	return "solver answered unknown"
}

func (p *process) Reason() string { return p.reason }

// query asks for a model or a core, which only the running process has.
func (p *process) query(ctx context.Context, q string) (Sexp, error) {
	if p.broken != nil {
		return Sexp{}, p.broken
	}
	if p.dead {
		return Sexp{}, &Error{msg: fmt.Sprintf("solver %s: no answer to %s: %s", p.desc(), q, p.reason)}
	}
	e, err := p.ask(ctx, q, p.replyLimit())
	if err != nil {
		if ctx.Err() != nil {
			return Sexp{}, ctx.Err()
		}
		var se *Error
		if errors.As(err, &se) {
			// Whatever a restart cures, the model is gone.
			return Sexp{}, &Error{msg: se.msg}
		}
		return Sexp{}, err
	}
	if isError(e) {
		return Sexp{}, p.errorOf(e)
	}
	return e, nil
}

func (p *process) Values(ctx context.Context, terms ...string) ([]Value, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	e, err := p.query(ctx, "(get-value ("+strings.Join(terms, " ")+"))")
	if err != nil {
		return nil, err
	}
	if !e.IsList || len(e.List) != len(terms) {
		return nil, p.protocol("answered %s to get-value", e)
	}
	vals := make([]Value, len(terms))
	for i, pair := range e.List {
		if !pair.IsList || len(pair.List) != 2 {
			return nil, p.protocol("answered %s to get-value", e)
		}
		v, err := parseValue(pair.List[1])
		if err != nil {
			return nil, fmt.Errorf("solver %s: %v", p.desc(), err)
		}
		vals[i] = v
	}
	return vals, nil
}

func (p *process) UnsatCore(ctx context.Context) ([]string, error) {
	e, err := p.query(ctx, "(get-unsat-assumptions)")
	if err != nil {
		return nil, err
	}
	if !e.IsList {
		return nil, p.protocol("answered %s to get-unsat-assumptions", e)
	}
	core := make([]string, len(e.List))
	for i, x := range e.List {
		core[i] = x.String()
		if !slices.Contains(p.assumed, core[i]) {
			return nil, p.protocol("answered get-unsat-assumptions with %s, which is not an assumption of the check", core[i])
		}
	}
	return core, nil
}

func (p *process) Stats() Stats { return p.stats }

// closeDrain is how long Close waits for a solver to acknowledge the
// commands it was sent.
const closeDrain = 10 * time.Millisecond

func (p *process) Close() error {
	if p.dead {
		return nil
	}
	// Commands not yet acknowledged: the solver may be busy with them (a
	// query given up while it was being sent), and would read (exit)
	// only after them. It gets a moment to catch up, so that an idle one
	// can still go back to its pool; a busy one is stopped.
	if p.pending > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), closeDrain)
		err := p.drain(ctx)
		cancel()
		if err != nil || p.pending > 0 {
			p.kill()
			return nil
		}
	}
	if p.release() {
		return nil
	}
	p.write("(exit)")
	p.exitSent = true
	p.stdin.SetWriteDeadline(time.Now().Add(time.Second))
	p.stdin.Write(p.wbuf)
	p.stdin.Close()
	select {
	case <-p.ex.done:
	case <-time.After(time.Second):
	}
	p.kill()
	return nil
}

// Pool keeps the z3 processes that their users closed, by their binary
// and arguments, for the next New of the same solver within a run (see
// WithPool): a process takes a few milliseconds to start, and its first
// check some 20 ms more, and the threshold-automata engine asks for
// several solvers per specification. A process of a pool runs its
// user's commands one stack level above its start, and release pops that
// level: nothing declared, asserted or pushed is left. It works
// incrementally from its first check, which a single hard query finds a
// little slower.
type Pool struct {
	mu     sync.Mutex
	procs  map[string][]*process
	closed bool
}

type poolKey struct{}

// WithPool returns a context under which New reuses z3 processes, and a
// function that ends the processes kept (those closed after it end at
// once).
func WithPool(ctx context.Context) (context.Context, func()) {
	pool := &Pool{procs: map[string][]*process{}}
	return context.WithValue(ctx, poolKey{}, pool), pool.close
}

// maxIdle bounds the processes a pool keeps for each solver, and
// maxIdleBytes the private resident memory of one kept.
const (
	maxIdle      = 4
	maxIdleBytes = 64 << 20
)

func (pool *Pool) close() {
	pool.mu.Lock()
	procs := pool.procs
	pool.procs, pool.closed = nil, true
	pool.mu.Unlock()
	// A kept process is idle and holds nothing: it is stopped, which
	// takes less time than its exit (z3 first frees its memory: 2-3 ms),
	// and not waited for: it is small (maxIdleBytes), and its goroutine
	// reaps it.
	for _, ps := range procs {
		for _, p := range ps {
			p.pool = nil
			p.stop()
		}
	}
}

func idleKey(path string, args []string, logic string) string {
	return path + "\x00" + strings.Join(args, "\x00") + "\x00" + logic
}

// take returns a kept process for opts, as New would start it, or nil. A
// prestarted process has not acknowledged its options yet: take reads
// them first, so that a solver that cannot start fails in New, as
// without the pool, and not in the first check.
func (pool *Pool) take(ctx context.Context, opts Options, path string, args []string) *process {
	if pool == nil {
		return nil
	}
	key := idleKey(path, args, opts.Logic)
	for {
		pool.mu.Lock()
		ps := pool.procs[key]
		if len(ps) == 0 {
			pool.mu.Unlock()
			return nil
		}
		p := ps[len(ps)-1]
		pool.procs[key] = ps[:len(ps)-1]
		pool.mu.Unlock()
		select {
		case <-p.ex.done:
			// It ended while kept.
			p.kill()
			continue
		default:
		}
		p.opts, p.stats, p.reason, p.failures, p.broken = opts, Stats{}, "", 0, nil
		p.replay, p.assumed = [][]string{nil}, p.assumed[:0]
		if p.pending > 0 {
			if err := p.drain(ctx); err != nil || p.dead {
				p.kill()
				continue
			}
		}
		return p
	}
}

// release clears the process and gives it back to its pool, or reports
// false (then Close ends it): a process without a pool or whose pool is
// full or closed, one that failed or grew large, or one that does not
// acknowledge at once.
func (p *process) release() bool {
	pool := p.pool
	if pool == nil || p.broken != nil || p.dead || p.cmd == nil || p.cmd.Process == nil {
		return false
	}
	// A process grown large on a hard query keeps its memory: it ends,
	// so that the memory ends too.
	if procmem.Private(p.cmd.Process.Pid) > maxIdleBytes {
		return false
	}
	key := idleKey(p.path, p.args, p.opts.Logic)
	pool.mu.Lock()
	full := pool.closed || len(pool.procs[key]) >= maxIdle
	pool.mu.Unlock()
	if full {
		return false
	}
	// The limits a check set stay set in z3: back to its defaults.
	if p.opts.RLimit > 0 {
		p.raw("(set-option :rlimit 0)")
	}
	if p.opts.Timeout > 0 {
		p.raw("(set-option :timeout 4294967295)")
	}
	// Back to the level below the user's, and a new one above it: the
	// declarations and assertions go, and z3 keeps the solver it made,
	// which a (reset) would make again.
	p.raw(fmt.Sprintf("(pop %d)", len(p.replay)))
	p.raw("(push 1)")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := p.drain(ctx); err != nil || p.dead {
		return false
	}
	return pool.keep(p)
}

// keep adds p to the idle processes of the pool, or reports false when
// the pool is closed or has maxIdle of them.
func (pool *Pool) keep(p *process) bool {
	key := idleKey(p.path, p.args, p.opts.Logic)
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if pool.closed || len(pool.procs[key]) >= maxIdle {
		return false
	}
	pool.procs[key] = append(pool.procs[key], p)
	return true
}

// tail keeps the end of what a solver writes to standard error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 4096

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(b), nil
}

// last is the last line that is not blank, at most 200 bytes of it.
func (t *tail) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	line := strings.TrimSpace(lines[len(lines)-1])
	if len(line) > 200 {
		line = line[:200] + "..."
	}
	return line
}

// CheckEach checks each term alone on top of s's assertions: the same
// answers as Push, Assert(term), Check and Pop for one term after the
// other. A z3 or cvc5 process gets all of them at once and answers them
// in one round trip (a setup of the threshold-automata engine asks one
// per atom and one per location: tens to hundreds); a check with a
// Timeout or an RLimit, and a cross-checked solver, go one by one, and
// so do the checks after a failure of the process. An error stops the
// checks: the statuses so far are returned with it.
func CheckEach(ctx context.Context, s Solver, terms []string) ([]Status, error) {
	var sts []Status
	if p, ok := s.(*process); ok && len(terms) > 1 && p.opts.Timeout == 0 && p.opts.RLimit == 0 && !p.dead && p.broken == nil {
		var err error
		sts, err = p.checkEach(ctx, terms)
		var se *Error
		if err == nil || ctx.Err() != nil || !errors.As(err, &se) || !se.restart {
			return sts, err
		}
		// The process failed (it stopped reading or answering): the
		// rest one by one, as Check restarts it or gives up on it.
		terms = terms[len(sts):]
	}
	for _, t := range terms {
		s.Push()
		s.Assert(t)
		st, err := s.Check(ctx)
		s.Pop(1)
		if err != nil {
			return sts, err
		}
		sts = append(sts, st)
	}
	return sts, nil
}

// checkEach is CheckEach for a process: every term's push, assertion,
// check and pop written at once, then their answers read in order. On
// an error it returns the statuses before it.
func (p *process) checkEach(ctx context.Context, terms []string) ([]Status, error) {
	if err := p.drain(ctx); err != nil {
		return nil, err
	}
	for _, t := range terms {
		p.write("(push 1)")
		p.write("(assert " + t + ")")
		p.write("(check-sat)")
		p.write("(pop 1)")
	}
	start := time.Now()
	defer func() { p.stats.Time += time.Since(start) }()
	if err := p.flush(ctx); err != nil {
		return nil, err
	}
	sts := make([]Status, 0, len(terms))
	// Any answer out of place leaves the stack unknown: the process is
	// stopped, and restarts with its assertions at the next call.
	fail := func(err error) ([]Status, error) {
		p.kill()
		return sts, err
	}
	ack := func() error {
		e, err := p.next(ctx, p.replyLimit(), "acknowledge its commands", false)
		switch {
		case err != nil:
			return err
		case isError(e):
			return p.errorOf(e)
		}
		return p.notSuccess(e)
	}
	for range terms {
		if err := ack(); err != nil {
			return fail(err)
		}
		if err := ack(); err != nil {
			return fail(err)
		}
		e, err := p.next(ctx, 0, "answer (check-sat)", true)
		if err != nil {
			return fail(err)
		}
		st, ok := checkAnswer(e)
		switch {
		case ok:
			p.count(st)
			if st == Unknown {
				p.reason = "solver answered unknown"
			}
			sts = append(sts, st)
		case isError(e):
			return fail(p.errorOf(e))
		default:
			return fail(p.protocol("answered %s to check-sat", e))
		}
		if err := ack(); err != nil {
			return fail(err)
		}
	}
	p.failures = 0
	return sts, nil
}
