package promela

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// memFiles makes an Options.ReadFile over in-memory files.
func memFiles(files map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(filepath.Clean(name))]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

func TestPreprocess(t *testing.T) {
	tests := []struct {
		name, src, want string
		defines         map[string]string
	}{
		{"object macro", "#define N 3\nbyte a[N];", "byte a[3];", nil},
		{"function macro", "#define SQ(x) ((x) * (x))\nint y = SQ(1 + 2);", "int y = ((1 + 2) * (1 + 2));", nil},
		{"nested", "#define F(x) G(x)\n#define G(y) y + N\n#define N 3\nint y = F(F(2));", "int y = 2 + 3 + 3;", nil},
		{"no self expansion", "#define X X + 1\nint y = X;", "int y = X + 1;", nil},
		{"mutual", "#define A B\n#define B A\nint y = A;", "int y = A;", nil},
		{"function name alone", "#define F(x) x\nint F = 1;", "int F = 1;", nil},
		{"rescan with rest", "#define F G\n#define G(x) x+1\nint y = F(2);", "int y = 2+1;", nil},
		{"empty args", "#define E() 7\n#define I(x) [x]\nint y = E() I();", "int y = 7 [];", nil},
		{"parens in args", "#define P(a, b) a - b\nint y = P((1, 2), f(3, 4));", "int y = (1, 2) - f(3, 4);", nil},
		{"paste", "#define CAT(a, b) a ## b\nint CAT(x, 12) = CAT(, y);", "int x12 = y;", nil},
		{"stringify", "#define S(a) #a\nprintf(S(a  +  \"b\"));", `printf("a + \"b\"");`, nil},
		{"undef", "#define N 1\n#undef N\nint y = N;", "int y = N;", nil},
		{"ifdef", "#define A\n#ifdef A\nyes\n#else\nno\n#endif", "yes", nil},
		{"ifndef", "#ifndef A\nyes\n#else\nno\n#endif", "yes", nil},
		{"if expr", "#define N 4\n#if N > 3 && (N % 2 == 0) || defined(Z)\nyes\n#endif", "yes", nil},
		{"if defined forms", "#define A 0\n#if defined A && defined(A) && !defined B\nyes\n#endif", "yes", nil},
		{"if undefined name is 0", "#if UNDEFINED\nno\n#else\nyes\n#endif", "yes", nil},
		{"if ternary and ops", "#if (1 ? 2 : 3) == 2 && (5 >> 1) == 2 && (~0 == -1) && (3 ^ 1) == 2 && (6 & 3 | 8) == 10\nyes\n#endif", "yes", nil},
		{"if precedence", "#if 2 + 3 * 4 == 14 && (1 | 6 & 3) == 3 && 1 << 1 + 1 == 4 && 8 >> 1 < 5 && 1 ^ 3 & 2 == 3 && (1 || 0 && 0)\nyes\n#else\nno\n#endif", "yes", nil},
		{"elif chain", "#define V 2\n#if V == 1\none\n#elif V == 2\ntwo\n#elif V == 2\nagain\n#else\nother\n#endif", "two", nil},
		{"else after skipped", "#if 0\nno\n#elif 0\nno\n#else\nyes\n#endif", "yes", nil},
		{"nested skipped", "#if 0\n#if 1\nno\n#else\nno\n#endif\nno\n#else\nyes\n#endif", "yes", nil},
		{"skipped prose", "#if 0\nit's not \"valid\" @ $\n#endif\nyes", "yes", nil},
		{"comment hides directive", "/*\n#define N 1\n*/\nint y = N;", "int y = N;", nil},
		{"continuation", "#define L 1 + \\\n 2\nint y = L;", "int y = 1 + 2;", nil},
		{"command line define", "#ifdef BUG\nint bug = BUG;\n#endif", "int bug = 1;", map[string]string{"BUG": ""}},
		{"command line value", "int n = N;", "int n = 4 + 1;", map[string]string{"N": "4 + 1"}},
		{"source overrides option", "#undef N\n#define N 2\nint n = N;", "int n = 2;", map[string]string{"N": "1"}},
		{"pragma kept out", "#pragma option \"x\"\nint y;", "int y;", nil},
		{"null directive", "#\nint y;", "int y;", nil},
		{"line", "#line 100 \"other.pml\"\nint y;", "int y;", nil},
		{"keywords survive", "#define T bit\nT x;", "bit x;", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Preprocess("t.pml", []byte(tt.src), Options{Defines: tt.defines})
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			got = strings.TrimSpace(strings.ReplaceAll(got, "\n", " "))
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestPreprocessPositions checks that tokens keep the positions of their
// source: macro bodies at the use, arguments where they are written,
// included files in their own file.
func TestPreprocessPositions(t *testing.T) {
	files := map[string]string{
		"dir/main.pml":  "#define TWO 1 + 1\n#define ID(x) x\n#include \"sub/inc.h\"\nint a = TWO;\nint b = ID(\n  zz);\n#line 50\nint c;\n",
		"dir/sub/inc.h": "/* header */\n  int inc;\n",
	}
	opts := Options{ReadFile: memFiles(files)}
	errs := &ErrorList{}
	pp := newPreprocessor(&opts, errs)
	pp.pushFile("dir/main.pml", []byte(files["dir/main.pml"]))
	toks := pp.run()
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"inc": "dir/sub/inc.h:2:7",
		"a":   "dir/main.pml:4:5",
		"1":   "dir/main.pml:4:9", // both 1s of TWO are at the use of TWO
		"zz":  "dir/main.pml:6:3",
		"c":   "dir/main.pml:50:5",
	}
	for _, tk := range toks {
		if w, ok := want[tk.lit]; ok {
			if got := tk.pos.String(); got != w {
				t.Errorf("%s at %s, want %s", tk.lit, got, w)
			}
		}
	}
	// <file> searches the include directories only.
	opts = Options{ReadFile: memFiles(map[string]string{"lib/x.h": "int x;"}), IncludeDirs: []string{"lib"}}
	out, err := Preprocess("m.pml", []byte("#include <x.h>\n"), opts)
	if err != nil || strings.TrimSpace(out) != "int x;" {
		t.Errorf("#include <x.h>: %q, %v", out, err)
	}
}

func TestPreprocessWarnings(t *testing.T) {
	prog, err := Parse("t.pml", []byte("#define N 1\n#define N 2\n#warning look here\n#pragma option \"bymc\"\nbyte x = N;"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, w := range prog.Warnings {
		msgs = append(msgs, w.String())
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"t.pml:2:9: warning: macro N redefined (previous definition at t.pml:1:9)", "t.pml:3:1: warning: #warning look here"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings %q lack %q", joined, want)
		}
	}
	if len(prog.Pragmas) != 1 || prog.Pragmas[0].Text != `option "bymc"` || prog.Pragmas[0].Pos.Line != 4 {
		t.Errorf("pragmas = %+v", prog.Pragmas)
	}
}

func TestPreprocessErrorsAreListed(t *testing.T) {
	_, err := Preprocess("t.pml", []byte("#if 1\n#bogus\n#include\n"), Options{})
	var list *ErrorList
	if !errors.As(err, &list) || list.Len() != 3 {
		t.Fatalf("got %v, want 3 errors", err)
	}
	if got := list.List[0].Error(); got != "t.pml:1:1: #if without #endif" {
		t.Errorf("first error %q", got)
	}
}

// An #if expression that does not parse is an error at the token where the
// expression goes wrong; a branch after #else is one at its '#'.
func TestPreprocessIfErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"#if 1 ? 2 3\n#endif", "t.pml:1:11: expected ':' in #if expression, found number 3"},
		{"#if (1 + 2\n#endif", "t.pml:1:10: expected ')' in #if expression, found end of line"},
		{"#if (1 ? 2)\n#endif", "t.pml:1:11: expected ':' in #if expression, found ')'"},
		{"#if 1 +\n#endif", "t.pml:1:7: expected a number or '(' in #if expression, found end of line"},
		{"#if 1 / (2 - 2)\n#endif", "t.pml:1:7: division by zero in #if expression"},
		// A second #else, or an #elif after #else, whether the group
		// before is used or skipped.
		{"#if 1\n#else\n#else\n#endif", "t.pml:3:1: #else after #else"},
		{"#if 0\n#else\n#elif 1\n#endif", "t.pml:3:1: #elif after #else"},
	} {
		_, err := Preprocess("t.pml", []byte(tc.src), Options{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %s", tc.src, err, tc.want)
		}
	}
}
