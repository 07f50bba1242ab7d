package procmem

import (
	"os"
	"runtime"
	"testing"
)

// This process's own memory is some hundreds of kilobytes or more where
// /proc tells it; a process that does not exist has none.
func TestPrivate(t *testing.T) {
	n := Private(os.Getpid())
	if runtime.GOOS == "linux" && (n < 64<<10 || n > 1<<40) {
		t.Errorf("this process: %d bytes", n)
	}
	if runtime.GOOS != "linux" && n != 0 {
		t.Errorf("this process: %d bytes, want 0 without /proc", n)
	}
	if n := Private(1 << 30); n != 0 {
		t.Errorf("no such process: %d bytes", n)
	}
}
