// Command fd builds the tables of docs/case-studies/failure-detectors.md
// from the runs of bench/fd/run.sh:
//
//	go run ./bench/fd claims OUT TIME DIR  run the monitor and ltl claims of the model headers in DIR
//	go run ./bench/fd page OUT PAGE        write the tables into PAGE
//
// OUT is run.sh's directory (sweep-*.csv, whole-*.csv, spin-bfs.tsv,
// claims.json and the ftmc binary). PAGE keeps its text; each table goes
// between a line "<!-- generated: NAME -->" and the next "<!-- end -->".
package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"ftmc/internal/expect"
	"ftmc/trace"
)

var algs = []string{"weak-completeness", "weak-accuracy", "strong-accuracy", "strong-completeness"}

func main() {
	if len(os.Args) < 4 || os.Args[1] == "claims" && len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: fd claims OUT TIME DIR | fd page OUT PAGE")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "claims":
		err = claims(os.Args[2], os.Args[3], os.Args[4])
	case "page":
		err = page(os.Args[2], os.Args[3])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fd:", err)
		os.Exit(1)
	}
}

// A row is one line of a sweep's CSV.
type row map[string]string

func readCSV(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var rows []row
	for _, rec := range recs[min(1, len(recs)):] {
		r := row{}
		for i, h := range recs[0] {
			if i < len(rec) {
				r[h] = rec[i]
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// find is the row with the given macro values, or nil.
func find(rows []row, kv ...string) row {
next:
	for _, r := range rows {
		for i := 0; i+1 < len(kv); i += 2 {
			if r[kv[i]] != kv[i+1] {
				continue next
			}
		}
		return r
	}
	return nil
}

// num formats a count with thin groups: 1 234 567.
func num(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return s
	}
	t := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range t {
		if i > 0 && (len(t)-i)%3 == 0 {
			b.WriteString(",")
		}
		b.WriteRune(c)
	}
	return b.String()
}

func secs(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	switch {
	case f < 0.01:
		return "<0.01"
	case f < 10:
		return strconv.FormatFloat(f, 'f', 2, 64)
	default:
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
}

// verdict says what a row found, in the page's words.
func verdict(r row) string {
	if r == nil {
		return "not run"
	}
	switch r["verdict"] {
	case "violated":
		switch r["kind"] {
		case "invalid end state":
			return "**deadlock**"
		case "assertion":
			return "**assertion**"
		}
		return "**" + r["kind"] + "**"
	case "unknown":
		// The states reached are in their own column.
		return "unknown (" + reachedRe.ReplaceAllString(r["reason"], "") + ")"
	}
	return r["verdict"]
}

var reachedRe = regexp.MustCompile(` reached after \d+ states`)

// whole is the whole-space column of a sweep row: the states of a run that
// covered its whole space, else what stopped it.
func whole(r row) string {
	switch {
	case r == nil:
		return "–"
	case r["complete"] == "true" || r["verdict"] == "holds":
		return num(r["states"])
	case r["verdict"] == "unknown":
		return "> " + num(r["states"]) + " (cut)"
	}
	return "–"
}

func resultsTable(out string) (string, error) {
	var b strings.Builder
	b.WriteString("| algorithm | CHAN | ORDER | BUF | verdict | states (BFS) | transitions | steps | seconds | whole space |\n")
	b.WriteString("|---|---|---|---:|---|---:|---:|---:|---:|---:|\n")
	for _, a := range algs {
		rows, err := readCSV(filepath.Join(out, "sweep-"+a+".csv"))
		if err != nil {
			return "", err
		}
		wrows, _ := readCSV(filepath.Join(out, "whole-"+a+".csv"))
		for _, ch := range []string{"B", "R", "I"} {
			for _, o := range []string{"SPLIT", "FIFO"} {
				for _, buf := range []string{"1", "2"} {
					r := find(rows, "CHAN", ch, "ORDER", o, "BUF", buf)
					if r == nil {
						continue
					}
					w := "–"
					switch ch {
					case "B":
						w = whole(find(wrows, "CHAN", ch, "ORDER", o, "BUF", buf))
					case "I":
						w = whole(r)
					}
					fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
						a, ch, o, buf, verdict(r), num(r["states"]), num(r["transitions"]), r["depth"], secs(r["seconds"]), w)
				}
			}
		}
	}
	return b.String(), nil
}

// fifoTable is the FIFO sweep: each algorithm under each model's way of
// waiting for room (WAIT), CHAN=B.
func fifoTable(out string) (string, error) {
	var b strings.Builder
	b.WriteString("| algorithm | WAIT | BUF | verdict | states (BFS) | steps | seconds |\n")
	b.WriteString("|---|---|---:|---|---:|---:|---:|\n")
	n, files := 0, 0
	for _, a := range algs {
		rows, err := readCSV(filepath.Join(out, "fifo-"+a+".csv"))
		if os.IsNotExist(err) {
			continue
		}
		files++
		if err != nil {
			return "", err
		}
		for _, r := range rows {
			n++
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", a, r["WAIT"], r["BUF"], verdict(r), num(r["states"]), r["depth"], secs(r["seconds"]))
		}
	}
	if files == 0 {
		return "", fmt.Errorf("no fifo-*.csv in %s: %w", out, fs.ErrNotExist)
	}
	if n == 0 {
		return "(the models have no WAIT macro)\n", nil
	}
	return b.String(), nil
}

// table1 is the paper's Table 1 (weak completeness, its channels with
// overtaking, three processes): states and time until the first
// counterexample of a breadth-first search.
var table1 = []struct {
	buf, ch         string
	mcrl2, mcrl2T   string
	uppaal, uppaalT string
	fdr2, fdr2T     string
}{
	{"1", "B", "588,641", "44 s", "2,431,674", "52 s", "167,388", "1 s"},
	{"1", "R", "6,630", "5.9 s", "46,608", "0 s", "2,401", "0 s"},
	{"2", "B", "30,182,443", "42 m 43 s", "184,493,193", "71 m 8 s", "6,230,100", "1 m 10 s"},
	{"2", "R", "314,951", "33 s", "5,654,365", "1 m 17 s", "83,437", "0 s"},
}

func table1Table(out string) (string, error) {
	rows, err := readCSV(filepath.Join(out, "sweep-weak-completeness.csv"))
	if err != nil {
		return "", err
	}
	wrows, _ := readCSV(filepath.Join(out, "whole-weak-completeness.csv"))
	spin := map[string][]string{}
	if data, err := os.ReadFile(filepath.Join(out, "spin-bfs.tsv")); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			f := strings.Split(line, "\t")
			if len(f) >= 5 {
				spin[f[0]+f[1]] = f
			}
		}
	}
	var b strings.Builder
	b.WriteString("| BUF | CHAN | mCRL2 | UPPAAL | FDR2 | ftmc BFS | Spin BFS | ftmc whole space |\n")
	b.WriteString("|---:|---|---:|---:|---:|---:|---:|---:|\n")
	for _, t := range table1 {
		r := find(rows, "CHAN", t.ch, "ORDER", "SPLIT", "BUF", t.buf)
		f := "not run"
		if r != nil {
			f = fmt.Sprintf("%s (%s s, %s)", num(r["states"]), secs(r["seconds"]), strings.Trim(verdict(r), "*"))
		}
		s := "not run"
		if sp, ok := spin[t.ch+t.buf]; ok {
			switch {
			case sp[3] == "none":
				s = fmt.Sprintf("no error within the limit (%s s)", secs(sp[4]))
			case len(sp) > 5 && sp[5] != "":
				s = fmt.Sprintf("%s, %s nominal (%s s)", num(sp[2]), num(sp[5]), secs(sp[4]))
			default:
				s = fmt.Sprintf("%s (%s s)", num(sp[2]), secs(sp[4]))
			}
		}
		w := "– (stops at the assertion)"
		if t.ch == "B" {
			w = whole(find(wrows, "CHAN", "B", "ORDER", "SPLIT", "BUF", t.buf))
		}
		fmt.Fprintf(&b, "| %s | %s | %s (%s) | %s (%s) | %s (%s) | %s | %s | %s |\n",
			t.buf, t.ch, t.mcrl2, t.mcrl2T, t.uppaal, t.uppaalT, t.fdr2, t.fdr2T, f, s, w)
	}
	return b.String(), nil
}

// A claim is one run a model header declares, with what ftmc reported.
type claim struct {
	Model    string   `json:"model"`
	Args     []string `json:"args"`
	Expected string   `json:"expected"`
	Got      string   `json:"got"`
	States   int64    `json:"states"`
	Seconds  float64  `json:"seconds"`
	Complete bool     `json:"complete"`
}

// claimRe picks the header runs of the monitors and of LTL: the deadlock
// and overflow runs are the sweep's.
var claimRe = regexp.MustCompile(`PROP=|--ltl|--fairness`)

// claims runs the header runs of the models in dir that claimRe picks,
// each with a time limit, and writes OUT/claims.json.
func claims(out, limit, dir string) error {
	ftmc, err := filepath.Abs(filepath.Join(out, "ftmc"))
	if err != nil {
		return err
	}
	var all []claim
	for _, a := range algs {
		path := filepath.Join(dir, a+".pml")
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		runs, err := expect.Parse(bytes.NewReader(data), "check")
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		for _, r := range runs {
			line := strings.Join(r.Args, " ")
			if !claimRe.MatchString(line) {
				continue
			}
			c := claim{Model: a, Args: r.Args, Expected: expected(r)}
			args := append(append([]string(nil), r.Args...), a+".pml", "--json", "--time", limit)
			fmt.Fprintf(os.Stderr, "== %s ftmc %s %s.pml\n", time.Now().Format("15:04:05"), line, a)
			cmd := exec.Command(ftmc, args...)
			cmd.Dir = dir
			stdout, _ := cmd.Output() // the exit code is the verdict
			rep, err := trace.ParseReport(a, stdout)
			if err != nil {
				c.Got = "error: " + err.Error()
			} else {
				c.Got = got(rep)
				c.States, c.Seconds, c.Complete = rep.Stats.States, rep.Stats.Seconds, rep.Stats.Complete
			}
			all = append(all, c)
		}
	}
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "claims.json"), append(data, '\n'), 0o644)
}

func expected(r expect.Run) string {
	var parts []string
	if r.Overall != nil {
		parts = append(parts, r.Overall.String())
	}
	for _, p := range r.Props {
		parts = append(parts, p.Name+": "+p.Outcome.String())
	}
	return strings.Join(parts, "; ")
}

func got(rep *trace.Report) string {
	var parts []string
	for _, v := range rep.Verdicts {
		s := v.Property + ": " + string(v.Verdict)
		if v.Kind != "" {
			s += " (" + v.Kind + ")"
		}
		if v.Reason != "" {
			s += " (" + v.Reason + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func claimsTable(out string, ltl bool) (string, error) {
	data, err := os.ReadFile(filepath.Join(out, "claims.json"))
	if err != nil {
		return "", err
	}
	var all []claim
	if err := json.Unmarshal(data, &all); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| model | run | the header expects | ftmc reports | states | seconds |\n")
	b.WriteString("|---|---|---|---|---:|---:|\n")
	n := 0
	for _, c := range all {
		line := strings.Join(c.Args, " ")
		if isLTL := strings.Contains(line, "--ltl") || strings.Contains(line, "--fairness"); isLTL != ltl {
			continue
		}
		n++
		fmt.Fprintf(&b, "| %s | `ftmc %s` | %s | %s | %s | %s |\n", c.Model, line, c.Expected, reachedRe.ReplaceAllString(c.Got, ""),
			num(strconv.FormatInt(c.States, 10)), secs(strconv.FormatFloat(c.Seconds, 'f', 3, 64)))
	}
	if n == 0 {
		return "(no such runs in the model headers yet)\n", nil
	}
	return b.String(), nil
}

// page writes the tables into the page between its markers.
func page(out, path string) error {
	tables := map[string]func() (string, error){
		"results":  func() (string, error) { return resultsTable(out) },
		"table1":   func() (string, error) { return table1Table(out) },
		"fifo":     func() (string, error) { return fifoTable(out) },
		"monitors": func() (string, error) { return claimsTable(out, false) },
		"ltl":      func() (string, error) { return claimsTable(out, true) },
		"models": func() (string, error) {
			rev, err := os.ReadFile(filepath.Join(out, "models.rev"))
			return "The figures on this page are from the models of commit " + strings.TrimSpace(string(rev)) + ".\n", err
		},
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(string(data), "\n")
	// A table whose run did not happen in OUT (STEPS chose other steps)
	// keeps its text; the models line then says which tables are newer.
	texts := map[string]string{}
	var done, kept []string
	for name, gen := range tables {
		if name == "models" {
			continue
		}
		text, err := gen()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			kept = append(kept, name)
		case err != nil:
			return fmt.Errorf("table %s: %v", name, err)
		default:
			texts[name] = text
			done = append(done, name)
		}
	}
	sort.Strings(done)
	sort.Strings(kept)
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		b.WriteString(lines[i])
		name, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "<!-- generated: ")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, " -->")
		gen, ok := tables[name]
		if !ok {
			return fmt.Errorf("%s: unknown table %q", path, name)
		}
		start := i + 1
		for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "<!-- end -->" {
			i++
		}
		if i+1 == len(lines) {
			return fmt.Errorf("%s: table %s has no <!-- end --> line", path, name)
		}
		old := strings.Join(lines[start:i+1], "")
		text, ok := texts[name]
		switch {
		case name == "models" && len(done) == 0:
			text = old
		case name == "models" && len(kept) == 0:
			if text, err = gen(); err != nil {
				return fmt.Errorf("table %s: %v", name, err)
			}
		case name == "models":
			rev, err := os.ReadFile(filepath.Join(out, "models.rev"))
			if err != nil {
				return err
			}
			first, _, _ := strings.Cut(strings.TrimSpace(old), "; the tables ")
			text = fmt.Sprintf("%s; the tables %s are from the models of commit %s.\n",
				strings.TrimSuffix(first, "."), strings.Join(done, ", "), strings.TrimSpace(string(rev)))
		case !ok:
			text = old
		}
		b.WriteString(text)
	}
	fmt.Fprintf(os.Stderr, "fd: tables %s written into %s", strings.Join(done, ", "), path)
	if len(kept) > 0 {
		fmt.Fprintf(os.Stderr, " (%s kept: their runs are not in %s)", strings.Join(kept, ", "), out)
	}
	fmt.Fprintln(os.Stderr)
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
