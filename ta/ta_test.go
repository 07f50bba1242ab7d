package ta

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/state"
	"ftmc/trace"
)

const small = `/* comment */
skel Proc {
  local pc;
  shared nsnt;
  parameters N, T, F;
  define THRESH == T + 1;
  assumptions (1) { N > 3 * T; T >= F; T >= 1; }
  locations (3) { loc0: [0]; loc1: [1]; locAC: [2]; }
  inits (4) { (loc0 + loc1) == N - F; locAC == 0; nsnt == 0; }
  rules (3) {
  0: loc1 -> locAC when (true) do { nsnt' == nsnt + 1; };
  1: loc0 -> locAC when (nsnt >= THRESH - F) do { nsnt' == nsnt + 1; };
  2: locAC -> locAC when (1) do { unchanged(nsnt); };
  }
  specifications (1) {
    unforg: (loc1 == 0) -> [](locAC == 0);
  }
}
`

func TestParseSmall(t *testing.T) {
	f, err := Parse("small.ta", []byte(small))
	if err != nil {
		t.Fatal(err)
	}
	if f.Header != "skel" || f.Name != "Proc" || len(f.Rules) != 3 || len(f.Specs) != 1 {
		t.Fatalf("unexpected file: %+v", f)
	}
	r := f.Rules[1]
	if r.Src != 0 || r.Dst != 2 || r.Guard.String() != "nsnt >= ((T + 1) - F)" {
		t.Errorf("rule 1: src %d dst %d guard %s", r.Src, r.Dst, r.Guard)
	}
	if g, ok := f.Rules[2].Guard.(*BoolLit); !ok || !g.Val {
		t.Errorf("guard (1) should read as true, got %s", f.Rules[2].Guard)
	}
	// -> is left-associative and binds loosest.
	if s := f.Specs[0].Formula.String(); s != "(loc1 == 0) -> [](locAC == 0)" {
		t.Errorf("spec parsed as %s", s)
	}
}

func TestHeaders(t *testing.T) {
	for _, h := range []string{"skel", "thresholdAutomaton", "threshAuto", "ta", ""} {
		src := strings.Replace(small, "skel Proc", strings.TrimSpace(h+" Proc"), 1)
		f, err := Parse("h.ta", []byte(src))
		if err != nil {
			t.Errorf("header %q: %v", h, err)
			continue
		}
		if f.Header != h || f.Name != "Proc" {
			t.Errorf("header %q: got %q %q", h, f.Header, f.Name)
		}
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		from, to, want string
	}{
		{"local pc;", "local pc", "e.ta:4:3: expected \";\", found name \"shared\""},
		{"loc1: [1];", "loc1: [1; 2];", "e.ta:8:30: location loc1 has 2 values, expected 1"},
		{"when (nsnt >= THRESH - F)", "when (nsnt >= THRESH - G)", "e.ta:12:43: variable G not found"},
		{"1: loc0 -> locAC", "1: loc0 -> locXX", "e.ta:12:14: location locXX not found"},
		{"nsnt' == nsnt + 1; };\n  1:", "N' == nsnt + 1; };\n  1:", "e.ta:11:37: N' must name a shared variable"},
		{"/* comment */", "/* comment", "e.ta:1:1: comment not terminated"},
		{"(loc1 == 0) -> [](locAC == 0)", "(loc1 == 0) -> [](locAC + 0)", "e.ta:16:37: expected a condition after []"},
		{"N > 3 * T;", "N > 3 * T * N;", "e.ta:7:"},
		{"unforg:", "unforg", "e.ta:16:12: expected \":\""},
		{"T >= 1; }", "T >= 1; } assumptions (1) { N > 1; }", "second assumptions section"},
		{"when (true)", "when (nsnt' > 1)", "may appear only on the left of an update"},
		{"nsnt >= THRESH - F", "nsnt >= N / (T - T)", "e.ta:12:41: expected a nonzero integer constant after /"},
		{"nsnt >= THRESH - F", "nsnt >= nsnt / 2", "e.ta:12:34: expected an expression over parameters before /"},
		{"nsnt' == nsnt + 1; };\n  1:", "nsnt' == nsnt + 1; nsnt' == nsnt; };\n  1:", "nsnt is updated twice in rule 0"},
		{"N, T, F;", "N, T, N;", "N is declared twice"},
		{"}\n}\n", "}\n}\n}", "expected end of file"},
		{"(loc0 + loc1) == N - F;", "(loc0 + loc1) == N - F &&;", "expected an expression"},
		{"# define", "", ""},
	}
	for _, c := range cases {
		if c.want == "" {
			continue
		}
		src := strings.Replace(small, c.from, c.to, 1)
		if src == small {
			t.Fatalf("%q not in the sample", c.from)
		}
		_, err := Parse("e.ta", []byte(src))
		if err == nil {
			if c.from == "N > 3 * T;" { // products of parameters parse; the engine rejects them
				continue
			}
			t.Errorf("%q: no error, want %q", c.to, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %q, want it to contain %q", c.to, err, c.want)
		}
		if !strings.HasPrefix(err.Error(), "e.ta:") {
			t.Errorf("%q: error %q does not name file:line:col", c.to, err)
		}
	}
}

type collect struct {
	succ  int
	fails []string
}

func (c *collect) Succ(t state.Trans, s []byte)       { c.succ++ }
func (c *collect) Fail(t state.Trans, kind, m string) { c.fails = append(c.fails, m) }

func TestInstance(t *testing.T) {
	f, err := Parse("small.ta", []byte(small))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewInstance(f, map[string]int64{"N": 3, "T": 1, "F": 1}, InstanceOptions{}); err == nil || !strings.Contains(err.Error(), "violate the assumption") {
		t.Errorf("N=3,T=1 should violate N > 3*T, got %v", err)
	}
	if _, err := NewInstance(f, map[string]int64{"N": 4, "T": 1}, InstanceOptions{}); err == nil || !strings.Contains(err.Error(), "missing parameter values for F") {
		t.Errorf("missing F: got %v", err)
	}
	in, err := NewInstance(f, map[string]int64{"N": 4, "T": 1, "F": 1}, InstanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var inits [][]trace.Var
	if err := in.Initial(func(s []byte) { inits = append(inits, in.Decode(s)) }); err != nil {
		t.Fatal(err)
	}
	// loc0 + loc1 == 3: four initial states.
	if len(inits) != 4 {
		t.Fatalf("%d initial states, want 4: %v", len(inits), inits)
	}
	s := in.Encode([]int64{0, 3, 0}, []int64{0})
	c := &collect{}
	in.Next(s, c)
	if c.succ != 1 || len(c.fails) > 0 {
		t.Errorf("from loc1=3 expected only rule 0 to fire, got %d successors %v", c.succ, c.fails)
	}
	s = in.Encode([]int64{2, 0, 1}, []int64{1})
	c = &collect{}
	in.Next(s, c)
	if c.succ != 2 { // rule 1 (nsnt >= 1) and the self-loop
		t.Errorf("from loc0=2, locAC=1, nsnt=1 expected 2 successors, got %d", c.succ)
	}
}

func TestBenchmarksParse(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "ta")
	files, _ := filepath.Glob(filepath.Join(dir, "*.ta"))
	if len(files) != 10 {
		t.Fatalf("found %d benchmark files, want 10", len(files))
	}
	for _, p := range files {
		if _, err := ParseFile(p); err != nil {
			t.Error(err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(small))
	if files, _ := filepath.Glob("../examples/threshold/*.ta"); len(files) > 0 {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.ta", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.ta:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		for _, s := range file.Specs {
			_ = s.Formula.String()
		}
	})
}

func TestMacroBlowup(t *testing.T) {
	var b strings.Builder
	b.WriteString("skel P { local pc; shared x; parameters N;\n define A0 == N;\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("define A" + itoa(i) + " == A" + itoa(i-1) + " + A" + itoa(i-1) + ";\n")
	}
	b.WriteString("assumptions (0) { A40 > 0; } locations (1) { l: [0]; } inits (0) { l == N; } rules (0) { } }")
	_, err := Parse("m.ta", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("expected an expansion error, got %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestInstanceOverflow: parameter values near the int64 limit are too large
// for an instance, never a sum that wraps around to a small bound (which
// left no initial state, and every property holding vacuously); arithmetic
// that does not fit in an int64 is an error, not a wrapped value.
func TestInstanceOverflow(t *testing.T) {
	f, err := ParseFile(filepath.Join(testenv.RepoRoot(t), "examples", "threshold", "aba-f-le-t1.ta"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{9223372036854775807, 9223372036854775806, 9223372036854775000, 65533} {
		_, err := NewInstance(f, map[string]int64{"N": n, "T": 1, "F": 2}, InstanceOptions{})
		if err == nil || !strings.Contains(err.Error(), "too large for an explicit instance") {
			t.Errorf("N=%d: got %v, want too large", n, err)
		}
	}
	for _, vals := range []map[string]int64{{"N": 1, "T": 9223372036854775807, "F": 9223372036854775807}, {"N": 4, "T": 1, "F": 65530}} {
		if _, err := NewInstance(f, vals, InstanceOptions{}); err == nil || !strings.Contains(err.Error(), "too large") {
			t.Errorf("%v: got %v, want too large", vals, err)
		}
	}
	if _, err := NewInstance(f, map[string]int64{"N": -4, "T": 1, "F": 2}, InstanceOptions{}); err == nil || !strings.Contains(err.Error(), "N=-4 is negative") {
		t.Errorf("N=-4: got %v", err)
	}
	// The largest instance that fits still has its initial states.
	in, err := NewInstance(f, map[string]int64{"N": 65531, "T": 1, "F": 2}, InstanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := in.HasInitial(); !ok || err != nil {
		t.Errorf("N=65531: initial state %v, %v", ok, err)
	}

	// Constants of the model that overflow once multiplied by parameters.
	const big = `skel P { local pc; shared x; parameters N;
  assumptions (0) { ASSUME; }
  locations (0) { a: [0]; b: [1]; }
  inits (0) { INIT; b == 0; x == 0; }
  rules (0) { 0: a -> b when (x >= 0) do { x' == x + 1; }; }
  specifications (0) { s: [](b == 0); } }`
	model := func(assume, init string) *File {
		f, err := Parse("big.ta", []byte(strings.Replace(strings.Replace(big, "ASSUME", assume, 1), "INIT", init, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f = model("N * 1099511627776 * 1099511627776 > 0", "a == N")
	if _, err := NewInstance(f, map[string]int64{"N": 2}, InstanceOptions{}); err == nil || !strings.Contains(err.Error(), "does not fit in a 64-bit integer") {
		t.Errorf("overflowing assumption: got %v", err)
	}
	// 2^60 * N wraps around to 0 with N = 16, which makes a == 2 an
	// initial state; exactly, there is none.
	f = model("N > 0", "a + 1099511627776 * 1048576 * N == 2")
	in, err = NewInstance(f, map[string]int64{"N": 16}, InstanceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := in.HasInitial(); ok || err == nil || !strings.Contains(err.Error(), "big.ta:4:") {
		t.Errorf("overflowing initial condition: initial state %v, error %v", ok, err)
	}
	if _, err := Linear(&Binary{Op: "*", X: &IntLit{Val: 1 << 62}, Y: &IntLit{Val: 2}}); err == nil {
		t.Error("Linear: 2^62 * 2 should not fit")
	}
	// Coefficients are bounded as numbers are, so that the engines' sums
	// of a few of them fit.
	n := &Ident{Name: "N", Kind: Param}
	if _, err := Linear(&Binary{Op: "*", X: &Binary{Op: "*", X: &IntLit{Val: MaxCoef}, Y: &IntLit{Val: 2}}, Y: n}); err == nil || !strings.Contains(err.Error(), "larger than 1099511627776") {
		t.Errorf("Linear: 2^41 * N: %v", err)
	}
	if l, err := Linear(&Binary{Op: "-", X: &Binary{Op: "*", X: &IntLit{Val: MaxCoef}, Y: n}, Y: &IntLit{Val: MaxCoef}}); err != nil || l.Coef[Var{Param, 0}] != MaxCoef || l.Const != -MaxCoef {
		t.Errorf("Linear: 2^40 * N - 2^40: %v, %v", l, err)
	}
	if _, err := Eval(&Binary{Op: "-", X: &IntLit{Val: 0}, Y: &Unary{Op: "-", X: &IntLit{Val: 9223372036854775807}}}, nil); err != nil {
		t.Errorf("Eval: 0 - -(2^63-1) fits: %v", err)
	}
}

// The declaration sections may come in any order and more than once; each
// adds to its own list.
func TestParseDeclarations(t *testing.T) {
	f, err := Parse("d.ta", []byte("skel P { local pc; shared x, y; parameters N; unknowns u; local q; shared z; locations (1) { a: [0; 0]; } }"))
	if err != nil {
		t.Fatal(err)
	}
	names := func(ds []Decl) string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Name)
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct{ what, got, want string }{
		{"locals", names(f.Locals), "pc q"},
		{"shared", names(f.Shared), "x y z"},
		{"parameters", names(f.Params), "N"},
		{"unknowns", names(f.Unknowns), "u"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.what, tc.got, tc.want)
		}
	}
}

// TestByMCForms: forms of ByMC's and TACO's published automata. A rule's
// number is a label that may repeat (the second rule 1 is 1_2 in
// schedules); // starts a comment; unchanged may name a variable twice,
// or one the rule updates (the update stands);
// the local variable may be left out; an update may read x' := e and the
// last of a rule leave out its ";" (TACO's form); / is integer division of an
// expression over parameters, rounded down, by a constant, as in the
// Parametric Promela the automata come from.
func TestByMCForms(t *testing.T) {
	src := strings.NewReplacer(
		"  local pc;\n", "",
		"2: locAC -> locAC when (1) do { unchanged(nsnt); };", "1: locAC -> locAC when (1) do { unchanged(nsnt, nsnt); }; // a self-loop\n  1: loc1 -> loc1 when (nsnt < (N + T) / 2) do { nsnt' == nsnt; };",
		"T >= 1; }", "T >= 1; (N + T) / 2 <= 2 * T; }",
		"THRESH - F) do { nsnt' == nsnt + 1; };", "THRESH - F) do { nsnt' := nsnt + 1; unchanged(nsnt) };",
	).Replace(small)
	f, err := Parse("forms.ta", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range f.Rules {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, " "); got != "0 1 1_2 1_3" {
		t.Errorf("rule ids %s, want 0 1 1_2 1_3", got)
	}
	if g := f.Rules[3].Guard.String(); g != "nsnt < (N + T) / 2" {
		t.Errorf("guard %s", g)
	}
	if r := f.Rules[1]; len(r.Updates) != 1 || len(r.Unchanged) != 0 {
		t.Errorf("rule 1: updates %v, unchanged %v; want the update alone", r.Updates, r.Unchanged)
	}
	for _, c := range []struct {
		params string
		q      int64
		err    string
	}{
		{"N=4,T=1,F=1", 2, ""},
		{"N=7,T=2,F=0", 4, ""},
		{"N=5,T=1,F=1", 0, "violate the assumption"}, // (5 + 1) / 2 = 3 > 2; with exact division N=4 would too
	} {
		vals := map[string]int64{}
		for _, kv := range strings.Split(c.params, ",") {
			k, v, _ := strings.Cut(kv, "=")
			n, _ := strconv.ParseInt(v, 10, 64)
			vals[k] = n
		}
		in, err := NewInstance(f, vals, InstanceOptions{})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.params, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.params, err)
		}
		if q := in.params[len(in.params)-1]; q != c.q {
			t.Errorf("%s: (N + T) / 2 = %d, want %d", c.params, q, c.q)
		}
		if got := in.ParamString(); got != c.params {
			t.Errorf("instance %s, want %s", got, c.params)
		}
	}
}

// Substitute gives every unknown its value (negative ones too), leaves
// out the unknowns' own bounds, refuses values outside them, and leaves
// the sketch unchanged.
func TestSubstitute(t *testing.T) {
	src := `skel P { local pc; shared x; parameters N, T; unknowns a, c;
  define TH == a * N + c;
  assumptions (3) { N > T; 0 <= a; a <= 1; -2 <= c; c <= 2; }
  locations (2) { l0: [0]; l1: [1]; }
  inits (2) { l0 == N; l1 == 0; x == 0; }
  rules (1) { 0: l0 -> l1 when (x >= TH) do { x' == x + 1; }; }
  specifications (1) { s: [](x <= TH); } }`
	f, err := Parse("s.ta", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Substitute(f, []int64{1, -2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ what, got, want string }{
		{"unknowns", strings.Join(Names(g.Unknowns), ","), ""},
		{"assumptions", fmt.Sprint(g.Assumptions), "[N > T]"},
		{"guard", g.Rules[0].Guard.String(), "x >= ((1 * N) + -2)"},
		{"spec", g.Specs[0].Formula.String(), "[](x <= ((1 * N) + -2))"},
		{"sketch's guard", f.Rules[0].Guard.String(), "x >= ((a * N) + c)"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	if Mentions(g.Rules[0].Guard, Unknown) || !Mentions(f.Rules[0].Guard, Unknown) {
		t.Error("Mentions")
	}
	if _, err := Substitute(f, []int64{2, 0}); err == nil || !strings.Contains(err.Error(), "s.ta:3:") || !strings.Contains(err.Error(), "a = 2, c = 0 violate the assumption a <= 1") {
		t.Errorf("out of range: %v", err)
	}
}
