package compile

import (
	"os"
	"path/filepath"
	"testing"

	"ftmc/promela"
)

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

// TestMergeSubset searches the test models and the corpus (each with its
// first run's macros) with statement merging and without: the merged
// search must find a violation exactly when the full one does, and
// otherwise store only states the full search stores, and no more of them.
func TestMergeSubset(t *testing.T) {
	files, _ := filepath.Glob("testdata/models/*.pml")
	more, _ := filepath.Glob("../../testdata/corpus/*.pml")
	files = append(files, more...)
	if len(files) < 40 {
		t.Fatalf("found %d models, want at least 40", len(files))
	}
	merged := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := promela.Parse(f, src, promela.Options{Defines: firstDefines(src)})
		if err != nil {
			continue // the models of errors the front end reports
		}
		m, err := Compile(prog)
		if err != nil {
			continue
		}
		const limit = 200000
		full := explore(m, limit)
		if full.kind == "" && full.states > limit {
			continue
		}
		if !m.SetMerge(true) {
			continue
		}
		merged++
		on := explore(m.Fork(), limit)
		if (on.kind == "") != (full.kind == "") {
			t.Errorf("%s: violation %q with merging, %q without", f, on.msg, full.msg)
			continue
		}
		if full.kind != "" {
			continue
		}
		if on.states > full.states {
			t.Errorf("%s: %d states with merging, %d without", f, on.states, full.states)
		}
		for s := range on.seen {
			if !full.seen[s] {
				t.Errorf("%s: merging reaches a state the full search does not", f)
				break
			}
		}
	}
	t.Logf("merging applied to %d models", merged)
	if merged < 20 {
		t.Errorf("merging applied to %d models, want at least 20", merged)
	}
}
