package readfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(small, 5, "model file"); err != nil || string(data) != "hello" {
		t.Errorf("a file at the bound: %q, %v", data, err)
	}
	_, err := Read(small, 4, "model file")
	var tl *TooLargeError
	if !errors.As(err, &tl) || err.Error() != small+": larger than 0 MB: too large for a model file" {
		t.Errorf("a file over the bound: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "none"), 4, "model file"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// A device that never ends stops at the bound.
func TestReadDevice(t *testing.T) {
	_, err := Read("/dev/zero", 1<<20, "model file")
	if err == nil || !strings.HasPrefix(err.Error(), "/dev/zero: larger than 1 MB") {
		t.Fatalf("got %v, want /dev/zero: larger than 1 MB", err)
	}
}

// ReadFrom reads an open reader up to the bound, and gives up a reader
// that does not end when its context is done.
func TestReadFrom(t *testing.T) {
	if data, err := ReadFrom(nil, strings.NewReader("hello"), "<stdin>", 5, "model file"); err != nil || string(data) != "hello" {
		t.Errorf("a reader at the bound: %q, %v", data, err)
	}
	_, err := ReadFrom(context.Background(), strings.NewReader("hello!"), "<stdin>", 5, "model file")
	var tl *TooLargeError
	if !errors.As(err, &tl) || !strings.HasPrefix(err.Error(), "<stdin>: larger than") {
		t.Errorf("a reader over the bound: %v", err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("interrupted")
	time.AfterFunc(10*time.Millisecond, func() { cancel(cause) })
	_, err = ReadFrom(ctx, pr, "<stdin>", 5, "model file")
	var se *StoppedError
	if !errors.As(err, &se) || se.Name != "<stdin>" || !errors.Is(err, cause) {
		t.Errorf("a pipe that does not end, interrupted: %v", err)
	}
}
