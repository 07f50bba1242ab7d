package explore

import (
	"context"
	"testing"

	"ftmc/state"
	"ftmc/trace"
)

// The search benchmarks run on counters, whose successor function costs next
// to nothing: states/s is the engine's own ceiling (store and loop).

func benchSearch(b *testing.B, m state.Model, o Order) {
	var st trace.Stats
	cpu0 := cpuTime()
	for b.Loop() {
		var err error
		_, st, err = Run(context.Background(), m, Options{Order: o})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.States)/b.Elapsed().Seconds()*float64(b.N), "states/s")
	if cpu := (cpuTime() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(st.States)/cpu*float64(b.N), "states/cpu-s")
	}
	b.ReportMetric(st.BytesPerState, "B/state")
}

// 10^6 states of 6 bytes, 6 transitions each.
func BenchmarkBFS1M(b *testing.B) { benchSearch(b, &counters{k: 6, n: 10, wrap: true}, BreadthFirst) }
func BenchmarkDFS1M(b *testing.B) { benchSearch(b, &counters{k: 6, n: 10, wrap: true}, DepthFirst) }

// 16.7 million states of 6 bytes, 6 transitions each.
func BenchmarkBFS16M(b *testing.B) { benchSearch(b, &counters{k: 6, n: 16, wrap: true}, BreadthFirst) }

// 10^6 states of 40 bytes (counters in a longer vector), 3 transitions each.
func BenchmarkBFSWide(b *testing.B) {
	benchSearch(b, &wideCounters{counters{k: 3, n: 100, wrap: true}, 37}, BreadthFirst)
}

// 10^5 states of 5 bytes, 5 transitions each: store and queue fit in the
// caches.
func BenchmarkBFS100k(b *testing.B) { benchSearch(b, &counters{k: 5, n: 10, wrap: true}, BreadthFirst) }
