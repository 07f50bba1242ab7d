package backreach

import (
	"testing"

	"ftmc/mcmt/system"
)

// A state learnt from a larger instance satisfies a cube when some
// placement of the cube's process variables on distinct processes makes
// every literal hold, not only the first placement tried; an instance too
// small for the cube never does.
func TestReachedLearnt(t *testing.T) {
	sys := parse(t, "learnt.cub", `
array A[proc] : bool
array B[proc] : int
init (i) { A[i] = False && B[i] = 0 }
unsafe (i j) { A[i] = True && A[j] = False && B[i] = B[j] + 2 }
transition go (i) requires { A[i] = False } { A[i] := True; B[i] := B[i] + 2 }
`)
	e, err := newEngine(sys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := e.cubes(sys.Unsafe[0])
	if err != nil || len(cs) != 1 {
		t.Fatalf("cubes of the unsafe formula: %v, %v", cs, err)
	}
	c := cs[0]
	a, b := sys.Var("A"), sys.Var("B")
	for _, tc := range []struct {
		name string
		n    int
		a, b []int64 // per process
		want bool
	}{
		{"last two processes", 3, []int64{0, 0, 1}, []int64{0, 0, 2}, true},
		{"reversed", 3, []int64{0, 1, 0}, []int64{5, 7, 5}, true},
		{"no difference of 2", 3, []int64{0, 0, 1}, []int64{0, 0, 1}, false},
		{"all set", 3, []int64{1, 1, 1}, []int64{2, 2, 0}, false},
		{"one process", 1, []int64{1}, []int64{2}, false},
	} {
		conc, err := system.Compile(sys, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		vals := make([]int64, conc.Size)
		for p := range tc.n {
			vals[conc.Slot(a, p)], vals[conc.Slot(b, p)] = tc.a[p], tc.b[p]
		}
		o := &oracle{}
		o.learn(conc, [][]int64{vals})
		if got := o.reachedLearnt(e, c); got != tc.want {
			t.Errorf("%s: reached %v, want %v", tc.name, got, tc.want)
		}
	}
}
