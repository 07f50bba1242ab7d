//go:build linux

package explore

import (
	"bytes"
	"os"
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
	// The threads by name, and then each one's children: a glob of
	// /proc/self/task/*/children would list every thread's directory
	// too, some 50 entries each.
	dir, err := os.Open("/proc/self/task")
	if err != nil {
		return 0
	}
	tasks, _ := dir.Readdirnames(-1)
	dir.Close()
	var total int64
	for _, t := range tasks {
		data, err := os.ReadFile("/proc/self/task/" + t + "/children")
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
