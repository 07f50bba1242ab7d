// Package readfile reads the files ftmc is given (models, included files,
// reports) with a bound on their size, so that a device such as /dev/zero,
// a FIFO or a huge file is refused at the bound instead of filling memory.
// Devices and pipes are read like files (/dev/stdin, process substitution)
// as long as they end before the bound. ReadContext bounds the reading in
// time too: a FIFO that no process writes, or whose writer never closes
// it, is given up when the run's context is done.
package readfile

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
)

// The bounds. A real model is far below: the largest models ftmc is known
// to read are a few megabytes.
const (
	// ModelLimit bounds a model file of any language, and the text of a
	// Promela model with all its #include files.
	ModelLimit = 64 << 20
	// ReportLimit bounds a report (JSON) read by ftmc trace.
	ReportLimit = 256 << 20
)

// TooLargeError is the error of a file larger than its bound.
type TooLargeError struct {
	Name  string
	Limit int64
	What  string // "model file", "report", ...
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %d MB: too large for a %s", e.Name, e.Limit>>20, e.What)
}

// StoppedError is the error of a reading that its context ended before
// the file was read: a FIFO that no process opens for writing, a pipe
// whose writer does not close it.
type StoppedError struct {
	Name  string
	Cause error // the context's cause (context.Cause)
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("%s: reading stopped: %v", e.Name, e.Cause)
}

func (e *StoppedError) Unwrap() error { return e.Cause }

// Read reads the file name, which must hold at most limit bytes; what
// names the kind of file for the error. A regular file is refused by its
// size before it is read; anything else is read up to the bound.
func Read(name string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, name, limit, what)
}

// readOpen reads r, open, to its end: at most limit bytes, and a regular
// file larger than that is refused before it is read.
func readOpen(r io.Reader, name string, limit int64, what string) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
			return nil, &TooLargeError{name, limit, what}
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{name, limit, what}
	}
	return data, nil
}

// ReadContext is Read bounded by ctx (nil: not bounded) when name is not a
// regular file: when ctx is done before a FIFO, a pipe or a device is
// opened and read, it returns a *StoppedError at once. (A regular file is
// read as by Read: its size bounds the reading, and a run's limits that
// are already reached do not refuse it.) The opening and the reading run
// apart from the caller. A reading given up is ended by closing the file
// (a pipe or FIFO read is woken by that); an opening that waits for a
// FIFO's writer is left waiting until one comes or the process ends.
func ReadContext(ctx context.Context, name string, limit int64, what string) ([]byte, error) {
	if ctx == nil || ctx.Done() == nil {
		return Read(name, limit, what)
	}
	if st, err := os.Stat(name); err != nil || st.Mode().IsRegular() {
		return Read(name, limit, what)
	}
	if ctx.Err() != nil {
		return nil, &StoppedError{name, context.Cause(ctx)}
	}
	done := make(chan result, 1)
	var (
		mu      sync.Mutex
		open    *os.File // the file once opened, while it is read
		stopped bool     // the caller has given up
	)
	go func() {
		f, err := os.Open(name)
		if err != nil {
			done <- result{nil, err}
			return
		}
		mu.Lock()
		if stopped {
			mu.Unlock()
			f.Close()
			return
		}
		open = f
		mu.Unlock()
		data, err := readOpen(f, name, limit, what)
		mu.Lock()
		open = nil
		mu.Unlock()
		f.Close()
		done <- result{data, err}
	}()
	return await(ctx, done, name, func() {
		mu.Lock()
		stopped = true
		if open != nil {
			// Close waits for a read of a file that cannot be polled (a
			// device) to return: the caller does not.
			go open.Close()
		}
		mu.Unlock()
	})
}

// result is a reading's outcome, sent by the goroutine that reads.
type result struct {
	data []byte
	err  error
}

// await waits for the reading that sends on done, or for ctx: a reading
// done at the same time as ctx stands; otherwise giveUp is called (nil:
// nothing to do) and the reading is given up with a *StoppedError.
func await(ctx context.Context, done <-chan result, name string, giveUp func()) ([]byte, error) {
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
	}
	select {
	case r := <-done:
		return r.data, r.err
	default:
	}
	if giveUp != nil {
		giveUp()
	}
	return nil, &StoppedError{name, context.Cause(ctx)}
}

// ReadFrom reads r, already open (standard input), as ReadContext reads a
// file: at most limit bytes, and given up with a *StoppedError when ctx
// (nil: not bounded) is done first, a pipe whose writer does not close it.
// name names r in the errors ("<stdin>"). A reading given up is left to
// end with the process: r is not closed.
func ReadFrom(ctx context.Context, r io.Reader, name string, limit int64, what string) ([]byte, error) {
	if ctx == nil || ctx.Done() == nil {
		return readOpen(r, name, limit, what)
	}
	if ctx.Err() != nil {
		return nil, &StoppedError{name, context.Cause(ctx)}
	}
	done := make(chan result, 1)
	go func() {
		data, err := readOpen(r, name, limit, what)
		done <- result{data, err}
	}()
	return await(ctx, done, name, nil)
}
