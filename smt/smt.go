// Package smt is ftmc's client for SMT solvers that speak SMT-LIB 2 over a
// pipe (z3 -in, cvc5 --incremental). The parameterized engines (threshold
// automata, array-based systems) keep one long-lived solver process per
// worker and talk to it incrementally: push/pop, check-sat-assuming with
// activation literals, get-value, unsat cores.
//
// Terms are SMT-LIB 2 text; the helpers in terms.go build it. A query that
// times out, or a solver that crashes, answers Unknown with a reason — an
// engine turns that into the verdict unknown, never holds.
package smt

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
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
	// On Unknown, the reason (timeout, incomplete, crash) is in the error
	// text of Reason().
	Check(ctx context.Context, assumptions ...string) (Status, error)
	// Reason says why the last Check answered Unknown.
	Reason() string
	// Values returns the model's values of the terms after Sat.
	Values(terms ...string) ([]Value, error)
	// UnsatCore returns the assumptions of the last Unsat check-sat-assuming
	// that the solver found sufficient.
	UnsatCore() ([]string, error)
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
}

// Options configure a solver process.
type Options struct {
	// Name is "z3" (default) or "cvc5".
	Name string
	// Path overrides the binary found on PATH.
	Path string
	// Timeout bounds each check-sat; 0 means none. The solver is asked to
	// give up itself (answering unknown); if it does not answer shortly
	// after, the process is killed and the check answers Unknown.
	Timeout time.Duration
	// AutoConfig keeps z3's auto_config on. Off by default: it is much
	// slower on the unrolled counter-system queries of threshold automata.
	AutoConfig bool
	// Logic is sent as (set-logic ...) when non-empty, e.g. "QF_LIA".
	Logic string
	// Log, when non-nil, receives a transcript of everything sent.
	Log io.Writer
}

// ErrNoSolver is wrapped by New when the solver binary is not installed.
var ErrNoSolver = errors.New("SMT solver not found")

// New starts a solver process.
func New(opts Options) (Solver, error) {
	if opts.Name == "" {
		opts.Name = "z3"
	}
	var args []string
	switch opts.Name {
	case "z3":
		args = []string{"-in", "-smt2"}
		if !opts.AutoConfig {
			args = append(args, "auto_config=false")
		}
	case "cvc5":
		args = []string{"--lang=smt2", "--incremental", "--produce-models", "--produce-unsat-assumptions"}
		if opts.Logic == "" {
			opts.Logic = "ALL"
		}
	default:
		return nil, fmt.Errorf("unknown solver %q (want z3 or cvc5)", opts.Name)
	}
	path := opts.Path
	if path == "" {
		p, err := exec.LookPath(opts.Name)
		if err != nil {
			return nil, fmt.Errorf("%w: %s is not on PATH; install it (Debian: apt-get install %s)", ErrNoSolver, opts.Name, opts.Name)
		}
		path = p
	}
	p := &process{opts: opts, path: path, args: args}
	if err := p.start(); err != nil {
		return nil, err
	}
	return p, nil
}

// process is a solver behind a pipe. Commands are written without waiting;
// with :print-success on, every command is answered, and the answers are
// read (and checked for errors) before the next answer that matters. A
// goroutine reads the answers as they come (answers), so that the solver
// never waits on a full pipe of acknowledgements while ftmc waits on a full
// pipe of commands: thousands of assertions before a check-sat deadlocked
// the two processes that way.
type process struct {
	opts Options
	path string
	args []string

	cmd     *exec.Cmd
	in      *bufio.Writer
	stdin   io.WriteCloser
	out     *answers
	pending int // answers ("success" or an error) not yet read
	err     error
	dead    bool
	reason  string
	stats   Stats

	// replay is what was sent since start, by stack level, so that a
	// restarted process can be brought back to the same assertions.
	replay [][]string
}

func (p *process) start() error {
	cmd := exec.Command(p.path, p.args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = nil
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", p.path, err)
	}
	p.cmd, p.stdin, p.in, p.out = cmd, stdin, bufio.NewWriterSize(stdin, 1<<16), readAnswers(bufio.NewReaderSize(stdout, 1<<16))
	p.pending, p.err, p.dead = 0, nil, false
	p.raw("(set-option :print-success true)")
	if p.opts.Name == "z3" || p.opts.Name == "" {
		p.raw("(set-option :produce-models true)")
		p.raw("(set-option :produce-unsat-assumptions true)")
	}
	if p.opts.Logic != "" {
		p.raw("(set-logic " + p.opts.Logic + ")")
	}
	if p.replay == nil {
		p.replay = [][]string{nil}
	} else {
		for i, level := range p.replay {
			if i > 0 {
				p.raw("(push 1)")
			}
			for _, c := range level {
				p.raw(c)
			}
		}
	}
	return nil
}

// raw writes one command that answers success.
func (p *process) raw(cmd string) {
	if p.dead {
		return
	}
	if p.opts.Log != nil {
		fmt.Fprintln(p.opts.Log, cmd)
	}
	p.in.WriteString(cmd)
	p.in.WriteByte('\n')
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

// drain reads the answers of the commands written so far.
func (p *process) drain(ctx context.Context) error {
	if err := p.in.Flush(); err != nil {
		p.crash(err)
		return p.err
	}
	for p.pending > 0 {
		e, err := p.out.next(ctx, nil)
		if err != nil {
			p.crash(err)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return p.err
		}
		p.pending--
		if isError(e) {
			if p.err == nil {
				p.err = fmt.Errorf("%s: %s", p.opts.Name, errorText(e))
			}
			continue
		}
		if e.IsList || e.Atom != "success" {
			// z3 answers some options with "unsupported"; harmless.
			if e.Atom == "unsupported" {
				continue
			}
			if p.err == nil {
				p.err = fmt.Errorf("%s: unexpected answer %s", p.opts.Name, e)
			}
		}
	}
	err := p.err
	p.err = nil
	return err
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

func (p *process) crash(err error) {
	if p.dead {
		return
	}
	p.dead = true
	p.reason = fmt.Sprintf("%s stopped: %v", p.opts.Name, err)
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
}

// revive restarts a crashed or killed process with the same assertions.
func (p *process) revive() error {
	if !p.dead {
		return nil
	}
	p.stats.Restarts++
	return p.start()
}

// answer reads the next answer that is not the acknowledgement of a
// command, giving up at the deadline.
func (p *process) answer(ctx context.Context, limit time.Duration) (Sexp, error) {
	var timer <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timer = t.C
	}
	e, err := p.out.next(ctx, timer)
	switch {
	case err == nil:
		return e, nil
	case ctx.Err() != nil:
		p.crash(ctx.Err())
		return Sexp{}, ctx.Err()
	case err == errTimeout:
		p.crash(fmt.Errorf("no answer within %v", limit))
		return Sexp{}, errTimeout
	}
	return Sexp{}, err
}

// answers is what a solver process has written, read as it comes by a
// goroutine of its own and kept until asked for.
type answers struct {
	mu    sync.Mutex
	queue []answer
	ready chan struct{} // a token when the queue may have grown
}

type answer struct {
	e   Sexp
	err error
}

func readAnswers(r *bufio.Reader) *answers {
	a := &answers{ready: make(chan struct{}, 1)}
	go func() {
		for {
			e, err := readSexp(r)
			a.mu.Lock()
			a.queue = append(a.queue, answer{e, err})
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

func (p *process) Check(ctx context.Context, assumptions ...string) (Status, error) {
	if err := p.revive(); err != nil {
		return Unknown, err
	}
	if p.opts.Timeout > 0 {
		ms := p.opts.Timeout.Milliseconds()
		if p.opts.Name == "cvc5" {
			p.raw(fmt.Sprintf("(set-option :tlimit-per %d)", ms))
		} else {
			p.raw(fmt.Sprintf("(set-option :timeout %d)", ms))
		}
	}
	if err := p.drain(ctx); err != nil {
		if ctx.Err() != nil {
			p.stats.Unknown++
			p.reason = "cancelled"
			return Unknown, ctx.Err()
		}
		if p.dead {
			p.stats.Unknown++
			return Unknown, nil
		}
		return Unknown, err
	}
	q := "(check-sat)"
	if len(assumptions) > 0 {
		q = "(check-sat-assuming (" + strings.Join(assumptions, " ") + "))"
	}
	if p.opts.Log != nil {
		fmt.Fprintln(p.opts.Log, q)
	}
	p.in.WriteString(q)
	p.in.WriteByte('\n')
	if err := p.in.Flush(); err != nil {
		p.crash(err)
		p.stats.Unknown++
		return Unknown, nil
	}
	start := time.Now()
	limit := time.Duration(0)
	if p.opts.Timeout > 0 {
		limit = p.opts.Timeout + p.opts.Timeout/2 + 2*time.Second
	}
	e, err := p.answer(ctx, limit)
	p.stats.Time += time.Since(start)
	p.stats.Checks++
	if err != nil {
		p.stats.Unknown++
		if ctx.Err() != nil {
			p.reason = "cancelled"
			return Unknown, ctx.Err()
		}
		if err == errTimeout {
			p.reason = fmt.Sprintf("solver timeout (%v)", p.opts.Timeout)
		}
		return Unknown, nil
	}
	switch {
	case !e.IsList && e.Atom == "sat":
		p.stats.Sat++
		return Sat, nil
	case !e.IsList && e.Atom == "unsat":
		p.stats.Unsat++
		return Unsat, nil
	case !e.IsList && e.Atom == "unknown":
		p.stats.Unknown++
		p.reason = p.reasonUnknown()
		return Unknown, nil
	case isError(e):
		p.stats.Unknown++
		return Unknown, fmt.Errorf("%s: %s", p.opts.Name, errorText(e))
	}
	p.stats.Unknown++
	return Unknown, fmt.Errorf("%s: unexpected answer to check-sat: %s", p.opts.Name, e)
}

func (p *process) reasonUnknown() string {
	p.in.WriteString("(get-info :reason-unknown)\n")
	if err := p.in.Flush(); err != nil {
		p.crash(err)
		return p.reason
	}
	e, err := p.out.next(context.Background(), nil)
	if err != nil {
		p.crash(err)
		return p.reason
	}
	// (:reason-unknown "timeout")
	if e.IsList && len(e.List) == 2 {
		r := strings.Trim(e.List[1].Atom, `"`)
		if r == "timeout" || r == "canceled" {
			return fmt.Sprintf("solver timeout (%v)", p.opts.Timeout)
		}
		return "solver answered unknown: " + r
	}
	return "solver answered unknown"
}

func (p *process) Reason() string { return p.reason }

func (p *process) Values(terms ...string) ([]Value, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	if p.dead {
		return nil, errors.New(p.reason)
	}
	if err := p.drain(context.Background()); err != nil {
		return nil, err
	}
	p.in.WriteString("(get-value (" + strings.Join(terms, " ") + "))\n")
	if err := p.in.Flush(); err != nil {
		p.crash(err)
		return nil, err
	}
	e, err := p.out.next(context.Background(), nil)
	if err != nil {
		p.crash(err)
		return nil, err
	}
	if isError(e) {
		return nil, fmt.Errorf("%s: %s", p.opts.Name, errorText(e))
	}
	if !e.IsList || len(e.List) != len(terms) {
		return nil, fmt.Errorf("%s: unexpected answer to get-value: %s", p.opts.Name, e)
	}
	vals := make([]Value, len(terms))
	for i, pair := range e.List {
		if !pair.IsList || len(pair.List) != 2 {
			return nil, fmt.Errorf("%s: unexpected answer to get-value: %s", p.opts.Name, e)
		}
		v, err := parseValue(pair.List[1])
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

func (p *process) UnsatCore() ([]string, error) {
	if p.dead {
		return nil, errors.New(p.reason)
	}
	if err := p.drain(context.Background()); err != nil {
		return nil, err
	}
	p.in.WriteString("(get-unsat-assumptions)\n")
	if err := p.in.Flush(); err != nil {
		p.crash(err)
		return nil, err
	}
	e, err := p.out.next(context.Background(), nil)
	if err != nil {
		p.crash(err)
		return nil, err
	}
	if isError(e) {
		return nil, fmt.Errorf("%s: %s", p.opts.Name, errorText(e))
	}
	if !e.IsList {
		return nil, fmt.Errorf("%s: unexpected answer to get-unsat-assumptions: %s", p.opts.Name, e)
	}
	core := make([]string, len(e.List))
	for i, x := range e.List {
		core[i] = x.String()
	}
	return core, nil
}

func (p *process) Stats() Stats { return p.stats }

func (p *process) Close() error {
	if p.dead {
		return nil
	}
	p.dead = true
	p.in.WriteString("(exit)\n")
	p.in.Flush()
	p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
	return nil
}
