package main

import "syscall"

// setParentDeathSignal asks the system to send sig to the child when its
// parent dies.
func setParentDeathSignal(a *syscall.SysProcAttr, sig syscall.Signal) { a.Pdeathsig = sig }
