//go:build unix

package testenv

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// FakeSolver returns the path of a fake SMT solver, one of the shell
// scripts of smt/testdata/solvers that misbehave in one way each, and a
// function that lists the process ids of the fakes started so far (each
// appends its pid to $FAKE_SOLVER_PIDS).
func FakeSolver(t testing.TB, name string) (string, func() []int) {
	t.Helper()
	NeedBinary(t, "sh")
	path := filepath.Join(RepoRoot(t), "smt", "testdata", "solvers", name)
	pidFile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("FAKE_SOLVER_PIDS", pidFile)
	return path, func() []int {
		b, _ := os.ReadFile(pidFile)
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				pids = append(pids, n)
			}
		}
		return pids
	}
}

// Running reports whether pid is a live process (a zombie waiting for its
// new parent to reap it is not).
func Running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err)
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z' && b[i+2] != 'X'
}

// SolversGone fails t when a process of pids is still running after a
// short grace period for the kernel, and kills its group; it fails t too
// when pids is empty (the fake solver never started).
func SolversGone(t testing.TB, pids []int) {
	t.Helper()
	if len(pids) == 0 {
		t.Fatal("the fake solver never started")
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for Running(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if Running(pid) {
			t.Errorf("solver process %d is still running", pid)
			syscall.Kill(-pid, syscall.SIGKILL)
		}
	}
}

// FIFOs makes FIFOs of the given names in a temporary directory, which it
// returns, or skips t where there are none. At the end of the test it
// lets go the openings left waiting on them (readings given up).
func FIFOs(t testing.TB, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := syscall.Mkfifo(filepath.Join(dir, n), 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
	}
	t.Cleanup(func() {
		for _, n := range names {
			for i := 0; i < 4; i++ {
				if w, err := os.OpenFile(filepath.Join(dir, n), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
			}
		}
	})
	return dir
}
