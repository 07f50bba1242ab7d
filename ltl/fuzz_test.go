package ltl

import (
	"strings"
	"testing"
)

// FuzzParse checks that the parser never panics, that every error has a
// position, and that a parsed formula prints as text that parses back to
// the same formula.
func FuzzParse(f *testing.F) {
	for _, s := range sizeFormulas {
		f.Add(s)
	}
	for _, s := range []string{
		"[] (x > 3 -> <> y == 2)", "P[1]@lab U q", "(a -> b : c) == 1", "len(q) > 0 && X p",
		"always (p implies eventually q)", "p weakuntil q stronguntil r release s",
		"!x == 1", "'a' == c", "a[i].f[2] != 0", "[]((prec_init && prec_corr) -> <>(ex_acc))",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := Pos{File: "fuzz", Line: 1, Col: 1}
		g, err := Parse(start, src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		text := g.String()
		h, err := Parse(start, text)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", src, text, err)
		}
		if !Equal(g, h) {
			t.Fatalf("%q printed as %q, which parses as %s", src, text, h)
		}
		if len(src) < 60 {
			if _, err := Translate(Not(g)); err != nil && !strings.Contains(err.Error(), "too large") && !strings.Contains(err.Error(), "propositions") {
				t.Fatalf("Translate(!(%s)): %v", g, err)
			}
		}
	})
}
