package compile

import (
	"fmt"
	"testing"
)

// TestAmple checks which processes of the initial state may be expanded
// alone: only those whose every transition touches their own variables,
// outside atomic sequences, without else, timeout, channels or run.
func TestAmple(t *testing.T) {
	cases := []struct {
		name, src string
		want      string
	}{
		{"local steps", `active proctype P() { byte a; a++ }`, "[0]"},
		{"_pid and a local array", `active [2] proctype P() { byte a[2]; a[_pid] = _pid }`, "[1 0]"},
		{"a global write", `byte x; active proctype P() { x++ }`, "[]"},
		{"a global read", `byte x; active proctype P() { byte a; a = x }`, "[]"},
		{"an assertion on a global", `byte x; active proctype P() { assert(x == 0) }`, "[]"},
		{"an assertion on a local", `active proctype P() { byte a; assert(a == 0) }`, "[0]"},
		{"else", `active proctype P() { byte a; if :: a == 0 -> a++ :: else -> skip fi }`, "[]"},
		{"timeout", `active proctype P() { byte a; timeout -> a++ }`, "[]"},
		{"a send", `chan c = [1] of { byte }; active proctype P() { c!1 }`, "[]"},
		{"a local channel", `active proctype P() { chan c = [1] of { byte }; c!1 }`, "[]"},
		{"len", `chan c = [1] of { byte }; active proctype P() { byte a; a = len(c) }`, "[]"},
		{"run", `proctype Q() { skip } active proctype P() { run Q() }`, "[]"},
		{"_nr_pr", `active proctype P() { byte a; a = _nr_pr }`, "[]"},
		{"atomic", `active proctype P() { byte a; atomic { a++; a++ } }`, "[]"},
		{"d_step", `active proctype P() { byte a; d_step { a++; a++ } }`, "[]"},
		{"unless", `active proctype P() { byte a; { a++ } unless { a == 5 } }`, "[]"},
		{"provided", `byte x; active proctype P() provided (x == 0) { byte a; a++ }`, "[]"},
		{"one of two", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x++ }`, "[0]"},
		{"_last", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x = _last }`, "[]"},
		{"a remote reference", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x = P[0]:a }`, "[]"},
		{"enabled", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x = enabled(0) }`, "[]"},
		{"pc_value", `byte x; active proctype P() { byte a; a++ } active proctype Q() { x = pc_value(0) }`, "[]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := compileSrc(t, c.src, nil)
			var init []byte
			_ = m.Initial(func(s []byte) { init = append([]byte(nil), s...) })
			if got := fmt.Sprint(m.Ample(init, nil)); got != c.want {
				t.Errorf("ample candidates %s, want %s", got, c.want)
			}
		})
	}
}
