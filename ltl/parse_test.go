package ltl

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cmd := Pos{File: "f", Line: 1, Col: 1}
	for _, c := range []struct{ in, want string }{
		{"[] p", "[]p"},
		{"[]<>p && <>[]q", "[]<>p && <>[]q"},
		{"p || q && r", "p || q && r"},
		{"p && q || r", "p && q || r"},
		{"p -> q -> r", "p -> q -> r"},
		{"p -> (q -> r)", "p -> (q -> r)"},
		{"p U q U r", "p U q U r"},
		{"p U (q U r)", "p U (q U r)"},
		{"p U q && r", "p U q && r"},
		{"[] p U q", "[]p U q"},
		{"! p U q", "!p U q"},
		{"p -> q U r", "p -> q U r"},
		{"p <-> q -> r", "p <-> q -> r"},
		{"p weakuntil q", "p W q"},
		{"p stronguntil q", "p U q"},
		{"p release q", "p V q"},
		{"always (p implies eventually q)", "[](p -> <>q)"},
		{"p equivalent q", "p <-> q"},
		{"p == 1 U q", "(p == 1) U q"},
		{"(x > 3) U (x < 2)", "(x > 3) U (x < 2)"},
		{"x+1 > y*2", "(x + 1 > y * 2)"},
		{"(x + 1) * 2 > y", "((x + 1) * 2 > y)"},
		{"x == y && y != 3", "(x == y) && (y != 3)"},
		{"!x == 1", "(!x == 1)"},
		{"! (x == 1)", "!(x == 1)"},
		{"a[1] > 0", "(a[1] > 0)"},
		{"a[i+1].f > 0", "(a[i + 1].f > 0)"},
		{"P[1]@lab", "(P[1]@lab)"},
		{"P[0]:y == 1", "(P[0]:y == 1)"},
		{"len(c) > 0", "(len(c) > 0)"},
		{"true U x", "true U x"},
		{"1", "true"},
		{"0", "false"},
		{"X p", "X p"},
		{"[] (p -> X q)", "[](p -> X q)"},
		{"((c -> a : b) == 1)", "((c -> a : b) == 1)"},
		{"-x > 2", "(-x > 2)"},
		{"x & 1 U y", "(x & 1) U y"},
		{"[]((prec_init && prec_unforg) -> []!ex_acc)", "[](prec_init && prec_unforg -> []!ex_acc)"},
		{"[] /* c */ p // d", "[]p"},
		{"'a' == x", "(97 == x)"},
	} {
		f, err := Parse(cmd, c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := f.String(); got != c.want {
			t.Errorf("Parse(%q) = %s, want %s", c.in, got, c.want)
		}
		// Printing and parsing again gives the same formula.
		g, err := Parse(cmd, f.String())
		if err != nil || !Equal(f, g) {
			t.Errorf("reparse of %s: %v, %v", f, g, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"p U", "f:3:5: expected a proposition"},
		{"", "f:3:2: expected a proposition"},
		{"p q", `f:3:4: expected an operator or the end of the formula, found "q"`},
		{"(p", `f:3:4: expected ")"`},
		{"[] x == 1", "f:3:2: temporal operator [] inside an expression"},
		{"(p U q) + 1", "f:3:5: temporal operator U inside an expression"},
		{"p $ q", "f:3:4: unexpected character"},
		{"len(c > 0", "f:3:5: unbalanced ("},
		{"U", "expected a proposition, found operator U"},
		{"a[1", `expected "]"`},
		{"p\n && U", "f:4:5: expected a proposition"},
		{"/* x", "comment not terminated"},
		// A reference names a field, a label or a remote variable after
		// its punctuation.
		{"a.1", "f:3:4: expected a field name after '.', found "},
		{"p@ == 1", "f:3:5: expected a label after '@', found "},
		{"p[0]:(1)", "f:3:7: expected a variable after ':', found "},
		{"99999999999999999999", "malformed number"},
	} {
		_, err := Parse(Pos{File: "f", Line: 3, Col: 2}, c.in)
		if err == nil {
			t.Errorf("Parse(%q): no error, want %q", c.in, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseSpecs(t *testing.T) {
	src := "ltl fairness { []<>(!in_transit) }\n/* c */ ltl relay { [](ex_acc -> <>all_acc) }\nltl { p }\n"
	specs, err := ParseSpecs("m.ltl", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 3 || specs[0].Name != "fairness" || specs[1].Name != "relay" || specs[2].Name != "ltl_2" {
		t.Fatalf("specs = %+v", specs)
	}
	if got := specs[1].Formula.String(); got != "[](ex_acc -> <>all_acc)" {
		t.Errorf("relay = %s", got)
	}
	if p, _ := specs[1].Formula.AtomPos("all_acc"); p.String() != "m.ltl:2:36" {
		t.Errorf("all_acc at %s", p)
	}
	if _, err := ParseSpecs("m.ltl", "ltl a { p } ltl a { q }"); err == nil || !strings.Contains(err.Error(), "declared twice") {
		t.Errorf("duplicate name: %v", err)
	}
}
