package compile

import (
	"fmt"
	"strings"
	"testing"

	"ftmc/promela"
)

// TestPredicate compiles propositions over states: globals, remote
// references, channel lengths, np_ and ByMC's quantifiers.
func TestPredicate(t *testing.T) {
	cases := []struct {
		expr       string
		init, full bool // in the initial state, and once both processes have sent
	}{
		{"len(c) == 2 && _nr_pr == 2", false, true},
		{"x == 0", true, false},
		{"P[0]@L", true, false},
		{"P[1]:y == 1", false, true},
		{"np_", true, true},
		{"all(P:y == 0)", true, false},
		{"some(P:y == 1)", false, true},
		{"card(P:y == 1) == 1", false, true},
	}
	var b strings.Builder
	b.WriteString("byte x; chan c = [2] of { byte };\n")
	b.WriteString("active [2] proctype P() { byte y; L: y = _pid; progress: x++; c!y }\n")
	for i, c := range cases {
		// ByMC's quantifiers are allowed only in named propositions.
		fmt.Fprintf(&b, "atomic q%d = %s;\nltl f%d { q%d }\n", i, c.expr, i, i)
	}
	prog, err := promela.Parse("p.pml", []byte(b.String()), promela.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(prog)
	if err != nil {
		t.Fatal(err)
	}
	var init, full []byte
	_ = m.Initial(func(v []byte) { init = append([]byte(nil), v...) })
	isFull, err := m.Predicate(prog.LTL[0].Formula)
	if err != nil {
		t.Fatal(err)
	}
	for v := range explore(m, 0).seen {
		if isFull([]byte(v)) {
			full = []byte(v)
		}
	}
	if full == nil {
		t.Fatal("no state with a full channel")
	}
	for i, c := range cases {
		p, err := m.Predicate(prog.LTL[i].Formula)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := p(init); got != c.init {
			t.Errorf("%s in the initial state: %v, want %v", c.expr, got, c.init)
		}
		if got := p(full); got != c.full {
			t.Errorf("%s with a full channel: %v, want %v", c.expr, got, c.full)
		}
	}
	if m.AtProgress(init) || m.AtProgress(full) {
		t.Error("no process is at its progress label in these states")
	}
	if _, err := m.Predicate(&promela.Ident{Name: "nothing"}); err == nil {
		t.Error("an unresolved name compiled")
	}
}
