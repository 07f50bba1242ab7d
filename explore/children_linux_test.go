//go:build linux

package explore

import (
	"io"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"ftmc/internal/procmem"
)

// TestChildrenBytes: a running child process's own memory counts, and
// nothing once it has ended.
func TestChildrenBytes(t *testing.T) {
	if got := childrenBytes(); got != 0 {
		t.Fatalf("%d bytes of children before any started", got)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldMemory$")
	cmd.Env = append(os.Environ(), "FTMC_HOLD_MEMORY=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	procmem.Spawning()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var got int64
	for deadline := time.Now().Add(20 * time.Second); got < 40e6 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		got = childrenBytes()
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if got < 40e6 || got > 400e6 {
		t.Errorf("a child holding 40 MB counts %s", FormatBytes(got))
	}
	if after := childrenBytes(); after != 0 {
		t.Errorf("%s of children after the child ended", FormatBytes(after))
	}
}

// TestHoldMemory is TestChildrenBytes's child: it holds 40 MB until its
// standard input ends.
func TestHoldMemory(t *testing.T) {
	if os.Getenv("FTMC_HOLD_MEMORY") != "1" {
		t.Skip("the child of TestChildrenBytes")
	}
	b := make([]byte, 40e6)
	for i := range b {
		b[i] = byte(i)
	}
	io.Copy(io.Discard, os.Stdin)
	runtime.KeepAlive(b)
}
