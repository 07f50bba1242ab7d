package compile

import (
	"fmt"
	"testing"

	"ftmc/state"
)

// TestAmple checks which processes of the initial state may be expanded
// alone: only those whose every transition touches their own variables,
// outside atomic sequences, without else, timeout, channels or run, or
// whose channel operations are on ends the program shows exclusive.
func TestAmple(t *testing.T) {
	cases := []struct {
		name, src string
		want      string
		after     []int32 // the pids whose steps lead to the state checked, from the initial one
	}{
		{"local steps", `active proctype P() { byte a; a++ }`, "[0]", nil},
		{"_pid and a local array", `active [2] proctype P() { byte a[2]; a[_pid] = _pid }`, "[1 0]", nil},
		{"a global write", `byte x; active proctype P() { x++ }`, "[]", nil},
		{"a global read", `byte x; active proctype P() { byte a; a = x }`, "[]", nil},
		{"an assertion on a global", `byte x; active proctype P() { assert(x == 0) }`, "[]", nil},
		{"an assertion on a local", `active proctype P() { byte a; assert(a == 0) }`, "[0]", nil},
		{"else", `active proctype P() { byte a; if :: a == 0 -> a++ :: else -> skip fi }`, "[0]", nil},
		{"else beside a global guard", `byte x; active proctype P() { byte a; if :: x == 0 -> a++ :: else -> skip fi }`, "[]", nil},
		{"else in atomic", `active proctype P() { byte a; a++; atomic { if :: a == 0 -> a++ :: else -> skip fi } }`, "[]", []int32{0}},
		{"else beside an xr receive", `chan c = [1] of { byte }; active proctype P() { xr c; byte a; a++; if :: c?a :: else -> skip fi }
			active proctype Q() { xs c; c!1 }`, "[1]", []int32{0, 1}},
		{"an end", `active proctype P() { byte a; a++ } active proctype Q() { byte b; b++ }`, "[1 0]", []int32{0, 1}},
		{"an end with run", `proctype R() { skip } active proctype P() { byte a; a++ } init { byte b; b++; run R() }`, "[1]", []int32{0}},
		{"an end with _nr_pr", `byte x; active proctype P() { byte a; a++ } active proctype Q() { byte b; b++; x = _nr_pr }`, "[1]", []int32{0}},
		{"an end that deletes a channel", `active proctype P() { chan c = [1] of { byte }; byte a; a++ }`, "[]", []int32{0}},
		{"timeout", `active proctype P() { byte a; timeout -> a++ }`, "[]", nil},
		{"a send", `chan c = [1] of { byte }; active proctype P() { c!1 }`, "[]", nil},
		{"a local channel", `active proctype P() { chan c = [1] of { byte }; c!1 }`, "[]", nil},
		{"len", `chan c = [1] of { byte }; active proctype P() { byte a; a = len(c) }`, "[]", nil},
		{"run", `proctype Q() { skip } active proctype P() { run Q() }`, "[]", nil},
		{"_nr_pr", `active proctype P() { byte a; a = _nr_pr }`, "[]", nil},
		{"atomic", `active proctype P() { byte a; atomic { a++; a++ } }`, "[]", nil},
		{"d_step", `active proctype P() { byte a; d_step { a++; a++ } }`, "[]", nil},
		{"unless", `active proctype P() { byte a; { a++ } unless { a == 5 } }`, "[]", nil},
		{"provided", `byte x; active proctype P() provided (x == 0) { byte a; a++ }`, "[]", nil},
		{"one of two", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x++ }`, "[0]", nil},
		{"_last", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x = _last }`, "[]", nil},
		{"a remote reference", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x = P[0]:a }`, "[]", nil},
		{"enabled", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x = enabled(0) }`, "[]", nil},
		{"pc_value", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x = pc_value(0) }`, "[]", nil},
		// Exclusive channel ends: safe only when the program shows that
		// the claim holds, and only while the operation cannot block.
		{"xs send", `chan c = [1] of { byte }; active proctype P() { xs c; c!1 }`, "[0]", nil},
		{"xs send to a channel with room", `chan c = [1] of { byte }; active proctype P() { xs c; c!1; c!2 }
			active proctype Q() { byte a; a++ }`, "[1 0]", nil},
		{"xs send to a full channel", `chan c = [1] of { byte }; active proctype P() { xs c; c!1; c!2 }
			active proctype Q() { byte a; a++ }`, "[1]", []int32{0}},
		{"xs send of a global", `byte x; chan c = [1] of { byte }; active proctype P() { xs c; c!x }`, "[]", nil},
		{"xs rendezvous", `chan c = [0] of { byte }; active proctype P() { xs c; c!1 } active proctype Q() { c?_ }`, "[]", nil},
		{"xs sorted send", `chan c = [1] of { byte }; active proctype P() { xs c; c!!1 }`, "[]", nil},
		{"xs and another sender", `chan c = [2] of { byte }; active proctype P() { xs c; c!1 } active proctype Q() { byte a; a++; c!2 }`, "[1]", nil},
		{"xs and another's len", `chan c = [2] of { byte }; active proctype P() { xs c; c!1 } active proctype Q() { byte a; a = len(c) }`, "[]", nil},
		{"xs and a poll", `chan c = [2] of { byte }; active proctype P() { xs c; c!1 } active proctype Q() { byte a; c?[1] -> a++ }`, "[]", nil},
		{"xs and a random receive", `chan c = [2] of { byte }; active proctype P() { xs c; c!1 } active proctype Q() { c??1 }`, "[]", nil},
		{"xs in two instances", `chan c = [2] of { byte }; active [2] proctype P() { xs c; c!1 }`, "[]", nil},
		{"xs in a run process", `chan c = [2] of { byte }; proctype P() { xs c; c!1 } init { run P() }`, "[]", []int32{0}},
		{"xs in an active process also run", `chan c = [2] of { byte }; active proctype P() { xs c; c!1 } init { run P() }`, "[]", nil},
		{"xs in an active process", `chan c = [2] of { byte }; active proctype P() { xs c; c!1 } init { skip }`, "[1 0]", nil},
		{"xs and a chan parameter", `chan c = [2] of { byte }; active proctype P() { xs c; c!1 }
			proctype Q(chan q) { q!2 } init { run Q(c) }`, "[]", nil},
		{"xs and an assigned chan", `chan c = [2] of { byte }; chan d; active proctype P() { xs c; c!1 }
			init { d = 1; d!2 }`, "[]", nil},
		{"xs claimed twice", `chan c = [2] of { byte }; active proctype P() { xs c; c!1 } active proctype Q() { xs c; skip }`, "[1]", nil},
		{"xs in an inline program", `chan c = [2] of { byte }; inline put() { c!1 } active proctype P() { xs c; put() }`, "[]", nil},
		{"xr receive", `chan c = [1] of { byte } ; active proctype P() { xr c; byte a; c?a }
			init { c!1 }`, "[]", nil},
		{"xr receive from an empty channel", `chan c = [1] of { byte } ; active proctype P() { xr c; byte a; a++; c?a }
			active proctype Q() { xs c; c!1 }`, "[1]", []int32{0}},
		{"xr receive of a message", `chan c = [1] of { byte } ; active proctype P() { xr c; byte a; a++; c?a }
			active proctype Q() { xs c; c!1 }`, "[1 0]", []int32{0, 1}},
		{"xr receive into a global", `byte x; chan c = [1] of { byte }; active proctype P() { xr c; c?x }
			active proctype Q() { xs c; c!1 }`, "[1]", nil},
		{"xr and another receiver", `chan c = [1] of { byte }; active proctype P() { xr c; byte a; c?a }
			active proctype Q() { c!1; c?_ }`, "[]", nil},
		// Channels passed to run: exclusive in a state where no other
		// process can reach them on that side, now or later.
		{"a chan parameter", `chan c = [1] of { byte }; proctype P(chan q) { q!1 } init { atomic { run P(c) } }`, "[1]", []int32{0}},
		{"a chan parameter while init can run", `chan c = [1] of { byte }; proctype P(chan q) { q!1 } init { run P(c); run P(c) }`, "[]", []int32{0}},
		{"two senders to a chan parameter", `chan c = [2] of { byte }; proctype P(chan q) { q!1 } init { atomic { run P(c); run P(c) } }`, "[]", []int32{0}},
		{"two receivers of a chan parameter", `chan c = [2] of { byte }; proctype P(chan q) { byte a; q?a } init { c!1; atomic { run P(c); run P(c) } }`, "[]", []int32{0, 0}},
		{"a receiver and a sender", `chan c = [2] of { byte }; proctype P(chan q) { byte a; q?a } proctype S(chan q) { q!1; q!2 }
			init { atomic { run P(c); run S(c) } }`, "[2 1]", []int32{0, 2}},
		{"a receiver and a sender by name", `chan c = [2] of { byte }; proctype P(chan q) { byte a; q?a } proctype S(chan q) { q!1; q!2 }
			init { c!1; atomic { run P(c); run S(c) } }`, "[1]", []int32{0, 0}},
		{"a chan parameter and a global test", `chan c = [2] of { byte }; proctype P(chan q) { q!1 } init { atomic { run P(c) }; len(c) > 0 }`, "[]", []int32{0}},
		{"a chan parameter and a received channel", `chan c = [2] of { byte }; chan g = [1] of { chan }; proctype P(chan q) { q!1 }
			active proctype U() { chan x; g?x; x!2 } init { atomic { run P(c) } }`, "[]", []int32{1}},
		{"a chan parameter and a local chan array", `chan c = [2] of { byte }; proctype P(chan q) { q!1 }
			active proctype U() { chan a[1]; byte b; b++; a[0]!1 } init { atomic { run P(c) } }`, "[0]", []int32{1}},
		{"a chan parameter and a rendezvous", `chan c = [0] of { byte }; proctype P(chan q) { q!1 } init { atomic { run P(c) } }`, "[]", []int32{0}},
		{"a chan parameter and another channel", `chan c = [1] of { byte }; chan d = [1] of { byte }; proctype P(chan q) { q!1 } proctype S(chan q) { q!1 }
			init { atomic { run P(c); run S(d) } }`, "[2 1]", []int32{0}},
		{"a process's own channel", `proctype P(chan q) { q!1 } init { chan c = [1] of { byte }; atomic { run P(c) }; c?_ }`, "[]", []int32{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := compileSrc(t, c.src, nil)
			var init []byte
			_ = m.Initial(func(s []byte) { init = append([]byte(nil), s...) })
			for _, pid := range c.after {
				init = succOf(t, m, init, pid)
			}
			if got := fmt.Sprint(m.Ample(init, nil)); got != c.want {
				t.Errorf("ample candidates %s, want %s", got, c.want)
			}
		})
	}
}

// succOf returns the first successor of s by a step of process pid.
func succOf(t *testing.T, m *Model, s []byte, pid int32) []byte {
	t.Helper()
	var next []byte
	m.Next(s, sinkFunc(func(tr state.Trans, v []byte) {
		if next == nil && tr.Proc == pid {
			next = append([]byte(nil), v...)
		}
	}))
	if next == nil {
		t.Fatal("no successor")
	}
	return next
}
