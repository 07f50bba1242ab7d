package explore

import (
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"testing"

	"ftmc/trace"
)

// files is a read-only file system of /proc and /sys files for tests.
func files(m map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if s, ok := m[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

const meminfo = "MemTotal:       24684084 kB\nMemFree:        10274272 kB\n"

func TestMachineMemory(t *testing.T) {
	const total = 24684084 * 1024
	for _, tc := range []struct {
		name  string
		src   memorySources
		want  int64
		bound string
	}{
		{"nothing known", memorySources{readFile: files(nil)}, 0, ""},
		{"physical memory", memorySources{readFile: files(map[string]string{"/proc/meminfo": meminfo})}, total, "physical memory"},
		{"cgroup v1 without a limit", memorySources{readFile: files(map[string]string{
			"/proc/meminfo":     meminfo,
			"/proc/self/cgroup": "4:memory:/jobs/a\n1:cpu:/\n0::/\n",
			"/sys/fs/cgroup/memory/jobs/a/memory.limit_in_bytes": "9223372036854771712\n",
		})}, total, "physical memory"},
		{"cgroup v1 limit on a parent", memorySources{readFile: files(map[string]string{
			"/proc/meminfo":     meminfo,
			"/proc/self/cgroup": "4:cpuacct,memory:/jobs/a\n",
			"/sys/fs/cgroup/memory/jobs/a/memory.limit_in_bytes": "9223372036854771712\n",
			"/sys/fs/cgroup/memory/jobs/memory.limit_in_bytes":   "4294967296\n",
		})}, 4 << 30, "the cgroup's memory limit"},
		{"cgroup v2", memorySources{readFile: files(map[string]string{
			"/proc/meminfo":                            meminfo,
			"/proc/self/cgroup":                        "0::/user.slice/job\n",
			"/sys/fs/cgroup/user.slice/job/memory.max": "2147483648\n",
			"/sys/fs/cgroup/user.slice/memory.max":     "max\n",
		})}, 2 << 30, "the cgroup's memory limit"},
		{"cgroup v2 in a container's namespace", memorySources{readFile: files(map[string]string{
			"/proc/meminfo":             meminfo,
			"/proc/self/cgroup":         "0::/\n",
			"/sys/fs/cgroup/memory.max": "1073741824\n",
		})}, 1 << 30, "the cgroup's memory limit"},
		{"a cgroup limit above physical memory", memorySources{readFile: files(map[string]string{
			"/proc/meminfo":             meminfo,
			"/proc/self/cgroup":         "0::/\n",
			"/sys/fs/cgroup/memory.max": "107374182400\n",
		})}, total, "physical memory"},
		{"ulimit -v", memorySources{readFile: files(map[string]string{"/proc/meminfo": meminfo}),
			addressLimit: 1500000 << 10, addressUsed: 1300000 << 10}, 100000 << 10, "half the address space ulimit -v leaves"},
	} {
		got, bound := machineMemory(tc.src)
		if got != tc.want || bound != tc.bound {
			t.Errorf("%s: %d (%s), want %d (%s)", tc.name, got, bound, tc.want, tc.bound)
		}
	}
}

func TestDefaultMemoryLimit(t *testing.T) {
	if got, from := defaultMemoryLimit(1, 0, ""); got != 0 || from != "" {
		t.Errorf("unknown machine: %d %q, want no limit", got, from)
	}
	if got, from := defaultMemoryLimit(1, 1000, "physical memory"); got != 850 || from != "85% of physical memory" {
		t.Errorf("one job: %d %q", got, from)
	}
	if got, from := defaultMemoryLimit(4, 1000, "physical memory"); got != 212 || from != "85% of physical memory shared by 4 jobs" {
		t.Errorf("four jobs: %d %q", got, from)
	}
	// This machine: some limit on Linux, below what it has.
	limit, from := DefaultMemoryLimit(1)
	machine, _ := MachineMemory()
	if runtime.GOOS == "linux" && (limit <= 0 || limit >= machine || !strings.HasPrefix(from, "85% of ")) {
		t.Errorf("DefaultMemoryLimit = %d (%s), machine %d", limit, from, machine)
	}
}

// TestMemoryLimitFrom: a default limit says where it comes from.
func TestMemoryLimitFrom(t *testing.T) {
	for _, workers := range []int{1, 2} {
		limit := memoryLimit(8 << 20)
		r, st := run(t, &counters{k: 8, n: 16, wrap: true}, Options{MemoryLimit: limit, MemoryLimitFrom: "85% of physical memory", Workers: workers})
		// The parallel search counts the states when it halts, and its
		// workers may store a few more before they stop.
		want := fmt.Sprintf("memory limit %s (85%% of physical memory) reached after ", FormatBytes(limit))
		if r.Verdict != trace.Unknown || !strings.HasPrefix(r.Reason, want) || st.Complete {
			t.Errorf("%d workers: %+v, want unknown: %s", workers, r, want)
		}
	}
}
