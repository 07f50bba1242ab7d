package system_test

import (
	"testing"

	"ftmc/mcmt"
	"ftmc/mcmt/system"
)

// EnabledParams sees every process, also past the 64 that a set of running
// processes can hold: one parameter ranges over all of them, and a universal
// guard reads the last one.
func TestEnabledParamsManyProcesses(t *testing.T) {
	s, err := mcmt.Parse("many.cub", []byte(`
array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True }
transition go (i) requires { A[i] = False } { A[i] := True }
transition all (i) requires { A[i] = False && forall_other k. A[k] = False } { A[i] := True }
`), "")
	if err != nil {
		t.Fatal(err)
	}
	const n = 70
	c, err := system.Compile(s, n)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]int64, c.Size)
	env := make([]int, c.EnvSize())
	count := func(ti int) int {
		k := 0
		c.EnabledParams(ti, vals, env, func([]int) { k++ })
		return k
	}
	if got := count(0); got != n {
		t.Errorf("go: %d assignments enabled, want %d", got, n)
	}
	if got := count(1); got != n {
		t.Errorf("all with every A false: %d assignments enabled, want %d", got, n)
	}
	vals[c.Slot(s.Vars[0], n-1)] = 1
	if got := count(0); got != n-1 {
		t.Errorf("go with A[%d] true: %d assignments enabled, want %d", n-1, got, n-1)
	}
	if got := count(1); got != 0 {
		t.Errorf("all with A[%d] true: %d assignments enabled, want none", n-1, got)
	}
}
