package explore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"ftmc/state"
	"ftmc/trace"
)

// TestParallelSharedStore: the breadth-first search on several workers
// whose states are plain shares one lock-free store; it stores and
// expands the states of the sequential search, with or without reduction.
func TestParallelSharedStore(t *testing.T) {
	p := newParallelOn(context.Background(), &counters{k: 3, n: 5, endOK: true}, Options{Workers: 2}, true)
	r, st, err := p.search()
	if err != nil || r.Verdict != trace.Holds || st.States != 125 || p.lf != nil || p.workers[0].store != nil {
		t.Errorf("%s %v: %d states; the shared store freed: %v, owners' stores %v", r.Verdict, err, st.States, p.lf == nil, p.workers[0].store != nil)
	}
	if got := newParallelOn(context.Background(), &counters{k: 3, n: 5}, Options{Workers: 2}, false); got.lf != nil {
		t.Error("the owners' search has a shared store")
	}
}

// migrationModels are the models the searches that migrate to the owners'
// compressed stores are compared with the sequential search on: some
// hold, some do not, some reduce, and one has levels of many chunks.
var migrationModels = append([]struct {
	name string
	m    func() state.Model
}{
	{"wide", func() state.Model { return &counters{k: 5, n: 10, endOK: true} }},
	{"turns-reduced", func() state.Model { return &turns{k: 6, m: 5} }},
	{"counters-reduced", func() state.Model { return &reducedCounters{counters{k: 4, n: 6, wrap: true}} }},
	{"invariant-late", func() state.Model {
		return &checkedCounters{counters{k: 5, n: 10, endOK: true, bad: []byte{9, 8, 9, 8, 9}}}
	}},
}, parallelTestModels...)

// TestParallelMigrates: a search on the shared store that migrates to the
// owners' compressed stores, inside a level (with or without chunks of
// the level left) or at its end, stores, counts and reduces as the
// sequential search does, and its counterexamples, from renumbered
// parents, are as short and end where the sequential ones do.
func TestParallelMigrates(t *testing.T) {
	var inside, rest, atEnd int
	for _, mc := range migrationModels {
		reduce := strings.HasSuffix(mc.name, "-reduced")
		want, wst := run(t, mc.m(), Options{Reduce: reduce})
		for _, workers := range []int{2, 3} {
			// Where a search migrates depends on the workers' race: the
			// reducing ones, whose proviso reads the level's start, run
			// thrice. The race detector, ten times slower, runs fewer.
			ats, reps := []int64{1, 60, 400, 3000, 20000, 60000, 150000}, map[bool]int{false: 1, true: 3}[reduce]
			if raceEnabled {
				ats, reps = []int64{1, 400, 20000}, 1
			}
			for k, at := range slices.Repeat(ats, reps) {
				name := fmt.Sprintf("%s, %d workers, at %d (%d)", mc.name, workers, at, k)
				p := newParallelOn(context.Background(), mc.m(), Options{Workers: workers, Reduce: reduce}, true)
				p.migrateAt = at
				got, gst, err := p.search()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				switch p.migrated {
				case 1:
					inside++
					if p.migratedRest > 0 {
						rest++
					}
				case 2:
					atEnd++
				}
				if p.migrated != 0 && (len(gst.Extra) == 0 || gst.Extra[len(gst.Extra)-1].Name != compressedFigure(0).Name) {
					t.Errorf("%s: the statistics do not say that the store turned compressed: %+v", name, gst.Extra)
				}
				if got.Verdict != want.Verdict || got.Kind != want.Kind {
					t.Fatalf("%s: %s (%s), want %s (%s)", name, got.Verdict, got.Kind, want.Verdict, want.Kind)
				}
				if want.Verdict == trace.Holds {
					if gst.States != wst.States || gst.Transitions != wst.Transitions || gst.Matched != wst.Matched ||
						gst.Depth != wst.Depth || gst.Expanded != wst.Expanded || gst.AmpleStates != wst.AmpleStates || !gst.Complete {
						t.Errorf("%s: %d states %d transitions %d matched depth %d, %d expanded, %d ample; want %d %d %d %d, %d, %d", name,
							gst.States, gst.Transitions, gst.Matched, gst.Depth, gst.Expanded, gst.AmpleStates,
							wst.States, wst.Transitions, wst.Matched, wst.Depth, wst.Expanded, wst.AmpleStates)
					}
					continue
				}
				c := checkViolation(t, got, want.Kind)
				if len(c.Steps) != len(want.Counterexample.Steps) {
					t.Errorf("%s: counterexample of %d steps, want %d", name, len(c.Steps), len(want.Counterexample.Steps))
				}
				if varString(c.Final) != varString(want.Counterexample.Final) && mc.name != "philosophers" {
					t.Errorf("%s: final %s, want %s", name, varString(c.Final), varString(want.Counterexample.Final))
				}
				for _, s := range c.Steps {
					if strings.Contains(s.Note, "not deterministic") {
						t.Fatalf("%s: a step of the counterexample is no transition: %+v", name, s)
					}
				}
			}
		}
	}
	t.Logf("migrated inside a level %d times (%d with chunks of it left), at a level's end %d times", inside, rest, atEnd)
	if inside == 0 || rest == 0 || atEnd == 0 {
		t.Error("some kind of migration never happened: the test proves nothing")
	}
}
