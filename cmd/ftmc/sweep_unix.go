//go:build unix

package main

import (
	"os"
	"syscall"
)

// checkProcAttr puts a check in a process group of its own: a signal the
// terminal sends to the sweep's group (Ctrl-C) does not reach it twice,
// from the terminal and from the sweep (a check exits at a second signal
// without its report). Where the system can, a check whose sweep dies
// without stopping it (SIGKILL, a closed terminal) gets SIGTERM.
func checkProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(a, syscall.SIGTERM)
	return a
}

// stopCheck passes the signal that stopped the sweep (stop is its
// explore.StopCause) on to a check: SIGTERM for "terminated", else SIGINT.
func stopCheck(p *os.Process, stop string) error {
	if stop == "terminated" {
		return p.Signal(syscall.SIGTERM)
	}
	return p.Signal(os.Interrupt)
}
