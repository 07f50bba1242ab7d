package explore

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// DefaultMemoryShare is the part of the memory the machine leaves a process
// that a search takes when it is given no limit, as Spin's MEMLIM bounds
// pan: the rest is for the system, for other programs and for garbage the
// runtime has not collected between two samples of the search.
const DefaultMemoryShare = 0.85

// MachineMemory is the memory this process may use and what bounds it
// ("physical memory", "the cgroup's limit", "ulimit -v"): physical memory,
// the memory limit of the process's cgroup (in a container, say) or half of
// the address space that the limit on it (ulimit -v) leaves, whichever is
// least. Half, because the Go runtime reserves more address space than it
// uses and a hash table doubles next to its old copy. It returns 0 where it
// cannot tell (outside Linux).
func MachineMemory() (int64, string) {
	return machineMemory(machineSources())
}

// DefaultMemoryLimit is the memory limit of a search that is given none:
// DefaultMemoryShare of MachineMemory, divided among jobs searches that
// share the machine (at least 1). It also returns what it was derived from,
// for the reason of a search it stops ("85% of physical memory"). It
// returns 0 (no limit) where the machine's memory is not known.
func DefaultMemoryLimit(jobs int) (int64, string) {
	machine, bound := MachineMemory()
	return defaultMemoryLimit(jobs, machine, bound)
}

func defaultMemoryLimit(jobs int, machine int64, bound string) (int64, string) {
	if machine <= 0 {
		return 0, ""
	}
	jobs = max(jobs, 1)
	limit := int64(float64(machine) * DefaultMemoryShare / float64(jobs))
	from := fmt.Sprintf("%.0f%% of %s", DefaultMemoryShare*100, bound)
	if jobs > 1 {
		from = fmt.Sprintf("%.0f%% of %s shared by %d jobs", DefaultMemoryShare*100, bound, jobs)
	}
	return limit, from
}

// memorySources is what the machine says about its memory.
type memorySources struct {
	// readFile reads /proc and /sys files.
	readFile func(name string) ([]byte, error)
	// addressLimit is the process's address-space limit (0: none) and
	// addressUsed the address space it holds now.
	addressLimit, addressUsed int64
}

func machineMemory(src memorySources) (int64, string) {
	var best int64
	var bound string
	consider := func(b int64, what string) {
		if b > 0 && (best == 0 || b < best) {
			best, bound = b, what
		}
	}
	if src.readFile != nil {
		if data, err := src.readFile("/proc/meminfo"); err == nil {
			consider(statusBytes(data, "MemTotal:"), "physical memory")
		}
		consider(cgroupLimit(src.readFile), "the cgroup's memory limit")
	}
	if src.addressLimit > 0 {
		consider(max(1, (src.addressLimit-src.addressUsed)/2), "half the address space ulimit -v leaves")
	}
	return best, bound
}

// statusBytes is the figure named key ("MemTotal:") of /proc/meminfo or
// /proc/self/status in bytes (0 if absent).
func statusBytes(data []byte, key string) int64 {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == key {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0
			}
			if len(f) >= 3 && strings.EqualFold(f[2], "kB") {
				n *= 1024
			}
			return n
		}
	}
	return 0
}

// noCgroupLimit is the least value that means no limit: cgroup v1 writes
// the largest page-aligned int64 for "unlimited".
const noCgroupLimit = 1 << 62

// cgroupLimit is the least memory limit on the process's cgroup and its
// ancestors, in cgroup v2 (memory.max) and v1 (memory.limit_in_bytes) as
// mounted under /sys/fs/cgroup; 0 when there is none.
func cgroupLimit(readFile func(string) ([]byte, error)) int64 {
	data, err := readFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	var least int64
	try := func(file string) {
		b, err := readFile(file)
		if err != nil {
			return
		}
		s := strings.TrimSpace(string(b))
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 || n >= noCgroupLimit {
			return // "max", or unlimited
		}
		if least == 0 || n < least {
			least = n
		}
	}
	// walk tries file in dir and every directory above it up to root.
	walk := func(root, dir, file string) {
		for d := path.Join(root, dir); ; d = path.Dir(d) {
			try(path.Join(d, file))
			if d == root || len(d) <= len(root) {
				return
			}
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		dir := path.Clean("/" + parts[2])
		if parts[0] == "0" && parts[1] == "" {
			walk("/sys/fs/cgroup", dir, "memory.max")
			walk("/sys/fs/cgroup/unified", dir, "memory.max")
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "memory" {
				walk("/sys/fs/cgroup/memory", dir, "memory.limit_in_bytes")
			}
		}
	}
	return least
}
