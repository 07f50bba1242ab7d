// Command ftmc is a model checker for fault-tolerant distributed algorithms.
//
//	ftmc check  MODEL.pml [-D NAME=VALUE]... [--param N=4,T=1,F=1] [flags]
//	ftmc verify MODEL.{ta,pml,mcmt,cub} [SPEC ... | all] [flags]
//	ftmc sweep  MODEL.pml -D BUF=1,2 -D CHAN=B,R,I [flags]
//	ftmc trace  RESULT.json --msc out.svg | --text
//	ftmc completion bash|zsh|fish
//
// Exit codes: 0 every property holds, 1 a property is violated, 2 bad input
// or usage, 3 unknown (a search was cut short).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"ftmc/explore"
	"ftmc/trace"
)

const usage = `usage:
  ftmc check  MODEL.{pml,ta} [-D NAME=VALUE]... [--param N=4,T=1,F=1] [flags]
  ftmc verify MODEL.{ta,mcmt,in,cub} [SPEC ... | all] [flags]
  ftmc sweep  MODEL.pml [-D NAME=V1,V2,...]... [flags]
  ftmc trace  RESULT.json [--text] [--msc out.svg] [--msc-text]
  ftmc completion bash|zsh|fish
  ftmc version

A model or report given as - is read from standard input.

Run 'ftmc COMMAND -h' for the flags of a command.
Exit codes: 0 all properties hold, 1 a property is violated, 2 bad input or usage, 3 unknown.
`

// env is what a command needs from the process: streams, and whether stderr
// is a terminal (progress is drawn only there).
type env struct {
	ctx      context.Context
	stdin    io.Reader // a model or report given as "-"
	stdout   io.Writer
	stderr   io.Writer
	terminal bool
}

// within is e with the run's context ctx (bounded by the run's budget).
func (e *env) within(ctx context.Context) *env {
	w := *e
	w.ctx = ctx
	return &w
}

func main() {
	ctx, stop := signalContext()
	defer stop()
	e := &env{ctx: ctx, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, terminal: isTerminal(os.Stderr)}
	os.Exit(run(e, os.Args[1:]))
}

// signalContext is the run's context: SIGINT cancels it with the cause
// explore.ErrInterrupted, SIGTERM with explore.ErrTerminated, so that every
// engine stops with the verdict unknown, its reason and its statistics, and
// kills the solvers it started. A second signal exits at once.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig, ok := <-sigs
		if !ok {
			return
		}
		if sig == syscall.SIGTERM {
			cancel(explore.ErrTerminated)
		} else {
			cancel(explore.ErrInterrupted)
		}
		if _, ok := <-sigs; ok {
			os.Exit(trace.ExitUnknown)
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(sigs)
		cancel(nil)
	}
}

// run runs the command of args. A report that cannot be written to
// standard output (a full disk) is said on stderr, and the exit code is
// then 2 unless it is a verdict's 1 or 3, which stands.
func run(e *env, args []string) int {
	out := &errWriter{w: e.stdout}
	inner := *e
	inner.stdout = out
	code := dispatch(&inner, args)
	heldOutputs.release()
	if out.err != nil {
		return reportWriteFailure(e.stderr, out.err, code)
	}
	return code
}

func dispatch(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "check":
		return cmdCheck(e, rest)
	case "verify":
		return cmdVerify(e, rest)
	case "sweep":
		return cmdSweep(e, rest)
	case "trace":
		return cmdTrace(e, rest)
	case "completion":
		return cmdCompletion(e, rest)
	case "version", "-version", "--version":
		fmt.Fprint(e.stdout, versionText(debug.ReadBuildInfo()))
		return 0
	case "help", "-h", "-help", "--help":
		fmt.Fprint(e.stdout, usage)
		return 0
	}
	fmt.Fprintf(e.stderr, "ftmc: unknown command %q\n%s", cmd, usage)
	return 2
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
