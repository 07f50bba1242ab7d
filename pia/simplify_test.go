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
