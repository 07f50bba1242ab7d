package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// badOutputs are paths that cannot be written, as root too: in a
// directory that does not exist, and under a regular file.
func badOutputs(t *testing.T) (string, string) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "no", "such", "out"), filepath.Join(plain, "out")
}

func example(t *testing.T, parts ...string) string {
	return filepath.Join(append([]string{testenv.RepoRoot(t), "examples"}, parts...)...)
}

// TestOutputPathsCheckedFirst: a file a run would write (--trail, --msc,
// --cpuprofile, --trails) that cannot be written is a usage error before
// the search: exit 2, the flag named, and no report.
func TestOutputPathsCheckedFirst(t *testing.T) {
	peterson := example(t, "promela", "peterson.pml")
	aba := example(t, "threshold", "aba.ta")
	report := traceReport(t)
	missing, underFile := badOutputs(t)
	for _, bad := range []string{missing, underFile} {
		for _, args := range [][]string{
			{"check", peterson, "--trail", bad},
			{"check", peterson, "--msc", bad},
			{"check", peterson, "--cpuprofile", bad},
			{"check", peterson, "--json", "--ltl-formula", "[]true", "--trail", bad},
			{"check", aba, "--param", "N=4,T=1,F=1", "--trail", bad},
			{"trace", report, "--msc-text", "--msc", bad},
		} {
			out, errs, code := runCmd(args...)
			flag := args[len(args)-2]
			if code != trace.ExitUsage || out != "" || !strings.Contains(errs, flag+" "+bad+": ") {
				t.Errorf("ftmc %s: exit %d, stdout %q, stderr %q; want 2, nothing on stdout, and %s named", strings.Join(args, " "), code, out, errs, flag)
			}
		}
	}
	// sweep --trails makes its directory, where it can.
	f := &fakeCheck{}
	_, errs, code := runSweep(t, f, sweepModel(t), "-D", "CHAN=B,I", "--trails", underFile)
	if code != trace.ExitUsage || len(f.seen) != 0 || !strings.Contains(errs, "--trails "+underFile) {
		t.Errorf("sweep --trails %s: exit %d after %d checks, stderr %q; want 2 before any", underFile, code, len(f.seen), errs)
	}

	// The check opens the files without changing them, and does not
	// leave behind those that were not there.
	dir := t.TempDir()
	kept, fresh := filepath.Join(dir, "kept.json"), filepath.Join(dir, "fresh.json")
	if err := os.WriteFile(kept, []byte("old trail"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, code = runCmd("check", peterson, "--trail", kept, "--cpuprofile", fresh, "--msc", missing)
	data, _ := os.ReadFile(kept)
	_, err := os.Stat(fresh)
	if code != trace.ExitUsage || string(data) != "old trail" || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("exit %d, %s holds %q, %s: %v; want 2, the file as it was, and no new file", code, kept, data, fresh, err)
	}
}

// TestWriteFailureKeepsVerdict: a trail or chart that cannot be written
// after the search is a warning, and the exit code stays the verdict's.
func TestWriteFailureKeepsVerdict(t *testing.T) {
	missing, _ := badOutputs(t)
	for _, flag := range []string{"--trail", "--msc"} {
		code, out, errs := runExplicitArgs(t, &tokenRing{n: 3}, flag, missing)
		if code != trace.ExitViolated || !strings.Contains(out, "safety: violated") || !strings.Contains(errs, "warning: ") || !strings.Contains(errs, "no such file") {
			t.Errorf("%s %s: exit %d, stderr %q; want 1, the report and a warning", flag, missing, code, errs)
		}
	}
	code, _, errs := runExplicitArgs(t, &tokenRing{n: 3, stopOK: true}, "--trail", missing)
	if code != trace.ExitHolds || !strings.Contains(errs, "warning: ") {
		t.Errorf("holds, --trail %s: exit %d, stderr %q; want 0 and a warning", missing, code, errs)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		// /dev/full opens, and every write to it fails.
		philosophers := example(t, "promela", "philosophers.pml")
		for _, flag := range []string{"--trail", "--msc"} {
			out, errs, code := runCmd("check", philosophers, flag, "/dev/full")
			if code != trace.ExitViolated || !strings.Contains(out, "violated") || !strings.Contains(errs, "warning: ") || !strings.Contains(errs, "no space left") {
				t.Errorf("check %s /dev/full: exit %d, stderr %q; want 1 and a warning", flag, code, errs)
			}
		}
	}

	// In a sweep the row keeps its verdict: a directory in the way of
	// the trail.
	trails := t.TempDir()
	f := &fakeCheck{}
	model := sweepModel(t)
	o := sweepOptions{model: model}
	if err := os.Mkdir(filepath.Join(trails, o.trailName(combination{{"CHAN", "B"}})), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runSweep(t, f, model, "-D", "CHAN=B,I", "--trails", trails)
	if code != trace.ExitViolated || !strings.Contains(out, "violated") || !strings.Contains(errs, "warning: CHAN=B: the report was not saved") {
		t.Errorf("sweep: exit %d, stdout %q, stderr %q; want 1, the row violated, and a warning", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(trails, o.trailName(combination{{"CHAN", "I"}}))); err != nil {
		t.Errorf("the other row's trail: %v", err)
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write(p []byte) (int, error) { return 0, errors.New("no space left on device") }

// TestReportWriteFailure: a report that cannot be written to standard
// output is said on stderr; the exit code is 2 unless the verdict's is 1
// or 3.
func TestReportWriteFailure(t *testing.T) {
	peterson := example(t, "promela", "peterson.pml")
	philosophers := example(t, "promela", "philosophers.pml")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"check", peterson}, trace.ExitUsage},
		{[]string{"check", peterson, "--json"}, trace.ExitUsage},
		{[]string{"check", peterson, "--quiet"}, trace.ExitUsage},
		{[]string{"check", philosophers}, trace.ExitViolated},
		{[]string{"check", philosophers, "--json"}, trace.ExitViolated},
		{[]string{"check", peterson, "--depth", "3"}, trace.ExitUnknown},
		{[]string{"trace", traceReport(t)}, trace.ExitUsage},
	} {
		var stderr bytes.Buffer
		code := run(&env{ctx: context.Background(), stdout: failingWriter{}, stderr: &stderr}, tc.args)
		if code != tc.code || strings.Count(stderr.String(), "ftmc: writing the report: no space left on device\n") != 1 {
			t.Errorf("ftmc %s: exit %d, stderr %q; want %d and the failure said once", strings.Join(tc.args, " "), code, stderr.String(), tc.code)
		}
	}
}

// TestReportToFullDevice: ftmc check > /dev/full fails, in a process of
// its own.
func TestReportToFullDevice(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe, "check", example(t, "promela", "peterson.pml"))
	cmd.Env = append(os.Environ(), "FTMC_AS_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = full, &stderr
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != trace.ExitUsage || !strings.Contains(stderr.String(), "ftmc: writing the report: ") {
		t.Errorf("ftmc check > /dev/full: exit %d, stderr %q; want 2 and the failure", code, stderr.String())
	}
}

// TestOutputNotInput: an output that is the model file (by any name: a
// symbolic link, another spelling), the report ftmc trace reads, or a file
// another output of the run writes is a usage error before the search:
// exit 2 and nothing written. Devices may be named twice.
func TestOutputNotInput(t *testing.T) {
	dir := t.TempDir()
	src := "int x;\nactive proctype P() { x = 1; assert(x == 2) }\n"
	model := filepath.Join(dir, "a.pml")
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.pml")
	if err := os.Symlink(model, link); err != nil {
		t.Fatal(err)
	}
	taSrc, err := os.ReadFile(example(t, "threshold", "aba.ta"))
	if err != nil {
		t.Fatal(err)
	}
	ta := filepath.Join(dir, "aba.ta")
	if err := os.WriteFile(ta, taSrc, 0o644); err != nil {
		t.Fatal(err)
	}
	cub := filepath.Join(dir, "m.cub")
	cubSrc := "var X : bool\ninit () { X = False }\nunsafe () { X = True }\n"
	if err := os.WriteFile(cub, []byte(cubSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	report := traceReport(t)
	reportSrc, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(dir, "old.x")
	if err := os.WriteFile(existing, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "new.x")
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", model, "--trail", model}, "--trail " + model + ": that is the model file"},
		{[]string{"check", model, "--msc", link}, "--msc " + link + ": that is the model file"},
		{[]string{"check", model, "--cpuprofile", filepath.Join(sub, "..", "a.pml")}, "that is the model file"},
		{[]string{"check", model, "--json", "--ltl-formula", "[] true", "--trail", model}, "that is the model file"},
		{[]string{"check", ta, "--param", "N=4,T=1,F=1", "--trail", ta}, "--trail " + ta + ": that is the model file"},
		{[]string{"verify", cub, "--log", cub}, "--log " + cub + ": that is the model file"},
		{[]string{"trace", report, "--msc", report}, "--msc " + report + ": that is the report"},
		{[]string{"check", model, "--trail", existing, "--msc", existing}, "--msc " + existing + ": --trail writes that file too"},
		{[]string{"check", model, "--trail", fresh, "--msc", filepath.Join(sub, "..", "new.x")}, "--trail writes that file too"},
		{[]string{"check", model, "--msc", fresh, "--cpuprofile", fresh}, "--cpuprofile " + fresh + ": --msc writes that file too"},
	} {
		out, errs, code := runCmd(tc.args...)
		if code != trace.ExitUsage || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("ftmc %s: exit %d, stdout %q, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, out, errs, tc.want)
		}
	}
	for path, want := range map[string]string{model: src, ta: string(taSrc), cub: cubSrc, report: string(reportSrc), existing: "old"} {
		if data, err := os.ReadFile(path); err != nil || string(data) != want {
			t.Errorf("%s: %v, holds %q; want it as it was", path, err, data)
		}
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: %v; want no file", fresh, err)
	}
	// Devices may be named twice, as before.
	if _, err := os.Stat("/dev/null"); err == nil {
		if _, errs, code := runCmd("check", model, "--trail", "/dev/null", "--msc", "/dev/null", "--cpuprofile", "/dev/null"); code != trace.ExitViolated {
			t.Errorf("outputs to /dev/null: exit %d, stderr %q; want 1", code, errs)
		}
	}
}
