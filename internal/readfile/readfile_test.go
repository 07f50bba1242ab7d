package readfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
