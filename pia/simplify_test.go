package pia

import (
	"context"
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
