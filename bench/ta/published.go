package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"ftmc/param"
	"ftmc/ta"
)

// tacoRow is a row of TACO's published comparison (TACO-table2.tsv): an
// automaton's safety specifications, with ByMC's and TACO's times.
type tacoRow struct {
	name   string
	rules  int
	safe   string
	bymc   float64 // the faster of ByMC's two techniques; NaN: none finished
	taco   float64 // the fastest of TACO's six configurations
	tacoBy string
}

var tacoConfigs = []string{"SMT-cvc5", "SMT-z3", "ACS-cvc5", "ACS-z3", "ZCS-cvc5", "ZCS-z3"}

func readTACO(path string) (map[string][]tacoRow, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	out := map[string][]tacoRow{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 20 || strings.HasPrefix(cols[0], "#") {
			continue
		}
		r := tacoRow{name: cols[0], safe: cols[3], bymc: math.NaN(), taco: math.NaN()}
		r.rules, _ = strconv.Atoi(cols[1])
		for _, c := range []int{4, 6} {
			if v, err := strconv.ParseFloat(cols[c], 64); err == nil && (math.IsNaN(r.bymc) || v < r.bymc) {
				r.bymc = v
			}
		}
		for k := range tacoConfigs {
			if v, err := strconv.ParseFloat(cols[8+2*k], 64); err == nil && (math.IsNaN(r.taco) || v < r.taco) {
				r.taco, r.tacoBy = v, tacoConfigs[k]
			}
		}
		out[r.name] = append(out[r.name], r)
	}
	return out, sc.Err()
}

// published runs every specification of every automaton under dir once
// and tabulates verdicts and times next to TACO's published comparison,
// matched by file name and number of rules.
// quickRun is the time under which the comparison with TACO's table
// repeats a file's run (-reps times, the median counts): there the noise
// of a shared machine is a large part of the time.
const quickRun = 2.0

// tinyRun is the time under which a file's run is repeated at least
// tinyReps times: there a few milliseconds of noise (a process's start, a
// wakeup late by a millisecond) move the ratio by a tenth.
const (
	tinyRun  = 0.1
	tinyReps = 21
)

func published(bin, dir, tacoPath string, jobs, reps int, limit time.Duration, out string) {
	table, err := readTACO(tacoPath)
	if err != nil {
		fail(err)
	}
	var files []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".ta") || strings.HasSuffix(path, ".eta")) {
			files = append(files, path)
		}
		return err
	})
	sort.Strings(files)
	var b strings.Builder
	fmt.Fprintf(&b, "## Published automata\n\n")
	fmt.Fprintf(&b, "`go run ./bench/ta -published %s -j %d -reps %d -time %s`: every specification of every automaton, one run each (wall s), %s, %d CPUs, load when started: %s. ",
		dir, jobs, reps, limit, time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), loadavg())
	fmt.Fprintf(&b, "ByMC and TACO: their times in TACO's published comparison (`TACO-table2.tsv`, their machine; safety specifications only, the whole file; ByMC: the faster of POPL'17 and CAV'15; TACO: the fastest of its six configurations), matched by file name and number of rules.\n\n")
	fmt.Fprintf(&b, "| automaton | spec | ftmc verdict | ftmc s | schemas | ByMC s | TACO s | TACO says |\n|---|---|---|---:|---:|---:|---:|---|\n")
	counts := map[string]int{}
	var vsTACO strings.Builder
	fmt.Fprintf(&vsTACO, "### Against TACO's table\n\nTACO's and ByMC's times are for all the safety specifications of a file, and TACO's verdict is the file's (unsafe when one of them is violated). ftmc here: `ftmc verify FILE SPEC...` with the file's safety specifications (those whose negation needs no lasso), wall s, the median of %d runs when the first takes under %.0f s (of at least %d when it takes under %.1f s; one run otherwise); the ratio is ftmc's time over the faster of ByMC and TACO.\n\n", reps, quickRun, tinyReps, tinyRun)
	fmt.Fprintf(&vsTACO, "| automaton | safety specs | ftmc | ftmc s | ByMC s | TACO s | TACO says | ratio |\n|---|---:|---|---:|---:|---:|---|---:|\n")
	var within, compared int
	for _, path := range files {
		rel, _ := filepath.Rel(dir, path)
		f, err := ta.ParseFile(path)
		if err == nil && len(f.Unknowns) > 0 {
			// A sketch: one guard synthesis over all its specifications.
			sec, out := runSynthesis(bin, path, jobs, limit)
			counts["synthesized"]++
			fmt.Fprintf(&b, "| %s | (synthesis) | %s | %.2f | | | | |\n", rel, out, sec)
			fmt.Fprintf(os.Stderr, "%-50s %-20s %6.2fs\n", rel, "synthesis", sec)
			continue
		}
		if err == nil {
			err = param.Supported(f)
		}
		var taco *tacoRow
		if f != nil {
			for i, r := range table[filepath.Base(path)] {
				if r.rules == len(f.Rules) {
					taco = &table[filepath.Base(path)][i]
				}
			}
		}
		ref := func() string {
			if taco == nil {
				return " | | |"
			}
			return fmt.Sprintf(" | %s | %s | %s (%s)", seconds(taco.bymc), seconds(taco.taco), taco.safe, taco.tacoBy)
		}
		if err != nil {
			counts["refused"]++
			msg := err.Error()
			if i := strings.Index(msg, ": "); i >= 0 {
				msg = msg[i+2:]
			}
			if len(msg) > 120 {
				msg = msg[:120] + "..."
			}
			fmt.Fprintf(&b, "| %s | | refused: %s | | %s |\n", rel, strings.ReplaceAll(msg, "|", "\\|"), ref())
			fmt.Fprintf(os.Stderr, "%-50s refused\n", rel)
			continue
		}
		if taco != nil {
			var safety []string
			for _, s := range f.Specs {
				if ok, err := param.IsSafety(s.Formula); err == nil && ok {
					safety = append(safety, s.Name)
				}
			}
			if len(safety) > 0 {
				sec, v, _, _ := runSpecs(bin, path, safety, jobs, limit)
				if n := runsFor(sec, reps); n > 1 {
					times := []float64{sec}
					for range n - 1 {
						t, _, _, _ := runSpecs(bin, path, safety, jobs, limit)
						times = append(times, t)
					}
					sec = median(times)
				}
				ratio := ""
				if best := math.Min(nanInf(taco.bymc), nanInf(taco.taco)); !math.IsInf(best, 1) {
					compared++
					ratio = fmt.Sprintf("%.2f", sec/best)
					if sec/best <= 0.5 {
						within++
					}
				}
				fmt.Fprintf(&vsTACO, "| %s | %d | %s | %.2f | %s | %s | %s (%s) | %s |\n", rel, len(safety), v, sec, seconds(taco.bymc), seconds(taco.taco), taco.safe, taco.tacoBy, ratio)
			}
		}
		for k, s := range f.Specs {
			sec, v, n, _ := runOnce(bin, path, s.Name, jobs, limit)
			counts[v]++
			r := " | | |"
			if k == 0 {
				r = ref()
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %.2f | %.0f%s |\n", rel, s.Name, v, sec, n, r)
			fmt.Fprintf(os.Stderr, "%-50s %-20s %-8s %6.2fs\n", rel, s.Name, v, sec)
		}
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(&b, "\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %d. ", k, counts[k])
	}
	fmt.Fprintf(&b, "\n")
	fmt.Fprintf(&vsTACO, "\n%d of %d files at most 0.5 times the faster tool.\n", within, compared)
	b.WriteString("\n" + vsTACO.String())
	os.Stdout.WriteString(b.String())
	if out != "" {
		doc := b.String()
		if old, err := os.ReadFile(out); err == nil {
			doc = replaceSection(string(old), "## Published automata", doc)
		}
		if err := os.WriteFile(out, []byte(doc), 0o644); err != nil {
			fail(err)
		}
	}
}

func seconds(s float64) string {
	if math.IsNaN(s) {
		return "TO/Err"
	}
	return fmt.Sprintf("%.2f", s)
}

func nanInf(x float64) float64 {
	if math.IsNaN(x) {
		return math.Inf(1)
	}
	return x
}

// runsFor is how many runs a file's comparison takes when its first took
// sec: one for a long run, reps for a quick one, at least tinyReps for a
// tiny one.
func runsFor(sec float64, reps int) int {
	switch {
	case sec >= quickRun:
		return 1
	case sec < tinyRun && reps > 1:
		return max(reps, tinyReps)
	}
	return reps
}
