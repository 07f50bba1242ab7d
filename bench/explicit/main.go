// Command explicit compares ftmc's explicit-state search with Spin's pan on
// the Promela models in models/: states per second and bytes per stored
// state, each the median of repeated runs, with the ratios ftmc/Spin from the
// same runs.
//
//	go run ./bench/explicit [-size full|small] [-reps 3] [-memory 8GB] [-dfs] [-only NAME]
//
// Spin runs as the issue defines it: spin -a -o1 -o2 -o3 (no statement
// merging or data-flow optimisation), gcc -O2 -DSAFETY -DNOREDUCE, ./pan
// -m10000000, with -DMEMLIM set to the same memory as ftmc's --memory. Both
// tools run one after the other, never at the same time. Rates are given per
// second of elapsed time (what each tool reports) and per second of CPU time
// (user+system, from the kernel), which is steadier on a shared machine.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// A benchmark is a model file and its macro settings for the two sizes.
type benchmark struct {
	name, file  string
	small, full []string // -D settings
}

var benchmarks = []benchmark{
	{"leader", "leader.pml", []string{"N=5", "C=2"}, []string{"N=6", "C=2"}},
	{"peterson", "peterson.pml", []string{"N=3"}, []string{"N=4"}},
	{"swp", "swp.pml", []string{"W=3", "C=2"}, []string{"W=4", "C=3"}},
}

// run is what one tool reported for one run.
type run struct {
	states     int64
	seconds    float64 // the tool's own elapsed time for the search
	cpu        float64 // user+system seconds of the process
	storeBytes float64 // state storage: Spin's states + hash table; ftmc's store
	rssBytes   float64 // peak resident memory of the process
	verdict    string
}

func main() {
	size := flag.String("size", "full", "model sizes: full (1-50 million states) or small (under a million)")
	reps := flag.Int("reps", 3, "runs per tool and model; the medians are reported")
	memory := flag.String("memory", "8GB", "memory for both tools (ftmc --memory, Spin -DMEMLIM)")
	dfs := flag.Bool("dfs", false, "run ftmc's depth-first search (default: breadth-first)")
	only := flag.String("only", "", "run only the benchmark with this name")
	flag.Parse()
	if err := bench(*size, *reps, *memory, *dfs, *only); err != nil {
		fmt.Fprintln(os.Stderr, "bench/explicit:", err)
		os.Exit(1)
	}
}

func bench(size string, reps int, memory string, dfs bool, only string) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	memMB, err := megabytes(memory)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "ftmc-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	ftmc := filepath.Join(tmp, "ftmc")
	build := exec.Command("go", "build", "-o", ftmc, "./cmd/ftmc")
	build.Dir, build.Stdout, build.Stderr = root, os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building ftmc: %v", err)
	}
	order := "--bfs"
	if dfs {
		order = "--dfs"
	}
	fmt.Printf("ftmc %s vs spin (pan -m10000000, -DSAFETY -DNOREDUCE, -o1 -o2 -o3); memory %s; medians of %d runs; %s/%s, %d CPUs\n\n",
		order, memory, reps, runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Printf("%-22s %10s | %11s %11s %6s | %11s %11s %6s | %8s %8s %6s | %8s %8s\n",
		"model", "states", "spin st/s", "ftmc st/s", "ratio", "spin st/cpu", "ftmc st/cpu", "ratio",
		"spin B/st", "ftmc B/st", "ratio", "spin RSS", "ftmc RSS")
	for _, b := range benchmarks {
		if only != "" && b.name != only {
			continue
		}
		defs := b.full
		if size == "small" {
			defs = b.small
		}
		model := filepath.Join(root, "bench", "explicit", "models", b.file)
		dir := filepath.Join(tmp, b.name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		if err := buildPan(dir, model, defs, memMB); err != nil {
			return fmt.Errorf("%s: %v", b.name, err)
		}
		var spins, ftmcs []run
		for range reps {
			s, err := runPan(dir)
			if err != nil {
				return fmt.Errorf("%s: spin: %v", b.name, err)
			}
			f, err := runFtmc(ftmc, model, defs, memory, order)
			if err != nil {
				return fmt.Errorf("%s: ftmc: %v", b.name, err)
			}
			if s.states != f.states || s.verdict != f.verdict {
				fmt.Fprintf(os.Stderr, "warning: %s: spin says %s after %d states, ftmc %s after %d\n", b.name, s.verdict, s.states, f.verdict, f.states)
			}
			spins, ftmcs = append(spins, s), append(ftmcs, f)
		}
		label := b.name + " " + strings.Join(defs, " ")
		s, f := medians(spins), medians(ftmcs)
		sRate, fRate := float64(s.states)/s.seconds, float64(f.states)/f.seconds
		sCPU, fCPU := float64(s.states)/s.cpu, float64(f.states)/f.cpu
		sB, fB := s.storeBytes/float64(s.states), f.storeBytes/float64(f.states)
		fmt.Printf("%-22s %10d | %11.4g %11.4g %6.2f | %11.4g %11.4g %6.2f | %8.1f %8.1f %6.2f | %8s %8s\n",
			label, f.states, sRate, fRate, fRate/sRate, sCPU, fCPU, fCPU/sCPU, sB, fB, fB/sB,
			mb(s.rssBytes), mb(f.rssBytes))
	}
	fmt.Println("\nst/s: states per second of the tool's elapsed time; st/cpu: per CPU second; ratio: ftmc/spin.")
	fmt.Println("B/st: state storage per stored state (spin: memory for states + hash table; ftmc: state store); RSS: peak resident memory.")
	return nil
}

func buildPan(dir, model string, defs []string, memMB int64) error {
	args := []string{"-a", "-o1", "-o2", "-o3"}
	for _, d := range defs {
		args = append(args, "-D"+d)
	}
	args = append(args, model)
	if out, err := command(dir, "spin", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("spin -a: %v\n%s", err, out)
	}
	cc := []string{"-O2", "-DSAFETY", "-DNOREDUCE", fmt.Sprintf("-DMEMLIM=%d", memMB), "-o", "pan", "pan.c"}
	if out, err := command(dir, "gcc", cc...).CombinedOutput(); err != nil {
		return fmt.Errorf("gcc: %v\n%s", err, out)
	}
	return nil
}

var (
	reStored  = regexp.MustCompile(`(?m)^\s*(\d+) states, stored`)
	reElapsed = regexp.MustCompile(`pan: elapsed time ([0-9.e+]+) seconds`)
	reStates  = regexp.MustCompile(`(?m)^\s*([0-9.]+)\s+actual memory usage for states`)
	reTable   = regexp.MustCompile(`(?m)^\s*([0-9.]+)\s+memory used for hash table`)
	reErrors  = regexp.MustCompile(`errors: (\d+)`)
)

func runPan(dir string) (run, error) {
	cmd := command(dir, "./pan", "-m10000000")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return run{}, fmt.Errorf("%v\n%s", err, out.String())
	}
	text := out.String()
	var r run
	var err error
	get := func(re *regexp.Regexp) float64 {
		m := re.FindStringSubmatch(text)
		if m == nil {
			err = fmt.Errorf("no %q in pan's output:\n%s", re, text)
			return 0
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	r.states = int64(get(reStored))
	r.seconds = get(reElapsed)
	r.storeBytes = (get(reStates) + get(reTable)) * (1 << 20) // pan's megabytes are MiB
	r.verdict = "holds"
	if get(reErrors) > 0 {
		r.verdict = "violated"
	}
	if strings.Contains(text, "out of memory") || strings.Contains(text, "max search depth too small") {
		r.verdict = "unknown"
	}
	usage(cmd, &r)
	return r, err
}

func runFtmc(ftmc, model string, defs []string, memory, order string) (run, error) {
	// Without reduction and merging, as pan is compiled with -DNOREDUCE
	// from spin -o3: the same states, so that the rates compare.
	args := []string{"check", model, "--json", "--memory", memory, order, "--no-reduce", "--no-merge"}
	for _, d := range defs {
		args = append(args, "-D", d)
	}
	cmd := exec.Command(ftmc, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() != 2) {
		return run{}, fmt.Errorf("%v\n%s", err, errb.String())
	}
	var rep struct {
		Verdicts []struct{ Verdict string }
		Stats    struct {
			States     int64
			Seconds    float64
			StoreBytes float64 `json:"store_bytes"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return run{}, fmt.Errorf("reading the report: %v\n%s", err, out.String())
	}
	r := run{states: rep.Stats.States, seconds: rep.Stats.Seconds, storeBytes: rep.Stats.StoreBytes}
	if len(rep.Verdicts) > 0 {
		r.verdict = rep.Verdicts[0].Verdict
	}
	usage(cmd, &r)
	return r, nil
}

func usage(cmd *exec.Cmd, r *run) {
	st := cmd.ProcessState
	r.cpu = (st.UserTime() + st.SystemTime()).Seconds()
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		r.rssBytes = float64(ru.Maxrss) * 1024 // kilobytes on Linux
	}
}

// medians takes each figure's median over the runs separately.
func medians(rs []run) run {
	med := func(f func(run) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	return run{
		states:     int64(med(func(r run) float64 { return float64(r.states) })),
		seconds:    med(func(r run) float64 { return r.seconds }),
		cpu:        med(func(r run) float64 { return r.cpu }),
		storeBytes: med(func(r run) float64 { return r.storeBytes }),
		rssBytes:   med(func(r run) float64 { return r.rssBytes }),
	}
}

func command(dir, name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Dir = dir
	return c
}

func mb(b float64) string { return fmt.Sprintf("%.0fM", b/1e6) }

func megabytes(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"GB", 1e9}, {"MB", 1e6}, {"G", 1 << 30}, {"M", 1 << 20}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSuffix(t, u.suffix), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("-memory %q: expected a size such as 8GB", s)
	}
	return int64(v * mult / (1 << 20)), nil
}

func repoRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		wd, _ := os.Getwd()
		return wd, nil
	}
	return strings.TrimSpace(string(out)), nil
}
