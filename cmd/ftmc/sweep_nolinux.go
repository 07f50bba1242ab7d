//go:build unix && !linux

package main

import "syscall"

// setParentDeathSignal: only Linux sends a child a signal when its parent
// dies.
func setParentDeathSignal(*syscall.SysProcAttr, syscall.Signal) {}
