package mcmt

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// Deeply nested input is refused at a position, not by running out of
// stack; long chains of and/or are not nesting.
func TestDeepNesting(t *testing.T) {
	const n = 1000000
	rep := strings.Repeat
	tests := []struct {
		name, lang, src, want string
	}{
		{"parens.mcmt", LangMCMT, "local bool s [nat]\nunsafe (existential x:nat) { " + rep("(", n) + "s[x] = true" + rep(")", n) + " }",
			"parens.mcmt:2:"},
		{"not.mcmt", LangMCMT, "local bool s [nat]\nunsafe (existential x:nat) { " + rep("NOT ", n) + "(s[x] = true) }", "not.mcmt:2:"},
		{"minus.mcmt", LangMCMT, "local int s [nat]\nunsafe (existential x:nat) { s[x] = " + rep("- ", n) + "1 }", "minus.mcmt:2:"},
		{"sum.mcmt", LangMCMT, "local int s [nat]\nunsafe (existential x:nat) { s[x] = 0" + rep(" + 1", n) + " }", "sum.mcmt:2:"},
		{"parens.cub", LangCubicle, "array A[proc] : bool\nunsafe (i) { " + rep("(", n) + "A[i] = True" + rep(")", n) + " }", "parens.cub:2:"},
		{"not.cub", LangCubicle, "array A[proc] : bool\nunsafe (i) { " + rep("not ", n) + "A[i] = True }", "not.cub:2:"},
		{"imp.cub", LangCubicle, "array A[proc] : bool\nunsafe (i) { " + rep("A[i] = True => ", n) + "A[i] = True }", "imp.cub:2:"},
		{"sum.cub", LangCubicle, "var X : int\nunsafe () { X = 0" + rep(" + 1", n) + " }", "sum.cub:2:"},
		{"unclosed.cub", LangCubicle, rep("(", n), "unclosed.cub:1:1:"},
		{"parens.in", LangMCMT1, ":index nat\n:local a bool\n:u_cnj " + rep("(not ", n) + "(= a[z1] true)" + rep(")", n), "parens.in:3:"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.name, []byte(tc.src), tc.lang)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("%s: error %T, want *Error", tc.name, err)
		}
		if !strings.HasPrefix(err.Error(), tc.want) || !strings.Contains(err.Error(), "nested too deeply (more than 1000 levels)") && tc.name != "unclosed.cub" {
			t.Errorf("%s: got %.200s, want %s...: expression nested too deeply", tc.name, err, tc.want)
		}
	}
	// 100000 conjuncts are one level.
	src := "array A[proc] : bool\nunsafe (i) { A[i] = True" + rep(" && A[i] = True", 100000) + " }"
	if _, err := Parse("and.cub", []byte(src), LangCubicle); err != nil {
		t.Errorf("and.cub: %.200s", err)
	}
	src = "local bool s [nat]\nunsafe (existential x:nat) { (s[x] = true)" + rep(" OR (s[x] = true)", 100000) + " }"
	if _, err := Parse("or.mcmt", []byte(src), LangMCMT); err != nil {
		t.Errorf("or.mcmt: %.200s", err)
	}
}

// An error message quotes at most 40 characters of a name from the input.
func TestLongNameClipped(t *testing.T) {
	long := strings.Repeat("x", 5<<20)
	for _, src := range []string{
		"var " + long + " : int",
		"array A[proc] : bool\nunsafe (i) { A[i] = " + long + " }",
		"var X : int\nunsafe () { X = 1 }\ntransition " + long + " ()\n{ X := 1 }\ntransition " + long + " ()\n{ X := 1 }",
	} {
		_, err := Parse("a.cub", []byte(src), LangCubicle)
		if err == nil {
			t.Fatalf("%.50s: no error", src)
		}
		msg := err.Error()
		if len(msg) > 300 || !strings.Contains(msg, strings.Repeat("x", 40)+"...") {
			t.Errorf("%.50s: error of %d bytes: %.300s", src, len(msg), msg)
		}
	}
}

// An error at the start of a large file is found without scanning the
// rest: what the parse allocates does not grow with the file.
func TestErrorAtStartScansNoFurther(t *testing.T) {
	for _, lang := range []string{LangMCMT, LangMCMT1, LangCubicle} {
		src := []byte(strings.Repeat("x ", 10<<20))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Parse("big", src, lang)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.HasPrefix(err.Error(), "big:1:1: ") {
			t.Errorf("%s: got %.100v, want an error at 1:1", lang, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("%s: an error at 1:1 allocated %d bytes", lang, n)
		}
	}
}

// A done context stops the reading with an error that says so.
func TestParseContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := "array A[proc] : bool\nunsafe (i) { A[i] = True" + strings.Repeat(" && A[i] = True", 100000) + " }"
	_, err := ParseContext(ctx, "a.cub", []byte(src), LangCubicle)
	e, ok := err.(*Error)
	if !ok || !e.Stopped() || !strings.Contains(e.Error(), "stopped reading the model: context canceled") {
		t.Fatalf("got %v, want the reading stopped", err)
	}
}

// Nested <=> doubles a formula at each level: it is refused before the
// formula is too large to walk.
func TestNestedIff(t *testing.T) {
	src := "array A[proc] : bool\nunsafe (i) { " + strings.Repeat("A[i] = True <=> ", 30) + "A[i] = True }"
	_, err := Parse("iff.cub", []byte(src), LangCubicle)
	if err == nil || !strings.HasPrefix(err.Error(), "iff.cub:2:") || !strings.Contains(err.Error(), "formula too large with <=> written out") {
		t.Fatalf("got %v, want iff.cub:2:...: formula too large with <=> written out", err)
	}
	// A few are fine.
	src = "array A[proc] : bool\nunsafe (i) { " + strings.Repeat("A[i] = True <=> ", 3) + "A[i] = True }"
	if _, err := Parse("iff.cub", []byte(src), LangCubicle); err != nil {
		t.Fatal(err)
	}
}
