package trace

import (
	"io"
	"math/rand"
	"sort"
	"strconv"
	"testing"
	"time"
)

// longRun is a run of n rounds between three processes: S sends M to R on
// c, R receives it and marks it with a local event, T ticks (a box), and
// every tenth round T's counter moves without an event (an annotation). A
// message S sends on d in the first step is received by T in the last, an
// arrow the height of the chart, and every hundredth round S sends a
// message on e that R receives fifty rounds later.
func longRun(n int) *Counterexample {
	var steps []Step
	add := func(pid int, proc, stmt string, evs ...Event) {
		steps = append(steps, Step{Num: len(steps) + 1, Pid: pid, Proc: proc, Stmt: stmt, Events: evs})
	}
	send := func(ch, msg string) Event { return Event{Type: "send", Chan: ch, Msg: msg, Partner: -1} }
	recv := func(ch, msg string) Event { return Event{Type: "recv", Chan: ch, Msg: msg, Partner: -1} }
	local := func(text string) Event { return Event{Type: "local", Text: text, Partner: -1} }

	add(0, "S", "d!EARLY", send("d", "EARLY"))
	for i := 0; i < n; i++ {
		add(0, "S", "c!M", send("c", "M"))
		add(1, "R", "c?M", recv("c", "M"), local("got M"))
		add(2, "T", "tick", local("tick "+strconv.Itoa(i)))
		if i%10 == 0 {
			add(2, "T", "x++")
		}
		if i%100 == 0 {
			add(0, "S", "e!LATE", send("e", "LATE"))
		}
		if i%100 == 50 {
			add(1, "R", "e?LATE", recv("e", "LATE"))
		}
	}
	add(2, "T", "d?EARLY", recv("d", "EARLY"))
	add(2, "T", "assert(false)")
	return &Counterexample{Kind: "assertion", Message: "assertion violated", Steps: steps, LoopStart: -1}
}

// drawTime is the best of three times to lay out and draw cx as SVG.
func drawTime(t *testing.T, cx *Counterexample) time.Duration {
	t.Helper()
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		if err := NewChart(cx, "long").WriteSVG(io.Discard); err != nil {
			t.Fatal(err)
		}
		best = min(best, time.Since(start))
	}
	return best
}

// The chart of a long run is drawn in time about in proportion to its
// length: placing a box or a label looks at what is near it, not at every
// arrow and label of the run (20,000 steps took half a minute when it
// did). Four times the steps may take at most ten times as long; the square
// would take sixteen.
func TestChartSVGScales(t *testing.T) {
	const n = 1000
	small, large := longRun(n), longRun(4*n)
	drawTime(t, small) // warm up
	ts, tl := drawTime(t, small), drawTime(t, large)
	t.Logf("%d steps: %v, %d steps: %v (%.1fx)", len(small.Steps), ts, len(large.Steps), tl, float64(tl)/float64(ts))
	if tl > 10*ts {
		t.Errorf("%d steps took %v, %d steps %v: %.1f times as long for 4 times the steps", len(small.Steps), ts, len(large.Steps), tl, float64(tl)/float64(ts))
	}
}

// yIndex.near answers every rectangle that reaches the heights asked for,
// once each, in the order they were added.
func TestYIndexNear(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var ix yIndex
	var rects []svgRect
	for range 2000 {
		y := rng.Float64() * 5000
		h := rng.Float64() * 40
		if rng.Intn(50) == 0 {
			h = rng.Float64() * 3000 // a long arrow
		}
		r := svgRect{0, y, 10, y + h}
		rects = append(rects, r)
		ix.add(r)
	}
	for range 500 {
		y0 := rng.Float64()*5200 - 100
		y1 := y0 + rng.Float64()*30
		got := ix.near(y0, y1)
		if !sort.IntsAreSorted(got) {
			t.Fatalf("near(%v, %v) is not in order: %v", y0, y1, got)
		}
		in := map[int]bool{}
		for _, i := range got {
			if in[i] {
				t.Fatalf("near(%v, %v) answers %d twice", y0, y1, i)
			}
			in[i] = true
		}
		for i, r := range rects {
			if r.Y0 <= y1 && r.Y1 >= y0 && !in[i] {
				t.Fatalf("near(%v, %v) misses rectangle %d %v", y0, y1, i, r)
			}
		}
	}
}
