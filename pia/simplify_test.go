package pia

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/promela"
)

func linOf(k int64, c map[string]int64) lin { return lin{c: c, k: k} }

// With T + M == N, nsnt0 + F + T + M >= N + 1 says nsnt0 + F >= 1.
func TestRewriteWithEquations(t *testing.T) {
	eqs := []lin{linOf(0, map[string]int64{"T": 1, "M": 1, "N": -1})}
	c := cons{l: linOf(-1, map[string]int64{"s:nsnt0": 1, "F": 1, "T": 1, "M": 1, "N": -1})}
	got := rewrite(c, eqs)
	want := linOf(-1, map[string]int64{"s:nsnt0": 1, "F": 1})
	if got.l.key() != want.key() || got.l.k != want.k || got.eq {
		t.Errorf("rewrite = %v, want %v", got.l, want)
	}
	// An equation that would make it heavier is not used.
	c2 := cons{l: linOf(0, map[string]int64{"s:nsnt0": 1, "N": -1})}
	if got := rewrite(c2, eqs); got.l.key() != c2.l.key() {
		t.Errorf("rewrite made %v into %v", c2.l, got.l)
	}
}

// Bosco's first case (moreNplus3Tdiv2 == N - T) writes the same thresholds
// in several ways; the guards of its automaton use each once: the
// thresholds of the two message counters and their sum, nothing else.
func TestGuardsUseEachThresholdOnce(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	path := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "promela", "bosco.pml")
	prog, err := promela.Load(path, promela.Options{Defines: map[string]string{"CASE1": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Extract(context.Background(), prog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cases) != 1 {
		t.Fatalf("%d cases", len(res.Cases))
	}
	atoms := map[string]bool{}
	for _, m := range regexp.MustCompile(`when \((.*)\)`).FindAllStringSubmatch(string(res.Cases[0].Text), -1) {
		for _, a := range regexp.MustCompile(`\|\||&&`).Split(m[1], -1) {
			a = strings.Trim(a, " ()")
			if a != "true" {
				atoms[a] = true
			}
		}
	}
	if len(atoms) > 9 {
		t.Errorf("%d distinct constraints in the guards, want at most 9: %v", len(atoms), atoms)
	}
}

// evalBF evaluates b with every symbol of its constraints at x.
func evalBF(b *bf, x int64) bool {
	switch b.op {
	case 't':
		return true
	case 'f':
		return false
	case 'c':
		v := b.c.l.k
		for _, c := range b.c.l.c {
			v += c * x
		}
		if b.c.eq {
			return v == 0
		}
		return v >= 0
	case '&', '|':
		for _, k := range b.kids {
			if evalBF(k, x) != (b.op == '&') {
				return !(b.op == '&')
			}
		}
		return b.op == '&'
	}
	panic("bf op " + string(b.op))
}

// cmp builds each comparison, and its negation, with the symbol on either
// side: x op 3 and 3 op x for x from 0 to 6.
func TestCmp(t *testing.T) {
	ops := map[promela.Token]func(a, b int64) bool{
		promela.LSS: func(a, b int64) bool { return a < b },
		promela.LEQ: func(a, b int64) bool { return a <= b },
		promela.GTR: func(a, b int64) bool { return a > b },
		promela.GEQ: func(a, b int64) bool { return a >= b },
		promela.EQL: func(a, b int64) bool { return a == b },
		promela.NEQ: func(a, b int64) bool { return a != b },
	}
	for op, holds := range ops {
		for _, neg := range []bool{false, true} {
			for _, symLeft := range []bool{false, true} {
				a, b := symLin("x"), constLin(3)
				if !symLeft {
					a, b = b, a
				}
				f, err := cmp(op, a, b, neg)
				if err != nil {
					t.Fatal(err)
				}
				for x := int64(0); x <= 6; x++ {
					l, r := x, int64(3)
					if !symLeft {
						l, r = r, l
					}
					if got, want := evalBF(f, x), holds(l, r) != neg; got != want {
						t.Errorf("%v %s %v (negated %v) at x = %d: %v, want %v", a, op, b, neg, x, got, want)
					}
				}
			}
		}
	}
}

// The specifications' !, <->, all and some translate over the counters of
// frb.pml's locations, ! turning an approximation over, and <-> over a
// proposition that the abstraction decides only approximately (in_transit)
// is refused at the operator.
func TestSpecOperators(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	path := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "promela", "frb.pml")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, "\natomic all_below = all(Proc:nrcvd < nsnt);"...)
	const exAcc, allAcc = "(loc2_1 != 0 || loc2_0 != 0)", "(loc0_0 == 0 && loc1_0 == 0 && loc0_1 == 0)"
	// Under a negation, in_transit is over-approximated.
	const inTransitOver = "((loc0_0 != 0 && (nsnt >= 1)) || (loc1_0 != 0 && (nsnt >= 1)) || (loc2_1 != 0 && (nsnt >= 2)) || " +
		"(loc3_1 != 0 && (nsnt >= 2)) || (loc0_1 != 0 && (nsnt >= 2)) || (loc2_0 != 0 && (nsnt >= 1)) || (loc3_0 != 0 && (nsnt >= 1)))"
	for _, c := range []struct{ spec, want string }{
		{"!(<>ex_acc)", "probe: !(<>" + exAcc + ");"},
		{"!(<>in_transit)", "probe: !(<>" + inTransitOver + ");"},
		{"[](all_below)", "probe: []((loc0_0 == 0 || (!(0 >= nsnt))) && (loc1_0 == 0 || (!(0 >= nsnt))) && loc2_1 == 0 && loc3_1 == 0 && " +
			"loc0_1 == 0 && (loc2_0 == 0 || (!(0 >= nsnt))) && (loc3_0 == 0 || (!(0 >= nsnt))));"},
		{"!(all_below)", "probe: !((loc0_0 == 0 || (nsnt >= 1)) && (loc1_0 == 0 || (nsnt >= 1)) && (loc2_1 == 0 || (nsnt >= 2)) && " +
			"(loc3_1 == 0 || (nsnt >= 2)) && (loc0_1 == 0 || (nsnt >= 2)) && (loc2_0 == 0 || (nsnt >= 1)) && (loc3_0 == 0 || (nsnt >= 1)));"},
		{"[](all_crash)", "probe: [](loc0_0 == 0 && loc1_0 == 0 && loc2_1 == 0 && loc0_1 == 0 && loc2_0 == 0);"},
		{"[](ex_acc <-> all_acc)", "probe: []((" + exAcc + " -> " + allAcc + ") && (" + allAcc + " -> " + exAcc + "));"},
		{"[](in_transit <-> ex_acc)", "frb.pml:134:27: <-> over propositions that the abstraction does not decide exactly"},
		{"[](ex_acc <-> in_transit)", "frb.pml:134:23: <-> over propositions that the abstraction does not decide exactly"},
	} {
		prog, err := promela.Parse("frb.pml", append(src, "\nltl probe { "+c.spec+" }\n"...), promela.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Extract(context.Background(), prog, Options{})
		var got string
		if err != nil {
			got = err.Error()
		} else {
			got = regexp.MustCompile(`probe: .*`).FindString(string(res.Cases[0].Text))
		}
		if got != c.want {
			t.Errorf("ltl { %s }: %s, want %s", c.spec, got, c.want)
		}
	}
}

// parseLin reads the thresholds of a piaDom.thresholds pragma: linear
// terms over the parameters with + - * and parentheses, and says what is
// wrong with anything else.
func TestParseLin(t *testing.T) {
	x := &extractor{params: []*promela.Symbol{{Name: "N"}, {Name: "T"}}}
	for _, c := range []struct{ src, want string }{
		{"N", "1*N+ 0"},
		{"N - 2*T + 1", "1*N+-2*T+ 1"},
		{"2 * (N - T) - -3", "2*N+-2*T+ 3"},
		{"N*3*2 - T - T", "6*N+-2*T+ 0"},
		{" ( N ) ", "1*N+ 0"},
		{"N*T", "the product of two parameters is not linear"},
		{"N + X", "X is not a parameter of the model"},
		{"N +", "expected a number, a parameter or ( at the end"},
		{"(N", "expected ) at column 3"},
		{"N )", `unexpected ")" at column 3`},
		{"N / 2", `unexpected "/ 2" at column 3`},
		{"N + #", `unexpected "#" at column 5`},
		{"99999999999999999999", `"99999999999999999999": strconv.ParseInt: parsing "99999999999999999999": value out of range`},
		{"4611686018427387904 * 2", "integer overflow in a linear term"},
		{"9223372036854775807 + 1", "integer overflow in a linear term"},
	} {
		var got string
		if l, err := x.parseLin(c.src); err != nil {
			got = err.Error()
		} else {
			got = fmt.Sprintf("%s %d", l.key(), l.k)
		}
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.src, got, c.want)
		}
	}
}

// FuzzParseLin: whatever the text, parseLin gives a term or an error,
// and never panics.
func FuzzParseLin(f *testing.F) {
	for _, s := range []string{"N - 2*T + 1", "2 * (N - T) - -3", "N*T", "(N", "N )"} {
		f.Add(s)
	}
	x := &extractor{params: []*promela.Symbol{{Name: "N"}, {Name: "T"}}}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1000 {
			return
		}
		x.parseLin(s)
	})
}
