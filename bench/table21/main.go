// Command table21 reproduces the fixed-parameter tables of Gmeiner's
// thesis with ftmc:
//
//   - Table 2.1 (the default): the Srikanth–Toueg broadcast under Byzantine,
//     omission, symmetric and clean-crash faults, rows B1–C3, on ByMC's
//     models in ../shared/benchmarks/bymc/fmcad13;
//   - Table 5.1 (-table 5.1): folklore broadcast, Bracha–Toueg's Byzantine
//     agreement and condition-based consensus, rows F1–S8, on the models of
//     examples/bymc.
//
// Each row runs
//
//	ftmc check MODEL.pml [-D NAME] --param N=7,T=2,F=2 --ltl SPEC --assume fairness --json
//
// and prints ftmc's verdict, stored states, depth and time next to the
// thesis's. With -spin it also runs Spin the way ByMC's concrete mode does
// (spin.ByMCInstance: the parameters substituted, all/some unfolded over the
// processes, the fairness block assumed; `spin -a`, `gcc -O2`, `pan -a`;
// Table 5.1 with weak fairness, `pan -a -f`, as ftmc's ByMC semantics has
// it), in the same run, so that the times can be compared as a ratio on
// this machine.
//
//	go run ./bench/table21 [-table 5.1] [-reps 3] [-spin] [-spinreps 1] [-rows F1,T2] [-o FILE.md]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"ftmc/internal/spin"
	"ftmc/trace"
)

// row is one line of a table, with the thesis's figures.
type row struct {
	id, model, params, spec string
	defines                 []string // -D NAME, for a resilience condition the row breaks on purpose
	valid                   bool     // the thesis's verdict: the property holds
	seconds                 float64
	stored                  string // as printed: 193·10³ ...
	depth                   int
}

// table is one table of the thesis and where its models are.
type table struct {
	title string
	dir   string // models, relative to the repository root ("" for shared)
	rows  []row
	// fair runs Spin with weak fairness (pan -f): every process moves
	// forever, as in ByMC's system model. Without it Spin finds runs in
	// which all processes but a crashed one stop.
	fair bool
}

var table21 = table{
	title: "Table 2.1",
	rows: []row{
		{"B1", "bcast-byz", "N=7,T=2,F=2", "unforg", nil, true, 3.13, "193·10³", 229},
		{"B2", "bcast-byz", "N=7,T=2,F=2", "corr", nil, true, 3.43, "207·10³", 229},
		{"B3", "bcast-byz", "N=7,T=2,F=2", "relay", nil, true, 6.3, "290·10³", 229},
		{"B4", "bcast-byz", "N=7,T=3,F=2", "unforg", nil, true, 4.38, "265·10³", 233},
		{"B5", "bcast-byz", "N=7,T=3,F=2", "corr", nil, true, 4.5, "271·10³", 233},
		{"B6", "bcast-byz", "N=7,T=3,F=2", "relay", nil, false, 0.02, "1·10³", 210},
		{"O1", "bcast-omit", "N=5,To=2,Fo=2", "unforg", nil, true, 1.43, "51·10³", 175},
		{"O2", "bcast-omit", "N=5,To=2,Fo=2", "corr", nil, true, 1.64, "60·10³", 183},
		{"O3", "bcast-omit", "N=5,To=2,Fo=2", "relay", nil, true, 3.69, "92·10³", 183},
		{"O4", "bcast-omit", "N=5,To=2,Fo=3", "unforg", nil, true, 1.39, "51·10³", 175},
		{"O5", "bcast-omit", "N=5,To=2,Fo=3", "corr", nil, false, 1.63, "53·10³", 183},
		{"O6", "bcast-omit", "N=5,To=2,Fo=3", "relay", nil, false, 0.01, "17", 53},
		{"S1", "bcast-symm", "N=5,T=1,Fp=1,Fs=0", "unforg", nil, true, 0.04, "3·10³", 121},
		{"S2", "bcast-symm", "N=5,T=1,Fp=1,Fs=0", "corr", nil, true, 0.03, "3·10³", 121},
		{"S3", "bcast-symm", "N=5,T=1,Fp=1,Fs=0", "relay", nil, true, 0.08, "5·10³", 121},
		{"S4", "bcast-symm", "N=5,T=3,Fp=3,Fs=1", "unforg", nil, true, 0.01, "66", 62},
		{"S5", "bcast-symm", "N=5,T=3,Fp=3,Fs=1", "corr", nil, false, 0.01, "62", 66},
		{"S6", "bcast-symm", "N=5,T=3,Fp=3,Fs=1", "relay", nil, true, 0.01, "62", 62},
		{"C1", "bcast-clean", "N=3,Tc=2,Fc=2,Fnc=0", "unforg", nil, true, 0.01, "668", 77},
		{"C2", "bcast-clean", "N=3,Tc=2,Fc=2,Fnc=0", "corr", nil, true, 0.01, "892", 81},
		{"C3", "bcast-clean", "N=3,Tc=2,Fc=2,Fnc=0", "relay", nil, true, 0.02, "1·10³", 81},
	},
}

var fleTp1, ngt2T = []string{"FleTp1"}, []string{"Ngt2T"}

var table51 = table{
	title: "Table 5.1",
	dir:   "examples/bymc",
	fair:  true,
	rows: []row{
		{"F1", "fbc", "N=2", "unforg", nil, true, 0.01, "121", 77},
		{"F2", "fbc", "N=2", "relay", nil, true, 0.01, "143", 48},
		{"F3", "fbc", "N=2", "agree", nil, true, 0.01, "257", 76},
		{"F4", "fbc", "N=6", "unforg", nil, true, 386, "15·10⁶", 272},
		{"F5", "fbc", "N=6", "relay", nil, true, 691, "24·10⁶", 272},
		{"F6", "fbc", "N=6", "agree", nil, true, 1690, "39·10⁶", 328},
		{"T1", "aba", "N=5,T=1,F=1", "relay", nil, true, 131, "4·10⁶", 211},
		{"T2", "aba", "N=5,T=1,F=2", "relay", fleTp1, false, 0.68, "11·10³", 187},
		{"T3", "aba", "N=5,T=2,F=2", "relay", ngt2T, false, 0.02, "726", 264},
		{"S1", "cbc", "N=3,T=1,F=1", "validity0", nil, true, 0.01, "1.4·10³", 115},
		{"S2", "cbc", "N=3,T=1,F=1", "validity1", nil, true, 0.04, "3·10³", 128},
		{"S3", "cbc", "N=3,T=1,F=1", "agreement", nil, true, 0.09, "8·10³", 127},
		{"S4", "cbc", "N=3,T=1,F=1", "termination", nil, true, 0.16, "9·10³", 133},
		{"S5", "cbc", "N=3,T=1,F=2", "validity0", fleTp1, true, 0.02, "1724", 123},
		{"S6", "cbc", "N=3,T=1,F=2", "validity1", fleTp1, true, 0.05, "3647", 136},
		{"S7", "cbc", "N=3,T=1,F=2", "agreement", fleTp1, true, 0.12, "10·10³", 135},
		{"S8", "cbc", "N=3,T=1,F=2", "termination", fleTp1, false, 0.05, "3·10³", 135},
	},
}

type measured struct {
	verdict string
	states  int64
	depth   int64
	seconds float64 // median of the search times the tool reports
	wall    float64 // median wall time of the whole command (ftmc)
	memory  int64
	err     string
}

func main() {
	which := flag.String("table", "2.1", "the thesis's table: 2.1 or 5.1")
	reps := flag.Int("reps", 3, "runs per row; the median time counts")
	spinReps := flag.Int("spinreps", 0, "Spin's runs per row (default: -reps)")
	withSpin := flag.Bool("spin", false, "also run Spin on the concrete models, as ByMC's concrete mode does")
	out := flag.String("o", "", "also write the table (Markdown) to this file")
	shared := flag.String("shared", "", "the shared reference directory (default: ../shared beside the repository)")
	timeout := flag.Duration("time", 10*time.Minute, "time limit per run")
	only := flag.String("rows", "", "comma-separated row ids to run (default: all)")
	flag.Parse()
	if *spinReps <= 0 {
		*spinReps = *reps
	}
	var tab table
	switch *which {
	case "2.1":
		tab = table21
	case "5.1":
		tab = table51
	default:
		fail(fmt.Errorf("-table %s: expected 2.1 or 5.1", *which))
	}
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	if *shared == "" {
		*shared = filepath.Join(root, "..", "shared")
	}
	dir := filepath.Join(*shared, "benchmarks", "bymc", "fmcad13")
	if tab.dir != "" {
		dir = filepath.Join(root, tab.dir)
	}
	bin := filepath.Join(os.TempDir(), "ftmc-table21")
	build := exec.Command("go", "build", "-o", bin, "./cmd/ftmc")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		fail(fmt.Errorf("go build: %v\n%s", err, b))
	}
	rows := tab.rows
	if *only != "" {
		want := map[string]bool{}
		for _, id := range strings.Split(*only, ",") {
			want[strings.TrimSpace(id)] = true
		}
		rows = nil
		for _, r := range tab.rows {
			if want[r.id] {
				rows = append(rows, r)
			}
		}
	}
	load, _ := os.ReadFile("/proc/loadavg")
	var b bytes.Buffer
	w := io.MultiWriter(os.Stdout, &b)
	fmt.Fprintf(w, "# %s of the thesis, reproduced by ftmc\n\n", tab.title)
	fmt.Fprintf(w, "ftmc: `ftmc check MODEL [-D NAME] --param ... --ltl SPEC --assume fairness --json`, median of %d runs: search seconds as ftmc reports them, and wall time of the whole command; %s, load when started: %s.\n",
		*reps, time.Now().Format("2006-01-02"), strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Fprintf(w, "Thesis: %s (Spin, hardware not stated). States are stored states; ftmc stores the states of the product with the property automaton.\n", tab.title)
	if *withSpin {
		f := ""
		if tab.fair {
			f = " -f"
		}
		fmt.Fprintf(w, "Spin: ByMC's concrete mode re-enacted (parameters substituted, all/some unfolded, `(fairness) -> (SPEC)`), `spin -a`, `gcc -O2`, `pan -a%s -m1000000`, same run, median of %d pan search times; the ratio compares search times.\n", f, *spinReps)
	}
	fmt.Fprintln(w)
	head := "| row | model | parameters | spec | thesis | thesis states | thesis depth | thesis s | ftmc | ftmc states | ftmc depth | ftmc s | ftmc wall s |"
	rule := "|---|---|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|"
	if *withSpin {
		head += " spin | spin states | spin s | ftmc/spin |"
		rule += "---|---:|---:|---:|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, rule)
	agree := 0
	var ftmcTotal, spinTotal float64
	for _, r := range rows {
		model := filepath.Join(dir, r.model+".pml")
		f := runFtmc(bin, model, r, *reps, *timeout)
		want := map[bool]string{true: "holds", false: "violated"}[r.valid]
		mark := ""
		if f.verdict == want {
			agree++
		} else {
			mark = " ≠"
		}
		params := r.params
		for _, d := range r.defines {
			params = "-D " + d + " " + params
		}
		thesis := fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %d | %.2f |", r.id, r.model, params, r.spec,
			map[bool]string{true: "✓", false: "×"}[r.valid], r.stored, r.depth, r.seconds)
		line := fmt.Sprintf("%s %s%s | %d | %d | %.2f | %.2f |", thesis, f.verdict, mark, f.states, f.depth, f.seconds, f.wall)
		if f.err != "" {
			line = fmt.Sprintf("%s error: %s | | | | |", thesis, f.err)
		}
		if *withSpin {
			s := runSpin(model, r, *spinReps, tab.fair)
			ratio := ""
			if s.seconds >= 0.005 && f.seconds > 0 {
				ratio = fmt.Sprintf("%.2f", f.seconds/s.seconds)
				ftmcTotal += f.seconds
				spinTotal += s.seconds
			}
			if s.err != "" {
				line += fmt.Sprintf(" error: %s | | | |", s.err)
			} else {
				line += fmt.Sprintf(" %s | %d | %.2f | %s |", s.verdict, s.states, s.seconds, ratio)
			}
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "\nftmc agrees with the thesis on %d of %d verdicts.\n", agree, len(rows))
	if *withSpin && spinTotal > 0 {
		fmt.Fprintf(w, "Total search time of the rows with a ratio: ftmc %.2f s, Spin %.2f s (ratio %.2f).\n", ftmcTotal, spinTotal, ftmcTotal/spinTotal)
	}
	if *out != "" {
		if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
			fail(err)
		}
	}
}

func runFtmc(bin, model string, r row, reps int, timeout time.Duration) measured {
	var m measured
	var times, walls []float64
	args := []string{"check", model}
	for _, d := range r.defines {
		args = append(args, "-D", d)
	}
	args = append(args, "--param", r.params, "--ltl", r.spec, "--assume", "fairness", "--json", "--time", timeout.String())
	for i := 0; i < reps; i++ {
		cmd := exec.Command(bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		err := cmd.Run()
		el := time.Since(start).Seconds()
		var rep trace.Report
		if jerr := json.Unmarshal(stdout.Bytes(), &rep); jerr != nil || len(rep.Verdicts) == 0 {
			m.err = strings.TrimSpace(stderr.String())
			if m.err == "" && err != nil {
				m.err = err.Error()
			}
			return m
		}
		v := rep.Verdicts[0]
		m.verdict = string(v.Verdict)
		m.states, m.depth, m.memory = rep.Stats.States, rep.Stats.Depth, rep.Stats.MemoryBytes
		times = append(times, rep.Stats.Seconds)
		walls = append(walls, el)
	}
	m.seconds, m.wall = median(times), median(walls)
	return m
}

func runSpin(model string, r row, reps int, fair bool) measured {
	var m measured
	text, err := os.ReadFile(model)
	if err != nil {
		m.err = err.Error()
		return m
	}
	params, err := parseParams(r.params)
	if err != nil {
		m.err = err.Error()
		return m
	}
	src, err := spin.ByMCInstance(string(text), params, r.spec)
	if err != nil {
		m.err = fmt.Sprintf("%s: %v", model, err)
		return m
	}
	dir, err := os.MkdirTemp("", "table21-")
	if err != nil {
		m.err = err.Error()
		return m
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, r.id+".pml")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		m.err = err.Error()
		return m
	}
	cc := []string{"-w"}
	if fair {
		// pan's weak fairness counts processes in NFAIR bits; the default
		// (2) stops at 6 processes with the never claim.
		cc = append(cc, "-DNFAIR=3")
	}
	var times []float64
	for i := 0; i < reps; i++ {
		res, err := spin.Run(context.Background(), file, spin.Options{
			Defines: r.defines, Mode: spin.Acceptance, Fair: fair, LTL: r.spec + "_fair",
			Optimize: true, Reduce: true, CCArgs: cc,
		})
		if err != nil {
			m.err = err.Error()
			return m
		}
		m.verdict = string(res.Verdict)
		m.states, m.depth = res.States, res.Depth
		times = append(times, res.Seconds)
	}
	m.seconds = median(times)
	return m
}

// parseParams reads N=7,T=2,F=2.
func parseParams(s string) (map[string]int64, error) {
	vals := map[string]int64{}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad parameter %q", kv)
		}
		vals[k] = n
	}
	return vals, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the ftmc repository")
		}
		dir = parent
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "table21:", err)
	os.Exit(2)
}
