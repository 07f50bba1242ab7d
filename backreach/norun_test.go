package backreach

import (
	"strings"
	"testing"

	"ftmc/trace"
)

// TestNoRunIsUnknown: a system without an initial state of one process
// (and so of any number), or whose axioms contradict each other or every
// initial state, has no run the proof speaks of: the verdict is unknown
// with the reason, never holds.
func TestNoRunIsUnknown(t *testing.T) {
	const lock = `
type loc = Idle | Want | Crit
var Lock : bool
array Pc[proc] : loc
INIT
unsafe (i j) { Pc[i] = Crit && Pc[j] = Crit }
transition enter (i)
requires { Pc[i] = Idle && Lock = False }
{ Pc[i] := Crit; Lock := True }
transition leave (i)
requires { Pc[i] = Crit }
{ Pc[i] := Idle; Lock := False }
`
	for _, c := range []struct {
		name, init string
		want       []string // in the reason; nil: holds
	}{
		{"lock.cub", "init (i) { Pc[i] = Idle && Lock = False }", nil},
		{"globals.cub", "init (i) { Pc[i] = Idle && Lock = False && Lock = True }", []string{"no initial state", "globals.cub:5:1", "nothing was checked"}},
		{"local.cub", "init (i) { Pc[i] = Idle && Pc[i] = Crit }", []string{"no initial state", "local.cub:5:1"}},
		// For i = j: Pc[i] <> Pc[i].
		{"pair.cub", "init (i j) { Pc[i] <> Pc[j] && Lock = False }", []string{"no initial state"}},
	} {
		r := verify(t, parse(t, c.name, strings.Replace(lock, "INIT", c.init, 1)), Options{})
		if c.want == nil {
			if r.Verdict != trace.Holds {
				t.Errorf("%s: %s (%s), want holds", c.name, r.Verdict, r.Reason)
			}
			continue
		}
		if r.Verdict != trace.Unknown {
			t.Errorf("%s: %s, want unknown", c.name, r.Verdict)
		}
		for _, w := range c.want {
			if !strings.Contains(r.Reason, w) {
				t.Errorf("%s: the reason %q lacks %q", c.name, r.Reason, w)
			}
		}
	}

	// Axioms (MCMT's system_axiom), on the seed model.
	for _, c := range []struct {
		name, axiom string
		want        string
	}{
		{"contradiction.mcmt", "system_axiom (universal x:nat) { (round[x] > 9) }", "the system axioms contradict each other"},
		{"noinit.mcmt", "system_axiom (universal x:nat) { (coord[x] = true) }", "no initial state satisfies the system axioms"},
	} {
		src := mutate(t, seed(t), "/* LEMMA 2.3 */", "/* LEMMA 2.3 */ "+c.axiom)
		r := verify(t, parse(t, c.name, src), Options{})
		if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, c.want) || !strings.Contains(r.Reason, "nothing was checked") {
			t.Errorf("%s: %s (%s), want unknown: %s", c.name, r.Verdict, r.Reason, c.want)
		}
	}
}
