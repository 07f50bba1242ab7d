package system_test

import (
	"fmt"
	"testing"

	"ftmc/mcmt"
	"ftmc/mcmt/system"
	"ftmc/state"
	"ftmc/trace"
)

// The lifelines of an instance's counterexamples are its process indexes,
// named as the transitions' descriptions name them, and a step names the
// transition it fires and moves the process it is instantiated with.
func TestProcessesAndStep(t *testing.T) {
	s, err := mcmt.Parse("lock.cub", []byte(`
type loc = Idle | Crit
array Pc[proc] : loc
init (i) { Pc[i] = Idle }
unsafe (i j) { Pc[i] = Crit && Pc[j] = Crit }
transition enter (i j)
requires { Pc[i] = Idle && Pc[j] = Idle }
{ Pc[i] := Crit }
`), "")
	if err != nil {
		t.Fatal(err)
	}
	in, err := system.NewInstance(s, 3)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%+v", state.Processes(in, nil, nil))
	want := fmt.Sprintf("%+v", []trace.Process{{Pid: 0, Name: "#0", Role: trace.RoleIndex}, {Pid: 1, Name: "#1", Role: trace.RoleIndex}, {Pid: 2, Name: "#2", Role: trace.RoleIndex}})
	if got != want {
		t.Errorf("processes %s, want %s", got, want)
	}
	st := in.C.Step(0, []int{2, 0})
	if st.Pid != 2 || st.Proc != "#2" || st.Rule != "enter" || len(st.Events) != 1 || st.Events[0].Text != "enter" {
		t.Errorf("step %+v, want enter on #2", st)
	}
}
