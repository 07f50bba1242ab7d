package pml

import (
	"strings"
	"testing"

	"ftmc/promela"
)

// FuzzClaim turns never claims into automata: whatever the claim, Claim
// returns an automaton that validates, or an error with a position, and
// never panics.
func FuzzClaim(f *testing.F) {
	for _, c := range []string{
		"never { do :: x == 5 -> break :: else od }",
		"never { T0: if :: x > 0 -> goto accept_1 :: else -> goto T0 fi; accept_1: x > 0 -> goto accept_1 }",
		"never { skip }",
		"never { L: goto L }",
		"never { do :: if :: x == 1 -> break :: else fi od }",
		"never { T0_init: do :: atomic { (x > 1) -> assert(!(x > 1)) } :: (1) -> goto T0_init od; accept_all: skip }",
		"never { if :: else -> goto L :: if :: x > 1 fi fi; L: skip }",
		"never { do :: d_step { x > 0; x > 1 } od }",
	} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, claim string) {
		src := "byte x; active proctype P() { x++ }\n" + claim
		prog, err := promela.Parse("f.pml", []byte(src), promela.Options{})
		if err != nil || len(prog.Nevers) == 0 {
			return
		}
		a, _, err := Claim(prog.Nevers[0])
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.pml:") {
				t.Fatalf("%q: error without a position: %v", claim, err)
			}
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("%q: %v", claim, err)
		}
	})
}
