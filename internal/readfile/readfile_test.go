package readfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
