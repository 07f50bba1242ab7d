//go:build linux

package explore

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"

	"ftmc/internal/procmem"
)

// childrenBytes is the resident memory of this process's child processes
// (the SMT solvers of the schema and backward-reachability engines), read
// from /proc: the children each thread started, and the private resident
// pages of each; nothing before the process has started one
// (procmem.Spawning). A child that ends between the two reads counts
// nothing.
func childrenBytes() int64 {
	if !procmem.Spawned() {
		return 0
	}
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	var total int64
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, pid := range bytes.Fields(data) {
			if n, err := strconv.Atoi(string(pid)); err == nil {
				total += procmem.Private(n)
			}
		}
	}
	return total
}
