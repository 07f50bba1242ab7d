package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"ftmc/internal/expect"
	"ftmc/internal/spin"
	"ftmc/internal/testenv"
	"ftmc/state"
	"ftmc/trace"
)

// spinExamples is where Debian's spin package installs Spin's examples.
const spinExamples = "/usr/share/doc/spin/examples"

// annotationRe finds the lines by which a model declares where Spin and
// ftmc legitimately differ: "spin-verdict: differs because ..." (the
// verdicts are not compared) and "spin-states: differs because ..." (the
// state counts are not compared).
var annotationRe = regexp.MustCompile(`\bspin-(verdict|states):\s*(.*?)\s*(\*/)?\s*$`)

// annotations are a model's declared differences from Spin, with reasons.
type annotations struct {
	verdict, states string
}

func readAnnotations(path string) (annotations, error) {
	var a annotations
	f, err := os.Open(path)
	if err != nil {
		return a, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		m := annotationRe.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if !strings.HasPrefix(m[2], "differs because ") || len(m[2]) <= len("differs because ") {
			return a, fmt.Errorf("%s:%d: expected \"spin-%s: differs because REASON\"", path, n, m[1])
		}
		if m[1] == "verdict" {
			a.verdict = m[2]
		} else {
			a.states = m[2]
		}
	}
	return a, sc.Err()
}

// spinDefines turns the arguments of a check run into Spin's -D macros.
// Anything else has no Spin equivalent here and is an error.
func spinDefines(args []string) ([]string, error) {
	var defs []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-D" || a == "--D":
			if i+1 == len(args) {
				return nil, fmt.Errorf("-D without a value")
			}
			defs = append(defs, args[i+1])
			i++
		case strings.HasPrefix(a, "-D"):
			defs = append(defs, strings.TrimPrefix(a, "-D"))
		default:
			return nil, fmt.Errorf("%q has no Spin equivalent in the differential test", a)
		}
	}
	return defs, nil
}

// spinOptions are the oracle's settings: the verifier compiles several
// times faster without optimisation, and the models are small.
func spinOptions(defines []string) spin.Options {
	return spin.Options{Defines: defines, CCOpt: "-O0", HashBits: 20}
}

// differ is one comparison of ftmc with Spin on a model.
type differ struct {
	where string // file:line for messages
	model string
	args  []string // ftmc's command line
	spin  spin.Options
	notes annotations
	// expected is the model's own expectation for the run, checked against
	// Spin too, so that a model edited without updating its header fails.
	expected *expect.Outcome
	// skipFtmc, when set, says why ftmc cannot run yet: the comparison
	// stops after Spin's side.
	skipFtmc string
}

func (d differ) run(t *testing.T) {
	budget := runBudget(t)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	want, err := spin.Run(ctx, d.model, d.spin)
	if err != nil && ctx.Err() != nil {
		t.Fatal(overBudget(d.where+" (Spin)", budget))
	}
	if err != nil {
		if d.notes.verdict != "" {
			t.Logf("%s: Spin gives no verdict, as the model says (%s): %v", d.where, d.notes.verdict, firstLine(err.Error()))
			return
		}
		t.Fatalf("%s: %v", d.where, err)
	}
	for _, n := range want.SpinNotes {
		t.Logf("%s: %s", d.where, n)
	}
	spinOut := expect.Outcome{Verdict: string(want.Verdict), Kind: want.Kind}
	if d.expected != nil && d.notes.verdict == "" && !matches(*d.expected, spinOut) {
		t.Errorf("%s: the model expects %s, but Spin says %s (%s)", d.where, d.expected, spinOut, want.Message)
	}
	if d.skipFtmc != "" {
		t.Skipf("%s: Spin says %s; %s", d.where, spinOut, d.skipFtmc)
	}
	// Spin runs without its partial-order reduction (-DNOREDUCE) and
	// without statement merging (-o3), so that the stored states are
	// comparable: so does ftmc.
	rep, code, stderr := runFtmc(ctx, append(d.args, "--no-reduce", "--no-merge"))
	if ctx.Err() != nil {
		t.Fatal(overBudget(d.where, budget))
	}
	if rep == nil {
		t.Fatalf("%s: ftmc %s exited %d:\n%s", d.where, strings.Join(d.args, " "), code, stderr)
	}
	got := overall(rep.Verdicts)
	if d.notes.verdict != "" {
		t.Logf("%s: verdicts not compared (%s): Spin %s, ftmc %s", d.where, d.notes.verdict, spinOut, got)
		return
	}
	if want.Verdict == trace.Unknown {
		t.Fatalf("%s: Spin's search is incomplete (%s); give it more room", d.where, want.Reason)
	}
	if got.Verdict != spinOut.Verdict {
		t.Fatalf("%s: ftmc says %s, Spin says %s (%s; %s)", d.where, got, spinOut, want.Message, firstLine(want.Commands[0]))
	}
	if got.Verdict == string(trace.Violated) && got.Kind != spinOut.Kind {
		// Spin's depth-first search and ftmc's breadth-first search may
		// meet different violations first. Agreement means Spin finds
		// ftmc's kind too once the kind it found first is ignored.
		other, err := d.otherViolation(ctx, want.Kind)
		if err != nil {
			t.Fatalf("%s: ftmc says %s, Spin says %s; asking Spin for other violations failed: %v", d.where, got, spinOut, err)
		}
		if other == nil || other.Verdict != trace.Violated || other.Kind != got.Kind {
			t.Fatalf("%s: ftmc says %s, Spin says %s (%s), and finds no %s when that is ignored", d.where, got, spinOut, want.Message, got.Kind)
		}
		t.Logf("%s: ftmc found %s first, Spin %s; Spin finds both", d.where, got.Kind, spinOut.Kind)
		return
	}
	if !want.Complete {
		return // a violation: both searches stopped early, the counts say nothing
	}
	if !rep.Stats.Complete {
		t.Errorf("%s: ftmc says %s but does not call its search complete", d.where, got)
	}
	if rep.Stats.States != want.States {
		if d.notes.states != "" {
			t.Logf("%s: state counts differ as the model says (%s): ftmc %d, Spin %d", d.where, d.notes.states, rep.Stats.States, want.States)
			return
		}
		t.Errorf("%s: ftmc stored %d states, Spin %d (ftmc: %d transitions, depth %d; Spin: %d transitions, %d matched, depth %d, %d atomic steps)",
			d.where, rep.Stats.States, want.States, rep.Stats.Transitions, rep.Stats.Depth,
			want.Transitions, want.Matched, want.Depth, want.AtomicSteps)
	}
}

// otherViolation runs Spin again, ignoring the kind of violation it found
// first: pan -E ignores invalid end states, -A assertions (and with them
// array-index errors, which pan checks as assertions).
func (d differ) otherViolation(ctx context.Context, kind string) (*spin.Result, error) {
	o := d.spin
	switch kind {
	case state.KindInvalidEnd:
		o.PanArgs = append(append([]string{}, o.PanArgs...), "-E")
	case state.KindAssertion, state.KindRuntime:
		o.PanArgs = append(append([]string{}, o.PanArgs...), "-A")
	default:
		return nil, nil
	}
	return spin.Run(ctx, d.model, o)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// needOracle skips (or under CI fails) without Spin and a C compiler.
func needOracle(t *testing.T) {
	t.Helper()
	testenv.NeedBinary(t, "spin")
	testenv.NeedBinary(t, "gcc")
}

// differentialTree reports whether the model at rel (relative to the
// repository) is compared with Spin: the corpus and the Promela examples
// for users. Other examples use constructs or flags tied to their studies.
func differentialTree(rel string) bool {
	rel = filepath.ToSlash(rel)
	return strings.HasPrefix(rel, "testdata/corpus/") || strings.HasPrefix(rel, "examples/promela/")
}

// TestDifferentialCorpus runs Spin and ftmc on every run of every corpus
// model (and of examples/promela) and compares verdicts, kinds and, for complete searches, the number
// of stored states. It also checks each model's stated expectation against
// Spin, which is where the expectations come from.
func TestDifferentialCorpus(t *testing.T) {
	needOracle(t)
	var n int
	for _, m := range exampleModels(t) {
		if !differentialTree(m.rel) || filepath.Ext(m.path) != ".pml" {
			continue
		}
		notes, err := readAnnotations(m.path)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, r := range m.runs {
			n++
			where := fmt.Sprintf("%s:%d", m.rel, r.Line)
			t.Run(where, func(t *testing.T) {
				if r.Args[0] != "check" {
					t.Skipf("%s: Spin is compared on check runs only", where)
				}
				if r.Slow && !slowEnabled() {
					t.Skipf("%s: marked slow; set FTMC_SLOW=1 to run it", where)
				}
				defs, err := spinDefines(r.Args[1:])
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				t.Parallel()
				d := differ{where: where, model: m.path, args: runArgs(m.path, r), spin: spinOptions(defs), notes: notes, expected: r.Overall}
				d.skipFtmc = unimplemented["check .pml"]
				d.run(t)
			})
		}
	}
	if n < 30 {
		t.Errorf("found %d corpus runs, want at least 30", n)
	}
}

// spinExample is one row of testdata/corpus/SPIN-EXAMPLES.md.
type spinExample struct {
	path, status, reason string
	flags                []string // added to ftmc check
	line                 int
}

var exampleStatuses = map[string]bool{"compared": true, "slow": true, "ltl": true, "unsupported": true, "spin-fails": true, "too-large": true}

// readSpinExamples reads the inventory table.
func readSpinExamples(t *testing.T) []spinExample {
	t.Helper()
	file := filepath.Join(testenv.RepoRoot(t), "testdata", "corpus", "SPIN-EXAMPLES.md")
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []spinExample
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if !strings.HasPrefix(line, "| Examples/") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 5 {
			t.Errorf("SPIN-EXAMPLES.md:%d: expected | model | status | reason | ftmc flags | Spin |", n)
			continue
		}
		e := spinExample{path: strings.TrimSpace(cells[0]), status: strings.TrimSpace(cells[1]), reason: strings.TrimSpace(cells[2]),
			flags: strings.Fields(cells[3]), line: n}
		if !exampleStatuses[e.status] {
			t.Errorf("SPIN-EXAMPLES.md:%d: unknown status %q", n, e.status)
		}
		if e.status != "compared" && e.reason == "" {
			t.Errorf("SPIN-EXAMPLES.md:%d: status %s needs a reason", n, e.status)
		}
		rows = append(rows, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// materialize copies Spin's examples into dir, decompressing gzipped files,
// and returns the models found, relative to dir.
func materialize(t *testing.T, src, dir string) []string {
	t.Helper()
	var models []string
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		var r io.Reader = in
		if strings.HasSuffix(rel, ".gz") {
			z, err := gzip.NewReader(in)
			if err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			defer z.Close()
			r, rel = z, strings.TrimSuffix(rel, ".gz")
		}
		out := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		w, err := os.Create(out)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, r); err != nil {
			w.Close()
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		if strings.HasSuffix(rel, ".pml") {
			models = append(models, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(models)
	return models
}

// TestDifferentialSpinExamples runs Spin and ftmc on Spin's own examples
// that SPIN-EXAMPLES.md marks as compared (and slow, with FTMC_SLOW=1).
func TestDifferentialSpinExamples(t *testing.T) {
	rows := readSpinExamples(t)
	if len(rows) < 70 {
		t.Fatalf("SPIN-EXAMPLES.md lists %d models, want the whole inventory", len(rows))
	}
	needOracle(t)
	if _, err := os.Stat(spinExamples); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Spin's examples are missing (%v), and CI=true requires them", err)
		}
		t.Skipf("Spin's examples are not installed (%v)", err)
	}
	dir := t.TempDir()
	found := materialize(t, spinExamples, dir)
	listed := map[string]bool{}
	for _, e := range rows {
		listed[e.path] = true
	}
	for _, m := range found {
		if !listed[m] {
			t.Errorf("%s is not listed in testdata/corpus/SPIN-EXAMPLES.md: add it with its status", m)
		}
	}
	have := map[string]bool{}
	for _, m := range found {
		have[m] = true
	}
	for _, e := range rows {
		where := "testdata/corpus/SPIN-EXAMPLES.md:" + fmt.Sprint(e.line)
		if !have[e.path] {
			t.Errorf("%s: %s is listed but not installed", where, e.path)
			continue
		}
		if e.status != "compared" && e.status != "slow" {
			continue
		}
		t.Run(e.path, func(t *testing.T) {
			if why, ok := unimplemented["check .pml"]; ok {
				t.Skipf("%s: %s", where, why)
			}
			if e.status == "slow" && !slowEnabled() {
				t.Skipf("%s: slow (%s); set FTMC_SLOW=1 to run it", where, e.reason)
			}
			t.Parallel()
			model := filepath.Join(dir, filepath.FromSlash(e.path))
			args := append([]string{"check", model}, e.flags...)
			differ{where: where + " (" + e.path + ")", model: model, args: args, spin: spinOptions(nil)}.run(t)
		})
	}
}

// TestDifferentialHelpers checks the parts of the differential test that
// do not need Spin.
func TestDifferentialHelpers(t *testing.T) {
	defs, err := spinDefines([]string{"-D", "N=3", "-DX", "-D", "CHAN=B"})
	if err != nil || strings.Join(defs, " ") != "N=3 X CHAN=B" {
		t.Errorf("spinDefines = %v, %v", defs, err)
	}
	if _, err := spinDefines([]string{"--dfs"}); err == nil {
		t.Error("spinDefines accepted a flag Spin has no equivalent for")
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pml")
	os.WriteFile(good, []byte("// spin-states: differs because hidden variables\n/* spin-verdict: differs because pan crashes */\n"), 0o644)
	a, err := readAnnotations(good)
	if err != nil || a.states != "differs because hidden variables" || a.verdict != "differs because pan crashes" {
		t.Errorf("readAnnotations = %+v, %v", a, err)
	}
	bad := filepath.Join(dir, "bad.pml")
	os.WriteFile(bad, []byte("// spin-states: whatever\n"), 0o644)
	if _, err := readAnnotations(bad); err == nil {
		t.Error("an annotation without a reason was accepted")
	}
}
