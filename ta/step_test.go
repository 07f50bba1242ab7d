package ta

import (
	"path/filepath"
	"testing"

	"ftmc/trace"
)

// TestStep: a rule's counterexample step moves no one process; its event
// moves processes from the rule's source location to its target, and the
// step names its rule (ftmc verify's guided replay reads it).
func TestStep(t *testing.T) {
	f, err := ParseFile(filepath.Join("..", "examples", "threshold", "st-byz.ta"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Rules {
		for _, times := range []int64{0, 3} {
			st := f.Step(r, times)
			if st.Pid != -1 || st.Proc != f.Name+" processes" || st.Stmt != r.From+" -> "+r.To || st.Multiplicity != times || st.Rule != r.Name() {
				t.Errorf("%s x %d: step %+v", r.Name(), times, st)
			}
			if len(st.Events) != 1 {
				t.Fatalf("%s x %d: events %+v, want one move", r.Name(), times, st.Events)
			}
			if ev := st.Events[0]; ev.Type != "move" || ev.Msg != r.Name() || ev.From != r.From || ev.To != r.To {
				t.Errorf("%s x %d: event %+v, want the move %s: %s -> %s", r.Name(), times, ev, r.Name(), r.From, r.To)
			}
		}
	}
	if len(f.Rules) == 0 {
		t.Fatal("no rules")
	}
}

// TestProcesses: the lifelines of the automaton's counterexamples are its
// locations, with their counts at the start; an empty one is optional.
func TestProcesses(t *testing.T) {
	f, err := ParseFile(filepath.Join("..", "examples", "threshold", "st-byz.ta"))
	if err != nil {
		t.Fatal(err)
	}
	ps := f.Processes([]int64{2, 1})
	if len(ps) != len(f.Locations) {
		t.Fatalf("%d processes, want one per location (%d)", len(ps), len(f.Locations))
	}
	for i, p := range ps {
		var n int64
		if i < 2 {
			n = []int64{2, 1}[i]
		}
		want := trace.Process{Pid: i, Name: f.Locations[i].Name, Role: trace.RoleLocation, Group: "StByz processes", Count: n, Optional: n == 0}
		if p != want {
			t.Errorf("location %d: %+v, want %+v", i, p, want)
		}
	}
}
