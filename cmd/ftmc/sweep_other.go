//go:build !unix

package main

import (
	"os"
	"syscall"
)

// checkProcAttr: a check runs as any child process.
func checkProcAttr() *syscall.SysProcAttr { return nil }

// stopCheck stops a check: signals cannot be passed on here, so it is
// killed and its row is unknown with the figures of its progress lines.
func stopCheck(p *os.Process, stop string) error { return p.Kill() }
