//go:build unix

package explore

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used. The benchmarks divide by it
// rather than by wall time: on a shared machine a process may get a fraction
// of a core, which says nothing about the engine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
