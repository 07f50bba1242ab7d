// Command ta-bench measures ftmc verify on the ISOLA'18 threshold automata
// next to the ByMC 2.4.4 times recorded in ../shared/benchmarks/bymc/EXPECTED.tsv
// (same kind of machine, z3 4.8.12). Each (model, spec) runs -reps times;
// the median wall time is reported, and the totals as a ratio.
//
//	go run ./bench/ta [-reps 3] [-j 2] [-o bench/ta/RESULTS.md]
//
// With -cross-check SOLVER it measures instead what confirming every unsat
// answer with a second solver costs: each row runs -reps times without and
// -reps times with --cross-check SOLVER, alternately, and the table (with
// -o, the section "## Cross-check" of the file, replaced or added) gives
// both medians.
//
//	go run ./bench/ta -cross-check cvc5 [-reps 5] [-o bench/ta/RESULTS.md]
//
// With -published DIR it runs instead every specification of every .ta
// and .eta file under DIR once, next to ByMC's and TACO's times in TACO's
// published comparison (../shared/benchmarks/bymc/TACO-table2.tsv), and
// -o replaces (or adds) the section "## Published automata".
//
//	go run ./bench/ta -published ta/testdata/bymc [-time 60s] [-o bench/ta/RESULTS.md]
//
// The section "## TACO's own copies" of RESULTS.md is the part "Against
// TACO's table" of such a run on TACO's copies of the automata, which the
// main run keeps:
//
//	go run ./bench/ta -published ta/testdata/taco/benchmarks/TACO -j 1 -time 60s -o FILE
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
	cross := flag.String("cross-check", "", "measure the cost of --cross-check with this solver instead")
	pub := flag.String("published", "", "run instead every specification of every automaton under this directory (e.g. ta/testdata/bymc or ta/testdata/taco/benchmarks/TACO), next to TACO's published times")
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
	// A directory of its own: two runs at once must not replace each
	// other's binary.
	tmp, err := os.MkdirTemp("", "ftmc-bench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "ftmc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/ftmc")
	build.Dir = root
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fail(err)
	}
	if *cross != "" {
		crossCheck(bin, dir, rows, *cross, *reps, *jobs, *timeout, *out)
		return
	}
	if *pub != "" {
		published(bin, *pub, filepath.Join(dir, "TACO-table2.tsv"), *jobs, *reps, *timeout, *out)
		return
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
		// The cross-check, random19, published and TACO sections come
		// from runs of their own: keep them.
		doc := b.String()
		if old, err := os.ReadFile(*out); err == nil {
			for _, h := range []string{"## Cross-check", "## ByMC's randomized-consensus automata", "## Published automata", "## TACO's own copies"} {
				if sec := section(string(old), h); sec != "" {
					doc = replaceSection(doc, h, sec)
				}
			}
		}
		if err := os.WriteFile(*out, []byte(doc), 0o644); err != nil {
			fail(err)
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
}

func runOnce(bin, model, spec string, jobs int, limit time.Duration, flags ...string) (float64, string, float64, error) {
	return runSpecs(bin, model, []string{spec}, jobs, limit, flags...)
}

// runSpecs runs verify on the specifications specs of model in one
// process: its wall time, the worst verdict (violated, else unknown, else
// holds; "error" without a report) and the schemas summed.
func runSpecs(bin, model string, specs []string, jobs int, limit time.Duration, flags ...string) (float64, string, float64, error) {
	args := append(append([]string{"verify", model}, specs...), "--json", "-j", strconv.Itoa(jobs), "--time", limit.String())
	sec, rep, err := runReport(bin, append(args, flags...))
	if err != nil {
		return sec, "error", 0, err
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

// crossCheck measures every row without and with --cross-check solver.
func crossCheck(bin, dir string, rows []row, solver string, reps, jobs int, limit time.Duration, out string) {
	var b strings.Builder
	fmt.Fprintf(&b, "## Cross-check: every unsat answer confirmed by %s\n\n", solver)
	fmt.Fprintf(&b, "`ftmc verify MODEL SPEC -j %d` without and with `--cross-check %s`, median of %d runs each (alternating), %s, %d CPUs, load when started: %s. `go run ./bench/ta -cross-check %s -reps %d -o bench/ta/RESULTS.md`\n\n",
		jobs, solver, reps, time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), loadavg(), solver, reps)
	fmt.Fprintf(&b, "| model | spec | ByMC options | verdict | verdict cross-checked | s | s cross-checked | ratio |\n|---|---|---|---|---|---:|---:|---:|\n")
	var sum, sumCross float64
	var ratios []float64
	differ := 0
	for _, r := range rows {
		var plain, checked []float64
		var v, vc string
		for i := 0; i < reps; i++ {
			sec, verdict, _, err := runOnce(bin, filepath.Join(dir, r.path), r.spec, jobs, limit)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s %s: %v\n", r.path, r.spec, err)
			}
			plain, v = append(plain, sec), verdict
			sec, verdict, _, err = runOnce(bin, filepath.Join(dir, r.path), r.spec, jobs, limit, "--cross-check", solver)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s %s --cross-check %s: %v\n", r.path, r.spec, solver, err)
			}
			checked, vc = append(checked, sec), verdict
		}
		m, mc := median(plain), median(checked)
		sum += m
		sumCross += mc
		ratios = append(ratios, mc/m)
		if v != vc {
			differ++
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.2f | %.2f | %.2f |\n", strings.TrimSuffix(filepath.Base(r.path), ".ta"), r.spec, r.options, v, vc, m, mc, mc/m)
		fmt.Fprintf(os.Stderr, "%-10s %-16s %-8s %6.2fs  %-8s %6.2fs cross-checked\n", filepath.Base(r.path), r.spec, v, m, vc, mc)
	}
	fmt.Fprintf(&b, "\n**Total**: %.1f s without, %.1f s with the cross-check: ratio **%.2f** (median ratio of the rows %.2f).\n", sum, sumCross, sumCross/sum, median(ratios))
	fmt.Fprintf(&b, "Verdicts that differ: %d.\n", differ)
	os.Stdout.WriteString(b.String())
	if out == "" {
		return
	}
	old, err := os.ReadFile(out)
	if err != nil && !os.IsNotExist(err) {
		fail(err)
	}
	if err := os.WriteFile(out, []byte(replaceSection(string(old), "## Cross-check", b.String())), 0o644); err != nil {
		fail(err)
	}
}

// section returns the section of doc whose heading starts with heading,
// up to the next heading of its level, or "".
func section(doc, heading string) string {
	i := strings.Index(doc, "\n"+heading)
	if i < 0 {
		return ""
	}
	rest := doc[i+1:]
	if j := strings.Index(rest[1:], "\n## "); j >= 0 {
		rest = rest[:j+2]
	}
	return strings.TrimRight(rest, "\n") + "\n"
}

// replaceSection replaces the section of doc whose heading starts with
// heading (up to the next heading of its level) with section, or appends it.
func replaceSection(doc, heading, section string) string {
	i := strings.Index(doc, "\n"+heading)
	if i < 0 {
		return strings.TrimRight(doc, "\n") + "\n\n" + section
	}
	rest := doc[i+1:]
	end := len(rest)
	if j := strings.Index(rest[1:], "\n## "); j >= 0 {
		end = j + 2
	}
	tail := strings.TrimLeft(rest[end:], "\n")
	if tail == "" {
		return doc[:i+1] + section
	}
	return doc[:i+1] + section + "\n" + tail
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
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

// runSynthesis runs verify on a sketch (an automaton with unknowns): its
// wall time and what it found, the solution or none, with the candidates.
func runSynthesis(bin, model string, jobs int, limit time.Duration) (float64, string) {
	sec, rep, err := runReport(bin, []string{"verify", model, "--json", "-j", strconv.Itoa(jobs), "--time", limit.String()})
	if err != nil || rep.Synthesis == nil {
		return sec, fmt.Sprintf("error (%v)", err)
	}
	s := rep.Synthesis
	tried := fmt.Sprintf("%d candidates, %d refuted (%d generalized)", s.Candidates, s.Refuted, s.Generalized)
	if s.Solution != nil {
		var vals []string
		for _, u := range s.Unknowns {
			vals = append(vals, fmt.Sprintf("%s=%d", u, s.Solution[u]))
		}
		return sec, "solution " + strings.Join(vals, " ") + "; " + tried
	}
	return sec, string(rep.Verdicts[0].Verdict) + ": no solution; " + tried
}

// runReport runs ftmc with args (which ask for --json): its wall time and
// its report.
func runReport(bin string, args []string) (float64, *trace.Report, error) {
	cmd := exec.Command(bin, args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = io.Discard
	start := time.Now()
	err := cmd.Run()
	sec := time.Since(start).Seconds()
	var rep trace.Report
	if jerr := json.Unmarshal(stdout.Bytes(), &rep); jerr != nil {
		return sec, nil, fmt.Errorf("%v (%v)", jerr, err)
	}
	return sec, &rep, nil
}
