package compile

import "testing"

// TestMergeStates counts the states of small models with statement
// merging and without: a merged step goes on through the process's local
// statements, and stops before labels, several options, statements that
// are not local, false local guards and loops.
func TestMergeStates(t *testing.T) {
	cases := []struct {
		name, src string
		merged    int // states with merging; 0: merging does not apply
		full      int // states without
	}{
		// Merged: the start, the end (before the process ends), none.
		{"local steps", `active proctype P() { byte a; a = 1; a++; a++ }`, 3, 5},
		{"an end label", `active proctype P() { byte a; a = 1; end: a++; a++ }`, 4, 5},
		{"a progress label", `active proctype P() { byte a; a = 1; progress: a++; a++ }`, 4, 5},
		{"an accept label", `active proctype P() { byte a; a = 1; accept: a++; a++ }`, 4, 5},
		// The global write is a step of its own; the local one after
		// it goes with it.
		{"a global write", `byte x; active proctype P() { byte a; a = 1; x = 1; a++ }`, 4, 5},
		{"two options", `active proctype P() { byte a; a = 1; if :: a++ :: a-- fi; a = 0 }`, 4, 6},
		// The process blocks at a == 5: that state is stored, a deadlock.
		{"a false local guard", `active proctype P() { byte a; a = 1; a++; a == 5; a = 0 }`, 2, 3},
		// i++ goes round the loop: the walk stops at the loop's head.
		{"a local loop", `active proctype P() { byte i; do :: i++ od }`, 256, 256},
		// Nothing merges into an atomic sequence, and its end is stored.
		{"atomic", `active proctype P() { byte a; a = 1; atomic { a++; a++ }; a = 0 }`, 5, 5},
		// Models that read other processes' variables or locations.
		{"_last", `byte x; active proctype P() { byte a; a = 1; a++ } active proctype Q() { x = _last }`, 0, 0},
		{"a remote reference", `byte x; active proctype P() { byte a; a = 1; a++ } active proctype Q() { x = P[0]:a }`, 0, 0},
		{"enabled", `byte x; active proctype P() { byte a; a = 1; a++ } active proctype Q() { x = enabled(0) }`, 0, 0},
		{"pc_value", `byte x; active proctype P() { byte a; a = 1; a++ } active proctype Q() { x = pc_value(0) }`, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := compileSrc(t, c.src, nil)
			full := explore(m, 0)
			on := m.SetMerge(true)
			if on != (c.merged > 0) || m.Merging() != on {
				t.Fatalf("SetMerge(true) says %v, Merging %v; want %v", on, m.Merging(), c.merged > 0)
			}
			merged := explore(m.Fork(), 0)
			if full.kind != merged.kind {
				t.Fatalf("violations: %q without merging, %q with", full.msg, merged.msg)
			}
			if c.merged == 0 {
				return
			}
			if merged.states != c.merged || full.states != c.full {
				t.Errorf("%d states merged, %d without; want %d and %d", merged.states, full.states, c.merged, c.full)
			}
		})
	}
}
