package system_test

import (
	"testing"

	"ftmc/mcmt"
	"ftmc/mcmt/system"
)

// An unsafe formula without process variables (Cubicle's unsafe () { .. }
// and unsafe { .. }) is a condition on the globals: a state that satisfies
// it is unsafe, with an empty witness.
func TestUnsafeWithoutProcesses(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		steps     int
	}{
		{"glob.cub", `
var X : bool
array A[proc] : bool
init (i) { X = False && A[i] = False }
unsafe () { X = True }
transition go (i)
requires { A[i] = False }
{ X := True }
`, 1},
		{"glob3.cub", `
type st = Lo | Mid | Hi
var X : st
array A[proc] : bool
init (i) { X = Lo && A[i] = False }
unsafe { X = Hi }
transition inc ()
requires { X <> Hi }
{ X := case | X = Lo : Mid | _ : Hi }
`, 2},
	} {
		s, err := mcmt.Parse(tc.name, []byte(tc.src), "")
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 3; n++ {
			in, err := system.NewInstance(s, n)
			if err != nil {
				t.Fatal(err)
			}
			r, err := system.Explore(t.Context(), in, system.ExploreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Unsafe == nil {
				t.Errorf("%s, %d processes: no violation found, want one after %d steps", tc.name, n, tc.steps)
				continue
			}
			if len(r.Unsafe.Steps) != tc.steps {
				t.Errorf("%s, %d processes: violation after %d steps, want %d", tc.name, n, len(r.Unsafe.Steps), tc.steps)
			}
		}
	}
}
