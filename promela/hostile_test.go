package promela

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// An error at the start of a large file is found without preprocessing or
// parsing the rest.
func TestErrorAtStartReadsNoFurther(t *testing.T) {
	for _, word := range []string{"x ", ") ", "1 "} {
		src := []byte(strings.Repeat(word, (10<<20)/len(word)))
		var err error
		n := allocated(func() { _, err = Parse("big.pml", src, Options{}) })
		if err == nil || !strings.HasPrefix(err.Error(), "big.pml:1:") {
			t.Errorf("%q: got %.100v, want an error on line 1", word, err)
		}
		if n > 1<<20 {
			t.Errorf("%q: an error at the start allocated %d bytes", word, n)
		}
	}
}

// After MaxErrors errors the reading stops: the rest of the model is not
// checked, nor its errors formatted.
func TestErrorsStopReading(t *testing.T) {
	src := strings.Repeat("int x;\n", 200000)
	_, err := Parse("dup.pml", []byte(src), Options{})
	var list *ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %v, want an error list", err)
	}
	if len(list.List) != MaxErrors || list.Dropped > 10 {
		t.Fatalf("%d errors kept, %d more counted: the reading went on", len(list.List), list.Dropped)
	}
	if !strings.HasPrefix(list.List[0].Error(), "dup.pml:2:5: x redeclared") {
		t.Errorf("first error %v", list.List[0])
	}
}

// A NUL byte is an error, in code, comments and strings, not white space.
func TestNULByte(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"init { skip }\x00\n", "n.pml:1:14: unexpected NUL byte"},
		{"init {\n  skip \x00 }\n", "n.pml:2:8: unexpected NUL byte"},
		{"/* a \x00 */ init { skip }\n", "n.pml:1:6: unexpected NUL byte"},
		{"// a \x00\ninit { skip }\n", "n.pml:1:6: unexpected NUL byte"},
		{"init { printf(\"a\x00\") }\n", "n.pml:1:17: unexpected NUL byte"},
		{"byte c = '\x00';\n", "n.pml:1:11: unexpected NUL byte"},
	} {
		_, err := Parse("n.pml", []byte(tc.src), Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.src, err, tc.want)
		}
	}
	// A binary file: at most MaxErrors errors.
	_, err := Parse("z.pml", make([]byte, 1<<20), Options{})
	var list *ErrorList
	if !errors.As(err, &list) || len(list.List) != MaxErrors {
		t.Errorf("a megabyte of NULs: %v", err)
	}
}

// Macros that double at each level are refused at the use that expands
// too far, without exhausting memory.
func TestMacroDoubling(t *testing.T) {
	var b strings.Builder
	b.WriteString("#define A0 1+1\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "#define A%d A%d+A%d\n", i, i-1, i-1)
	}
	b.WriteString("byte x;\ninit {\n  x = A40\n}\n")
	var err error
	n := allocated(func() { _, err = Parse("m.pml", []byte(b.String()), Options{}) })
	if err == nil || !strings.HasPrefix(err.Error(), "m.pml:44:7: macro expansion too large") {
		t.Errorf("got %.200v, want m.pml:44:7: macro expansion too large", err)
	}
	if n > 1<<30 {
		t.Errorf("the refused expansion allocated %d bytes", n)
	}
}

// Inlines that call each other four times at each level are refused at
// the outermost call.
func TestInlineDoubling(t *testing.T) {
	var b strings.Builder
	b.WriteString("byte x;\ninline I0() { x++; x++ }\n")
	for i := 1; i <= 15; i++ {
		fmt.Fprintf(&b, "inline I%d() { I%d(); I%d(); I%d(); I%d() }\n", i, i-1, i-1, i-1, i-1)
	}
	b.WriteString("init {\n  I15()\n}\n")
	_, err := Parse("i.pml", []byte(b.String()), Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "i.pml:19:3: inline expansion too large") {
		t.Errorf("got %.200v, want i.pml:19:3: inline expansion too large", err)
	}
}

// An error message quotes at most 40 characters of a name from the input.
func TestLongNameClipped(t *testing.T) {
	long := strings.Repeat("x", 5<<20)
	for _, src := range []string{
		"int " + long + ";\nint " + long + ";\n",
		long + " y;\n",
		"init { " + long + " = 1 }\n",
		"#include \"" + long + "\"\n",
		"#error " + long + "\n",
		"init { 1 " + long + " }\n",
	} {
		_, err := Parse("l.pml", []byte(src), Options{})
		if err == nil {
			t.Fatalf("%.50s: no error", src)
		}
		msg := err.Error()
		if len(msg) > 300 || !strings.Contains(msg, strings.Repeat("x", 40)+"...") {
			t.Errorf("%.50s: error of %d bytes: %.300s", src, len(msg), msg)
		}
	}
}

// A done context stops the reading.
func TestParseContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := "init {\n" + strings.Repeat("  skip;\n", 100000) + "}\n"
	_, err := Parse("c.pml", []byte(src), Options{Context: ctx})
	if err == nil || !strings.Contains(err.Error(), "stopped reading the model: context canceled") {
		t.Fatalf("got %.200v, want the reading stopped", err)
	}
}

// A model file or an included file that does not end (a device) or is
// too large is refused at its bound, positioned at the #include.
func TestReadBounded(t *testing.T) {
	_, err := Load("/dev/zero", Options{})
	if err == nil || err.Error() != "/dev/zero: larger than 64 MB: too large for a model file" {
		t.Errorf("Load(/dev/zero): %v", err)
	}
	_, err = Parse("inc.pml", []byte("byte x;\n#include \"/dev/zero\"\ninit { skip }\n"), Options{})
	if err == nil || err.Error() != "inc.pml:2:10: /dev/zero: larger than 64 MB: too large for a model file" {
		t.Errorf("#include \"/dev/zero\": %v", err)
	}
	// Included files count together: a file of 40 MB included twice.
	big := make([]byte, 40<<20)
	for i := range big {
		big[i] = '\n'
	}
	read := func(string) ([]byte, error) { return big, nil }
	_, err = Parse("two.pml", []byte("#include \"a.h\"\n#include \"a.h\"\ninit { skip }\n"), Options{ReadFile: read})
	if err == nil || !strings.HasPrefix(err.Error(), "two.pml:2:10: a.h: the model with its included files is larger than 64 MB") {
		t.Errorf("two includes of 40 MB: %v", err)
	}
}

// A model long enough that the parser drops the tokens of declarations it
// has parsed: an inline declared before is expanded after, a proctype
// declared after is known before (remote references), and a typedef
// declared before is a type after.
func TestLongModelAcrossDroppedTokens(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "byte f%d;\n", i)
	}
	b.WriteString("typedef Pair { byte a; byte b }\ninline bump(v) { v = v + 1; v = v * 2 }\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "byte g%d;\n", i)
	}
	b.WriteString("Pair pr;\nactive proctype P() {\n  bump(g7);\n  bump(pr.a);\n  (Q@done && Q[0]:n == 2)\n}\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "byte h%d;\n", i)
	}
	b.WriteString("active proctype Q() { byte n = 2; done: skip }\n")
	prog, err := Parse("long.pml", []byte(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if prog.Proc("P") == nil || prog.Proc("Q") == nil {
		t.Fatalf("proctypes P and Q not read")
	}
	var got []string
	for _, s := range prog.Proc("P").Body.Stmts {
		got = append(got, StmtString(s))
	}
	want := "bump(g7) | bump(pr.a) | Q@done && Q[0]:n == 2"
	if strings.Join(got, " | ") != want {
		t.Errorf("P's statements:\n got %s\nwant %s", strings.Join(got, " | "), want)
	}
	for i, s := range prog.Proc("P").Body.Stmts[:2] {
		call := s.(*InlineStmt)
		var body []string
		for _, s := range call.Body.Stmts {
			body = append(body, StmtString(s))
		}
		if want := []string{"g7 = g7 + 1; g7 = g7 * 2", "pr.a = pr.a + 1; pr.a = pr.a * 2"}[i]; strings.Join(body, "; ") != want {
			t.Errorf("inline call %d expands to %q, want %q", i, strings.Join(body, "; "), want)
		}
	}
}

// wantTooLarge checks that err is the error what at want (a prefix) and
// that the refused expansion allocated at most limit bytes.
func wantTooLarge(t *testing.T, name string, err error, n uint64, want string, limit uint64) {
	t.Helper()
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%s: got %.200v, want %s", name, err, want)
	}
	if n > limit {
		t.Errorf("%s: the refused expansion allocated %d MB, more than %d MB", name, n>>20, limit>>20)
	}
}

// A macro that uses its parameter many times, called with a long argument,
// is refused as its expansion grows past the bound, not after building it
// whole: memory stays proportional to the bound.
func TestMacroLongArgumentManyUses(t *testing.T) {
	const uses, argLen = 100, 30000
	src := "#define B(a)" + strings.Repeat(" a", uses) + "\nint x;\ninit {\n  x = B(" +
		strings.Repeat("1 ", argLen) + ")\n}\n"
	var err error
	n := allocated(func() { _, err = Parse("b.pml", []byte(src), Options{}) })
	wantTooLarge(t, "uses", err, n, "b.pml:4:7: macro expansion too large", 200<<20)

	// The argument expanded first (it holds a macro), then used many times.
	src = "#define ONE 1\n#define B(a)" + strings.Repeat(" a", uses) + "\nint x;\ninit {\n  x = B(ONE " +
		strings.Repeat("1 ", argLen) + ")\n}\n"
	n = allocated(func() { _, err = Parse("b.pml", []byte(src), Options{}) })
	wantTooLarge(t, "expanded argument", err, n, "b.pml:5:7: macro expansion too large", 200<<20)

	// # makes a string of the argument at each use.
	src = "#define S(a)" + strings.Repeat(" #a", 3000) + "\nint x;\ninit {\n  x = S(" +
		strings.Repeat("1 ", 50000) + ")\n}\n"
	n = allocated(func() { _, err = Parse("s.pml", []byte(src), Options{}) })
	wantTooLarge(t, "#", err, n, "s.pml:4:7: macro expansion too large", 150<<20)

	// ## pastes a long name onto itself again and again.
	src = "#define P(a) a" + strings.Repeat(" ## a", 2000) + "\nint x;\ninit {\n  x = P(" +
		strings.Repeat("y", 10000) + ")\n}\n"
	n = allocated(func() { _, err = Parse("p.pml", []byte(src), Options{}) })
	wantTooLarge(t, "##", err, n, "p.pml:4:7: macro expansion too large", 150<<20)
}

// Arguments nested in calls of the same macro are expanded one inside the
// other, each a copy of the one around it: refused at the bound, at the
// call whose argument crosses it, instead of growing with the square of
// the nesting. (The bound is on what is made at a time; the allocations
// measured count what is dropped too.)
func TestMacroNestedArguments(t *testing.T) {
	const depth = 4000
	src := "#define F(a) a\nint x;\ninit {\n  x = " + strings.Repeat("F(", depth) + "1" +
		strings.Repeat(")", depth) + "\n}\n"
	var err error
	n := allocated(func() { _, err = Parse("f.pml", []byte(src), Options{}) })
	var list *ErrorList
	if !errors.As(err, &list) || len(list.List) != 1 {
		t.Errorf("got %.300v, want one error", err)
	}
	wantTooLarge(t, "nested", err, n, "f.pml:4:", 400<<20)
	if err != nil && !strings.Contains(err.Error(), ": macro expansion too large") {
		t.Errorf("got %.200v, want macro expansion too large", err)
	}

	// A few levels are fine.
	src = "#define F(a) a\nint x;\ninit {\n  x = " + strings.Repeat("F(", 100) + "1" +
		strings.Repeat(")", 100) + "\n}\n"
	if _, err := Parse("f.pml", []byte(src), Options{}); err != nil {
		t.Errorf("100 nested calls: %v", err)
	}
}

// Tokens that went through a long chain of macros carry a large hide set;
// passing them through another macro shares one set instead of making one
// per token.
func TestMacroLongHideSets(t *testing.T) {
	var b strings.Builder
	b.WriteString("#define M0" + strings.Repeat(" 1 +", 20000) + " 1\n")
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&b, "#define M%d M%d\n", i, i-1)
	}
	b.WriteString("#define ID(a) a\nint x;\ninit {\n  x = ID(ID(M1000))\n}\n")
	var err error
	n := allocated(func() { _, err = Parse("h.pml", []byte(b.String()), Options{}) })
	if err != nil {
		t.Fatalf("got %.200v", err)
	}
	if n > 300<<20 {
		t.Errorf("expanding 40000 tokens allocated %d MB", n>>20)
	}
}

// An inline that uses its parameter many times, called with a long
// argument, is refused as its body grows past the bound.
func TestInlineLongArgumentManyUses(t *testing.T) {
	const uses, argLen = 100, 20000
	src := "int x;\ninline f(a) {" + strings.Repeat(" x = a;", uses) + " }\ninit {\n  f(" +
		strings.Repeat("1+", argLen) + "1)\n}\n"
	var err error
	n := allocated(func() { _, err = Parse("i.pml", []byte(src), Options{}) })
	wantTooLarge(t, "inline", err, n, "i.pml:4:3: inline expansion too large", 200<<20)
}
