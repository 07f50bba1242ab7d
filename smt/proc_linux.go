package smt

import "syscall"

// dieWithParent has the kernel kill the solver when ftmc dies without
// stopping it (killed by SIGKILL, say): an orphaned solver would go on
// taking a core and gigabytes for as long as its query runs.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
