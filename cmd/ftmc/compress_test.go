package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// compressRun is a check command line that TestCompressSameResults runs
// with and without --compress.
type compressRun struct {
	where string
	args  []string
	bench bool // a benchmark model, whose store must shrink
}

// compressRuns are the check runs of the corpus (those not marked slow)
// and the benchmark models with small macros.
func compressRuns(t *testing.T) []compressRun {
	var runs []compressRun
	for _, m := range exampleModels(t) {
		if !strings.HasPrefix(filepath.ToSlash(m.rel), "testdata/corpus/") || filepath.Ext(m.path) != ".pml" {
			continue
		}
		for _, r := range m.runs {
			if r.Args[0] == "check" && !r.Slow {
				runs = append(runs, compressRun{where: fmt.Sprintf("%s:%d", m.rel, r.Line), args: runArgs(m.path, r)})
			}
		}
	}
	bench := filepath.Join(testenv.RepoRoot(t), "bench/explicit/models")
	for _, b := range []struct {
		model string
		defs  []string
	}{
		{"peterson.pml", []string{"-D", "N=3"}},
		{"leader.pml", []string{"-D", "N=4", "-D", "C=1"}},
		{"swp.pml", []string{"-D", "W=2", "-D", "C=1"}},
	} {
		args := append([]string{"check", filepath.Join(bench, b.model)}, b.defs...)
		runs = append(runs, compressRun{where: b.model + " " + strings.Join(b.defs, " "), args: args, bench: true})
	}
	return runs
}

// TestCompressSameResults: with --compress, every corpus run and the small
// benchmark runs have the same verdicts, counterexamples, state counts,
// transitions and depth, breadth-first and depth-first, LTL properties
// included; the store is smaller on the benchmark models. With two
// workers, whose counterexamples and counts at a violation depend on
// which worker finds it first, the verdicts, the counterexamples' lengths
// and a complete search's counts are the same.
func TestCompressSameResults(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	runs := compressRuns(t)
	if len(runs) < 30 {
		t.Fatalf("%d runs, want at least 30", len(runs))
	}
	var cexs, smaller int
	for _, r := range runs {
		for _, order := range []string{"--bfs -j 1", "--dfs", "--bfs -j 2"} {
			args := append(append([]string(nil), r.args...), strings.Fields(order)...)
			plain, code0, err0 := runFtmc(ctx, args)
			comp, code1, err1 := runFtmc(ctx, append(args, "--compress"))
			where := r.where + " " + order
			if code0 != code1 || plain == nil || comp == nil {
				t.Errorf("%s: exit %d plain, %d compressed\n%s\n%s", where, code0, code1, err0, err1)
				continue
			}
			p, c := plain.Stats, comp.Stats
			if strings.HasSuffix(order, "-j 2") {
				if got, want := cexLengths(comp.Verdicts), cexLengths(plain.Verdicts); got != want {
					t.Errorf("%s: verdicts plain %s\ncompressed %s", where, want, got)
				}
				if p.Complete && c.Complete && (p.States != c.States || p.Transitions != c.Transitions || p.Depth != c.Depth) {
					t.Errorf("%s: stats plain %+v\ncompressed %+v", where, p, c)
				}
				continue
			}
			if !reflect.DeepEqual(plain.Verdicts, comp.Verdicts) {
				t.Errorf("%s: verdicts plain %+v\ncompressed %+v", where, plain.Verdicts, comp.Verdicts)
			}
			if p.States != c.States || p.Transitions != c.Transitions || p.Matched != c.Matched || p.Depth != c.Depth || p.VectorBytes != c.VectorBytes || p.Complete != c.Complete {
				t.Errorf("%s: stats plain %+v\ncompressed %+v", where, p, c)
			}
			if c.States > 0 && (c.StoreBytes <= 0 || c.BytesPerState <= 0) {
				t.Errorf("%s: compressed store_bytes %d, bytes_per_state %.1f", where, c.StoreBytes, c.BytesPerState)
			}
			for _, v := range comp.Verdicts {
				if v.Counterexample != nil {
					cexs++
				}
			}
			// The tables' fixed start and the load factor weigh on small
			// state spaces; on the benchmark models the store must still
			// shrink by a quarter.
			if r.bench {
				if c.StoreBytes*4 > p.StoreBytes*3 {
					t.Errorf("%s: %d states in %d bytes compressed, %d plain: want a quarter less", where, c.States, c.StoreBytes, p.StoreBytes)
				}
				smaller++
			}
		}
	}
	if cexs < 10 || smaller < 6 {
		t.Errorf("%d counterexamples compared, %d runs of over 10000 states: the test does not cover enough", cexs, smaller)
	}
}

// cexLengths is the verdicts with the lengths of their counterexamples.
func cexLengths(rs []trace.Result) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s: %s", r.Property, r.Verdict)
		if c := r.Counterexample; c != nil {
			fmt.Fprintf(&b, " (%d steps)", len(c.Steps))
		}
		b.WriteString("; ")
	}
	return b.String()
}

// TestCompressParallel: --compress with -j 2 keeps each worker's states
// compressed, and the report counts the same states as with one worker.
func TestCompressParallel(t *testing.T) {
	var reps [2]trace.Report
	for k, j := range []string{"1", "2"} {
		code, out, errs := runExplicitArgs(t, &tokenRing{n: 5, stopOK: true}, "--compress", "-j", j, "--json")
		if code != trace.ExitHolds {
			t.Fatalf("-j %s: exit %d, stderr %q", j, code, errs)
		}
		if err := json.Unmarshal([]byte(out), &reps[k]); err != nil {
			t.Fatal(err)
		}
	}
	one, two := reps[0].Stats, reps[1].Stats
	if one.States == 0 || two.States != one.States || two.Transitions != one.Transitions || two.Depth != one.Depth {
		t.Errorf("-j 2: %+v\n-j 1: %+v", two, one)
	}
}

// TestSweepCompress: sweep passes --compress on to every check.
func TestSweepCompress(t *testing.T) {
	f := &fakeCheck{}
	runSweep(t, f, sweepModel(t), "-D", "CHAN=B,I", "--compress")
	if len(f.seen) != 2 {
		t.Fatalf("%d checks, want 2", len(f.seen))
	}
	for _, c := range f.seen {
		if !strings.Contains(" "+c+" ", " --compress ") {
			t.Errorf("sweep ran %q, without --compress", c)
		}
	}
}

// TestCompressMemoryLimit: a compressed search stops at the memory limit
// as a plain one does, unknown with the limit's reason.
func TestCompressMemoryLimit(t *testing.T) {
	fixedMemory(t, 1e6)
	code, out, _ := runExplicitArgs(t, &tokenRing{n: 50, stopOK: true}, "--quiet", "--compress")
	if code != trace.ExitUnknown || !strings.HasPrefix(out, "safety: unknown: memory limit 1 MB (85% of physical memory) reached after ") {
		t.Errorf("exit %d, %q; want 3 and the default limit", code, out)
	}
	code, out, _ = runExplicitArgs(t, &tokenRing{n: 50, stopOK: true}, "--quiet", "--compress", "--memory", "0")
	if code != trace.ExitHolds || out != "safety: holds\n" {
		t.Errorf("--memory 0: exit %d, %q; want no limit", code, out)
	}
}

// TestAutoCompressReported: a check whose plain store would not fit
// --memory compresses it on the way, with one worker and with two, ends
// with the verdict and states of the search without limit, and says when
// it compressed.
func TestAutoCompressReported(t *testing.T) {
	model := filepath.Join(testenv.RepoRoot(t), "examples/failure-detectors/weak-completeness.pml")
	for _, j := range []string{"1", "2"} {
		rep, code, stderr := runFtmc(context.Background(), []string{"check", model, "-D", "CHAN=I", "-D", "ORDER=SPLIT", "-D", "BUF=1", "-j", j, "--memory", "80MB"})
		if rep == nil || code != trace.ExitHolds {
			t.Fatalf("-j %s: exit %d: %s", j, code, stderr)
		}
		st := rep.Stats
		var at float64
		for _, f := range st.Extra {
			if strings.HasPrefix(f.Name, "states stored when the store turned compressed") {
				at = f.Value
			}
		}
		// The plain store takes over 80 bytes per state, 57 MB.
		if st.States != 712396 || at <= 0 || at >= float64(st.States) || st.BytesPerState > 40 {
			t.Errorf("-j %s: %d states, %.1f bytes per state, compressed at %.0f states", j, st.States, st.BytesPerState, at)
		}
	}
}

// TestCompressFailureDetectorBytes: on the failure-detector model, with
// the channels' two orders, --compress stores the states of the plain
// search in at most 16 bytes per state (parent indices included), with one
// worker and with two, each with tables of its own.
func TestCompressFailureDetectorBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("four searches of up to 712,396 states")
	}
	model := filepath.Join(testenv.RepoRoot(t), "examples/failure-detectors/weak-completeness.pml")
	for _, c := range []struct {
		order  string
		states int64
	}{{"SPLIT", 712396}, {"FIFO", 153706}} {
		for _, j := range []string{"1", "2"} {
			rep, code, stderr := runFtmc(context.Background(), []string{"check", model, "-D", "CHAN=I", "-D", "ORDER=" + c.order, "-D", "BUF=1", "--compress", "-j", j})
			if rep == nil || code != trace.ExitHolds {
				t.Fatalf("ORDER=%s -j %s: exit %d: %s", c.order, j, code, stderr)
			}
			st := rep.Stats
			t.Logf("ORDER=%s -j %s: %d states, %.1f bytes per state", c.order, j, st.States, st.BytesPerState)
			if st.States != c.states || st.BytesPerState > 16 {
				t.Errorf("ORDER=%s -j %s: %d states in %.1f bytes per state, want %d in at most 16", c.order, j, st.States, st.BytesPerState, c.states)
			}
		}
	}
}
