package pml

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/ltl"
	"ftmc/promela"
	"ftmc/promela/compile"
	"ftmc/state"
	"ftmc/trace"
)

// bymcRow is a row of the reference EXPECTED.tsv for a Parametric Promela
// model: its path under benchmarks/bymc, its spec (or "(safety specs)",
// "(liveness specs)"), its macros, and its expected parameterized verdict
// as written.
type bymcRow struct {
	set, path, spec, expected string
	defines                   map[string]string
}

func bymcRows(t *testing.T) (string, []bymcRow) {
	t.Helper()
	dir := filepath.Join(testenv.Shared(t), "benchmarks", "bymc")
	fh, err := os.Open(filepath.Join(dir, "EXPECTED.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var rows []bymcRow
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 5 {
			continue
		}
		switch cols[0] {
		case "fmcad13", "isola18-promela", "isola18-promela-bug":
		default:
			continue
		}
		r := bymcRow{set: cols[0], path: cols[1], spec: cols[2], expected: cols[4], defines: map[string]string{}}
		f := strings.Fields(cols[3])
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "-D" {
				name, val, _ := strings.Cut(f[i+1], "=")
				r.defines[name] = val
			}
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return dir, rows
}

// instances returns parameter values of prog that satisfy all of its
// assume(...), smallest N first: N up to maxN, the other parameters from 0
// to N.
func instances(t *testing.T, prog *promela.Program, maxN int64) []map[string]int64 {
	t.Helper()
	var names []string
	for _, s := range prog.Params {
		names = append(names, s.Name)
	}
	var out []map[string]int64
	vals := map[string]int64{}
	var rec func(i int, n int64)
	rec = func(i int, n int64) {
		if i == len(names) {
			w, err := promela.Instantiate(prog, vals)
			if err == nil && len(w) == 0 {
				out = append(out, maps.Clone(vals))
			}
			return
		}
		if names[i] == "N" {
			vals["N"] = n
			rec(i+1, n)
			return
		}
		for v := int64(0); v <= n; v++ {
			vals[names[i]] = v
			rec(i+1, n)
		}
	}
	for n := int64(1); n <= maxN; n++ {
		rec(0, n)
	}
	return out
}

func paramString(p map[string]int64) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, p[k]))
	}
	return strings.Join(parts, ",")
}

// checkBudget bounds each instance check of TestBymcSharedModels; a check
// it cuts short says unknown, which the test records without failing.
const checkBudget = time.Second

// TestBymcSharedModels checks the rows of the reference EXPECTED.tsv for
// ByMC's Parametric Promela models (sets fmcad13, isola18-promela,
// isola18-promela-bug) on small instances, read as ByMC reads them, with
// the model's fairness constraints assumed: a property expected to hold
// must hold on every instance tried (the smallest that satisfies the
// model's assume(...)); a property expected to have a counterexample
// should be violated on one of the two smallest instances, and when
// neither violates it (or the budget cuts a check short) the test says so
// in its log rather than failing. Rows whose expectation is "not
// documented" or "doubtful" are skipped.
func TestBymcSharedModels(t *testing.T) {
	dir, rows := bymcRows(t)
	// The specifications of each model: those its rows name.
	specsOf := map[string][]string{}
	for _, r := range rows {
		if !strings.HasPrefix(r.spec, "(") && !slices.Contains(specsOf[r.path], r.spec) {
			specsOf[r.path] = append(specsOf[r.path], r.spec)
		}
	}
	type group struct {
		path    string
		defines map[string]string
		rows    []bymcRow
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, r := range rows {
		k := r.path + " " + paramStringS(r.defines)
		g := byKey[k]
		if g == nil {
			g = &group{path: r.path, defines: r.defines}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.rows = append(g.rows, r)
	}
	for _, g := range groups {
		t.Run(strings.ReplaceAll(g.path+"/"+paramStringS(g.defines), "=", ""), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, g.path)
			prog, err := promela.Load(path, promela.Options{Defines: g.defines})
			if err != nil {
				t.Fatal(err)
			}
			ins := instances(t, prog, 7)
			if len(ins) == 0 {
				t.Skipf("no parameter values up to N=7 satisfy the model's assume(...): its instances are too large to explore here")
			}
			// A counterexample is looked for first on the instances
			// that the bug admits: those that satisfy this model's
			// assume(...) but not the correct model's (the same file
			// without BUG macros, or bcast-byz for bcast-byz-Nge3T).
			bugIns := ins
			if base, defs, ok := correctVersion(dir, g.path, g.defines); ok {
				bp, err := promela.Load(filepath.Join(dir, base), promela.Options{Defines: defs})
				if err != nil {
					t.Fatal(err)
				}
				good := map[string]bool{}
				for _, in := range instances(t, bp, 7) {
					good[paramString(in)] = true
				}
				var fresh, old []map[string]int64
				for _, in := range ins {
					if good[paramString(in)] {
						old = append(old, in)
					} else {
						fresh = append(fresh, in)
					}
				}
				bugIns = append(fresh, old...)
			}
			assume := FairnessNames(prog)
			safety := map[string]bool{}
			names := Names(prog)
			for i, d := range prog.LTL {
				if f, _, err := Formula(d.Formula); err == nil {
					safety[names[i]] = SafetyShape(f)
				}
			}
			check := func(in map[string]int64, spec string) trace.Result {
				res, _, err := CheckProgram(t.Context(), prog, InstanceOptions{Params: in, Spec: spec, Assume: assume, Search: ltl.Options{TimeLimit: checkBudget}})
				if err != nil {
					t.Fatalf("%s %s: %v", paramString(in), spec, err)
				}
				return res
			}
			for _, r := range g.rows {
				exp := strings.Fields(r.expected)[0]
				var specs []string
				switch r.spec {
				case "(safety specs)", "(liveness specs)":
					for _, s := range specsOf[r.path] {
						if safety[s] == (r.spec == "(safety specs)") {
							specs = append(specs, s)
						}
					}
				default:
					specs = []string{r.spec}
				}
				switch exp {
				case "holds":
					for _, s := range specs {
						in := ins[0]
						switch res := check(in, s); res.Verdict {
						case trace.Violated:
							t.Errorf("%s on %s: violated, expected to hold (%s)\n%s", s, paramString(in), r.expected, res.Counterexample.Message)
						case trace.Unknown:
							t.Logf("%s on %s: unknown (%s)", s, paramString(in), res.Reason)
						}
					}
				case "counterexample":
					found, tried := false, []string{}
					for _, in := range bugIns[:min(2, len(bugIns))] {
						for _, s := range specs {
							res := check(in, s)
							tried = append(tried, fmt.Sprintf("%s on %s: %s %s", s, paramString(in), res.Verdict, res.Reason))
							if res.Verdict == trace.Violated {
								found = true
								break
							}
						}
						if found {
							break
						}
					}
					if !found {
						t.Logf("%s %s: expected a counterexample, no small instance tried violates it: %s", r.path, r.spec, strings.Join(tried, "; "))
					}
				default:
					t.Logf("%s %s: expectation %q not checked", r.path, r.spec, r.expected)
				}
			}
		})
	}
}

// correctVersion returns the correct model that the model at path with
// the macros defs is a variant of: the same file without the BUG macros,
// or for fmcad13's bcast-X-Variant.pml the file bcast-X.pml.
func correctVersion(dir, path string, defs map[string]string) (string, map[string]string, bool) {
	clean := map[string]string{}
	bug := false
	for k, v := range defs {
		if strings.HasPrefix(k, "BUG") {
			bug = true
			continue
		}
		clean[k] = v
	}
	if bug {
		return path, clean, true
	}
	base := strings.TrimSuffix(path, ".pml")
	if i := strings.LastIndex(base, "-"); i > 0 {
		if _, err := os.Stat(filepath.Join(dir, base[:i]+".pml")); err == nil {
			return base[:i] + ".pml", clean, true
		}
	}
	return "", nil, false
}

func paramStringS(p map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		parts = append(parts, k+"="+p[k])
	}
	return strings.Join(parts, ",")
}

// ByMC's reading of the properties: fairness... blocks are constraints, and
// a safety property is checked without them.
func TestSelectionByMC(t *testing.T) {
	prog := parse(t, `symbolic int N;
byte x;
active[N] proctype P() { end: do :: atomic { x < 3 -> x++ } od }
ltl fairness { []<>(x == 3) }
ltl fairness2 { []<>(x > 0) }
ltl safe { (x == 0) -> [](x < 3) }
ltl always { [](x < 4) }
ltl live { (x == 0) -> <>(x == 3) }
`)
	if got := FairnessNames(prog); strings.Join(got, ",") != "fairness,fairness2" {
		t.Errorf("FairnessNames %v", got)
	}
	if _, err := promela.Instantiate(prog, map[string]int64{"N": 1}); err != nil {
		t.Fatal(err)
	}
	m := compileModel(t, prog)
	texts := func(sel Selection) string {
		props, err := Properties(prog, m, sel)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range props {
			out = append(out, p.Name+": "+p.Text)
		}
		return strings.Join(out, "; ")
	}
	want := "safe: (x == 0) -> [](x < 3); always: [](x < 4); live: []<>(x == 3) -> ((x == 0) -> <>(x == 3))"
	if got := texts(Selection{Assume: []string{"fairness"}, ByMC: true}); got != want {
		t.Errorf("ByMC:\n got %s\nwant %s", got, want)
	}
	want = "fairness2: []<>(x == 3) -> []<>(x > 0); safe: []<>(x == 3) -> ((x == 0) -> [](x < 3)); always: []<>(x == 3) -> [](x < 4); live: []<>(x == 3) -> ((x == 0) -> <>(x == 3))"
	if got := texts(Selection{Assume: []string{"fairness"}}); got != want {
		t.Errorf("Spin:\n got %s\nwant %s", got, want)
	}
	if got := texts(Selection{Name: "fairness2", ByMC: true}); got != "fairness2: []<>(x > 0)" {
		t.Errorf("a fairness block named: %s", got)
	}
}

func compileModel(t *testing.T, prog *promela.Program) *compile.Model {
	t.Helper()
	m, err := compile.Compile(prog)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCheckPropertyWorkersFault: a proposition that cannot be evaluated
// is a run-time error in the state where it is read, also when several
// workers read the atoms each on a model of its own (ltl.Options.ForkAtoms):
// each hears its own atoms' fault.
func TestCheckPropertyWorkersFault(t *testing.T) {
	prog := parse(t, `byte a[3];
byte i;
active proctype P() {
	do
	:: i < 5 -> i++
	:: i == 5 -> i = 0
	od
}
ltl p { []<>(a[i] == 0) }
`)
	m := compileModel(t, prog)
	props, err := Properties(prog, m, Selection{Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 4} {
		r, _, err := CheckProperty(context.Background(), m, props[0], ltl.Options{Fairness: true, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != trace.Violated || r.Kind != state.KindRuntime || r.Counterexample == nil || !strings.Contains(r.Counterexample.Message, "invalid array index 3") {
			t.Errorf("%d workers: %s %s (%s); want a run-time error at index 3", workers, r.Verdict, r.Kind, r.Reason)
		}
	}
}
