package promela

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"ftmc/internal/testenv"
)

// pmlFiles returns the .pml files under dir, sorted.
func pmlFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".pml") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

var condMacro = regexp.MustCompile(`#\s*(?:ifdef|ifndef|if|elif)\s+!?\s*(?:defined\s*\(?\s*)?(\w+)`)

// TestBymcBenchmarks parses and resolves every parametric model of the
// ByMC benchmarks, without macros and with each macro it tests (BUG1,
// CASE2, SPIN, ...), and instantiates it.
func TestBymcBenchmarks(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t), "benchmarks", "bymc")
	files := pmlFiles(t, dir)
	if len(files) < 18 {
		t.Fatalf("found %d models under %s, want at least 18", len(files), dir)
	}
	for _, file := range files {
		rel, _ := filepath.Rel(dir, file)
		t.Run(rel, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			defines := []map[string]string{nil}
			seen := map[string]bool{}
			for _, m := range condMacro.FindAllStringSubmatch(string(src), -1) {
				if !seen[m[1]] {
					seen[m[1]] = true
					defines = append(defines, map[string]string{m[1]: "1"})
				}
			}
			for _, d := range defines {
				prog, err := Parse(file, src, Options{Defines: d})
				if err != nil {
					t.Errorf("-D %v: %v", d, err)
					continue
				}
				if ids := unresolved(prog); len(ids) > 0 {
					t.Errorf("-D %v: %s at %s has no symbol", d, ids[0].Name, ids[0].NamePos)
				}
				checkRoundTrip(t, prog)
				if len(prog.Params) == 0 || len(prog.Procs) == 0 || len(prog.LTL) == 0 || len(prog.Props) == 0 {
					t.Errorf("-D %v: %d parameters, %d proctypes, %d formulas, %d propositions", d, len(prog.Params), len(prog.Procs), len(prog.LTL), len(prog.Props))
				}
				if prog.RequireConcrete() == nil {
					t.Errorf("-D %v: a parametric model passes RequireConcrete", d)
				}
				// Instantiate with values that make every active count positive.
				vals := map[string]int64{}
				for _, p := range prog.Params {
					vals[p.Name] = 1
				}
				vals["N"] = 7
				if _, err := Instantiate(prog, vals); err != nil {
					t.Errorf("-D %v: instantiate %v: %v", d, vals, err)
					continue
				}
				for _, p := range prog.Procs {
					if p.Active && p.Instances < 1 {
						t.Errorf("-D %v: %s has %d instances after instantiation", d, p.ProcName(), p.Instances)
					}
				}
			}
		})
	}
}

// spinExamplesDir is where Debian's spin package puts Spin's examples.
const spinExamplesDir = "/usr/share/doc/spin/examples"

// spinRejected are the examples that use what ftmc does not support (or
// that Spin itself cannot translate), with the error they must get.
var spinRejected = map[string]string{
	"Examples/priorities.pml":   `priority is not supported by ftmc`,
	"Examples/rtos1.pml":        `priority is not supported by ftmc`,
	"Examples/leader_trace.pml": `a notrace declaration \(event trace\) is not supported by ftmc`,
	// pc10 applies & to an X formula; Spin's own ltl translator fails on it.
	"Examples/LTL/patterns.pml": `temporal operator X inside an expression`,
}

// TestSpinExamples parses and resolves every model that comes with Spin,
// and checks that the ones using unsupported constructs are rejected with
// an error that names the construct.
func TestSpinExamples(t *testing.T) {
	testenv.NeedBinary(t, "spin")
	if _, err := os.Stat(spinExamplesDir); err != nil {
		t.Skipf("Spin's examples are not installed (%v)", err)
	}
	files := pmlFiles(t, spinExamplesDir)
	if len(files) < 70 {
		t.Fatalf("found %d examples, want at least 70", len(files))
	}
	for _, file := range files {
		rel, _ := filepath.Rel(spinExamplesDir, file)
		t.Run(rel, func(t *testing.T) {
			prog, err := Load(file, Options{})
			if want, ok := spinRejected[rel]; ok {
				if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
					t.Errorf("got %v, want an error matching %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ids := unresolved(prog); len(ids) > 0 {
				t.Errorf("%s at %s has no symbol", ids[0].Name, ids[0].NamePos)
			}
			checkRoundTrip(t, prog)
		})
	}
}

// ftmcOnlyErrors are the broken models that Spin accepts: ftmc is
// stricter where Spin's reading is arbitrary or hides a mistake.
var ftmcOnlyErrors = map[string]string{
	"flow_else_not_guard":      "Spin accepts else in the middle of a sequence",
	"name_init_twice":          "Spin starts two init processes",
	"name_remote_var":          "Spin leaves it to the C compiler of pan.c",
	"name_run_chan_arg":        "Spin passes the number as a channel id",
	"syntax_integer_too_large": "Spin truncates with a warning",
	"type_send_too_few":        "Spin pads the message with zeros",
	"type_array_size_variable": "Spin makes the array 8 long when the variable has no initializer",
}

// TestErrorsSpinAgrees runs Spin on the broken models of plain Promela
// (not the ByMC extensions, not the constructs ftmc leaves out) and checks
// that Spin rejects them too.
func TestErrorsSpinAgrees(t *testing.T) {
	spin := testenv.NeedBinary(t, "spin")
	files, _ := filepath.Glob(filepath.Join("testdata", "errors", "*.pml"))
	tmp := t.TempDir()
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".pml")
		// limit_ models make Spin's cpp run for a very long time.
		if strings.HasPrefix(name, "unsupported_") || strings.HasPrefix(name, "bymc_") || strings.HasPrefix(name, "limit_") || ftmcOnlyErrors[name] != "" {
			continue
		}
		abs, _ := filepath.Abs(file)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, spin, "-a", abs)
		cmd.Dir = tmp
		// Spin runs cpp as a child: on a timeout, kill them both.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 5 * time.Second
		out, err := cmd.CombinedOutput()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			t.Errorf("%s: spin -a did not finish within a minute", name)
			continue
		}
		if err == nil && !strings.Contains(strings.ToLower(string(out)), "error") {
			t.Errorf("%s: spin accepts it:\n%s", name, out)
		}
	}
}
