package ltl

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"ftmc/internal/expect"
	"ftmc/internal/spin"
	"ftmc/internal/testenv"
	"ftmc/trace"
)

// TestModelsAgreeWithSpin checks the expectations written in
// testdata/*.pml against Spin itself (spin -a; pan -a, pan -a -f, pan -l),
// so that the expectations the ftmc tests compare against are Spin's
// verdicts. Models whose runs use --assume give the name of the ltl block
// that states the assumption explicitly for Spin in a "spin: NAME" line
// after the "ftmc:" line.
func TestModelsAgreeWithSpin(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles one verifier per property (-short)")
	}
	testenv.NeedBinary(t, "spin")
	testenv.NeedBinary(t, "gcc")
	runs := LoadModelRuns(t, "testdata")
	if len(runs) < 20 {
		t.Fatalf("only %d model runs in testdata", len(runs))
	}
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, r := range runs {
		for _, p := range r.Props {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				opts := r.SpinOptions(p.Name)
				res, err := spin.Run(context.Background(), r.File, opts)
				if err != nil {
					t.Errorf("%s:%d: spin: %v", r.File, r.Line, err)
					return
				}
				if res.Verdict != trace.Verdict(p.Verdict) {
					t.Errorf("%s:%d: property %s: spin says %s (%s), the file expects %s", r.File, p.Line, p.Name, res.Verdict, res.Message, p.Verdict)
				}
			}()
		}
	}
	wg.Wait()
}

// ModelRun is one "ftmc:" line of a model in testdata with what it expects.
type ModelRun struct {
	File string
	expect.Run
	SpinLTL string // from a "spin: NAME" line: the block Spin checks instead
}

// LoadModelRuns reads the runs of every model in dir.
func LoadModelRuns(t *testing.T, dir string) []ModelRun {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.pml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []ModelRun
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := expect.Parse(f, "check")
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		spinNames := spinLines(t, file)
		for _, r := range runs {
			if len(r.Props) == 0 {
				t.Fatalf("%s:%d: a run without per-property expectations", file, r.Line)
			}
			out = append(out, ModelRun{File: file, Run: r, SpinLTL: spinNames[r.Line]})
		}
	}
	return out
}

// spinLines maps the line of each "ftmc:" directive to the NAME of a
// "spin: NAME" line that follows it.
func spinLines(t *testing.T, file string) map[int]string {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[int]string{}
	last := 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "//"))
		if strings.HasPrefix(line, "ftmc:") {
			last = n
		}
		if name, ok := strings.CutPrefix(line, "spin:"); ok {
			m[last] = strings.TrimSpace(name)
		}
	}
	return m
}

// Flag returns the value of flag name in the run's arguments ("" if absent;
// "true" for a flag without value).
func (r ModelRun) Flag(name string) string {
	for i, a := range r.Args {
		if a == name {
			if i+1 < len(r.Args) && !strings.HasPrefix(r.Args[i+1], "-") {
				return r.Args[i+1]
			}
			return "true"
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// Defines returns the run's -D definitions.
func (r ModelRun) Defines() []string {
	var ds []string
	for i, a := range r.Args {
		switch {
		case a == "-D" && i+1 < len(r.Args):
			ds = append(ds, r.Args[i+1])
		case strings.HasPrefix(a, "-D") && len(a) > 2:
			ds = append(ds, a[2:])
		}
	}
	return ds
}

// SpinOptions says how to check property prop of the run with Spin.
func (r ModelRun) SpinOptions(prop string) spin.Options {
	// Small models: a small hash table and stack make pan start fast.
	opts := spin.Options{Defines: r.Defines(), Mode: spin.Acceptance, CCOpt: "-O0", HashBits: 18, Depth: 100000}
	opts.Fair = r.Flag("--fairness") == "weak"
	switch {
	case r.Flag("--non-progress") != "":
		opts.Mode = spin.NonProgress
	case r.SpinLTL != "":
		opts.LTL = r.SpinLTL
	case r.Flag("--ltl") != "":
		opts.LTL = r.Flag("--ltl")
	case prop == "never":
		// the model's (unnamed) never claim
	default:
		opts.LTL = prop
	}
	return opts
}
