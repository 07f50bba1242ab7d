package ltl

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
// after the "ftmc:" line. A run where Spin's verdict is known to differ
// says so in a "spin-differs: VERDICT" line (with the reason in the
// model's comments); the test then checks that Spin still says VERDICT.
// One verifier is compiled per model, macro set and mode; pan then checks
// each property.
func TestModelsAgreeWithSpin(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Spin verifiers (-short)")
	}
	testenv.NeedBinary(t, "spin")
	testenv.NeedBinary(t, "gcc")
	runs := LoadModelRuns(t, "testdata")
	if len(runs) < 20 {
		t.Fatalf("only %d model runs in testdata", len(runs))
	}
	type check struct {
		run  ModelRun
		prop expect.Prop
		opts spin.Options
	}
	groups := map[string][]check{}
	var keys []string
	for _, r := range runs {
		for _, p := range r.Props {
			opts := r.SpinOptions(p.Name)
			key := fmt.Sprint(r.File, opts.Defines, opts.Mode)
			if groups[key] == nil {
				keys = append(keys, key)
			}
			groups[key] = append(groups[key], check{r, p, opts})
		}
	}
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, key := range keys {
		cs := groups[key]
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			dir := t.TempDir()
			if err := buildPan(dir, cs[0].run.File, cs[0].opts); err != nil {
				t.Errorf("%s:%d: %v", cs[0].run.File, cs[0].run.Line, err)
				return
			}
			for _, c := range cs {
				res, err := runPan(dir, c.opts)
				if err != nil {
					t.Errorf("%s:%d: %v", c.run.File, c.run.Line, err)
					continue
				}
				want := trace.Verdict(c.prop.Verdict)
				if c.run.SpinDiffers != "" {
					want = trace.Verdict(c.run.SpinDiffers)
				}
				if res.Verdict != want {
					t.Errorf("%s:%d: property %s: spin says %s (%s), the file expects %s from Spin", c.run.File, c.prop.Line, c.prop.Name, res.Verdict, res.Message, want)
				}
			}
		}()
	}
	wg.Wait()
}

// buildPan generates and compiles Spin's verifier for a model in dir.
func buildPan(dir, file string, opts spin.Options) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	args := []string{"-a", "-o1", "-o2", "-o3"}
	for _, d := range opts.Defines {
		args = append(args, "-D"+d)
	}
	cmd := exec.Command("spin", append(args, abs)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("spin -a: %v\n%s", err, out)
	}
	cc := []string{"-O0", "-w", "-DNOREDUCE"}
	if opts.Mode == spin.NonProgress {
		cc = append(cc, "-DNP")
	}
	cmd = exec.Command("gcc", append(cc, "-o", "pan", "pan.c")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("gcc: %v\n%s", err, out)
	}
	return nil
}

// runPan runs the compiled verifier on one property.
func runPan(dir string, opts spin.Options) (*spin.Result, error) {
	args := []string{"-m100000", "-w18", "-n"}
	if opts.Mode == spin.NonProgress {
		args = append(args, "-l")
	} else {
		args = append(args, "-a")
	}
	if opts.Fair {
		args = append(args, "-f")
	}
	if opts.LTL != "" {
		args = append(args, "-N", opts.LTL)
	}
	cmd := exec.Command("./pan", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pan %v: %v\n%s", args, err, out)
	}
	return spin.Parse(string(out))
}

// ModelRun is one "ftmc:" line of a model in testdata with what it expects.
type ModelRun struct {
	File string
	expect.Run
	SpinLTL     string // from a "spin: NAME" line: the block Spin checks instead
	SpinDiffers string // from a "spin-differs: VERDICT" line: Spin's verdict, known to differ
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
		spinNames, differs := spinLines(t, file)
		for _, r := range runs {
			if len(r.Props) == 0 {
				t.Fatalf("%s:%d: a run without per-property expectations", file, r.Line)
			}
			out = append(out, ModelRun{File: file, Run: r, SpinLTL: spinNames[r.Line], SpinDiffers: differs[r.Line]})
		}
	}
	return out
}

// spinLines maps the line of each "ftmc:" directive to the NAME of a
// "spin: NAME" line and the VERDICT of a "spin-differs: VERDICT" line that
// follow it.
func spinLines(t *testing.T, file string) (names, differs map[int]string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, differs = map[int]string{}, map[int]string{}
	last := 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "//"))
		if strings.HasPrefix(line, "ftmc:") {
			last = n
		}
		if name, ok := strings.CutPrefix(line, "spin:"); ok {
			names[last] = strings.TrimSpace(name)
		}
		if v, ok := strings.CutPrefix(line, "spin-differs:"); ok {
			differs[last] = strings.TrimSpace(v)
		}
	}
	return names, differs
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

var neverRe = regexp.MustCompile(`^never_[0-9]+$`)

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
	case neverRe.MatchString(prop):
		// the model's (unnamed) never claim
	default:
		opts.LTL = prop
	}
	return opts
}
