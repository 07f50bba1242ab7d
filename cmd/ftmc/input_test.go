package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/trace"
)

// Model files that do not end (devices) are refused at the bound, with
// the file's name, whatever their language.
func TestCheckInputBounded(t *testing.T) {
	for _, args := range [][]string{
		{"check", "/dev/zero"},
		{"check", "--lang", "ta", "/dev/zero"},
		{"verify", "--lang", "mcmt", "/dev/zero"},
		{"verify", "--lang", "cubicle", "/dev/zero"},
		{"check", "--ltl-formula", "[] true", "/dev/zero"},
	} {
		_, errs, code := runCmd(args...)
		if code != trace.ExitUsage || !strings.Contains(errs, "/dev/zero: larger than 64 MB: too large for a model file") {
			t.Errorf("ftmc %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
	}
}

// --time bounds the reading of the model too: a reading it stops ends with
// verdict unknown, exit 3.
func TestCheckInputReadingTimeLimit(t *testing.T) {
	dir := t.TempDir()
	pml := filepath.Join(dir, "big.pml")
	os.WriteFile(pml, []byte("init {\n"+strings.Repeat("  skip;\n", 2000000)+"}\n"), 0o644)
	cub := filepath.Join(dir, "big.cub")
	os.WriteFile(cub, []byte("array A[proc] : bool\nunsafe (i) { A[i] = True"+strings.Repeat(" && A[i] = True", 1000000)+" }\n"), 0o644)
	for _, args := range [][]string{
		{"check", "--time", "1ms", pml},
		{"verify", "--time", "1ms", cub},
		{"check", "--time", "1ms", "--ltl-formula", "[] true", pml},
	} {
		_, errs, code := runCmd(args...)
		if code != trace.ExitUnknown || !strings.Contains(errs, "unknown: time limit 1ms reached while reading the model (stopped at "+args[len(args)-1]+":") {
			t.Errorf("ftmc %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
	}
}
