// Command ta-bench measures ftmc verify on the ISOLA'18 threshold automata
// next to the ByMC 2.4.4 times recorded in ../shared/benchmarks/bymc/EXPECTED.tsv
// (same kind of machine, z3 4.8.12). Each (model, spec) runs -reps times;
// the median wall time is reported, and the totals as a ratio.
//
//	go run ./bench/ta [-reps 3] [-j 2] [-o bench/ta/RESULTS.md]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"ftmc/ta"
	"ftmc/trace"
)

type row struct {
	path, spec, options, expected string
	bymc                          float64 // seconds
	bymcTimeout                   bool
	bymcText                      string
}

var measuredRe = regexp.MustCompile(`([0-9.]+)s wall`)

func main() {
	reps := flag.Int("reps", 3, "runs per (model, spec); the median counts")
	jobs := flag.Int("j", 2, "ftmc workers (-j)")
	out := flag.String("o", "", "also write the table (Markdown) to this file")
	shared := flag.String("shared", "", "the shared reference directory (default: ../shared beside the repository)")
	timeout := flag.Duration("time", 10*time.Minute, "time limit per run")
	extra := flag.Bool("extra", false, "also run, once each, the specifications of the ten models that EXPECTED.tsv does not list")
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	if *shared == "" {
		*shared = filepath.Join(root, "..", "shared")
	}
	dir := filepath.Join(*shared, "benchmarks", "bymc")
	rows, err := readExpected(filepath.Join(dir, "EXPECTED.tsv"))
	if err != nil {
		fail(err)
	}
	bin := filepath.Join(os.TempDir(), "ftmc-bench")
	build := exec.Command("go", "build", "-o", bin, "./cmd/ftmc")
	build.Dir = root
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fail(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# ftmc verify vs ByMC on the ISOLA'18 threshold automata\n\n")
	fmt.Fprintf(&b, "ftmc: `ftmc verify MODEL SPEC -j %d`, median of %d runs (wall), %s, %d CPUs, load when started: %s.\n", *jobs, *reps, time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), loadavg())
	fmt.Fprintf(&b, "ByMC: the times recorded in EXPECTED.tsv (ByMC 2.4.4, z3 4.8.12, 2 vCPU); TIMEOUT rows count as their limit.\n\n")
	fmt.Fprintf(&b, "| model | spec | ByMC options | expected | ftmc verdict | ftmc s | schemas | ByMC s | ByMC | ratio |\n|---|---|---|---|---|---:|---:|---:|---|---:|\n")
	var sumF, sumB, sumFdone, sumBdone float64
	bad := 0
	for _, r := range rows {
		var times []float64
		verdict, schemas := "", 0.0
		for i := 0; i < *reps; i++ {
			sec, v, n, err := runOnce(bin, filepath.Join(dir, r.path), r.spec, *jobs, *timeout)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s %s: %v\n", r.path, r.spec, err)
			}
			times = append(times, sec)
			verdict, schemas = v, n
		}
		sort.Float64s(times)
		med := times[len(times)/2]
		if verdict != r.expected {
			bad++
		}
		sumF += med
		sumB += r.bymc
		if !r.bymcTimeout {
			sumFdone += med
			sumBdone += r.bymc
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.2f | %.0f | %.2f | %s | %.3f |\n", strings.TrimSuffix(filepath.Base(r.path), ".ta"), r.spec, r.options, r.expected, verdict, med, schemas, r.bymc, r.bymcText, med/r.bymc)
		fmt.Fprintf(os.Stderr, "%-10s %-16s %-8s %6.2fs  (ByMC %s)\n", filepath.Base(r.path), r.spec, verdict, med, r.bymcText)
	}
	fmt.Fprintf(&b, "\n**Total**: ftmc %.1f s, ByMC %.1f s (timeouts at their limit): ratio **%.3f**.\n", sumF, sumB, sumF/sumB)
	fmt.Fprintf(&b, "Rows where ByMC finished: ftmc %.1f s, ByMC %.1f s: ratio **%.3f**.\n", sumFdone, sumBdone, sumFdone/sumBdone)
	fmt.Fprintf(&b, "Verdicts different from the expected: %d.\n", bad)
	if *extra {
		listed := map[string]bool{}
		for _, r := range rows {
			listed[r.path+"\x00"+r.spec] = true
			if r.spec == "all" {
				listed[r.path+"\x00*"] = true
			}
		}
		fmt.Fprintf(&b, "\n## Specifications EXPECTED.tsv does not list (one run each, no ByMC time)\n\n| model | spec | ftmc verdict | ftmc s | schemas |\n|---|---|---|---:|---:|\n")
		seenModel := map[string]bool{}
		for _, r := range rows {
			if seenModel[r.path] || listed[r.path+"\x00*"] {
				continue
			}
			seenModel[r.path] = true
			for _, spec := range specNames(filepath.Join(dir, r.path)) {
				if listed[r.path+"\x00"+spec] {
					continue
				}
				sec, v, n, err := runOnce(bin, filepath.Join(dir, r.path), spec, *jobs, *timeout)
				if err != nil {
					fmt.Fprintf(os.Stderr, "%s %s: %v\n", r.path, spec, err)
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %.2f | %.0f |\n", strings.TrimSuffix(filepath.Base(r.path), ".ta"), spec, v, sec, n)
				fmt.Fprintf(os.Stderr, "%-10s %-16s %-8s %6.2fs (extra)\n", filepath.Base(r.path), spec, v, sec)
			}
		}
	}
	os.Stdout.WriteString(b.String())
	if *out != "" {
		if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
			fail(err)
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
}

func runOnce(bin, model, spec string, jobs int, limit time.Duration) (float64, string, float64, error) {
	cmd := exec.Command(bin, "verify", model, spec, "--json", "-j", strconv.Itoa(jobs), "--time", limit.String())
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = io.Discard
	start := time.Now()
	err := cmd.Run()
	sec := time.Since(start).Seconds()
	var rep trace.Report
	if jerr := json.Unmarshal(stdout.Bytes(), &rep); jerr != nil {
		return sec, "error", 0, fmt.Errorf("%v (%v)", jerr, err)
	}
	if len(rep.Verdicts) == 0 {
		return sec, "error", 0, fmt.Errorf("no verdicts (%v)", err)
	}
	// Several specifications ("all"): the worst verdict, schemas summed.
	verdict, schemas := trace.Holds, 0.0
	for _, v := range rep.Verdicts {
		switch {
		case v.Verdict == trace.Violated:
			verdict = trace.Violated
		case v.Verdict == trace.Unknown && verdict == trace.Holds:
			verdict = trace.Unknown
		}
		if v.Stats != nil {
			for _, fig := range v.Stats.Extra {
				if fig.Name == "schemas" {
					schemas += fig.Value
				}
			}
		}
	}
	return sec, string(verdict), schemas, nil
}

func readExpected(path string) ([]row, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var rows []row
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 7 || c[0] != "isola18-ta" {
			continue
		}
		r := row{path: c[1], spec: c[2], options: c[3], expected: strings.Fields(c[4])[0], bymcText: c[6]}
		if m := measuredRe.FindStringSubmatch(c[6]); m != nil {
			r.bymc, _ = strconv.ParseFloat(m[1], 64)
		}
		r.bymcTimeout = strings.HasPrefix(c[6], "TIMEOUT")
		if r.bymcTimeout {
			r.bymcText = "TIMEOUT"
		} else {
			r.bymcText = strings.Fields(c[6])[0]
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

// specNames lists the specification names of a .ta file.
func specNames(path string) []string {
	f, err := ta.ParseFile(path)
	if err != nil {
		return nil
	}
	var names []string
	for _, sp := range f.Specs {
		names = append(names, sp.Name)
	}
	return names
}

func repoRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ta-bench:", err)
	os.Exit(2)
}
