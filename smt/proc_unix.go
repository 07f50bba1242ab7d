//go:build unix

package smt

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts the solver in a process group of its own, so that
// killGroup stops what it started too (a wrapper script's children), and a
// terminal's interrupt reaches ftmc only, which then stops the solver.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// killGroup kills the solver's process group.
func killGroup(p *os.Process) {
	if syscall.Kill(-p.Pid, syscall.SIGKILL) != nil {
		p.Kill()
	}
}
