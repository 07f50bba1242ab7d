package mcmt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/mcmt/system"
)

const seedFile = "seeds/002_89f49e16422360b2.txt"

func parseShared(t *testing.T, rel, lang string) *system.System {
	t.Helper()
	path := filepath.Join(testenv.Shared(t), rel)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(path, src, lang)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return s
}

func TestParseSeed(t *testing.T) {
	s := parseShared(t, seedFile, LangMCMT)
	if s.Property != "AGREEMENT" {
		t.Errorf("property = %q, want AGREEMENT (from the comment before unsafe)", s.Property)
	}
	if got := [...]int{len(s.Vars), len(s.Trans), len(s.Axioms), len(s.Candidates), len(s.Unsafe)}; got != [...]int{15, 28, 4, 7, 1} {
		t.Errorf("vars, transitions, axioms, candidates, unsafe = %v, want [15 28 4 7 1]", got)
	}
	if v, ok := s.Option("inv_search_max_index_var"); !ok || v != "4" {
		t.Errorf("option inv_search_max_index_var = %q, %v", v, ok)
	}
	if v, _ := s.Option("key_search"); v != "round" {
		t.Errorf("key_search = %q, want round", v)
	}
	// Transition 28: two uguard clauses are one disjunctive universal guard.
	t28 := s.Trans[27]
	if t28.Univ != "y" || t28.UGuard.Kind != system.Or || len(t28.UGuard.Args) != 2 {
		t.Errorf("t28 universal guard = %s over %q, want a disjunction of two clauses over y", t28.UGuard, t28.Univ)
	}
	// Transition 14: a case lambda restricted to j != x updates nack only.
	t14 := s.Trans[13]
	var nack *system.Update
	for _, u := range t14.Updates {
		if u.Var.Name == "nack" {
			nack = u
		}
	}
	if nack == nil || len(nack.Cases) != 3 {
		t.Fatalf("t14 nack update = %+v, want three cases", nack)
	}
	if got := nack.Cases[0].Cond.String(); !strings.Contains(got, "!= x") || !strings.Contains(got, "= y") {
		t.Errorf("t14 first case = %s, want the restriction j != x and the case j = y", got)
	}
	// Globals read with an index are the global itself.
	t7 := s.Trans[6]
	for _, u := range t7.Updates {
		if u.Var.Name == "estimate" && u.Cases[0].Val.String() != "tmpEstimate" {
			t.Errorf("t7 sets estimate[x] to %s, want tmpEstimate", u.Cases[0].Val)
		}
	}
}

func TestParseBenchmarks(t *testing.T) {
	in := parseShared(t, "benchmarks/mcmt/crash.in", "")
	cub := parseShared(t, "benchmarks/mcmt/crash.cub", "")
	if in.Lang != LangMCMT1 || cub.Lang != LangCubicle {
		t.Errorf("languages %s, %s", in.Lang, cub.Lang)
	}
	if len(in.Trans) != 13 || len(cub.Trans) != 13 || len(in.Vars) != 8 || len(cub.Vars) != 8 {
		t.Errorf("crash.in: %d transitions, %d vars; crash.cub: %d, %d; want 13 and 8", len(in.Trans), len(in.Vars), len(cub.Trans), len(cub.Vars))
	}
	// :map_back gives the low-level names their meaning.
	if in.Vars[0].Name != "round" || in.Vars[7].Name != "decisionValue" {
		t.Errorf("crash.in names %s ... %s, want round ... decisionValue", in.Vars[0].Name, in.Vars[7].Name)
	}
	mutex := parseShared(t, "benchmarks/mcmt/mutex.cub", "")
	exit := mutex.Trans[2]
	if len(exit.Updates) != 3 || exit.Updates[0].Cases[0].Val.Kind != system.Any {
		t.Errorf("mutex exit updates = %+v, want Turn := . first", exit.Updates)
	}
}

// The two encodings of the crash-failure protocol in the benchmarks are
// the same system: their instances have the same reachable states.
func TestCrashEncodingsAgree(t *testing.T) {
	in := parseShared(t, "benchmarks/mcmt/crash.in", "")
	cub := parseShared(t, "benchmarks/mcmt/crash.cub", "")
	for k := 2; k <= 3; k++ {
		var counts [2]int64
		for i, s := range []*system.System{in, cub} {
			inst, err := system.NewInstance(s, k)
			if err != nil {
				t.Fatal(err)
			}
			res, err := system.Explore(t.Context(), inst, system.ExploreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Complete || res.Unsafe != nil {
				t.Fatalf("%s with %d processes: complete %v, unsafe %v", s.Name, k, res.Complete, res.Unsafe != nil)
			}
			counts[i] = res.States
		}
		if counts[0] != counts[1] || counts[0] == 0 {
			t.Errorf("%d processes: crash.in has %d states, crash.cub %d", k, counts[0], counts[1])
		}
	}
}

func TestErrors(t *testing.T) {
	long := "/* one line */ global nat round [nat] local bool s [nat] initial (universal x:nat) { (s[x] = false) } " +
		"unsafe (existential x:nat) { (s[x] = true) } transition (existential x:nat) { guard: (s[x] = false) update: s[x] := tru; }"
	tests := []struct {
		name, lang, src, want string
	}{
		{"long.mcmt", LangMCMT, long, `long.mcmt:1:219: unknown name tru (process variables here: x) (near "...s[x] = false) update: s[x] := tru; }")`},
		{"a.mcmt", LangMCMT, "local bool s [nat]\nunsafe (existential x:nat) { (s[y] = true) }", "a.mcmt:2:31: unknown process variable y"},
		{"a.mcmt", LangMCMT, "local bool s [nat]\nunsafe (existential x:nat) { (s[x] < true) }", "a.mcmt:2:36: < compares numbers, not bool values"},
		{"a.mcmt", LangMCMT, "local bool s [nat]\nunsafe (existential x:nat) { (s[x] = 3) }", "a.mcmt:2:36: cannot compare s[x] (bool) with 3 (int)"},
		{"a.mcmt", LangMCMT, "local real s [nat]", "a.mcmt:1:7: real-valued arrays are not supported"},
		{"a.mcmt", LangMCMT, "local bool s [nat] /* open", "a.mcmt:1:20: unterminated comment"},
		{"a.mcmt", LangMCMT, "local bool s [nat] local bool s [nat]", "a.mcmt:1:31: s is declared twice (first at 1:12)"},
		{"a.mcmt", LangMCMT, "local bool s [nat]", "a.mcmt:1:19: the model has no unsafe formula: nothing to verify"},
		{"a.mcmt", LangMCMT, "local bool s [nat]\nunsafe (existential x:nat) { (s[x] = true) }\ntransition (existential x:nat) { guard: (s[x] = true) uguard: (s[x] = true) }",
			"a.mcmt:3:55: uguard needs a universal variable"},
		{"a.mcmt", LangMCMT, "local int a [nat] local int b [nat]\nunsafe (existential x:nat) { (a[x] + b[x] = 1) }", "a.mcmt:2:36: sums of two variables are not supported"},
		{"a.in", LangMCMT1, ":index nat\n:local a bool\n:u_cnj (= a[z1] 2)", "a.in:3:9: cannot compare a[z1] (bool) with 2 (int)"},
		{"a.in", LangMCMT1, ":index nat\n:local a bool\n:u_cnj (= a[z1] true)\n:transition\n:var x\n:var j\n:guard (= a[x] true)\n:numcases 2\n:case (= x j)\n :val true\n",
			"a.in:8:1: :numcases 2, but 1 :case sections follow"},
		{"a.in", LangMCMT1, ":index nat\n:eevar v int", "a.in:2:1: :eevar (existentially quantified data variables) is not supported"},
		{"a.cub", LangCubicle, "array A[proc] : bool\nunsafe (i) { A[i] = True }\ntransition t (i)\nrequires { A[i] = False }\n{ A[j] := True }",
			"a.cub:5:5: j is not a parameter of this transition"},
		{"a.cub", LangCubicle, "array A[proc,proc] : bool", "a.cub:1:13: multi-dimensional arrays are not supported"},
		{"a.cub", LangCubicle, "var X : int\n(* (* nested *) still open", "a.cub:2:1: unterminated comment"},
		{"a.cub", LangCubicle, "array A[proc] : bool\nunsafe (i) { A[i] = True && forall_other j. A[j] = True }", "a.cub:2:29: forall_other is only allowed in the requires clause"},
		{"a.cub", LangCubicle, "var x : int", `a.cub:1:5: expected a variable name starting with a capital letter, found "x"`},
		{"a.cub", LangCubicle, "type t = A | B\narray P[proc] : t\nunsafe (i) { P[i] = True }", "a.cub:3:19: cannot compare P[i] (t) with true (bool)"},
		{"a.cub", LangCubicle, "var X : int\nunsafe () { X = 1 }\ntransition t () { X := . + 1 }", `a.cub:3:26: expected ; or } after an update, found "+"`},
		// The syntaxes share the reading of terms and types, each with
		// its own words: Cubicle has more dimensions and declared types,
		// MCMT nat, and neither real.
		{"a.cub", LangCubicle, "array A[proc] : bool\nunsafe (i j) { A[i,j] = True }", "a.cub:2:19: multi-dimensional arrays are not supported"},
		{"a.mcmt", LangMCMT, "local bool s [nat]\nunsafe (existential x:nat) { (s[x,x] = true) }", `a.mcmt:2:34: expected "]" after the index, found ","`},
		{"a.in", LangMCMT1, ":index nat\n:local a bool\n:u_cnj (= a[z1 z1] true)", `a.in:3:16: expected "]" after the index, found "z1"`},
		{"a.cub", LangCubicle, "var X : real", "a.cub:1:9: real-valued variables are not supported"},
		{"a.in", LangMCMT1, ":index nat\n:local a real", "a.in:2:10: real-valued arrays are not supported"},
		{"a.cub", LangCubicle, "var X : nat", "a.cub:1:9: unknown type nat"},
		{"a.mcmt", LangMCMT, "local proc s [nat]", `a.mcmt:1:7: expected a type (bool, int, nat), found "proc"`},
		// An invalid byte is named, not printed raw.
		{"a.cub", LangCubicle, "var X : int\n\xff", "a.cub:2:1: unexpected byte 0xff (the file is not UTF-8 text)"},
		{"a.cub", LangCubicle, "var X : int\n\u00e9", "a.cub:2:1: unexpected character 'é'"},
		{"a.cub", LangCubicle, "var X : int\n\x00", "a.cub:2:1: unexpected NUL byte (the file is not text)"},
		{"a.mcmt", LangMCMT, "local bool s [nat]\x00", "a.mcmt:1:19: unexpected NUL byte (the file is not text)"},
		// Options: a name MCMT does not have, a missing value, an array
		// that is not declared.
		{"a.mcmt", LangMCMT, "local bool s [nat]\n(:mcmt :inv_search_max_index_var :)", `a.mcmt:2:34: option :inv_search_max_index_var needs a number, found ":"`},
		{"a.mcmt", LangMCMT, "local bool s [nat]\nkey_search rounds;\nunsafe (existential x:nat) { (s[x] = true) }", "a.mcmt:2:12: key_search rounds names no declared array (the arrays are s)"},
		{"a.mcmt", LangMCMT, "global nat round [nat]\nkey_search rond;\nunsafe (existential x:nat) { (round[x] = 1) }", "a.mcmt:2:12: key_search rond names no declared array (did you mean round?)"},
		{"a.in", LangMCMT1, ":index nat\n:local a bool\n:key_search b\n:u_cnj (= a[z1] true)", "a.in:3:13: key_search b names no declared array"},
		{"a.in", LangMCMT1, ":index nat\n:local a bool\n:max_transitions_number\n:u_cnj (= a[z1] true)", `a.in:4:1: option :max_transitions_number needs a number, found ":u_cnj"`},
		// A file cut short after update: says what was expected.
		{"a.mcmt", LangMCMT, "local bool s [nat]\nunsafe (existential x:nat) { (s[x] = true) }\ntransition (existential x:nat) { guard: (s[x] = false) update:",
			"a.mcmt:3:63: expected an update (a[x] := value, g := value or a lambda) or } at the end of the transition, found end of file"},
		// Misspelt keywords of the :keyword syntax are the error, at the
		// keyword, not what their section lacks further on.
		{"a.in", LangMCMT1, ":index nat\n:locl b bool\n:u_cnj (= b[z1] true)", "a.in:2:1: unknown keyword :locl (did you mean :local?)"},
		{"a.in", LangMCMT1, mcmt1Trans(":transtion", ":val"), "a.in:4:1: unknown keyword :transtion (did you mean :transition?)"},
		{"a.in", LangMCMT1, mcmt1Trans(":transition", ":vla"), "a.in:10:2: unknown keyword :vla (did you mean :val?)"},
		{"a.in", LangMCMT1, ":index nat\n:local a bool\n:frobnicate\n:u_cnj (= a[z1] true)", "a.in:3:1: unknown keyword :frobnicate (the keywords are :index, :smt, "},
		{"a.in", LangMCMT1, ":index nat\n:local a bool\n:u_cnj (= a[z1] 2)\n:frobnicate", "a.in:3:9: cannot compare a[z1] (bool) with 2 (int)"},
		{"a.in", LangMCMT1, ":index nat\n:local a bool\n:val a[x]\n:u_cnj (= a[z1] true)", "a.in:3:1: :val is out of place"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.name, []byte(tc.src), tc.lang)
		if err == nil {
			t.Errorf("%s: no error, want %q", tc.src, tc.want)
			continue
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("%s: error %T, want *Error", tc.src, err)
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, err, tc.want)
		}
	}
}

// mcmt1Trans is a model in the :keyword syntax with one transition whose
// keyword and first :val keyword are given.
func mcmt1Trans(transition, val string) string {
	return ":index nat\n:local a bool\n:u_cnj (= a[z1] true)\n" + transition + "\n:var x\n:var j\n:guard (= a[x] false)\n:numcases 1\n:case\n " + val + " true\n"
}

// The options ftmc reads and does not use are named in one note; known
// options parse, with their values.
func TestNote(t *testing.T) {
	seed := parseShared(t, seedFile, LangMCMT)
	if got, want := Note(seed), "MCMT options key_search round, inv_search_max_index_var 4 have no effect"; !strings.HasPrefix(got, want) {
		t.Errorf("seed: note %q, want it to start with %q", got, want)
	}
	for _, tc := range []struct{ name, lang, src, want string }{
		{"a.cub", LangCubicle, "number_procs 3\narray A[proc] : bool\nunsafe (i) { A[i] = True }", "number_procs 3 has no effect"},
		{"a.in", LangMCMT1, ":index nat\n:global g int\n:map_back round\n:local a bool\n:key_search a\n:max_transitions_number 100\n:dynamic_predicate_abstraction\n:determine_bounds\n:u_cnj (= a[z1] true)",
			"MCMT options key_search round, max_transitions_number 100, dynamic_predicate_abstraction, determine_bounds have no effect"},
		{"a.cub", LangCubicle, "array A[proc] : bool\nunsafe (i) { A[i] = True }", ""},
		// An option block holds only options: an unknown one is named, not fatal.
		{"a.mcmt", LangMCMT, "local bool s [nat]\n(:mcmt :inv_serch_max_index_var 4 :)\nunsafe (existential x:nat) { (s[x] = true) }",
			"2:9: :inv_serch_max_index_var is not an MCMT option ftmc knows (did you mean :inv_search_max_index_var?); ignored"},
		{"a.mcmt", LangMCMT, "local bool s [nat]\n(:mcmt :no_such_option 7 :key_search s :)\nunsafe (existential x:nat) { (s[x] = true) }",
			"2:9: :no_such_option is not an MCMT option ftmc knows (MCMT's options are :key_search, "},
	} {
		s, err := Parse(tc.name, []byte(tc.src), tc.lang)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got := Note(s); !strings.HasPrefix(got, tc.want) || tc.want == "" && got != "" {
			t.Errorf("%s: note %q, want %q...", tc.src, got, tc.want)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct{ file, src, want string }{
		{"x.cub", "", LangCubicle},
		{"x.in", "", LangMCMT1},
		{"x.mcmt", "local bool a [nat]", LangMCMT},
		{"x.txt", "\n:comment hello\n:index nat", LangMCMT1},
	} {
		if got := Detect(tc.file, []byte(tc.src)); got != tc.want {
			t.Errorf("Detect(%s) = %s, want %s", tc.file, got, tc.want)
		}
	}
}
