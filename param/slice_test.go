package param

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// forkTA: a process in a goes to b (counted in x) or to c (uncounted), or
// crashes from either; the crashes count themselves. The specifications
// want a's counter small (drained), b's large, x read, and the initial
// configuration only.
const forkTA = `skel Proc {
  local pc;
  shared x, nc;
  parameters N, F;
  assumptions (0) { N > F; F >= 1; }
  locations (0) { a: [0]; b: [1]; c: [2]; cr: [3]; }
  inits (0) { a == N; b == 0; c == 0; cr == 0; x == 0; nc == 0; }
  rules (0) {
    1: a -> b when (true) do { x' == x + 1; unchanged(nc); };
    2: a -> c when (true) do { unchanged(x, nc); };
    3: a -> cr when (nc < F) do { nc' == nc + 1; unchanged(x); };
    3: b -> cr when (nc < F) do { nc' == nc + 1; unchanged(x); };
    4: c -> c when (true) do { unchanged(x, nc); };
  }
  specifications (0) {
    occupied: [](a != 0);
    nob: [](b == 0);
    fewx: [](x < N);
    initially: (c == 0) -> [](b == 0);
    crashed: [](cr == 0);
  }
}
`

func TestSliceRules(t *testing.T) {
	f := checked(t, "fork.ta", forkTA)
	kept := func(spec string) string {
		s, _ := f.SpecByName(spec)
		g, _ := sliceFor(f, s.Formula)
		var out []string
		for _, r := range g.Rules {
			out = append(out, r.From+"->"+r.To)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct{ spec, want string }{
		// a must be empty: every move out of it counts, and the crashes
		// count each other.
		{"occupied", "a->b a->c a->cr b->cr"},
		// b only needs someone to arrive: the rest cannot stop it.
		{"nob", "a->b"},
		{"fewx", "a->b"},
		{"initially", "a->b"},
		// Crashing out of b needs processes in b.
		{"crashed", "a->b a->cr b->cr"},
	} {
		if got := kept(c.spec); got != c.want {
			t.Errorf("%s: kept %q, want %q", c.spec, got, c.want)
		}
	}
}

// TestSliceKeepsVerdicts checks safety specifications with and without
// slicing: the verdicts must agree, and some must be violated.
func TestSliceKeepsVerdicts(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	dir := t.TempDir()
	fork := filepath.Join(dir, "fork.ta")
	if err := os.WriteFile(fork, []byte(forkTA), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{fork}
	files = append(files, exampleAndISOLAFiles(t)...)
	for _, name := range []string{"n-rabc-cr.ta", "n-rabc.ta", "n-ben-or-byz.ta"} {
		files = append(files, filepath.Join("..", "ta", "testdata", "bymc", "random19", name))
	}
	sliced, violated := 0, 0
	for _, path := range files {
		f := parse(t, path)
		if len(f.Unknowns) > 0 {
			continue // a sketch, for synthesis
		}
		for _, s := range f.Specs {
			lcs, err := specCases(s.Formula)
			if err != nil || slices.ContainsFunc(lcs, func(lc *lcase) bool { return lc.needLoop }) {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			on := Verify(ctx, f, s.Name, Options{Jobs: 1, NoHunt: true})
			off := Verify(ctx, f, s.Name, Options{Jobs: 1, NoHunt: true, NoSlice: true})
			cancel()
			if on.Sliced != "" {
				sliced++
			}
			if on.Verdict == trace.Unknown && off.Verdict == trace.Unknown {
				// retry.ta's cycle without the hunter
				t.Logf("%s %s: unknown either way", filepath.Base(path), s.Name)
				continue
			}
			if on.Verdict == trace.Unknown || off.Verdict == trace.Unknown {
				t.Errorf("%s %s: %s sliced, %s not", filepath.Base(path), s.Name, on.Verdict, off.Verdict)
				continue
			}
			if on.Verdict != off.Verdict {
				t.Errorf("%s %s: %s sliced, %s not (%s)", filepath.Base(path), s.Name, on.Verdict, off.Verdict, on.Sliced)
			}
			if on.Verdict == trace.Violated {
				violated++
			}
		}
	}
	if sliced < 10 || violated < 3 {
		t.Errorf("%d specifications sliced, %d violated: the comparison needs more", sliced, violated)
	}
}
