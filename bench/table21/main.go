// Command table21 reproduces Table 2.1 of Gmeiner's thesis (the
// Srikanth–Toueg broadcast under Byzantine, omission, symmetric and
// clean-crash faults, fixed parameters, rows B1–C3) with ftmc:
//
//	ftmc check MODEL.pml --param N=7,T=2,F=2 --ltl SPEC --assume fairness --json
//
// on ByMC's models in ../shared/benchmarks/bymc/fmcad13, and prints ftmc's
// verdict, stored states and time next to the thesis's. With -spin it also
// runs Spin the way ByMC's concrete mode does (the parameters substituted,
// all/some unfolded over the processes, the fairness block assumed,
// `spin -a`, `gcc -O2`, `pan -a`), in the same run, so that the times can be
// compared as a ratio on this machine.
//
//	go run ./bench/table21 [-reps 3] [-spin] [-o bench/table21/RESULTS.md]
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
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"ftmc/internal/spin"
	"ftmc/trace"
)

// row is one line of Table 2.1, with the thesis's figures.
type row struct {
	id, model, params, spec string
	valid                   bool // the thesis's verdict: the property holds
	seconds                 float64
	stored                  string // as printed: 193·10³ ...
	depth                   int
}

var table = []row{
	{"B1", "bcast-byz", "N=7,T=2,F=2", "unforg", true, 3.13, "193·10³", 229},
	{"B2", "bcast-byz", "N=7,T=2,F=2", "corr", true, 3.43, "207·10³", 229},
	{"B3", "bcast-byz", "N=7,T=2,F=2", "relay", true, 6.3, "290·10³", 229},
	{"B4", "bcast-byz", "N=7,T=3,F=2", "unforg", true, 4.38, "265·10³", 233},
	{"B5", "bcast-byz", "N=7,T=3,F=2", "corr", true, 4.5, "271·10³", 233},
	{"B6", "bcast-byz", "N=7,T=3,F=2", "relay", false, 0.02, "1·10³", 210},
	{"O1", "bcast-omit", "N=5,To=2,Fo=2", "unforg", true, 1.43, "51·10³", 175},
	{"O2", "bcast-omit", "N=5,To=2,Fo=2", "corr", true, 1.64, "60·10³", 183},
	{"O3", "bcast-omit", "N=5,To=2,Fo=2", "relay", true, 3.69, "92·10³", 183},
	{"O4", "bcast-omit", "N=5,To=2,Fo=3", "unforg", true, 1.39, "51·10³", 175},
	{"O5", "bcast-omit", "N=5,To=2,Fo=3", "corr", false, 1.63, "53·10³", 183},
	{"O6", "bcast-omit", "N=5,To=2,Fo=3", "relay", false, 0.01, "17", 53},
	{"S1", "bcast-symm", "N=5,T=1,Fp=1,Fs=0", "unforg", true, 0.04, "3·10³", 121},
	{"S2", "bcast-symm", "N=5,T=1,Fp=1,Fs=0", "corr", true, 0.03, "3·10³", 121},
	{"S3", "bcast-symm", "N=5,T=1,Fp=1,Fs=0", "relay", true, 0.08, "5·10³", 121},
	{"S4", "bcast-symm", "N=5,T=3,Fp=3,Fs=1", "unforg", true, 0.01, "66", 62},
	{"S5", "bcast-symm", "N=5,T=3,Fp=3,Fs=1", "corr", false, 0.01, "62", 66},
	{"S6", "bcast-symm", "N=5,T=3,Fp=3,Fs=1", "relay", true, 0.01, "62", 62},
	{"C1", "bcast-clean", "N=3,Tc=2,Fc=2,Fnc=0", "unforg", true, 0.01, "668", 77},
	{"C2", "bcast-clean", "N=3,Tc=2,Fc=2,Fnc=0", "corr", true, 0.01, "892", 81},
	{"C3", "bcast-clean", "N=3,Tc=2,Fc=2,Fnc=0", "relay", true, 0.02, "1·10³", 81},
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
	reps := flag.Int("reps", 3, "runs per row; the median time counts")
	withSpin := flag.Bool("spin", false, "also run Spin on the concrete models, as ByMC's concrete mode does")
	out := flag.String("o", "", "also write the table (Markdown) to this file")
	shared := flag.String("shared", "", "the shared reference directory (default: ../shared beside the repository)")
	timeout := flag.Duration("time", 10*time.Minute, "time limit per run")
	only := flag.String("rows", "", "comma-separated row ids to run (default: all)")
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	if *shared == "" {
		*shared = filepath.Join(root, "..", "shared")
	}
	dir := filepath.Join(*shared, "benchmarks", "bymc", "fmcad13")
	bin := filepath.Join(os.TempDir(), "ftmc-table21")
	build := exec.Command("go", "build", "-o", bin, "./cmd/ftmc")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		fail(fmt.Errorf("go build: %v\n%s", err, b))
	}
	rows := table
	if *only != "" {
		want := map[string]bool{}
		for _, id := range strings.Split(*only, ",") {
			want[strings.TrimSpace(id)] = true
		}
		rows = nil
		for _, r := range table {
			if want[r.id] {
				rows = append(rows, r)
			}
		}
	}
	load, _ := os.ReadFile("/proc/loadavg")
	var b bytes.Buffer
	w := io.MultiWriter(os.Stdout, &b)
	fmt.Fprintf(w, "# Table 2.1 of the thesis, reproduced by ftmc\n\n")
	fmt.Fprintf(w, "ftmc: `ftmc check MODEL --param ... --ltl SPEC --assume fairness --json`, median of %d runs: search seconds as ftmc reports them, and wall time of the whole command; %s, load when started: %s.\n",
		*reps, time.Now().Format("2006-01-02"), strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Fprintf(w, "Thesis: Table 2.1 (Spin, hardware not stated). States are stored states; ftmc stores the states of the product with the property automaton.\n")
	if *withSpin {
		fmt.Fprintf(w, "Spin: ByMC's concrete mode re-enacted (parameters substituted, all/some unfolded, `(fairness) -> (SPEC)`), `spin -a`, `gcc -O2`, `pan -a -m1000000`, same run, median of %d pan search times; the ratio compares search times.\n", *reps)
	}
	fmt.Fprintln(w)
	head := "| row | model | parameters | spec | thesis | thesis states | thesis s | ftmc | ftmc states | ftmc s | ftmc wall s |"
	rule := "|---|---|---|---|---|---:|---:|---|---:|---:|---:|"
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
		line := fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %.2f | %s%s | %d | %.2f | %.2f |", r.id, r.model, r.params, r.spec,
			map[bool]string{true: "✓", false: "×"}[r.valid], r.stored, r.seconds, f.verdict, mark, f.states, f.seconds, f.wall)
		if f.err != "" {
			line = fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %.2f | error: %s | | | |", r.id, r.model, r.params, r.spec,
				map[bool]string{true: "✓", false: "×"}[r.valid], r.stored, r.seconds, f.err)
		}
		if *withSpin {
			s := runSpin(model, r, *reps)
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
	for i := 0; i < reps; i++ {
		cmd := exec.Command(bin, "check", model, "--param", r.params, "--ltl", r.spec, "--assume", "fairness",
			"--json", "--time", timeout.String())
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

func runSpin(model string, r row, reps int) measured {
	var m measured
	src, err := concrete(model, r.params, r.spec)
	if err != nil {
		m.err = err.Error()
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
	var times []float64
	for i := 0; i < reps; i++ {
		res, err := spin.Run(context.Background(), file, spin.Options{
			Mode: spin.Acceptance, LTL: r.spec + "_fair", Optimize: true, Reduce: true, CCArgs: []string{"-w"},
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

// concrete writes the model as ByMC's concrete mode hands it to Spin: the
// parameters become macros; symbolic declarations and assumptions go; each
// named atomic proposition becomes a macro with all/some/card unfolded over
// the processes of the active proctype (pids 0 .. n-1); and an ltl block
// SPEC_fair states (fairness) -> (SPEC). It knows just enough of ByMC's
// syntax for the fmcad13 models.
func concrete(path, params, spec string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	text := string(b)
	vals := map[string]int64{}
	var out []string
	var keys []string
	for _, kv := range strings.Split(params, ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return "", fmt.Errorf("bad parameter %q", kv)
		}
		vals[k] = n
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, fmt.Sprintf("#define %s %d", k, vals[k]))
	}
	am := regexp.MustCompile(`active\s*\[(.*?)\]\s*proctype\s+(\w+)`).FindStringSubmatch(text)
	if am == nil {
		return "", fmt.Errorf("%s: no active proctype", path)
	}
	count, err := evalSum(am[1], vals)
	if err != nil {
		return "", err
	}
	var locals []string
	for _, l := range regexp.MustCompile(`(?m)^\s*(?:byte|int|short|bit|bool)\s+(.*);`).FindAllStringSubmatch(text[strings.Index(text, am[0]):], -1) {
		for _, d := range strings.Split(l[1], ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(d), "=")
			locals = append(locals, strings.TrimSpace(name))
		}
	}
	localRe := regexp.MustCompile(`\b(` + strings.Join(locals, "|") + `)\b`)
	quantRe := regexp.MustCompile(`\b(all|some|card)\((\w+)([:@])([^()]*(?:\([^()]*\))?[^()]*)\)`)
	unfold := func(e string) string {
		for {
			m := quantRe.FindStringSubmatchIndex(e)
			if m == nil {
				return e
			}
			kind, proc, sep, body := e[m[2]:m[3]], e[m[4]:m[5]], e[m[6]:m[7]], e[m[8]:m[9]]
			var terms []string
			for i := int64(0); i < count; i++ {
				if sep == "@" {
					terms = append(terms, fmt.Sprintf("%s[%d]@%s", proc, i, body))
					continue
				}
				terms = append(terms, "("+localRe.ReplaceAllString(body, fmt.Sprintf("%s[%d]:$1", proc, i))+")")
			}
			op := map[string]string{"all": " && ", "some": " || ", "card": " + "}[kind]
			e = e[:m[0]] + "(" + strings.Join(terms, op) + ")" + e[m[1]:]
		}
	}
	ltls := map[string]string{}
	ltlRe := regexp.MustCompile(`^\s*ltl\s+(\w+)\s*\{(.*)\}`)
	atomRe := regexp.MustCompile(`^\s*atomic\s+(\w+)\s*=\s*(.*)$`)
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case regexp.MustCompile(`^\s*(symbolic\b|assume\s*\()`).MatchString(line):
			continue
		case atomRe.MatchString(line):
			m := atomRe.FindStringSubmatch(line)
			def := m[2]
			for !strings.HasSuffix(strings.TrimSpace(def), ";") && i+1 < len(lines) {
				i++
				def += " " + strings.TrimSpace(lines[i])
			}
			def = strings.TrimSuffix(strings.TrimSpace(def), ";")
			def = strings.NewReplacer(" and ", " && ", " or ", " || ").Replace(def)
			out = append(out, fmt.Sprintf("#define %s (%s)", m[1], unfold(def)))
			continue
		case ltlRe.MatchString(line):
			m := ltlRe.FindStringSubmatch(line)
			ltls[m[1]] = m[2]
			continue
		}
		out = append(out, line)
	}
	if ltls["fairness"] == "" || ltls[spec] == "" {
		return "", fmt.Errorf("%s: no ltl fairness or %s", path, spec)
	}
	out = append(out, fmt.Sprintf("ltl %s_fair { (%s) -> (%s) }", spec, ltls["fairness"], ltls[spec]))
	return strings.Join(out, "\n") + "\n", nil
}

// evalSum evaluates the count of an active proctype: A - B + C with
// parameters and integers.
func evalSum(e string, vals map[string]int64) (int64, error) {
	e = strings.ReplaceAll(e, " ", "")
	var total int64
	sign := int64(1)
	for _, tok := range regexp.MustCompile(`[+-]|[^+-]+`).FindAllString(e, -1) {
		switch tok {
		case "+":
			sign = 1
		case "-":
			sign = -1
		default:
			v, ok := vals[tok]
			if !ok {
				n, err := strconv.ParseInt(tok, 10, 64)
				if err != nil {
					return 0, fmt.Errorf("cannot evaluate %q", e)
				}
				v = n
			}
			total += sign * v
		}
	}
	return total, nil
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
