// Package testenv lets tests that need an external program (spin, z3, cvc5,
// gcc) skip on a machine without it, and fail loudly under CI=true, where the
// program must be there.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// NeedBinary returns the path of the program name, or skips t when it is
// missing; with CI=true it fails t instead.
func NeedBinary(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed, and CI=true requires it (apt-get install -y %s)", name, debianPackage(name))
	}
	t.Skipf("%s is not installed (apt-get install -y %s)", name, debianPackage(name))
	return ""
}

func debianPackage(name string) string {
	switch name {
	case "gcc", "cc":
		return "gcc"
	}
	return name
}

// Shared returns the path of the reference data directory ../shared beside
// the repository (benchmarks, seeds), or skips t when it is missing; with
// CI=true it fails t instead.
func Shared(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(RepoRoot(t), "..", "shared")
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return dir
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("reference data %s is missing, and CI=true requires it", dir)
	}
	t.Skipf("reference data %s is missing", dir)
	return ""
}

// RepoRoot returns the repository's root directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the repository")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Short reports whether slow tests should be left out (go test -short).
func Short() bool { return testing.Short() }

// CrossCheck is the solver with which the tests have the engines confirm
// every unsat answer (ftmc verify --cross-check): $FTMC_CROSS_CHECK when
// set ("none" turns it off), else cvc5 when it is installed, as under CI.
func CrossCheck() string {
	if s := os.Getenv("FTMC_CROSS_CHECK"); s != "" {
		if s == "none" {
			return ""
		}
		return s
	}
	if _, err := exec.LookPath("cvc5"); err == nil {
		return "cvc5"
	}
	return ""
}
