//go:build linux

package explore

import (
	"os"
	"syscall"
)

func machineSources() memorySources {
	src := memorySources{readFile: os.ReadFile}
	// RLIM_INFINITY is all ones: no limit.
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur < 1<<62 {
		src.addressLimit = int64(rl.Cur)
		if data, err := os.ReadFile("/proc/self/status"); err == nil {
			src.addressUsed = statusBytes(data, "VmSize:")
		}
	}
	return src
}
