package param

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/smt"
	"ftmc/trace"
)

// receiveHead is what receiveTA and fairTA share: the declarations and the
// receive steps.
const receiveHead = `skel Proc {
  local pc;
  shared nsnt, ndec;
  parameters N, T;
  assumptions (0) { N > 3 * T; T >= 1; }
  locations (0) { v: [0]; p0: [1]; p1: [2]; p2: [3]; d: [4]; }
  inits (0) { v == N; p0 == 0; p1 == 0; p2 == 0; d == 0; nsnt == 0; ndec == 0; }
  rules (0) {
    0: v -> p0 when (true) do { nsnt' == nsnt + 1; unchanged(ndec); };
    1: p0 -> p1 when (nsnt >= 1) do { unchanged(nsnt, ndec); };
    2: p1 -> p2 when (nsnt >= T + 1) do { unchanged(nsnt, ndec); };
    3: p0 -> p2 when (nsnt >= T + 1) do { unchanged(nsnt, ndec); };
`

// receiveTA is the shape PIA abstractions of receive steps produce: a
// process moves through abstract local states p0, p1, p2 as it receives
// messages (no update, rising guards) and decides from any of them.
const receiveTA = receiveHead + `    4: p0 -> d when (nsnt >= N - T) do { ndec' == ndec + 1; unchanged(nsnt); };
    5: p1 -> d when (nsnt >= N - T) do { ndec' == ndec + 1; unchanged(nsnt); };
    6: p2 -> d when (nsnt >= N - T && nsnt >= 2) do { ndec' == ndec + 1; unchanged(nsnt); };
    7: p1 -> p1 when (true) do { unchanged(nsnt, ndec); };
  }
  specifications (0) {
    early: [](d == 0 || nsnt >= N - T);
    seen: [](p2 == 0 || nsnt >= T + 1);
    never: [](d == 0);
  }
}
`

func TestContractReceiveChain(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f := checked(t, "receive.ta", receiveTA)
	ctx := context.Background()
	rules := func(spec string) []string {
		s, _ := f.SpecByName(spec)
		g, _, err := contract(ctx, f, s.Formula, Options{}.Solver)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range g.Rules {
			out = append(out, r.ID+" "+r.Short()+" "+r.Guard.String())
		}
		return out
	}
	// Not observing p0..p2, the receive steps go: the rules out of p1 and
	// p2 become rules out of p0, and those whose guard another's implies
	// (5 and 6 after the internal moves) go too.
	got := strings.Join(rules("early"), "\n")
	want := "0 v -> p0 true\n4 p0 -> d nsnt >= (N - T)"
	if got != want {
		t.Errorf("contracted for early:\n%s\nwant:\n%s", got, want)
	}
	// Observing p2 keeps the moves into it (1+2 has the guard of 3).
	got = strings.Join(rules("seen"), "\n")
	for _, w := range []string{"3 p0 -> p2", "4 p0 -> d", "6 p2 -> d"} {
		if !strings.Contains(got, w) {
			t.Errorf("contracted for seen lacks %q:\n%s", w, got)
		}
	}
	for _, spec := range []string{"early", "seen", "never"} {
		on := Verify(ctx, f, spec, Options{})
		off := Verify(ctx, f, spec, Options{NoContract: true})
		if on.Verdict != off.Verdict || on.Verdict == trace.Unknown {
			t.Errorf("%s: %s with contraction, %s without", spec, on.Verdict, off.Verdict)
		}
		crossCheck(t, f, spec, on, 7, 4)
	}
}

// TestContractKeepsVerdicts checks every specification of the shared
// automata and their mutants with and without contraction: the verdicts
// must agree.
func TestContractKeepsVerdicts(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	files := exampleAndISOLAFiles(t)
	// Mutants with violations (as in TestMutants).
	dir := t.TempDir()
	for _, mu := range []struct{ file, from, to string }{
		{"strb.ta", "T >= F;", "T + 1 >= F;"},
		{"nbacg.ta", "when (nsntNoCF < 1 && nsntYesCF >= N)", "when (nsntYesCF >= N - 1)"},
		{"cc.ta", ">= N + 1)", ">= N)"},
		{"c1cs.ta", "T >= F;", "T + 1 >= F;"},
		{"bosco.ta", "N > 3 * T;", "N > 2 * T;"},
	} {
		src, err := os.ReadFile(filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "ta", mu.file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), mu.from) {
			t.Fatalf("%s lacks %q", mu.file, mu.from)
		}
		p := filepath.Join(dir, "mutant-"+mu.file)
		if err := os.WriteFile(p, []byte(strings.Replace(string(src), mu.from, mu.to, -1)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	violated := 0
	for _, path := range files {
		f := parse(t, path)
		for _, s := range f.Specs {
			if _, err := specCases(s.Formula); err != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			on := Verify(ctx, f, s.Name, Options{})
			off := Verify(ctx, f, s.Name, Options{NoContract: true})
			cancel()
			if on.Verdict == trace.Unknown || off.Verdict == trace.Unknown {
				t.Logf("%s %s: %s/%s", filepath.Base(path), s.Name, on.Verdict, off.Verdict)
				continue
			}
			if on.Verdict != off.Verdict {
				t.Errorf("%s %s: %s with contraction, %s without", filepath.Base(path), s.Name, on.Verdict, off.Verdict)
			}
			if on.Verdict == trace.Violated {
				violated++
				crossCheck(t, f, s.Name, on, 7, 4)
			}
		}
	}
	if violated < 3 {
		t.Errorf("only %d violated specifications: the comparison needs some", violated)
	}
}

// Implication between threshold atoms: x + y >= 3 implies x + y >= 1 and
// x + 2y >= 2, but not x >= 1 (y may carry the sum), and x >= 1 does not
// imply x + y >= 3.
func TestContractImplies(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	const src = `skel P {
  local pc;
  shared x, y;
  parameters N;
  assumptions (0) { N >= 3; }
  locations (0) { a: [0]; b: [1]; }
  inits (0) { a == N; b == 0; x == 0; y == 0; }
  rules (0) {
    0: a -> b when (x + y >= 3 && x + y >= 1 && x + 2 * y >= 2 && x >= 1 && x + y >= N) do { unchanged(x, y); };
  }
  specifications (0) { s: [](b == 0); }
}
`
	f, m := prepared(t, "imp.ta", src)
	c := &contraction{ctx: context.Background(), f: f, m: m, conjIdx: map[string]int{}, impl: map[[2]int]bool{}, boundGeq: map[string]bool{}}
	s, err := smt.New(context.Background(), smt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c.solver = s
	base, err := (&problem{m: m}).base()
	if err != nil {
		t.Fatal(err)
	}
	s.Send(base...)
	ids := c.conjuncts(f.Rules[0].Guard)
	byText := map[string]int{}
	for _, id := range ids {
		byText[c.conjKey[id]] = id
	}
	get := func(k string) int {
		id, ok := byText[k]
		if !ok {
			t.Fatalf("no conjunct %q in %v", k, byText)
		}
		return id
	}
	sum3, sum1, lin2, x1, sumN := get("(x + y) >= 3"), get("(x + y) >= 1"), get("(x + (2 * y)) >= 2"), get("x >= 1"), get("(x + y) >= N")
	for _, tc := range []struct {
		a, b int
		want bool
		what string
	}{
		{sum3, sum1, true, "x + y >= 3 => x + y >= 1"},
		{sum3, lin2, true, "x + y >= 3 => x + 2y >= 2"},
		{sum3, x1, false, "x + y >= 3 => x >= 1"},
		{x1, sum3, false, "x >= 1 => x + y >= 3"},
		{x1, sum1, true, "x >= 1 => x + y >= 1"},
		{sumN, sum3, true, "x + y >= N => x + y >= 3 (N >= 3)"},
		{sum3, sumN, false, "x + y >= 3 => x + y >= N"},
	} {
		if got := c.implies(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.what, got, tc.want)
		}
	}
}

// fairTA is receiveTA with self-loops and the fairness PIA abstractions
// produce: every message is eventually received ([](<>(...)) of one
// condition per location), so a process stays in p0, p1 or p2 only while
// it has received everything there is.
const fairTA = receiveHead + `    4: p2 -> d when (nsnt >= N - T) do { ndec' == ndec + 1; unchanged(nsnt); };
    5: p0 -> p0 when (true) do { unchanged(nsnt, ndec); };
    6: p1 -> p1 when (true) do { unchanged(nsnt, ndec); };
    7: p2 -> p2 when (nsnt < N - T) do { unchanged(nsnt, ndec); };
    8: d -> d when (true) do { unchanged(nsnt, ndec); };
  }
  specifications (0) {
    term: ([](<>(v == 0)) && [](<>(!(p0 != 0 && nsnt >= 1) && !(p1 != 0 && nsnt >= T + 1) && (p2 == 0 || nsnt < N - T)))) -> <>(v == 0 && p0 == 0 && p1 == 0 && p2 == 0);
    lazy: ([](<>(v == 0)) && [](<>(!(p0 != 0 && nsnt >= 1) && (p2 == 0 || nsnt < N - T)))) -> <>(v == 0 && p0 == 0 && p1 == 0 && p2 == 0);
    seen: ([](<>(v == 0)) && [](<>(!(p0 != 0 && nsnt >= 1) && (p2 == 0 || nsnt < N - T)))) -> <>(p1 == 0 && ndec >= 1);
    early: ([](<>(v == 0 && (p0 == 0 || nsnt < 1)))) -> <>(ndec >= 1);
  }
}
`

// TestContractFairness checks the contraction of liveness specifications:
// the receive steps go, what the fairness asks of the processes that stay
// moves to the entry of their chain, and the verdicts are those of the
// whole automaton (lazy and early are violated: a process may stay in p1).
func TestContractFairness(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f := checked(t, "fair.ta", fairTA)
	ctx := context.Background()
	want := map[string]trace.Verdict{"term": trace.Holds, "lazy": trace.Violated, "seen": trace.Violated, "early": trace.Violated}
	for _, spec := range []string{"term", "lazy", "seen", "early"} {
		on := Verify(ctx, f, spec, Options{})
		off := Verify(ctx, f, spec, Options{NoContract: true})
		over := Verify(ctx, f, spec, Options{Overapprox: true})
		if on.Verdict != want[spec] || off.Verdict != want[spec] || over.Verdict != want[spec] {
			t.Errorf("%s: %s with contraction, %s without, %s over-approximated, want %s", spec, on.Verdict, off.Verdict, over.Verdict, want[spec])
		}
		if on.Contracted == "" {
			t.Errorf("%s: nothing contracted", spec)
		}
		crossCheck(t, f, spec, on, 7, 4)
		crossCheck(t, f, spec, over, 7, 4)
	}
	// For term the chain p0, p1, p2 is one entry p0 with the fairness of
	// all three as alternatives; seen observes p1 and keeps it.
	s, _ := f.SpecByName("term")
	g, ns, _, err := contractFor(ctx, f, s.Formula, true, false, Options{}.Solver)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range g.Rules {
		got = append(got, r.ID+" "+r.Short())
	}
	// The stuttering of a process that stays in p1 or p2 is a self-loop
	// of p0 guarded by the path there and the fairness there (1+6, 3+7);
	// 1+2+4 goes, its guard implies 3+4's.
	if w := "0 v -> p0,5 p0 -> p0,1+6 p0 -> p0,3+7 p0 -> p0,3+4 p0 -> d,8 d -> d"; strings.Join(got, ",") != w {
		t.Errorf("contracted rules for term:\n%s\nwant:\n%s", strings.Join(got, ","), w)
	}
	w := "[]<>((v == 0) && ((((p0 == 0) || !(nsnt >= 1)) || ((nsnt >= 1) && !(nsnt >= (T + 1)))) || ((nsnt >= (T + 1)) && (nsnt < (N - T))))) -> <>((((v == 0) && (p0 == 0)) && (p1 == 0)) && (p2 == 0))"
	if ns.String() != w {
		t.Errorf("contracted specification for term:\n%s\nwant:\n%s", ns, w)
	}
	s, _ = f.SpecByName("seen")
	g, _, _, err = contractFor(ctx, f, s.Formula, true, false, Options{}.Solver)
	if err != nil {
		t.Fatal(err)
	}
	kept := false
	for _, r := range g.Rules {
		kept = kept || r.To == "p1"
	}
	if !kept {
		t.Errorf("contracted rules for seen lose p1")
	}
}
