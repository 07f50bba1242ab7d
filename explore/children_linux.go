//go:build linux

package explore

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// childrenBytes is the resident memory of this process's child processes
// (the SMT solvers of the schema and backward-reachability engines), read
// from /proc: the children each thread started, and the private resident
// pages of each. A child that ends between the two reads counts nothing.
func childrenBytes() int64 {
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	var total int64
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, pid := range bytes.Fields(data) {
			total += residentBytes(string(pid))
		}
	}
	return total
}

// residentBytes is the resident memory of process pid that is its own, from
// its statm: the resident set less the pages shared with files (the
// solver's libraries, which the system holds once for every process).
func residentBytes(pid string) int64 {
	data, err := os.ReadFile("/proc/" + pid + "/statm")
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
