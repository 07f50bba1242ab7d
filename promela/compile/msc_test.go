package compile

import (
	"fmt"
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

// A message sent on a buffered channel that one process receives from
// names that process as its partner (charts draw a message still in the
// channel towards it), and a step that fails at assert(nfull(c)) before
// c!m shows that send, not made, with the reason.
func TestSendPartnerAndRefusedSend(t *testing.T) {
	m := compileSrc(t, `
chan c = [1] of { byte };
active proctype S() { c!1; assert(nfull(c)); c!2 }
active proctype R() { bit go; byte x; go -> c?x }
`, nil)
	var s0 []byte
	m.Initial(func(v []byte) { s0 = append([]byte(nil), v...) })
	c := &collect{}
	m.Next(s0, c)
	if len(c.succ) != 1 {
		t.Fatalf("%d successors of the initial state, want S's send only", len(c.succ))
	}
	st := m.Explain(c.succ[0], s0, c.to[0])
	if len(st.Events) != 1 || st.Events[0].Type != "send" || st.Events[0].Partner != 1 {
		t.Fatalf("send events %+v, want one to pid 1 (R, the only process that receives from c)", st.Events)
	}
	s1 := c.to[0]
	c = &collect{}
	m.Next(s1, c)
	if len(c.fails) != 1 {
		t.Fatalf("%d failing transitions, want the assertion", len(c.fails))
	}
	st = m.Explain(c.fails[0], s1, s1)
	var failed []string
	for _, ev := range st.Events {
		if ev.Failed {
			failed = append(failed, fmt.Sprintf("%s!%s to %d: %s", ev.Chan, ev.Msg, ev.Partner, ev.Text))
		}
	}
	if len(failed) != 1 || failed[0] != "c!2 to 1: full" {
		t.Errorf("refused sends %q, want [\"c!2 to 1: full\"]", failed)
	}
}

// A channel that two processes receive from has no single receiver.
func TestSendPartnerUnknownWithTwoReaders(t *testing.T) {
	m := compileSrc(t, `
chan d = [1] of { byte };
active proctype S() { d!1 }
active [2] proctype R() { byte y; d?y }
`, nil)
	var s0 []byte
	m.Initial(func(v []byte) { s0 = append([]byte(nil), v...) })
	c := &collect{}
	m.Next(s0, c)
	for i, tr := range c.succ {
		for _, ev := range m.Explain(tr, s0, c.to[i]).Events {
			if ev.Type == "send" && ev.Partner != -1 {
				t.Errorf("send %+v names a partner, but two processes receive from d", ev)
			}
		}
	}
}

// A printf("MSC: drop MSG to DEST") after a full(c) guard in the same
// step is the message dropped on c, towards c's reader; without the guard
// the channel and the receiver are unknown, and another printf is a local
// event.
func TestDropEvent(t *testing.T) {
	m := compileSrc(t, `
mtype = { PING };
chan c = [0] of { mtype };
chan d = [1] of { mtype };
active proctype S() {
	d!PING;
	atomic { full(d) -> printf("MSC: drop %e to node 1\n", PING) };
	printf("MSC: drop %e to node 2\n", PING);
	printf("MSC: dropped nothing\n")
}
active proctype R(byte node) { c?PING; d?PING }
`, nil)
	var s []byte
	m.Initial(func(v []byte) { s = append([]byte(nil), v...) })
	var got []string
	for range 4 {
		c := &collect{}
		m.Next(s, c)
		if len(c.succ) != 1 {
			t.Fatalf("%d successors, want S's step only", len(c.succ))
		}
		for _, ev := range m.Explain(c.succ[0], s, c.to[0]).Events {
			got = append(got, fmt.Sprintf("%s %s %q to %d dropped=%v %q", ev.Type, ev.Chan, ev.Msg, ev.Partner, ev.Dropped, ev.Text))
		}
		s = c.to[0]
	}
	want := []string{
		`send d "PING" to 1 dropped=false ""`,
		`send d "PING" to 1 dropped=true ""`,
		`send  "PING" to -1 dropped=true ""`,
		`local  "" to -1 dropped=false "dropped nothing"`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events\n%q\nwant\n%q", got, want)
	}
}

// The processes of a run are those of its final state, with their
// proctype and node; one at its end is drawn only if it draws something.
func TestProcesses(t *testing.T) {
	m := compileSrc(t, `
proctype P(byte node) { skip }
proctype Q() { byte x; x > 0 }
init { atomic { run P(3); run Q() } }
`, nil)
	var s []byte
	m.Initial(func(v []byte) { s = append([]byte(nil), v...) })
	first := s
	// init's step starts P and Q and ends.
	c := &collect{}
	m.Next(s, c)
	s = c.to[0]
	got := fmt.Sprintf("%+v", m.Processes(first, s))
	want := "[{Pid:0 Name::init: Role:process Group: Optional:true Count:0} {Pid:1 Name:P Role:process Group:3 Optional:false Count:0} {Pid:2 Name:Q Role:process Group: Optional:false Count:0}]"
	if got != want {
		t.Errorf("processes\n%s\nwant\n%s", got, want)
	}
}
