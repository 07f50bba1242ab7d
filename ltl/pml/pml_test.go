package pml

import (
	"fmt"
	"math/rand"
	"os/exec"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/ltl"
	"ftmc/promela"
)

func parse(t *testing.T, src string) *promela.Program {
	t.Helper()
	prog, err := promela.Parse("test.pml", []byte(src), promela.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return prog
}

func TestFormulaMatchesLTLParser(t *testing.T) {
	formulas := []string{
		"[] p", "[]<>p && <>[]q", "p || q && r", "p -> q -> r", "p U q U r", "p U q && r",
		"[] p U q", "! p U q", "p -> q U r", "p <-> q -> r", "p weakuntil q", "p release q",
		"always (p implies eventually q)", "p equivalent q", "(x > 3) U (x < 2)", "x+1 > y*2",
		"x == y && y != 3", "! (x == 1)", "a[1] > 0", "[](p -> <>(x == 2))", "true U x",
		"[]((p && q) -> []!r)", "X (p U X q)",
	}
	var src strings.Builder
	src.WriteString("bit p, q, r, a[2]; byte x, y;\nactive proctype P() { x++ }\n")
	for i, f := range formulas {
		fmt.Fprintf(&src, "ltl f%d { %s }\n", i, f)
	}
	prog := parse(t, src.String())
	names := Names(prog)
	for i, d := range prog.LTL {
		if names[i] != fmt.Sprintf("f%d", i) {
			t.Errorf("name %s", names[i])
		}
		got, atoms, err := Formula(d.Formula)
		if err != nil {
			t.Errorf("%s: %v", formulas[i], err)
			continue
		}
		want, err := ltl.Parse(ltl.Pos{}, formulas[i])
		if err != nil {
			t.Fatal(err)
		}
		if !ltl.Equal(got, want) {
			t.Errorf("ltl f%d { %s }: %s, the ltl parser reads %s", i, formulas[i], got, want)
		}
		for _, a := range got.Atoms() {
			if atoms[a] == nil {
				t.Errorf("%s: no expression for atom %q", formulas[i], a)
			}
		}
	}
}

func TestNames(t *testing.T) {
	prog := parse(t, "byte x; active proctype P() { x++ }\nltl { [] (x < 3) }\nltl named { <> (x == 1) }\nltl { x == 0 }\n")
	got := strings.Join(Names(prog), " ")
	if got != "ltl_0 named ltl_1" {
		t.Errorf("names %s", got)
	}
}

// evalBool evaluates a Boolean guard over the bits of v (atom names bit i).
func evalBool(x promela.Expr, names []string, v uint64) int64 {
	switch x := x.(type) {
	case *promela.IntLit:
		return x.Value
	case *promela.Ident:
		for i, n := range names {
			if n == x.Name {
				return int64(v >> i & 1)
			}
		}
		panic("unknown name " + x.Name)
	case *promela.UnaryExpr:
		if x.Op == promela.NOT {
			if evalBool(x.X, names, v) == 0 {
				return 1
			}
			return 0
		}
	case *promela.BinaryExpr:
		l, r := evalBool(x.X, names, v), evalBool(x.Y, names, v)
		switch x.Op {
		case promela.LAND:
			if l != 0 && r != 0 {
				return 1
			}
			return 0
		case promela.LOR:
			if l != 0 || r != 0 {
				return 1
			}
			return 0
		}
	}
	panic("unexpected guard " + promela.ExprString(x))
}

// TestClaimsFromSpin reads the never claims `spin -f` writes for the
// negations of a list of formulas and checks, on random lassos, that each
// accepts exactly the words on which the negated formula holds.
func TestClaimsFromSpin(t *testing.T) {
	testenv.NeedBinary(t, "spin")
	rng := rand.New(rand.NewSource(5))
	vars := []string{"p", "q", "r"}
	for _, src := range []string{
		"[] p", "<> p", "p U q", "p U (q U r)", "[]<>p -> []<>q", "<>p U []q", "[](p -> <>q)",
		"[]<>p && []<>q", "<>[]p || <>[]q", "!(p U q)", "[](p -> (q U r))", "(p V q) || [](r)",
		"true", "false", "[]((q && !r) -> (!p U r))",
	} {
		out, err := exec.Command("spin", "-f", "!("+src+")").CombinedOutput()
		if err != nil {
			t.Fatalf("spin -f: %v\n%s", err, out)
		}
		model := "bit p, q, r;\nactive proctype P() { do :: p = 1 - p od }\n" + string(out)
		prog := parse(t, model)
		if len(prog.Nevers) != 1 {
			t.Fatalf("%d never claims", len(prog.Nevers))
		}
		a, atoms, err := Claim(prog.Nevers[0])
		if err != nil {
			t.Fatalf("!(%s): %v\n%s", src, err, out)
		}
		f, err := ltl.Parse(ltl.Pos{}, src)
		if err != nil {
			t.Fatal(err)
		}
		neg := ltl.Not(f)
		for i := 0; i < 300; i++ {
			w := randLasso(rng)
			want := neg.Holds(w, vars)
			// The claim's atoms are guard expressions: evaluate each one.
			conv := func(v uint64) uint64 {
				var r uint64
				for k, name := range a.Atoms {
					if evalBool(atoms[name], vars, v) != 0 {
						r |= 1 << k
					}
				}
				return r
			}
			var cw ltl.Lasso
			for _, v := range w.Prefix {
				cw.Prefix = append(cw.Prefix, conv(v))
			}
			for _, v := range w.Loop {
				cw.Loop = append(cw.Loop, conv(v))
			}
			if got := a.Accepts(cw); got != want {
				t.Fatalf("!(%s): the claim accepts %v: %v, want %v\n%s\n%s", src, w, got, want, out, a)
			}
		}
	}
}

func randLasso(rng *rand.Rand) ltl.Lasso {
	var w ltl.Lasso
	for i := rng.Intn(4); i > 0; i-- {
		w.Prefix = append(w.Prefix, uint64(rng.Intn(8)))
	}
	for i := 1 + rng.Intn(4); i > 0; i-- {
		w.Loop = append(w.Loop, uint64(rng.Intn(8)))
	}
	return w
}

func TestClaimShapes(t *testing.T) {
	for _, c := range []struct {
		claim  string
		states int
		err    string
	}{
		{"never { do :: x == 5 -> break :: else od }", 2, ""},
		{"never { T0: if :: x > 0 -> goto accept_1 :: else -> goto T0 fi; accept_1: x > 0 -> goto accept_1 }", 2, ""},
		{"never { skip }", 2, ""},
		{"never { x = 1 }", 0, "changes the state"},
		{"never { goto nowhere }", 0, "nowhere"},
		{"never { atomic { x > 0 -> x > 1 } }", 0, "can block"},
		{"never { do :: assert(x < 5) od }", 2, ""},
		{"never { L: goto L }", 0, "infinite loop of gotos"},
		{"never { T0: if :: if :: x == 1 -> goto T0 :: else -> goto accept_A fi :: x == 2 -> goto T0 fi; accept_A: do :: true od }", 0, "else in an if or do that is an option of another"},
		{"never { do :: if :: x == 1 -> break :: else fi od }", 2, ""},
		{"never { do :: else :: if :: x > 1 -> skip fi od }", 2, ""},
		{"never { if :: else -> goto L :: if :: x > 1 fi fi; L: skip }", 3, ""},
	} {
		prog, err := promela.Parse("t.pml", []byte("byte x; active proctype P() { x++ }\n"+c.claim), promela.Options{})
		if err != nil {
			if c.err != "" && strings.Contains(err.Error(), c.err) {
				continue
			}
			t.Fatalf("%s: %v", c.claim, err)
		}
		a, _, err := Claim(prog.Nevers[0])
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want an error with %q", c.claim, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.claim, err)
			continue
		}
		if n, _ := a.Size(); n != c.states {
			t.Errorf("%s: %d states, want %d\n%s", c.claim, n, c.states, a)
		}
	}
}
