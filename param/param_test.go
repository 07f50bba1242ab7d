package param

import (
	"bufio"
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"ftmc/explore"
	"ftmc/internal/expect"
	"ftmc/internal/testenv"
	"ftmc/smt"
	"ftmc/state"
	"ftmc/ta"
	"ftmc/trace"
)

// smallParams lists up to max parameter valuations that satisfy the
// assumptions, smallest sum first, with every value at most bound.
func smallParams(t *testing.T, f *ta.File, bound int64, max int) []map[string]int64 {
	t.Helper()
	return smallestParams(f, bound, max)
}

// crossCheck compares a parameterized verdict with explicit searches of
// small instances: a property that holds must hold on each of them, and a
// counterexample's own instance must violate the property.
func crossCheck(t *testing.T, f *ta.File, spec string, r SpecResult, bound int64, count int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	switch r.Verdict {
	case trace.Holds:
		for _, p := range smallParams(t, f, bound, count) {
			e := explicitAny(ctx, f, spec, p)
			if e.Verdict == trace.Violated {
				t.Errorf("%s: the schema engine says holds, but the instance %v violates it", spec, p)
			}
		}
		// Safety properties also go through the project's explicit engine.
		s, _ := f.SpecByName(spec)
		if init, bad, ok := SafetyShape(s.Formula); ok {
			for _, p := range smallParams(t, f, bound, 2) {
				in, err := ta.NewInstance(f, p, ta.InstanceOptions{Init: init, Bad: bad, BadName: spec})
				if err != nil {
					t.Fatal(err)
				}
				if ok, _ := in.HasInitial(); !ok {
					continue // the premise excludes these parameters
				}
				res, _, err := explore.Run(ctx, in, explore.Options{Property: spec})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict == trace.Violated {
					t.Errorf("%s: explore finds a violation on the instance %v", spec, p)
				}
			}
		}
	case trace.Violated:
		checkViolation(ctx, t, f, spec, r, false)
	}
}

// checkViolation checks the counterexample of a violation: its parameters
// satisfy the assumptions, and on its instance, when small, the explicit
// engine finds the violation too; with mayStop, whose state limit may cut
// the search short on a large automaton, it must only not find that the
// property holds.
func checkViolation(ctx context.Context, t *testing.T, f *ta.File, spec string, r SpecResult, mayStop bool) {
	t.Helper()
	c := r.Counterexample
	free := 0 // the parameters a counterexample gives: not the quotients Check adds
	for _, p := range f.Params {
		if p.Quotient == nil {
			free++
		}
	}
	if c == nil || len(c.Params) != free {
		t.Fatalf("%s: violation without a counterexample with parameters", spec)
	}
	if _, err := ta.NewInstance(f, c.Params, ta.InstanceOptions{}); err != nil {
		t.Errorf("%s: the counterexample's parameters %v violate the assumptions: %v", spec, c.Params, err)
	}
	var sum int64
	for _, v := range c.Params {
		sum += v
	}
	if sum > 16 {
		return
	}
	e := explicitAny(ctx, f, spec, c.Params)
	if e.Verdict == trace.Holds || !mayStop && e.Verdict != trace.Violated {
		t.Errorf("%s: the counterexample's instance %v does not violate it explicitly (%s %s)", spec, c.Params, e.Verdict, e.Reason)
	}
}

// explicitAny checks spec on the instance p of f explicitly, lassos that
// go round the automaton's cycles included.
func explicitAny(ctx context.Context, f *ta.File, spec string, p map[string]int64) SpecResult {
	e, _ := Explicit(ctx, f, spec, p, explore.Options{MaxStates: 2_000_000})
	return e
}

func parse(t *testing.T, path string) *ta.File {
	t.Helper()
	f, err := ta.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestExamples runs every threshold automaton under examples/threshold with
// the verdicts its header expects, and cross-checks them on instances.
func TestExamples(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	files, _ := filepath.Glob(filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "*.ta"))
	if len(files) == 0 {
		t.Fatal("no examples found")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f := parse(t, path)
			src, _ := os.ReadFile(path)
			runs, err := expect.Parse(strings.NewReader(string(src)), "verify")
			if err != nil || len(runs) == 0 {
				t.Fatalf("expectations: %v (%d runs)", err, len(runs))
			}
			for _, run := range runs {
				if run.Args[0] != "verify" {
					continue
				}
				if len(f.Unknowns) > 0 {
					synthesisExample(t, f, run)
					continue
				}
				for _, prop := range run.Props {
					r := Verify(context.Background(), f, prop.Name, crossChecked(Options{Jobs: 1}))
					if string(r.Verdict) != prop.Verdict {
						t.Errorf("%s: %s (%s), expected %s", prop.Name, r.Verdict, r.Reason, prop.Verdict)
						continue
					}
					crossCheck(t, f, prop.Name, r, 7, 6)
				}
			}
		})
	}
}

// synthesisExample runs the guard synthesis of a sketch and compares the
// verdicts with run's: those of the solution, each checked again on
// instances of the automaton with the solution's values, or "synthesis"
// violated when there is none.
func synthesisExample(t *testing.T, f *ta.File, run expect.Run) {
	t.Helper()
	out := Synthesize(context.Background(), f, specNames(f), Options{Jobs: 1}, nil)
	got := map[string]SpecResult{}
	for _, r := range out.Results {
		got[r.Property] = r
	}
	if out.Solution == nil {
		v := trace.Unknown
		if out.Complete {
			v = trace.Violated
		}
		got["synthesis"] = SpecResult{Result: trace.Result{Property: "synthesis", Verdict: v, Reason: out.Reason}}
	}
	for _, prop := range run.Props {
		r, ok := got[prop.Name]
		if !ok || string(r.Verdict) != prop.Verdict {
			t.Errorf("%s: %s (%s), expected %s", prop.Name, r.Verdict, out.Reason, prop.Verdict)
			continue
		}
		if out.Solution != nil {
			g, err := ta.Substitute(f, out.Solution)
			if err != nil {
				t.Fatal(err)
			}
			crossCheck(t, g, prop.Name, r, 7, 6)
		}
	}
}

type benchRow struct {
	path, spec, expected string
}

func isola18(t *testing.T) []benchRow {
	dir := filepath.Join(testenv.Shared(t), "benchmarks", "bymc")
	fh, err := os.Open(filepath.Join(dir, "EXPECTED.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	seen := map[string]bool{}
	var rows []benchRow
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 5 || cols[0] != "isola18-ta" {
			continue
		}
		path, spec := filepath.Join(dir, cols[1]), cols[2]
		exp := strings.Fields(cols[4])[0]
		if spec == "all" {
			for _, s := range parse(t, path).Specs {
				if !seen[path+s.Name] {
					seen[path+s.Name] = true
					rows = append(rows, benchRow{path, s.Name, exp})
				}
			}
			continue
		}
		if !seen[path+spec] {
			seen[path+spec] = true
			rows = append(rows, benchRow{path, spec, exp})
		}
	}
	return rows
}

// TestISOLA18 checks every (model, spec) row of the ISOLA'18 threshold
// automata in the reference EXPECTED.tsv, all ten models, and cross-checks
// the verdicts of the smaller models on explicit instances.
func TestISOLA18(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	rows := isola18(t)
	models := map[string]bool{}
	for _, row := range rows {
		models[filepath.Base(row.path)] = true
		t.Run(filepath.Base(row.path)+"/"+row.spec, func(t *testing.T) {
			f := parse(t, row.path)
			r := Verify(context.Background(), f, row.spec, crossChecked(Options{Jobs: 2}))
			if string(r.Verdict) != row.expected {
				t.Fatalf("%s, expected %s (%s)", r.Verdict, row.expected, r.Reason)
			}
			if r.Schemas == 0 && r.Single == 0 {
				t.Errorf("neither a schema nor the single query decided it")
			}
			crossCheck(t, f, row.spec, r, 6, 4)
		})
	}
	if len(models) != 10 {
		t.Errorf("EXPECTED.tsv names %d isola18 models, want 10", len(models))
	}
}

// TestMutants weakens guards and resilience conditions of benchmark
// automata: each mutant must yield a counterexample that satisfies the
// mutated assumptions and replays on its instance.
func TestMutants(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	dir := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "ta")
	cases := []struct {
		name, file, from, to, spec string
	}{
		{"strb-f-le-t1", "strb.ta", "T >= F;", "T + 1 >= F;", "unforg"},
		{"strb-n-ge-3t", "strb.ta", "N > 3 * T;", "N >= 3 * T;", "relay"},
		{"strb-guard", "strb.ta", "when (nsnt >= THRESH1 - F)", "when (nsnt >= THRESH1 - F - 1)", "unforg"},
		{"frb-guard", "frb.ta", "when (nsnt >= THRESH2)", "when (nsnt >= THRESH1)", "unforg"},
		{"aba-n-ge-3t", "aba.ta", "N > 3 * T;", "N >= 3 * T;", "agreement"},
		{"bcrb-rc", "bcrb.ta", "N > 3 * Tb + 2 * Tc;", "N >= 3 * Tb + 2 * Tc;", "relay"},
		{"nbacg-guard", "nbacg.ta", "when (nsntNoCF < 1 && nsntYesCF >= N)", "when (nsntYesCF >= N - 1)", "agreement"},
		{"cc-guard", "cc.ta", ">= N + 1)", ">= N)", "agreement"},
		{"c1cs-f-le-t1", "c1cs.ta", "T >= F;", "T + 1 >= F;", "one_step0"},
		{"cf1s-guard", "cf1s.ta", "nsnt0 < THRESH1 && nsnt1 < THRESH1", "nsnt0 < THRESH1 + 1 && nsnt1 < THRESH1", "one_step0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), c.from) {
				t.Fatalf("%s does not contain %q", c.file, c.from)
			}
			mut := strings.Replace(string(src), c.from, c.to, -1)
			path := filepath.Join(t.TempDir(), c.name+".ta")
			if err := os.WriteFile(path, []byte(mut), 0o644); err != nil {
				t.Fatal(err)
			}
			f := parse(t, path)
			r := Verify(context.Background(), f, c.spec, crossChecked(Options{Jobs: 1}))
			if r.Verdict != trace.Violated {
				t.Fatalf("%s: %s (%s), expected a counterexample", c.spec, r.Verdict, r.Reason)
			}
			if len(r.Counterexample.Steps) == 0 {
				t.Errorf("empty schedule")
			}
			crossCheck(t, f, c.spec, r, 7, 4)
		})
	}
}

// crossChecked has a second solver confirm every unsat answer, when the
// tests have one (testenv.CrossCheck): the verdicts the tests expect are
// then the verdicts of two solvers.
func crossChecked(o Options) Options {
	if s := testenv.CrossCheck(); s != "" {
		o.Solver.CrossCheck = &smt.Options{Name: s, Timeout: o.Solver.Timeout}
	}
	return o
}

// TestSolverLimitIsUnknown makes z3 give up on its queries: the verdict
// must be unknown, never holds. A resource limit does it on the same
// queries on every run (4 schemas of c1cs's one_step0 are checked with
// 10,000); a timeout of a millisecond did not, because z3's timer is a
// thread of its own, which on a loaded machine wakes after the query is
// answered.
func TestSolverLimitIsUnknown(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	path := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "ta", "c1cs.ta")
	f := parse(t, path)
	r := Verify(context.Background(), f, "one_step0", Options{Jobs: 1, Solver: smt.Options{RLimit: 10000}})
	if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "resource limit") {
		t.Fatalf("%s with rlimit 10000 (%d schemas), want unknown for the resource limit: %s", r.Verdict, r.Schemas, r.Reason)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	r = Verify(ctx, f, "one_step0", Options{Jobs: 2})
	if r.Verdict != trace.Unknown || r.Reason == "" {
		t.Fatalf("a cancelled search says %s (%s)", r.Verdict, r.Reason)
	}
}

// TestCVC5 runs the engine with cvc5 instead of z3.
func TestCVC5(t *testing.T) {
	testenv.NeedBinary(t, "cvc5")
	f := parse(t, filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz-n-ge-3t.ta"))
	for spec, want := range map[string]trace.Verdict{"unforg": trace.Holds, "relay": trace.Violated} {
		r := Verify(context.Background(), f, spec, Options{Solver: smt.Options{Name: "cvc5"}, Jobs: 1})
		if r.Verdict != want {
			t.Errorf("%s with cvc5: %s (%s), want %s", spec, r.Verdict, r.Reason, want)
		}
	}
}

// TestFormulaShapes checks the negation of the benchmark specification
// shapes: safety needs no loop, fairness becomes a loop condition.
func TestFormulaShapes(t *testing.T) {
	src := `skel P { local pc; shared x; parameters N;
  assumptions (0) { N > 1; }
  locations (0) { a: [0]; b: [1]; }
  inits (0) { a == N; b == 0; x == 0; }
  rules (0) { 0: a -> b when (x >= 0) do { x' == x + 1; }; 1: b -> b when (true) do { unchanged(x); }; }
  specifications (0) {
    safe: (b == 0) -> [](x < N);
    live: <>[](a == 0) -> <>(b != 0);
    inf: []<>(b != 0);
    gf: <>(a == 0 && [](b != 0 || <>(a != 0)));
  } }`
	f, err := ta.Parse("shapes.ta", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) []*lcase {
		s, _ := f.SpecByName(name)
		lcs, err := specCases(s.Formula)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return lcs
	}
	if lc := get("safe"); len(lc) != 1 || lc[0].needLoop || len(lc[0].root.kids) != 1 {
		t.Errorf("safe: %+v", lc[0])
	}
	if lc := get("live"); len(lc) != 1 || !lc[0].needLoop || len(lc[0].loopGs) != 1 || len(lc[0].root.gs) != 1 {
		t.Errorf("live: loop %d, gs %d", len(lc[0].loopGs), len(lc[0].root.gs))
	}
	// !([]<>p) = <>[]!p: a loop condition.
	if lc := get("inf"); len(lc) != 1 || len(lc[0].loopGs) != 1 {
		t.Errorf("inf: %+v", lc[0])
	}
	// The negation has G F under an F with a G: outside the fragment.
	s, _ := f.SpecByName("gf")
	if _, err := specCases(s.Formula); err == nil || !strings.Contains(err.Error(), "outside the supported") {
		t.Errorf("gf: expected a fragment error, got %v", err)
	}
}

// TestNoRunIsUnknown: an automaton whose resilience condition no
// parameter values satisfy, or whose initial condition no configuration
// satisfies, has no run; its specifications are unknown, with the reason
// naming the conditions that contradict each other, never holds.
func TestNoRunIsUnknown(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	const src = `skel P { local pc; shared x; parameters N, T;
  assumptions (0) { N > 3 * T; T >= 1; ASSUME }
  locations (0) { a: [0]; b: [1]; }
  inits (0) { a == N; b == 0; x == 0; INIT }
  rules (0) { 0: a -> b when (x >= T) do { x' == x + 1; }; 1: b -> b when (true) do { unchanged(x); }; }
  specifications (0) {
    safe: (b == 0) -> [](x == 0);
    live: <>[](a == 0) -> <>(b != 0);
  } }`
	for _, c := range []struct {
		name, assume, init string
		want               []string // in the reason, "" for a model with runs
	}{
		{"runs", "", "", nil},
		{"no parameters", "T < 1;", "", []string{"no parameter values satisfy the resilience condition", "T >= 1 at rc.ta:2:34", "T < 1 at rc.ta:2:42", "nothing was checked"}},
		{"no parameters (constant)", "0 > 1;", "", []string{"no parameter values satisfy the resilience condition", "0 > 1 at rc.ta:2:42"}},
		{"no initial configuration", "", "a == N + 1;", []string{"no initial configuration satisfies the initial condition under the resilience condition", "a == N at rc.ta:4:17", "a == (N + 1) at rc.ta:4:41", "nothing was checked"}},
		{"negative counter", "", "b + a < N;", []string{"no initial configuration", "(b + a) < N at rc.ta:4:45"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(strings.Replace(src, "ASSUME", c.assume, 1), "INIT", c.init, 1)
			f, err := ta.Parse("rc.ta", []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			for _, spec := range []string{"safe", "live"} {
				r := Verify(context.Background(), f, spec, crossChecked(Options{Jobs: 1}))
				if c.want == nil {
					if r.Verdict != trace.Holds {
						t.Errorf("%s: %s (%s), want holds", spec, r.Verdict, r.Reason)
					}
					continue
				}
				if r.Verdict != trace.Unknown {
					t.Errorf("%s: %s, want unknown", spec, r.Verdict)
				}
				for _, w := range c.want {
					if !strings.Contains(r.Reason, w) {
						t.Errorf("%s: the reason %q lacks %q", spec, r.Reason, w)
					}
				}
			}
		})
	}
}

// TestReplayLargeValues: a solver's model may hold values as large as an
// int64: replaying it refuses schedules and counters that would wrap
// around, instead of a wrapped step count that passes the bound.
func TestReplayLargeValues(t *testing.T) {
	f, m := prepared(t, "big.ta", `skel P { local pc; shared x; parameters N;
  assumptions (0) { N > 0; }
  locations (0) { a: [0]; b: [1]; }
  inits (0) { a + b == N; x == 0; }
  rules (0) { 0: a -> b when (true) do { x' == x + 2; }; }
  specifications (0) { s: [](b == 0); } }`)
	const max = 9223372036854775807
	for _, c := range []struct {
		name    string
		pv, k   []int64
		x       int64
		sched   schedule
		wantErr string
	}{
		// The step counts sum to 2^63+1: wrapped, a negative total.
		{"steps", []int64{3}, []int64{3, 0}, 0, schedule{{0, max}, {0, 2}}, "more than 2000000 steps"},
		{"counter", []int64{max}, []int64{1, max}, 0, schedule{{0, 1}}, "counter is already"},
		{"shared", []int64{3}, []int64{3, 0}, max - 1, schedule{{0, 1}}, "increments x beyond"},
	} {
		mm := m
		if c.name != "steps" {
			// Start where the inits do not allow, to check the step alone.
			mm = &model{f: &ta.File{Shared: f.Shared, Locations: f.Locations}, rules: m.rules, nloc: m.nloc, nsh: m.nsh}
		}
		_, err := replay(mm, c.pv, c.k, []int64{c.x}, c.sched)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.wantErr)
		}
	}
}

// TestHugeCoefficients: coefficients near the int64 limit once multiplied
// (2^40 * x with x growing by 2^40). The order between atoms is computed
// exactly: wrapped to 0, the product made y >= T a prerequisite of
// 2^40 * x >= T, and y never grows, so the violation was pruned and the
// property held. The solver's first model has values beyond an int64; the
// search for a smaller one starts below that. The run itself needs 2^80,
// more than an instance holds: unknown, saying so.
func TestHugeCoefficients(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	const src = `skel P { local pc; shared x, y; parameters N, T;
  assumptions (0) { N > 0; T >= 1; }
  locations (0) { a: [0]; b: [1]; c: [2]; }
  inits (0) { a == N; b == 0; c == 0; x == 0; y == 0; }
  rules (0) {
    0: a -> b when (true) do { x' == x + 1099511627776; unchanged(y); };
    RULES
  }
  specifications (0) { s: [](c == 0); } }`
	const byY = "a -> c when (y >= T) do { unchanged(x, y); };"
	const byX = "b -> c when (1099511627776 * x >= T) do { unchanged(x, y); };"
	for _, rules := range []string{"1: " + byY + " 2: " + byX, "1: " + byX + " 2: " + byY} {
		f, err := ta.Parse("huge.ta", []byte(strings.Replace(src, "RULES", rules, 1)))
		if err != nil {
			t.Fatal(err)
		}
		r := Verify(context.Background(), f, "s", crossChecked(Options{Jobs: 1}))
		if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "1099511627776 * x does not fit in a 64-bit integer") {
			t.Errorf("rules %s: %s (%s), want unknown: the guard does not fit", rules, r.Verdict, r.Reason)
		}
	}
}

// answering is a solver that gives the same answer to every check.
type answering struct {
	smt.Solver // not called
	status     smt.Status
	depth      int
}

func (a *answering) Send(...string) {}
func (a *answering) Assert(string)  {}
func (a *answering) Push()          { a.depth++ }
func (a *answering) Pop(n int)      { a.depth -= n }
func (a *answering) Reason() string { return "incomplete" }
func (a *answering) Check(context.Context, ...string) (smt.Status, error) {
	return a.status, nil
}
func (a *answering) UnsatCore(context.Context) ([]string, error) { return nil, nil }

// TestNoRunUndecided: a solver that does not answer whether the automaton
// has a run leaves the question open (the search then goes on, and a holds
// becomes unknown), never a claim either way; the solver is left as found.
func TestNoRunUndecided(t *testing.T) {
	_, m := prepared(t, "u.ta", `skel P { local pc; shared x; parameters N;
  assumptions (0) { N > 1; }
  locations (0) { a: [0]; b: [1]; }
  inits (0) { a == N; b == 0; x == 0; }
  rules (0) { 0: a -> b when (x >= 0) do { x' == x + 1; }; }
  specifications (0) { s: [](b == 0); } }`)
	s := &answering{status: smt.Unknown}
	none, undecided, q := noRuns(context.Background(), s, m)
	if none != "" || undecided != "incomplete" || q != 1 || s.depth != 0 {
		t.Errorf("unknown answers: none %q, undecided %q, %d queries, depth %d", none, undecided, q, s.depth)
	}
	s = &answering{status: smt.Sat}
	if none, undecided, q = noRuns(context.Background(), s, m); none != "" || undecided != "" || q != 2 || s.depth != 0 {
		t.Errorf("sat answers: none %q, undecided %q, %d queries, depth %d", none, undecided, q, s.depth)
	}
	s = &answering{status: smt.Unsat}
	if none, _, _ = noRuns(context.Background(), s, m); !strings.HasPrefix(none, "no parameter values satisfy the resilience condition, so") {
		t.Errorf("unsat answers without a core: %q", none)
	}
}

// A self-loop that increments a shared variable can fire only finitely
// often when its own guard bounds that variable (a crash counter under
// nfaulty < F): liveness is then decided, not unknown. Without the bound
// the engine says why it cannot decide.
func TestBoundedIncrementingSelfLoop(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	for _, c := range []struct {
		guard string
		want  trace.Verdict
	}{
		{"nfaulty < F", trace.Holds},
		{"true", trace.Unknown},
	} {
		src := `skel P { local pc; shared nfaulty; parameters N, F;
  assumptions (0) { N > F; F >= 0; }
  locations (0) { a: [0]; b: [1]; c: [2]; }
  inits (0) { a == N; b == 0; c == 0; nfaulty == 0; }
  rules (0) {
    0: a -> b when (true) do { unchanged(nfaulty); };
    1: c -> c when (` + c.guard + `) do { nfaulty' == nfaulty + 1; };
    2: b -> b when (true) do { unchanged(nfaulty); };
  }
  specifications (0) { live: <>[](a == 0) -> <>(b != 0); } }`
		f, err := ta.Parse("selfloop.ta", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r := Verify(t.Context(), f, "live", Options{})
		if r.Verdict != c.want {
			t.Errorf("guard %s: %s (%s), want %s", c.guard, r.Verdict, r.Reason, c.want)
		}
	}
}

// TestImpliedEventually: G(p || F q) with p implying q is G F q, so a
// fairness assumption [](k != 0 -> <>(k == 0)) (ByMC's
// [](some_ri -> <>no_ri)) is in the fragment; the verdicts agree with
// explicit instances. G(p || F q) where p does not imply q stays outside.
func TestImpliedEventually(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	const src = `skel P { local pc; shared x; parameters N;
  assumptions (0) { N >= 1; }
  locations (0) { a: [0]; b: [1]; c: [2]; }
  inits (0) { a == N; b == 0; c == 0; x == 0; }
  rules (0) {
    0: a -> b when (true) do { x' == x + 1; };
    1: b -> c when (x >= N) do { unchanged(x); };
    2: a -> a when (true) do { unchanged(x); };
    3: b -> b when (true) do { unchanged(x); };
    4: c -> c when (true) do { unchanged(x); };
  }
  specifications (0) {
    fair: ([](a != 0 -> <>(a == 0)) && []((<>(b == 0)) || !(b != 0))) -> <>(c != 0);
    unfair: [](a != 0 -> <>(a == 0)) -> <>(c != 0);
    literals: [](!(x < N) || <>(N <= x)) -> <>[](a == 0);
    other: [](a != 0 -> <>(c != 0)) -> <>(c != 0);
  } }`
	f, err := ta.Parse("implied.ta", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]trace.Verdict{"fair": trace.Holds, "unfair": trace.Violated, "literals": trace.Holds, "other": trace.Unknown} {
		r := Verify(t.Context(), f, spec, crossChecked(Options{Jobs: 1}))
		if r.Verdict != want {
			t.Errorf("%s: %s (%s), want %s", spec, r.Verdict, r.Reason, want)
			continue
		}
		if want == trace.Unknown && !strings.Contains(r.Reason, "outside the supported") {
			t.Errorf("%s: unknown for another reason: %s", spec, r.Reason)
		}
		crossCheck(t, f, spec, r, 4, 4)
	}
	s, _ := f.SpecByName("fair")
	lcs, err := specCases(s.Formula)
	if err != nil || len(lcs) != 1 || len(lcs[0].loopGs) != 2 {
		t.Fatalf("fair: %v, %d cases", err, len(lcs))
	}
}

// checked parses and checks the model src, failing the test on an error.
func checked(t *testing.T, name, src string) *ta.File {
	t.Helper()
	f, err := ta.Parse(name, []byte(src))
	if err == nil {
		err = ta.Check(f)
	}
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// exampleAndISOLAFiles lists the automata of examples/threshold and the
// ISOLA'18 automata of the shared benchmarks.
func exampleAndISOLAFiles(t *testing.T) []string {
	var files []string
	for _, pat := range []string{
		filepath.Join("..", "examples", "threshold", "*.ta"),
		filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "ta", "*.ta"),
	} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	return files
}

// prepared is checked with the model prepared.
func prepared(t *testing.T, name, src string) (*ta.File, *model) {
	t.Helper()
	f := checked(t, name, src)
	m, err := prepare(f)
	if err != nil {
		t.Fatal(err)
	}
	return f, m
}

// A negated specification splits into at most maxCases disjuncts, however
// they arise: a wide disjunction or a conjunction of disjunctions.
func TestCasesBounded(t *testing.T) {
	prop := func(i int) *tform { return &tform{op: 'p', p: &ta.Ident{Name: fmt.Sprint("x", i)}} }
	or := func(n int) *tform {
		d := &tform{op: '|'}
		for i := range n {
			d.kids = append(d.kids, prop(i))
		}
		return d
	}
	and := func(kids ...*tform) *tform { return &tform{op: '&', kids: kids} }
	for _, tc := range []struct {
		name string
		f    *tform
		want int // cases; 0: too many
	}{
		{"wide disjunction", or(maxCases), maxCases},
		{"wider disjunction", or(maxCases + 1), 0},
		{"product", and(or(2), or(2), or(2), or(2), or(2), or(2)), 64},
		{"larger product", and(or(2), or(2), or(2), or(2), or(2), or(2), or(2)), 0},
		{"always of a conjunction", &tform{op: 'G', kids: []*tform{and(prop(0), prop(1), prop(2))}}, 1},
	} {
		cs, err := cases(tc.f)
		switch {
		case tc.want == 0 && (err == nil || !strings.Contains(err.Error(), "more than 64 disjuncts")):
			t.Errorf("%s: %d cases, error %v; want too many", tc.name, len(cs), err)
		case tc.want > 0 && (err != nil || len(cs) != tc.want):
			t.Errorf("%s: %d cases, error %v; want %d", tc.name, len(cs), err, tc.want)
		}
	}
}

// unsupported are the features of published automata the engine refuses,
// each with the words of its refusal; the manual lists every one.
var unsupported = []struct{ refusal, manual string }{
	// The schemas' refusal: the counter abstraction with refinement
	// takes these by default.
	{"the schema engine needs an acyclic automaton", "liveness specification of an automaton whose rules form cycles"},
}

// readPublished reads every .ta and .eta file under dir: each is prepared
// by prep or refused with a reason that starts with the file's position
// and names a feature the manual lists as unsupported. It returns the
// prepared automata by their slash-separated path under dir, and how many
// were refused.
func readPublished(t *testing.T, dir string, prep func(*ta.File) error) (map[string]*ta.File, int) {
	t.Helper()
	manual, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "docs", "manual.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range unsupported {
		if !strings.Contains(string(manual), u.manual) {
			t.Errorf("the manual does not list %q", u.manual)
		}
	}
	files := map[string]*ta.File{}
	refused := 0
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".ta") && !strings.HasSuffix(path, ".eta") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		f, err := ta.ParseFile(path)
		if err == nil {
			err = prep(f)
		}
		if err != nil {
			refused++
			pos := regexp.MustCompile(`^` + regexp.QuoteMeta(path) + `:\d+:\d+: `)
			named := false
			for _, u := range unsupported {
				named = named || strings.Contains(err.Error(), u.refusal)
			}
			if !pos.MatchString(err.Error()) || !named {
				t.Errorf("%s: refused with %q: want a position and an unsupported feature of the manual", rel, err)
			}
			return nil
		}
		files[filepath.ToSlash(rel)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, refused
}

// expectedRow is a specification of a published automaton with the
// verdict its directory's EXPECTED.tsv gives it.
type expectedRow struct {
	file, spec, verdict, why string
	f                        *ta.File
	cols                     map[string]string // every column by the first word of its heading
}

// readExpected reads dir's EXPECTED.tsv for the automata files: its
// heading ("# file", "spec", "verdict", ..., "why", tab-separated) names
// the columns; further lines starting with "#" are comments. A file it
// names must be among files, and "all" stands for each of its
// specifications.
func readExpected(t *testing.T, dir string, files map[string]*ta.File) []expectedRow {
	t.Helper()
	fh, err := os.Open(filepath.Join(dir, "EXPECTED.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	var names []string
	var rows []expectedRow
	for line := 1; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "\t")
		if names == nil && strings.HasPrefix(cols[0], "# file") {
			for _, h := range cols {
				names = append(names, strings.Fields(strings.TrimPrefix(h, "#"))[0])
			}
			continue
		}
		if strings.HasPrefix(cols[0], "#") || sc.Text() == "" {
			continue
		}
		if len(names) < 4 || names[1] != "spec" || names[2] != "verdict" || names[len(names)-1] != "why" || len(cols) != len(names) {
			t.Fatalf("EXPECTED.tsv:%d: want the columns of a heading \"# file, spec, verdict, ..., why\", tab-separated", line)
		}
		f, ok := files[cols[0]]
		if !ok {
			t.Errorf("EXPECTED.tsv:%d: %s is not an automaton the engine prepares", line, cols[0])
			continue
		}
		byName := map[string]string{}
		for i, c := range cols {
			byName[names[i]] = c
		}
		specs := []string{cols[1]}
		if cols[1] == "all" {
			specs = nil
			for _, s := range f.Specs {
				specs = append(specs, s.Name)
			}
		} else if _, ok := f.SpecByName(cols[1]); !ok {
			t.Errorf("EXPECTED.tsv:%d: %s has no specification %s", line, cols[0], cols[1])
			continue
		}
		for _, spec := range specs {
			rows = append(rows, expectedRow{file: cols[0], spec: spec, verdict: cols[2], why: cols[len(cols)-1], f: f, cols: byName})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestPublishedAutomata reads every automaton of ByMC's benchmark
// repository (ta/testdata/bymc): each is prepared for the engine or
// refused at a position for a feature the manual lists as unsupported,
// and the specifications of its EXPECTED.tsv get their verdicts, checked
// again on instances.
func TestPublishedAutomata(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	dir := filepath.Join(testenv.RepoRoot(t), "ta", "testdata", "bymc")
	files, refused := readPublished(t, dir, func(f *ta.File) error {
		if len(f.Unknowns) > 0 {
			return nil // a sketch: TestSynthesizePublished
		}
		_, err := prepare(f)
		return err
	})
	if len(files)+refused < 47 || refused > 0 {
		t.Errorf("%d automata prepared, %d refused: want 47 read, none refused", len(files), refused)
	}
	rows := readExpected(t, dir, files)
	for _, r := range rows {
		t.Run(r.file+"/"+r.spec, func(t *testing.T) {
			v := Verify(context.Background(), r.f, r.spec, crossChecked(Options{Jobs: 1}))
			if string(v.Verdict) != r.verdict {
				t.Fatalf("%s (%s), expected %s: %s", v.Verdict, v.Reason, r.verdict, r.why)
			}
			crossCheck(t, r.f, r.spec, v, 6, 4)
		})
	}
	if len(rows) < 20 {
		t.Errorf("EXPECTED.tsv gave %d specifications, want at least 20", len(rows))
	}
}

// TestTACO reads every automaton of TACO's benchmark directory
// (ta/testdata/taco): each is prepared for the engine (with rules that
// form cycles, which a safety specification contracts away) or refused at
// a position for a feature the manual lists as unsupported. Every
// specification of the automata it prepares has a row in EXPECTED.tsv;
// the rows with a verdict get it (a violation is searched for again on
// its instance), those marked slow only with FTMC_SLOW=1. The rows of a
// file must agree with TACO's verdict for it, which covers its safety
// specifications together: safe when each holds, unsafe when one is
// violated.
func TestTACO(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	dir := filepath.Join(testenv.RepoRoot(t), "ta", "testdata", "taco")
	files, refused := readPublished(t, dir, Supported)
	if len(files) != 183 || refused != 0 {
		t.Errorf("%d automata prepared, %d refused: want the 170 .ta and 13 .eta files prepared", len(files), refused)
	}
	rows := readExpected(t, dir, files)
	byFile := map[string]map[string]expectedRow{}
	for _, r := range rows {
		if byFile[r.file] == nil {
			byFile[r.file] = map[string]expectedRow{}
		}
		if _, ok := byFile[r.file][r.spec]; ok {
			t.Errorf("EXPECTED.tsv: %s %s: two rows", r.file, r.spec)
		}
		byFile[r.file][r.spec] = r
		switch {
		case r.verdict != string(trace.Holds) && r.verdict != string(trace.Violated) && r.verdict != string(trace.Unknown):
			t.Errorf("EXPECTED.tsv: %s %s: verdict %q", r.file, r.spec, r.verdict)
		case r.cols["taco"] != "" && r.cols["taco"] != "safe" && r.cols["taco"] != "unsafe":
			t.Errorf("EXPECTED.tsv: %s %s: TACO's verdict %q, want safe, unsafe or none", r.file, r.spec, r.cols["taco"])
		case r.cols["run"] != "" && r.cols["run"] != "slow":
			t.Errorf("EXPECTED.tsv: %s %s: run %q, want slow or nothing", r.file, r.spec, r.cols["run"])
		}
	}
	var names []string
	for file := range files {
		names = append(names, file)
	}
	sort.Strings(names)
	for _, file := range names {
		f := files[file]
		taco := ""
		violated := false
		for _, s := range f.Specs {
			r, ok := byFile[file][s.Name]
			if !ok {
				t.Errorf("EXPECTED.tsv: %s %s: no row", file, s.Name)
				continue
			}
			if taco != "" && r.cols["taco"] != taco {
				t.Errorf("EXPECTED.tsv: %s: TACO's verdict differs between rows", file)
			}
			taco = r.cols["taco"]
			if ok, err := IsSafety(s.Formula); err != nil || !ok {
				continue
			}
			violated = violated || r.verdict == string(trace.Violated)
			if taco == "safe" && r.verdict != string(trace.Holds) {
				t.Errorf("EXPECTED.tsv: %s %s: %s, but TACO says the file is safe", file, s.Name, r.verdict)
			}
		}
		if taco == "unsafe" && !violated {
			t.Errorf("EXPECTED.tsv: %s: no safety specification violated, but TACO says the file is unsafe", file)
		}
	}
	slow := os.Getenv("FTMC_SLOW") == "1"
	for _, r := range rows {
		if r.verdict == string(trace.Unknown) {
			continue
		}
		t.Run(r.file+"/"+r.spec, func(t *testing.T) {
			if r.cols["run"] == "slow" && !slow {
				t.Skipf("%s %s: marked slow; set FTMC_SLOW=1 to run it", r.file, r.spec)
			}
			t.Parallel()
			// Without a second solver: cvc5 takes more than two minutes on
			// specifications of the automata derived from Promela that z3
			// decides in seconds; TACO's verdicts check the verdicts instead.
			v := Verify(context.Background(), r.f, r.spec, Options{Jobs: 1})
			if string(v.Verdict) != r.verdict {
				t.Fatalf("%s (%s), expected %s: %s", v.Verdict, v.Reason, r.verdict, r.why)
			}
			// A violation is searched for again on its instance, when
			// small, by the explicit engine, which must not find that the
			// property holds there (its state limit may cut the search
			// short on the large automata). The instances of a property
			// that holds are not searched here: those of rabc-s take a
			// minute each.
			if v.Verdict == trace.Violated {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				checkViolation(ctx, t, r.f, r.spec, v, true)
			}
		})
	}
}

// TestCycleRefused: an automaton whose rules form a cycle (other than a
// self-loop) is refused at a rule of the cycle, which the message spells
// out, and not at the locations after it.
func TestCycleRefused(t *testing.T) {
	f := checked(t, "cycle.ta", `ta Cycle {
  shared x;
  parameters N;
  assumptions (1) { N > 0; }
  locations (4) { A: [0]; B: [1]; C: [2]; D: [3]; }
  inits (2) { A == N; B == 0; C == 0; D == 0; x == 0; }
  rules (4) {
  0: A -> B when (true) do { x' == x + 1; };
  1: B -> C when (x >= 1) do { unchanged(x); };
  2: C -> B when (true) do { unchanged(x); };
  3: C -> D when (true) do { unchanged(x); };
  }
  specifications (1) { safe: [](D == 0); }
}`)
	_, err := prepare(f)
	want := "cycle.ta:9:3: the rules form a cycle B -> (rule 1) C -> (rule 2) B;"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %s...", err, want)
	}
}

// TestCycleContracted: rules between locations that a safety
// specification does not observe, without updates and with guards that
// only turn true, may form cycles (ByMC's automata from Promela have
// them): the contraction postpones them into the next observed move, and
// the verdicts are those of the instances. A liveness specification needs
// an acyclic automaton for the schemas, which say why it is unknown; by
// default the counter abstraction with refinement decides it.
func TestCycleContracted(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f := checked(t, "cyc.ta", `ta Cyc {
  shared x;
  parameters N;
  assumptions (1) { N > 0; }
  locations (5) { A: [0]; B: [1]; C: [2]; D: [3]; E: [4]; }
  inits (5) { A == N; B == 0; C == 0; D == 0; E == 0; x == 0; }
  rules (6) {
  0: A -> B when (true) do { x' == x + 1; };
  1: B -> C when (x >= 1 || x == 0) do { unchanged(x); };
  2: C -> B when (x >= 1) do { unchanged(x); };
  3: C -> D when (x >= N) do { unchanged(x); };
  4: B -> E when (x >= N + 1) do { unchanged(x); };
  5: D -> D when (true) do { unchanged(x); };
  }
  specifications (3) {
    reachD: [](D == 0);
    noE: [](E == 0);
    live: <>[](A == 0 && (x < N || C == 0)) -> <>(D != 0);
  }
}`)
	if err := Supported(f); err != nil {
		t.Fatalf("Supported: %v", err)
	}
	for spec, want := range map[string]trace.Verdict{"reachD": trace.Violated, "noE": trace.Holds} {
		r := Verify(context.Background(), f, spec, crossChecked(Options{Jobs: 1}))
		if r.Verdict != want {
			t.Errorf("%s: %s (%s), want %s", spec, r.Verdict, r.Reason, want)
		}
		crossCheck(t, f, spec, r, 5, 4)
	}
	r := Verify(context.Background(), f, "live", Options{Jobs: 1, Engine: "schema"})
	if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "cyc.ta:9:3: the rules form a cycle B -> (rule 1) C -> (rule 2) B") {
		t.Errorf("live: %s (%s), want unknown for the cycle", r.Verdict, r.Reason)
	}
	// By default the counter abstraction with refinement checks it.
	r = Verify(context.Background(), f, "live", Options{Jobs: 1})
	if r.Verdict != trace.Holds || r.CEGAR == nil {
		t.Errorf("live: %s (%s) by default, want holds with refinement", r.Verdict, r.Reason)
	}
	crossCheck(t, f, "live", r, 5, 4)
}

// TestResets: the schema engine refuses a reset at its position; Verify
// checks an automaton with resets on its counter abstraction, which
// proves what it can, finds violations on instances, and says unknown
// where the abstraction reaches a bad state that no instance checked does.
func TestResets(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f := checked(t, "reset.eta", `ta Reset {
  shared x, y, z;
  parameters N;
  assumptions (1) { N > 0; }
  locations (5) { A: [0]; B: [1]; C: [2]; D: [3]; E: [4]; }
  inits (6) { A == N; B == 0; C == 0; D == 0; E == 0; x == 0; y == 0; z == 0; }
  rules (5) {
  0: A -> B when (true) do { x' := x + 1 };
  1: B -> A when (x >= N) do { x' := 0; y' := 0; z' := z + 1; };
  2: B -> C when (x >= N + 1) do { unchanged(x) };
  3: B -> D when (y >= 1) do { unchanged(x) };
  4: A -> E when (z >= 1 && x < 1) do { unchanged(x) };
  5: A -> A when (true) do { unchanged(x) };
  }
  specifications (5) {
    reachB: [](B == 0);
    noD: [](D == 0);
    noC: [](C == 0);
    live: <>(B != 0);
    reachE: [](E == 0);
    liveA: <>(A != 0);
  }
}`)
	_, err := prepare(f)
	want := "reset.eta:9:32: rule 1: x' == 0 resets x: resets (TACO's extended threshold automata) are not supported by the schema engine"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("prepare: %v, want %s...", err, want)
	}
	for _, tc := range []struct {
		spec   string
		noHunt bool
		want   trace.Verdict
		reason string
	}{
		{"reachB", false, trace.Violated, ""},
		// E needs a reset: x back at 0 after z counted one.
		{"reachE", false, trace.Violated, ""},
		// Without the hunt on the smallest instances, the abstract paths
		// to B and E are concretized; the path to C is spurious.
		{"reachB", true, trace.Violated, ""},
		{"reachE", true, trace.Violated, ""},
		{"noC", true, trace.Unknown, "(no run of any instance follows it)"},
		{"noD", false, trace.Holds, ""},
		// x counts the processes in B since the last reset: never N + 1,
		// which the abstraction does not see.
		{"noC", false, trace.Unknown, "the counter abstraction"},
		// A lasso that stays in A: a run of the instances.
		{"live", false, trace.Violated, ""},
		// Holds (A is not empty at the start), which only safety
		// specifications can be proved.
		{"liveA", false, trace.Unknown, "reset.eta:21:5: liveA is not a safety specification"},
	} {
		r := Verify(context.Background(), f, tc.spec, Options{Jobs: 1, NoHunt: tc.noHunt})
		if r.Verdict != tc.want || !strings.Contains(r.Reason, tc.reason) {
			t.Errorf("%s (no hunt: %v): %s (%s), want %s (%s)", tc.spec, tc.noHunt, r.Verdict, r.Reason, tc.want, tc.reason)
		}
		switch {
		case tc.want == trace.Violated && r.Kind == state.KindInvariant:
			crossCheck(t, f, tc.spec, r, 5, 1)
		case tc.want == trace.Violated && (r.Kind != state.KindAcceptCycle || r.Counterexample == nil || r.Counterexample.LoopStart < 0):
			t.Errorf("%s: %s without a lasso: %+v", tc.spec, r.Kind, r.Counterexample)
		}
		if tc.want == trace.Holds {
			if r.Abstract == nil || r.Abstract.States == 0 {
				t.Errorf("%s: no abstract states reported: %+v", tc.spec, r.Abstract)
			}
			for _, p := range smallParams(t, f, 6, 6) {
				// z grows without bound: the instances' searches are cut.
				if e, _ := Explicit(context.Background(), f, tc.spec, p, explore.Options{MaxStates: 20_000}); e.Verdict == trace.Violated {
					t.Errorf("%s: instance %v: %s", tc.spec, p, e.Verdict)
				}
			}
		}
	}
}

// TestRandom19 checks the randomized consensus automata p-ben-or.ta and
// p-ben-or-byz.ta of ta/testdata/bymc/random19 (one coin-flip location,
// several message kinds per phase) with the verdicts their headers
// expect, and cross-checks them on small instances.
func TestRandom19(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	var files []string
	for _, name := range []string{"p-ben-or.ta", "p-ben-or-byz.ta"} {
		files = append(files, filepath.Join(testenv.RepoRoot(t), "ta", "testdata", "bymc", "random19", name))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f := parse(t, path)
			src, _ := os.ReadFile(path)
			runs, err := expect.Parse(strings.NewReader(string(src)), "verify")
			if err != nil || len(runs) == 0 {
				t.Fatalf("expectations: %v (%d runs)", err, len(runs))
			}
			for _, run := range runs {
				for _, prop := range run.Props {
					// Without a second solver: cvc5 does not answer the
					// single queries of the lassos here within minutes; the
					// instances below check the verdicts instead.
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					r := Verify(ctx, f, prop.Name, Options{Jobs: 1})
					cancel()
					if string(r.Verdict) != prop.Verdict {
						t.Errorf("%s: %s (%s), expected %s", prop.Name, r.Verdict, r.Reason, prop.Verdict)
						continue
					}
					crossCheck(t, f, prop.Name, r, 3, 2)
				}
			}
		})
	}
}

// Safety specifications are those whose negation needs no lasso: the
// broadcasts' unforgeability, and not their correctness and relay, which
// ask for something to happen under fairness.
func TestIsSafety(t *testing.T) {
	f := parse(t, filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz.ta"))
	want := map[string]bool{"unforg": true, "corr": false, "relay": false}
	for _, s := range f.Specs {
		got, err := IsSafety(s.Formula)
		if err != nil {
			t.Fatal(err)
		}
		if w, ok := want[s.Name]; !ok || got != w {
			t.Errorf("%s: IsSafety = %v, want %v", s.Name, got, w)
		}
		delete(want, s.Name)
	}
	if len(want) > 0 {
		t.Errorf("specifications not found: %v", want)
	}
}

// n-ben-or's decide_or_flip is violated (the coin is a non-deterministic
// move into both estimates), but the models of its single query are no
// runs: the instance of the small parameters they give is checked
// explicitly, and its violation is the counterexample. Without that the
// tree search runs for minutes.
func TestSingleQueryInstance(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f := parse(t, filepath.Join(testenv.RepoRoot(t), "ta", "testdata", "bymc", "random19", "n-ben-or.ta"))
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	r := Verify(ctx, f, "decide_or_flip", Options{Jobs: 1, NoHunt: true})
	if r.Verdict != trace.Violated {
		t.Fatalf("decide_or_flip: %s (%s), want violated", r.Verdict, r.Reason)
	}
	vals := r.Counterexample.Params
	e, _ := Explicit(context.Background(), f, "decide_or_flip", vals, explore.Options{MaxStates: 1_000_000})
	if e.Verdict != trace.Violated {
		t.Fatalf("the counterexample's instance %v: %s (%s)", vals, e.Verdict, e.Reason)
	}
}

// A search that has not ended within huntDelay gets explicit checks of
// the smallest instances beside it: n-rabc-cr's decide_or_flip is violated
// at N = 4, T = 1, where the schemas that order every threshold take close
// to a minute (with its flow atoms unordered they take a second).
func TestHunter(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f := parse(t, filepath.Join(testenv.RepoRoot(t), "ta", "testdata", "bymc", "random19", "n-rabc-cr.ta"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r := Verify(ctx, f, "decide_or_flip", Options{Jobs: 1, NoFlow: true})
	if r.Verdict != trace.Violated {
		t.Fatalf("decide_or_flip: %s (%s), want violated", r.Verdict, r.Reason)
	}
	e, _ := Explicit(context.Background(), f, "decide_or_flip", r.Counterexample.Params, explore.Options{MaxStates: 1_000_000})
	if e.Verdict != trace.Violated {
		t.Fatalf("the counterexample's instance %v: %s (%s)", r.Counterexample.Params, e.Verdict, e.Reason)
	}
	// Without the hunt, the same time ends the search undecided.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 6*time.Second)
	defer cancel2()
	if r := Verify(ctx2, f, "decide_or_flip", Options{Jobs: 1, NoHunt: true, NoFlow: true}); r.Verdict != trace.Unknown {
		t.Fatalf("without the hunt: %s, want unknown after 6 s", r.Verdict)
	}
}

// TestHunterQuickLook: before its delay, the hunter looks at the smallest
// instances: n-rabc's validity0 is violated at N=4, T=1, F=1 (347
// states), and the hunt ends with it long before huntDelay.
func TestHunterQuickLook(t *testing.T) {
	f := parse(t, filepath.Join(testenv.RepoRoot(t), "ta", "testdata", "bymc", "random19", "n-rabc.ta"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := startHunter(ctx, cancel, f, "validity0")
	select {
	case <-h.done:
	case <-time.After(huntDelay / 2):
		t.Fatalf("the hunt did not end within %v", huntDelay/2)
	}
	r := h.stop()
	if r == nil || r.Verdict != trace.Violated {
		t.Fatalf("the hunt found %+v, want a violation", r)
	}
	want := map[string]int64{"N": 4, "T": 1, "F": 1}
	if !reflect.DeepEqual(r.Counterexample.Params, want) {
		t.Errorf("the violation's parameters are %v, want %v", r.Counterexample.Params, want)
	}
}

// The smallest valuations satisfy the assumptions (st-byz: N > 3T,
// T >= F >= 0, T >= 1), smallest sum first, values up to the bound.
func TestSmallestParams(t *testing.T) {
	f := parse(t, filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "st-byz.ta"))
	want := []map[string]int64{{"N": 4, "T": 1, "F": 0}, {"N": 4, "T": 1, "F": 1}}
	if got := smallestParams(f, 4, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("bound 4: %v, want %v", got, want)
	}
	if got := smallestParams(f, 5, 1); !reflect.DeepEqual(got, want[:1]) {
		t.Errorf("bound 5, one: %v, want %v", got, want[:1])
	}
}

// givingUp is a solver whose model has the sum 8 and which answers
// unknown (its timeout) to every check after the first ok ones.
type givingUp struct {
	answering
	ok int
}

func (g *givingUp) Values(context.Context, ...string) ([]smt.Value, error) {
	return []smt.Value{{Rat: big.NewRat(8, 1)}}, nil
}
func (g *givingUp) Reason() string { return "solver timeout (1ms)" }
func (g *givingUp) Check(context.Context, ...string) (smt.Status, error) {
	if g.ok > 0 {
		g.ok--
		return smt.Sat, nil
	}
	return smt.Unknown, nil
}

// TestShrinkGivesUp: when the solver gives up on the parameters' bound
// and on the original query again, shrinking says so with the solver's
// reason instead of leaving it without a model to read.
func TestShrinkGivesUp(t *testing.T) {
	for ok := 0; ok < 3; ok++ {
		g := &givingUp{ok: ok}
		err := shrinkSum(context.Background(), g, 2, "small", nil, g.Check)
		if err == nil || !strings.Contains(err.Error(), "solver timeout (1ms)") {
			t.Errorf("sat for %d checks, then unknown: %v, want the solver's reason", ok, err)
		}
	}
}

// TestQuotientNotInCounterexample: a counterexample names the parameters
// the automaton declares, not the quotients Check adds for a division
// (they follow from the others), whichever engine finds it.
func TestQuotientNotInCounterexample(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f := checked(t, "div.ta", `ta Div {
  shared x;
  parameters N;
  assumptions (1) { N > 2; }
  locations (3) { A: [0]; B: [1]; C: [2]; }
  inits (4) { A == N; B == 0; C == 0; x == 0; }
  rules (2) {
  0: A -> B when (true) do { x' == x + 1; };
  1: B -> C when (x >= (N - 1) / 2 + 1) do { unchanged(x); };
  }
  specifications (1) { safe: [](C == 0); }
}`)
	if len(f.Params) != 2 || f.Params[1].Quotient == nil {
		t.Fatalf("parameters %v: want N and one quotient", f.Params)
	}
	for _, o := range []Options{{NoHunt: true, NoSingle: true}, {NoHunt: true, SingleFirst: true}, {Engine: "cegar"}} {
		r := Verify(context.Background(), f, "safe", o)
		if r.Verdict != trace.Violated {
			t.Fatalf("%+v: %s (%s), want violated", o, r.Verdict, r.Reason)
		}
		checkViolation(context.Background(), t, f, "safe", r, false)
	}
}
