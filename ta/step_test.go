package ta

import (
	"path/filepath"
	"testing"
)

// TestStep: a rule's counterexample step is on the automaton's one
// lifeline, with the rule and its locations as its event, and StepRule
// gives the rule back (ftmc verify's guided replay reads it).
func TestStep(t *testing.T) {
	f, err := ParseFile(filepath.Join("..", "examples", "threshold", "st-byz.ta"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Rules {
		for _, times := range []int64{0, 3} {
			st := f.Step(r, times)
			if st.Pid != 0 || st.Proc != f.Name+" processes" || st.Stmt != r.From+" -> "+r.To || st.Multiplicity != times {
				t.Errorf("%s x %d: step %+v", r.Name(), times, st)
			}
			if got := StepRule(st); got != r.Name() {
				t.Errorf("%s x %d: StepRule = %q", r.Name(), times, got)
			}
		}
	}
	if len(f.Rules) == 0 {
		t.Fatal("no rules")
	}
}
