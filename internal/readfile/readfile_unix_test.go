//go:build unix

package readfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"ftmc/internal/testenv"
)

// mkfifo makes a FIFO in a temporary directory.
func mkfifo(t *testing.T) string {
	t.Helper()
	return filepath.Join(testenv.FIFOs(t, "fifo"), "fifo")
}

// readWithin runs ReadContext and fails the test if it does not return
// within 20 s (it hangs).
func readWithin(t *testing.T, ctx context.Context, name string) ([]byte, error) {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := ReadContext(ctx, name, 1<<20, "model file")
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("ReadContext(%s) did not return 20 s after its context", name)
		return nil, nil
	}
}

// wantStopped checks that err is the StoppedError of name with cause.
func wantStopped(t *testing.T, err error, name string, cause error) {
	t.Helper()
	var se *StoppedError
	if !errors.As(err, &se) || se.Name != name || !errors.Is(err, cause) {
		t.Fatalf("got %v, want %s: reading stopped: %v", err, name, cause)
	}
}

// A FIFO that no process opens for writing: the reading ends with the
// context, with its cause.
func TestReadContextFIFOWithoutWriter(t *testing.T) {
	fifo := mkfifo(t)
	limit := errors.New("time limit 200ms reached")
	ctx, cancel := context.WithTimeoutCause(context.Background(), 200*time.Millisecond, limit)
	defer cancel()
	_, err := readWithin(t, ctx, fifo)
	wantStopped(t, err, fifo, limit)
	// Let the opening left waiting go: it finds the reading given up.
	if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
	}
}

// A FIFO whose writer writes and never closes it: the reading ends when
// the context is canceled (a signal).
func TestReadContextFIFOWriterNeverCloses(t *testing.T) {
	fifo := mkfifo(t)
	ready := make(chan *os.File, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			ready <- nil
			return
		}
		w.Write([]byte("init { skip }\n"))
		ready <- w
	}()
	terminated := errors.New("terminated")
	ctx, cancel := context.WithCancelCause(context.Background())
	writer := make(chan *os.File, 1)
	go func() {
		w := <-ready
		writer <- w
		time.Sleep(100 * time.Millisecond)
		cancel(terminated)
	}()
	_, err := readWithin(t, ctx, fifo)
	// The writer closes only once the reading is over: closed at the
	// cancellation, it would end the reading as the context ends it.
	if w := <-writer; w != nil {
		w.Close()
	}
	wantStopped(t, err, fifo, terminated)
}

// A context that is done before: a FIFO is not opened; a regular file,
// which its size bounds, is read.
func TestReadContextDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := readWithin(t, ctx, mkfifo(t))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context canceled", err)
	}
	small := filepath.Join(t.TempDir(), "small")
	if err := os.WriteFile(small, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := readWithin(t, ctx, small); err != nil || string(data) != "hello" {
		t.Errorf("a file: %q, %v", data, err)
	}
}

// With a context that is not done, files, devices and FIFOs that end are
// read as by Read.
func TestReadContextReads(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	small := filepath.Join(t.TempDir(), "small")
	if err := os.WriteFile(small, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := readWithin(t, ctx, small); err != nil || string(data) != "hello" {
		t.Errorf("a file: %q, %v", data, err)
	}
	var tl *TooLargeError
	if _, err := readWithin(t, ctx, "/dev/zero"); !errors.As(err, &tl) {
		t.Errorf("/dev/zero: %v", err)
	}
	if _, err := readWithin(t, ctx, filepath.Join(t.TempDir(), "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	fifo := mkfifo(t)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			w.Write([]byte("hello"))
			w.Close()
		}
	}()
	if data, err := readWithin(t, ctx, fifo); err != nil || string(data) != "hello" {
		t.Errorf("a FIFO: %q, %v", data, err)
	}
}

// A FIFO is read to its end when it is small, and up to the bound when it
// goes on.
func TestReadFIFO(t *testing.T) {
	for _, n := range []int{100, 3 << 20} {
		fifo := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		go func() {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			defer w.Close()
			w.SetWriteDeadline(time.Now().Add(20 * time.Second))
			w.Write(make([]byte, n))
		}()
		data, err := Read(fifo, 1<<20, "model file")
		switch {
		case n < 1<<20 && (err != nil || len(data) != n):
			t.Errorf("%d bytes: got %d bytes, %v", n, len(data), err)
		case n > 1<<20 && err == nil:
			t.Errorf("%d bytes: no error", n)
		}
	}
}
