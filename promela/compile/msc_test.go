package compile

import (
	"testing"

	"ftmc/state"
)

// A printf("MSC: ...") is a local event of its step, formatted with the
// values before the step; other printfs are not.
func TestLocalEvents(t *testing.T) {
	m := compileSrc(t, `
mtype = { PING, PONG };
byte x = 7;
proctype P(byte node) {
	atomic { x > 0 -> printf("MSC: suspect %d, %e %x%%\n", x + node, PONG, 255); printf("plain\n"); x = 0 }
}
init { run P(2) }
`, nil)
	var start []byte
	m.Initial(func(v []byte) { start = append([]byte(nil), v...) })
	// Run the init step, then P's step, and explain the latter.
	type edge struct {
		t  state.Trans
		to []byte
	}
	var succ []edge
	collect := sinkFunc(func(t state.Trans, v []byte) { succ = append(succ, edge{t, append([]byte(nil), v...)}) })
	m.Next(start, collect)
	if len(succ) != 1 {
		t.Fatalf("%d successors of the initial state", len(succ))
	}
	mid := succ[0].to
	succ = nil
	m.Next(mid, collect)
	var found bool
	for _, e := range succ {
		st := m.Explain(e.t, mid, e.to)
		if st.Proc != "P" {
			continue
		}
		found = true
		if st.Group != "2" {
			t.Errorf("group = %q, want the node parameter's value 2", st.Group)
		}
		var locals []string
		for _, ev := range st.Events {
			if ev.Type == "local" {
				locals = append(locals, ev.Text)
			}
		}
		if len(locals) != 1 || locals[0] != "suspect 9, PONG ff%" {
			t.Errorf("local events = %q, want [\"suspect 9, PONG ff%%\"]", locals)
		}
	}
	if !found {
		t.Fatal("no step of P")
	}
}

type sinkFunc func(state.Trans, []byte)

func (f sinkFunc) Succ(t state.Trans, v []byte)     { f(t, v) }
func (f sinkFunc) Fail(state.Trans, string, string) {}
