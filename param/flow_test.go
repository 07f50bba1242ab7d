package param

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// flowTA: a process sends (x) and moves on to d once a message is out (a
// flow atom: its only writer comes before it), or to e while fewer than N
// are out (a negative literal), or to g once z is set, which a later rule
// writes (out of order). v -> w reads the y it writes.
const flowTA = `skel Proc {
  local pc;
  shared x, y, z;
  parameters N;
  assumptions (0) { N >= 2; }
  locations (0) { v: [0]; s: [1]; w: [2]; d: [3]; e: [4]; g: [5]; h: [6]; }
  inits (0) { v == N; s == 0; w == 0; d == 0; e == 0; g == 0; h == 0; x == 0; y == 0; z == 0; }
  rules (0) {
    1: v -> s when (true) do { x' == x + 1; unchanged(y, z); };
    2: v -> w when (y >= 1) do { y' == y + 1; unchanged(x, z); };
    3: s -> d when (x >= 1) do { unchanged(x, y, z); };
    4: s -> e when (x < N) do { unchanged(x, y, z); };
    5: s -> g when (z >= 1) do { unchanged(x, y, z); };
    6: w -> h when (true) do { z' == z + 1; unchanged(x, y); };
  }
  specifications (0) {
    nod: [](d == 0);
    early: [](d == 0 || x >= N);
    late: [](e == 0 || x < N);
    nog: [](g == 0);
  }
}
`

// TestFlowAtoms checks which atoms leave the milestones, and the verdicts
// of the tree search and of the single query with them out. early is
// violated only where a process moves on in the segment in which the
// first message goes out: a flow atom asked at the segment's start loses
// it. late is violated only where a process moves to e before the last
// message: a negative literal asked at the segment's end loses it.
func TestFlowAtoms(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	f := checked(t, "flow.ta", flowTA)
	want := map[string]trace.Verdict{"nod": trace.Violated, "early": trace.Violated, "late": trace.Violated, "nog": trace.Holds}
	for _, s := range f.Specs {
		lcs, err := specCases(s.Formula)
		if err != nil {
			t.Fatal(err)
		}
		p, err := setup(context.Background(), f, lcs[0], Options{})
		if err != nil {
			t.Fatal(err)
		}
		var flow []string
		for a, ok := range p.flow {
			if ok {
				flow = append(flow, p.m.atoms[a].text)
			}
		}
		if got := strings.Join(flow, ", "); got != "x >= 1" {
			t.Errorf("%s: flow atoms %q, want %q", s.Name, got, "x >= 1")
		}
		for _, o := range []Options{
			{NoHunt: true, NoSingle: true},
			{NoHunt: true, SingleFirst: true},
			{NoHunt: true, NoSingle: true, NoFlow: true},
		} {
			r := Verify(context.Background(), f, s.Name, o)
			if r.Verdict != want[s.Name] {
				t.Errorf("%s (single first %v, no flow %v): %s, want %s (%s)", s.Name, o.SingleFirst, o.NoFlow, r.Verdict, want[s.Name], r.Reason)
			}
		}
	}
}

// TestFlowKeepsVerdicts checks every specification, liveness too, of the
// examples, ISOLA'18 and randomized-consensus automata with the flow atoms
// (the tree search alone where it decides) and without them: the verdicts
// must agree.
func TestFlowKeepsVerdicts(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	files := exampleAndISOLAFiles(t)
	for _, name := range []string{"n-rabc-cr.ta", "n-rabc.ta", "n-ben-or-byz.ta", "ben-or.ta", "p-rabc-cr.ta"} {
		files = append(files, filepath.Join("..", "ta", "testdata", "bymc", "random19", name))
	}
	fewer, violated, live := 0, 0, 0
	for _, path := range files {
		f := parse(t, path)
		if len(f.Unknowns) > 0 {
			continue // a sketch, for synthesis
		}
		for _, s := range f.Specs {
			lcs, err := specCases(s.Formula)
			if err != nil || filepath.Base(path) == "n-rabc-cr.ta" && s.Name == "decide_or_flip" {
				continue // the latter takes 20 s without the flow atoms and the hunter (TestHunter)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			on := Verify(ctx, f, s.Name, Options{Jobs: 1, NoHunt: true, NoSingle: true})
			if on.Verdict == trace.Unknown && ctx.Err() == nil {
				// A schema's model that is no run, outside the fragment
				// decided exactly: the single query's instance decides.
				on = Verify(ctx, f, s.Name, Options{Jobs: 1, NoHunt: true})
			}
			off := Verify(ctx, f, s.Name, Options{Jobs: 1, NoHunt: true, NoFlow: true})
			cancel()
			if on.Verdict == trace.Unknown && off.Verdict == trace.Unknown {
				t.Logf("%s %s: unknown either way", filepath.Base(path), s.Name)
				continue
			}
			if on.Verdict != off.Verdict {
				t.Errorf("%s %s: %s with flow atoms, %s without (%s%s)", filepath.Base(path), s.Name, on.Verdict, off.Verdict, on.Reason, off.Reason)
				continue
			}
			if on.Atoms < off.Atoms {
				fewer++
			}
			if on.Verdict == trace.Violated {
				violated++
			}
			if slices.ContainsFunc(lcs, func(lc *lcase) bool { return lc.needLoop }) {
				live++
			}
		}
	}
	if fewer < 20 || violated < 3 || live < 10 {
		t.Errorf("%d specifications with fewer milestones, %d violated, %d liveness: the comparison needs more", fewer, violated, live)
	}
}

// TestTautologies checks the guards that hold or fail whatever the counters:
// generated automata test x >= 1 || x == 0, which would make x >= 1 a
// milestone (x == 0 reads it negatively) where it is otherwise a flow atom.
// On cc_case1's termination that is 6 milestones and 39 schemas instead of
// 1 and 1.
func TestTautologies(t *testing.T) {
	f := checked(t, "taut.ta", `skel Proc {
  local pc;
  shared x;
  parameters N;
  assumptions (0) { N >= 1; }
  locations (0) { a: [0]; b: [1]; c: [2]; }
  inits (0) { a == N; b == 0; c == 0; x == 0; }
  rules (0) {
    0: a -> b when (true) do { x' == x + 1; };
    1: b -> c when (x >= 1 || x == 0) do { unchanged(x); };
    2: b -> c when (x == 0 && x >= 1) do { unchanged(x); };
    3: b -> c when (x < 0) do { unchanged(x); };
    4: b -> c when (x >= 0 && x >= 1) do { unchanged(x); };
    5: b -> c when (x <= 0) do { unchanged(x); };
  }
  specifications (0) {}
}`)
	m, err := prepare(f)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"t", "t", "f", "f", "x >= 1", "!x >= 1"} {
		g := m.rules[i].guard
		got := string(g.op)
		if g.op == 'l' {
			got = m.atoms[g.atom].text
			if !g.pos {
				got = "!" + got
			}
		}
		if got != want {
			t.Errorf("rule %d: guard %s, want %s", i, got, want)
		}
	}
	if len(m.atoms) != 1 {
		t.Errorf("%d atoms, want 1 (x >= 1)", len(m.atoms))
	}
}
