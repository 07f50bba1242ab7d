package param

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/smt"
	"ftmc/ta"
	"ftmc/trace"
)

func opodis17(t *testing.T, name string) (string, []byte) {
	t.Helper()
	path := filepath.Join(testenv.RepoRoot(t), "ta", "testdata", "bymc", "opodis17", "ta", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, src
}

func specNames(f *ta.File) []string {
	var out []string
	for _, s := range f.Specs {
		out = append(out, s.Name)
	}
	return out
}

// The sketches of ByMC's synthesis benchmarks (OPODIS 2017): a solution
// is verified again, specification by specification, on the automaton
// with its values; "no solution" is the paper's finding that Byzantine
// reliable broadcast needs n > 3t (a sketch that allows n = 3t has none).
func TestSynthesizePublished(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	for _, tc := range []struct {
		file     string
		solution bool
	}{
		{"table1-1bcast-folklore-ta-synt.ta", true},
		{"table1-2bcast-byz-ta-synt.ta", true},
		{"table1-3bcast-byz-ta-synt-nGE3tb.ta", false},
		{"table2-1bcast-byz-ta-synt-XCR.ta", false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path, src := opodis17(t, tc.file)
			f, err := ta.Parse(path, src)
			if err != nil {
				t.Fatal(err)
			}
			specs := specNames(f)
			out := Synthesize(context.Background(), f, specs, Options{Jobs: 1}, nil)
			if !out.Complete {
				t.Fatalf("incomplete: %s", out.Reason)
			}
			if out.Generalized != out.Refuted || out.Refuted == 0 {
				t.Errorf("%d of %d refutations generalized, want all", out.Generalized, out.Refuted)
			}
			if (out.Solution != nil) != tc.solution {
				t.Fatalf("solution %v, want one: %v (%s)", out.Solution, tc.solution, out.Reason)
			}
			if out.Solution == nil {
				return
			}
			g, err := ta.Substitute(f, out.Solution)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range specs {
				if r := Verify(context.Background(), g, s, crossChecked(Options{Jobs: 1})); r.Verdict != trace.Holds {
					t.Errorf("%s with %s: %s (%s)", s, ta.FormatUnknowns(f, out.Solution), r.Verdict, r.Reason)
				}
				if out.Results[i].Property != s || out.Results[i].Verdict != trace.Holds {
					t.Errorf("result %d: %s %s, want %s holds", i, out.Results[i].Property, out.Results[i].Verdict, s)
				}
			}
		})
	}
}

// Every candidate that the constraint of a counterexample excludes is
// refuted when verified itself: on the folklore broadcast with narrower
// ranges (64 candidates), each candidate is verified, and the constraint
// built from each refutation must hold for no candidate that satisfies
// every specification, nor for one whose refuted specification holds.
func TestSynthesisConstraintsSound(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	path, src := opodis17(t, "table1-1bcast-folklore-ta-synt.ta")
	text := string(src)
	for old, repl := range map[string]string{
		"-2 <= b1; b1 <= 2;": "0 <= b1; b1 <= 0;",
		"-2 <= b2; b2 <= 2;": "0 <= b2; b2 <= 1;",
		"-4 <= c1; c1 <= 4;": "-1 <= c1; c1 <= 2;",
		"-4 <= c2; c2 <= 4;": "-1 <= c2; c2 <= 0;",
	} {
		if !strings.Contains(text, old) {
			t.Fatalf("the sketch has no %q", old)
		}
		text = strings.Replace(text, old, repl, 1)
	}
	f, err := ta.Parse(path, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	all := verifyCandidates(t, f, specNames(f), []int64{0, 0, -1, 0, 0, -1}, []int64{1, 0, 2, 1, 1, 0}, "")
	generalized := checkConstraints(t, f, all, "")
	if generalized < 32 {
		t.Errorf("%d counterexamples generalized, want most of the refutations", generalized)
	}
}

// Without bounds on the unknowns the candidates are endless: refused with
// the position.
func TestSynthesizeUnbounded(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f, err := ta.Parse("u.ta", []byte(`skel P { local pc; shared x; parameters N; unknowns a;
  assumptions (1) { N >= 1; }
  locations (2) { l0: [0]; l1: [1]; }
  inits (1) { l0 == N; l1 == 0; x == 0; }
  rules (1) { 0: l0 -> l1 when (x >= a) do { x' == x + 1; }; }
  specifications (1) { s: [](l1 == 0); } }`))
	if err != nil {
		t.Fatal(err)
	}
	out := Synthesize(context.Background(), f, []string{"s"}, Options{Jobs: 1}, nil)
	if out.Complete || !strings.Contains(out.Reason, "u.ta:1:") || !strings.Contains(out.Reason, "do not bound the unknown a ") {
		t.Errorf("complete %v, reason %q", out.Complete, out.Reason)
	}
}

// A sketch whose unknowns have no values, or whose candidates the engines
// refuse, ends at once with the reason, not after every candidate.
func TestSynthesizeOutOfReach(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	for _, tc := range []struct{ name, assume, update, want string }{
		{"empty", "1 <= a; a <= 0;", "x + 1", "no values of the unknowns satisfy the assumptions"},
		{"doubling", "0 <= a; a <= 1;", "2 * x", "x' == 2 * x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ta.Parse("o.ta", []byte(`skel P { local pc; shared x; parameters N; unknowns a;
  assumptions (1) { N >= 1; `+tc.assume+` }
  locations (2) { l0: [0]; l1: [1]; }
  inits (1) { l0 == N; l1 == 0; x == 0; }
  rules (1) { 0: l0 -> l1 when (x >= a) do { x' == `+tc.update+`; }; }
  specifications (1) { s: [](l1 == 0); } }`))
			if err != nil {
				t.Fatal(err)
			}
			out := Synthesize(context.Background(), f, []string{"s"}, Options{Jobs: 1}, nil)
			if out.Complete || out.Solution != nil || out.Candidates > 1 || !strings.Contains(out.Reason, tc.want) || !strings.HasPrefix(out.Reason, "o.ta:") {
				t.Errorf("complete %v, %d candidates, reason %q; want %q", out.Complete, out.Candidates, out.Reason, tc.want)
			}
		})
	}
}

// randomSketch is randomTA with the thresholds of its >= guards replaced
// by the unknown threshold a * N + b * T + c (18 candidates), or "" when
// it has no such guard.
func randomSketch(r *rand.Rand) string {
	src := randomTA(r)
	i := strings.Index(src, " rules (0) {")
	re := regexp.MustCompile(`>= (N - T - F|T \+ 1 - F|N - T|T \+ 1|2 \* T|T|1)(\)| &&)`)
	rules := re.ReplaceAllString(src[i:], ">= TH$2")
	if rules == src[i:] {
		return ""
	}
	head := strings.Replace(src[:i], " parameters N, T, F;\n", " parameters N, T, F;\n unknowns a, b, c;\n define TH == a * N + b * T + c;\n", 1)
	head = strings.Replace(head, "T >= 1; }", "T >= 1; 0 <= a; a <= 1; -1 <= b; b <= 1; -1 <= c; c <= 1; }", 1)
	return head + rules
}

// On random sketches, the synthesis agrees with verifying every candidate
// one by one: a solution is a candidate with which every specification
// holds, and "no solution" means that there is none; and the constraint
// of every counterexample excludes no candidate with which its
// specification holds. FTMC_RANDOM_TA=n checks n sketches.
func TestRandomSynthesis(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	n := randomCount(3)
	r := rand.New(rand.NewSource(17))
	ctx := context.Background()
	for done := 0; done < n; {
		src := randomSketch(r)
		if src == "" {
			continue
		}
		done++
		f, err := ta.Parse("sketch.ta", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		// Two specifications: a safety and a liveness one.
		specs := []string{fmt.Sprintf("safe%d", 1+r.Intn(5)), fmt.Sprintf("live%d", 1+r.Intn(7))}
		all := verifyCandidates(t, f, specs, []int64{0, -1, -1}, []int64{1, 1, 1}, src)
		anySolution := slices.ContainsFunc(all, func(k verified) bool { return len(k.held) == len(specs) })
		out := Synthesize(ctx, f, specs, Options{Jobs: 1}, nil)
		t.Logf("%v: solution %v, %d candidates, %d refuted, %d generalized", specs, out.Solution, out.Candidates, out.Refuted, out.Generalized)
		switch {
		case !out.Complete:
			t.Fatalf("incomplete: %s\n%s", out.Reason, src)
		case out.Solution == nil && anySolution:
			t.Fatalf("no solution reported, but one candidate satisfies %v\n%s", specs, src)
		case out.Solution != nil:
			for _, k := range all {
				if slices.Equal(k.vals, out.Solution) && len(k.held) != len(specs) {
					t.Fatalf("solution %v, but verified alone it satisfies only %v\n%s", out.Solution, k.held, src)
				}
			}
		}
		checkConstraints(t, f, all, src)
	}
}

// verified is a candidate of a sketch verified alone: the specifications
// that hold with it, and the counterexamples of the others.
type verified struct {
	vals []int64
	held map[string]bool
	cex  map[string]*trace.Counterexample
}

// verifyCandidates verifies specs with every candidate of f between lo
// and hi (unknown by unknown), without contraction as the synthesis does;
// src, if any, is shown with a failure.
func verifyCandidates(t *testing.T, f *ta.File, specs []string, lo, hi []int64, src string) []verified {
	t.Helper()
	var all []verified
	vals := slices.Clone(lo)
	for {
		g, err := ta.Substitute(f, vals)
		if err != nil {
			t.Fatal(err)
		}
		k := verified{slices.Clone(vals), map[string]bool{}, map[string]*trace.Counterexample{}}
		for _, s := range specs {
			r := Verify(context.Background(), g, s, Options{Jobs: 1, NoContract: true})
			switch r.Verdict {
			case trace.Holds:
				k.held[s] = true
			case trace.Violated:
				k.cex[s] = r.Counterexample
			default:
				t.Fatalf("%v %s: %s\n%s", vals, s, r.Reason, src)
			}
		}
		all = append(all, k)
		i := 0
		for ; i < len(vals) && vals[i] == hi[i]; i++ {
			vals[i] = lo[i]
		}
		if i == len(vals) {
			return all
		}
		vals[i]++
	}
}

// checkConstraints builds the constraint of every counterexample in all,
// as the synthesis does, and fails when one holds for a candidate with
// which its specification holds. It returns how many were built.
func checkConstraints(t *testing.T, f *ta.File, all []verified, src string) int {
	t.Helper()
	ctx := context.Background()
	solver, err := smt.New(ctx, smt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer solver.Close()
	for i := range f.Unknowns {
		solver.Send(smt.DeclareConst(unknownName(i), "Int"))
	}
	built := 0
	for _, k := range all {
		g, _ := ta.Substitute(f, k.vals)
		for s, cex := range k.cex {
			run, ok := runConstraint(f, g, s, cex)
			if !ok || !refutes(ctx, solver, run, k.vals) {
				continue
			}
			built++
			for _, h := range all {
				if h.held[s] && refutes(ctx, solver, run, h.vals) {
					t.Errorf("the counterexample of %s with %v excludes %v, where %s holds\n%s", s, k.vals, h.vals, s, src)
				}
			}
		}
	}
	return built
}
