package compile

import (
	"strings"
	"testing"

	"ftmc/promela"
)

// A model in which no process starts (no init, no proctype active with
// an instance) is refused at a position, as Spin refuses it ("no runable
// process"): its one state and no step would make every property hold.
func TestNoProcessRuns(t *testing.T) {
	for _, c := range []struct {
		src     string
		defines map[string]string
		want    string // "" compiles
	}{
		{"", nil, "np.pml:1:1: no process runs: the model has no active proctype and no init"},
		{"int x;\n", nil, "np.pml:1:1: no process runs: the model has no active proctype and no init"},
		{"int x;\nproctype P() { assert(false) }\n", nil, "np.pml:2:1: no process runs: no proctype is active (P is declared without active) and the model has no init"},
		{"int x;\n\nactive [0] proctype P() { assert(false) }\n", nil, "np.pml:3:1: no process runs: active [0] proctype P starts no instance, and the model has no init"},
		{"active [N] proctype P() { assert(false) }\n", map[string]string{"N": "0"}, "np.pml:1:1: no process runs: active [0] proctype P starts no instance"},
		{"active [0] proctype P() { skip }\nnever { do :: true od }\n", nil, "np.pml:1:1: no process runs"},
		{"proctype P() { skip }\ninit { run P() }\n", nil, ""},
		{"active [0] proctype P() { skip }\nactive proctype Q() { skip }\n", nil, ""},
		{"active [N] proctype P() { skip }\n", map[string]string{"N": "1"}, ""},
	} {
		prog, err := promela.Parse("np.pml", []byte(c.src), promela.Options{Defines: c.defines})
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		_, err = Compile(prog)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.src, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
	}
}
