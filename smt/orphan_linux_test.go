package smt

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestSolverDiesWithFtmc: a process that started a solver and is killed
// outright (SIGKILL: it cannot stop the solver) takes the solver with it.
// The process is this test binary again, with a solver that sleeps and
// reads nothing, so that it does not see its input close.
func TestSolverDiesWithFtmc(t *testing.T) {
	if path := os.Getenv("FTMC_SMT_ORPHAN"); path != "" {
		New(context.Background(), Options{Path: path})
		select {}
	}
	path, pids := fake(t, "deaf")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSolverDiesWithFtmc$")
	cmd.Env = append(os.Environ(), "FTMC_SMT_ORPHAN="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(20 * time.Second); len(pids()) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the solver never started")
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	noneRunning(t, pids())
}
