package compile_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ftmc/explore"
	"ftmc/internal/testenv"
	"ftmc/promela"
	"ftmc/promela/compile"
)

// BenchmarkSearch measures a whole search of a model: compiled transitions
// and the explicit engine. FTMC_BENCH_MODEL names another model (with
// FTMC_BENCH_DEFINES as NAME=VALUE,...).
func BenchmarkSearch(b *testing.B) {
	path := os.Getenv("FTMC_BENCH_MODEL")
	defs := map[string]string{"N": "3", "MAXT": "3"}
	if path == "" {
		path = filepath.Join(testenv.RepoRoot(b), "testdata", "corpus", "bakery.pml")
	} else {
		defs = map[string]string{}
		for _, d := range strings.Split(os.Getenv("FTMC_BENCH_DEFINES"), ",") {
			if n, v, ok := strings.Cut(d, "="); ok {
				defs[n] = v
			} else if d != "" {
				defs[d] = "1"
			}
		}
	}
	popts := promela.Options{Defines: defs}
	if ps := os.Getenv("FTMC_BENCH_PARAMS"); ps != "" {
		popts.Params = map[string]int64{}
		for _, kv := range strings.Split(ps, ",") {
			n, v, _ := strings.Cut(kv, "=")
			x, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			popts.Params[n] = x
		}
	}
	prog, err := promela.Load(path, popts)
	if err != nil {
		b.Fatal(err)
	}
	m, err := compile.Compile(prog)
	if err != nil {
		b.Fatal(err)
	}
	order := explore.BreadthFirst
	if os.Getenv("FTMC_BENCH_DFS") != "" {
		order = explore.DepthFirst
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, st, err := explore.Run(context.Background(), m, explore.Options{Order: order})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.States), "states")
		b.ReportMetric(st.StatesPerSec, "states/s")
		b.ReportMetric(st.BytesPerState, "B/state")
		_ = res
	}
}
