package compile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/promela"
	"ftmc/state"
)

type collect struct {
	succ  []state.Trans
	to    [][]byte
	fails []state.Trans
}

func (c *collect) Succ(t state.Trans, v []byte) {
	c.succ = append(c.succ, t)
	c.to = append(c.to, append([]byte(nil), v...))
}

func (c *collect) Fail(t state.Trans, _, _ string) { c.fails = append(c.fails, t) }

// TestExplain explains every step out of the first states of each model:
// every successor and every failure has a process, a position and a
// statement, and rendezvous steps show both ends of the message.
func TestExplain(t *testing.T) {
	files, _ := filepath.Glob("testdata/models/*.pml")
	var srcs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	for _, c := range semanticsCases {
		srcs = append(srcs, c.src)
	}
	rendezvous := 0
	for i, src := range srcs {
		m := compileNamed(t, "m.pml", []byte(src), promela.Options{})
		s := explore(m, 300)
		var states [][]byte
		_ = m.Initial(func(v []byte) { states = append(states, append([]byte(nil), v...)) })
		for v := range s.seen {
			states = append(states, []byte(v))
			if len(states) > 300 {
				break
			}
		}
		for _, from := range states {
			c := &collect{}
			m.Next(from, c)
			check := func(st state.Trans, to []byte) {
				step := m.Explain(st, from, to)
				if step.Proc == "" || step.Stmt == "" || step.Line == 0 {
					t.Fatalf("model %d: step %+v explained as %+v", i, st, step)
				}
				if strings.Contains(step.Stmt, "c!5; q[1]: c?x") || len(step.Events) == 2 {
					if step.Events[0].Type != "send" || step.Events[1].Type != "recv" || step.Events[0].Msg != step.Events[1].Msg {
						t.Errorf("model %d: rendezvous events %+v", i, step.Events)
					}
					rendezvous++
				}
			}
			for k, st := range c.succ {
				check(st, c.to[k])
			}
			for _, st := range c.fails {
				check(st, from)
			}
		}
	}
	if rendezvous == 0 {
		t.Error("no rendezvous step was explained")
	}
}
