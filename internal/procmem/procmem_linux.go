//go:build linux

// Package procmem reads the memory of a process from Linux's /proc.
package procmem

import (
	"bytes"
	"os"
	"strconv"
)

// Private is the resident memory of process pid that is its own, from its
// statm: the resident set less the pages shared with files (a solver's
// libraries, which the system holds once for every process). It is 0
// when the process is gone or its statm cannot be read.
func Private(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(data)
	if len(f) < 3 {
		return 0
	}
	resident, err1 := strconv.ParseInt(string(f[1]), 10, 64)
	shared, err2 := strconv.ParseInt(string(f[2]), 10, 64)
	if err1 != nil || err2 != nil || resident < shared {
		return 0
	}
	return (resident - shared) * int64(os.Getpagesize())
}
