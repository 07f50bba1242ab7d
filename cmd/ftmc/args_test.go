package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"ftmc/internal/editdist"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// TestFlagErrors: a bad flag is one line that says what is wrong, with
// what it quotes from the command line clipped, and a pointer to -h; the
// flags' usage is printed only for -h.
func TestFlagErrors(t *testing.T) {
	long := strings.Repeat("x", 100000)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "m.pml", "--ltl-formula", "[] p }" + long}, `ftmc check: invalid value "[] p }xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." for flag -ltl-formula`},
		{[]string{"check", "m.pml", "--no" + long}, "ftmc check: flag provided but not defined: -no" + strings.Repeat("x", 37) + "..."},
		{[]string{"verify", "m.ta", "--time", long}, `ftmc verify: invalid value "` + strings.Repeat("x", 40) + `..." for flag -time`},
		{[]string{"sweep", "m.pml", "--json=" + long}, `ftmc sweep: invalid boolean value "` + strings.Repeat("x", 40) + `..." for -json`},
		{[]string{"trace", "r.json", "--msc-text=" + long}, `ftmc trace: invalid boolean value "`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(&env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}, c.args)
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if code != trace.ExitUsage || len(lines) != 2 || !strings.HasPrefix(lines[0], c.want) || !strings.Contains(lines[1], "-h' for its flags") || len(stderr.String()) > 400 {
			t.Errorf("ftmc %s ...: exit %d, want 2 and two lines, the first starting %q:\n%.600s", c.args[0], code, c.want, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(&env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}, []string{"check", "-h"}); code != 0 || !strings.Contains(stderr.String()+stdout.String(), "-ltl-formula") {
		t.Errorf("ftmc check -h: exit %d, want 0 and the flags:\n%s%s", code, stdout.String(), stderr.String())
	}
}

// flagCase runs ftmc with args and checks the exit code and that stderr
// is at most two lines (what is wrong, and the pointer to -h), the first
// containing each of want. A flag taken when it should be refused starts
// a run: the generous bound stops it.
func flagCase(t *testing.T, args []string, wantCode int, want ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	var out, stderr bytes.Buffer
	code := run(&env{ctx: ctx, stdout: &out, stderr: &stderr}, args)
	errs := stderr.String()
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if code != wantCode {
		t.Errorf("ftmc %s: exit %d, want %d; stderr:\n%.600s", strings.Join(args, " "), code, wantCode, errs)
		return
	}
	if len(want) == 0 {
		return
	}
	if len(lines) > 2 {
		t.Errorf("ftmc %s: %d lines on stderr, want at most 2:\n%.600s", strings.Join(args, " "), len(lines), errs)
	}
	for _, w := range want {
		if !strings.Contains(lines[0], w) {
			t.Errorf("ftmc %s: first line %q, want it to contain %q", strings.Join(args, " "), lines[0], w)
		}
	}
}

// TestFlagNamesShared: the same meaning has the same names in every
// command that has it: -q and --quiet, --time, --memory, -j. With -h
// last, a command that knows every flag before it prints its flags and
// exits 0; an unknown one is exit 2.
func TestFlagNamesShared(t *testing.T) {
	root := testenv.RepoRoot(t)
	pml := filepath.Join(root, "examples/promela/abp.pml")
	ta := filepath.Join(root, "examples/threshold/aba.ta")
	cub := filepath.Join(root, "examples/mcmt/lock.cub")
	limits := []string{"--time", "1h", "--memory", "8GB", "-j", "1"}
	for _, model := range [][]string{{"check", pml}, {"check", ta}, {"verify", ta}, {"verify", pml}, {"verify", cub}} {
		for _, q := range []string{"-q", "--quiet"} {
			args := append(append(append([]string{}, model...), q), limits...)
			flagCase(t, append(args, "-h"), 0)
		}
	}
	flagCase(t, append(append([]string{"sweep", pml}, limits...), "-h"), 0)
	// -q and --quiet are the same flag: the same report.
	for _, model := range [][]string{{"check", pml}, {"verify", ta, "unforg"}} {
		short, _, c1 := runText(t, append(append([]string{}, model...), "-q")...)
		long, _, c2 := runText(t, append(append([]string{}, model...), "--quiet")...)
		full, _, _ := runText(t, model...)
		if c1 != c2 || short != long || short == full {
			t.Errorf("ftmc %s: -q (exit %d) and --quiet (exit %d) differ, or print the full report:\n%s\n--\n%s", strings.Join(model, " "), c1, c2, short, long)
		}
	}
}

// TestFlagDurationUnit: a duration without a unit is one line that says a
// unit is needed and suggests one, exit 2.
func TestFlagDurationUnit(t *testing.T) {
	root := testenv.RepoRoot(t)
	pml := filepath.Join(root, "examples/promela/abp.pml")
	ta := filepath.Join(root, "examples/threshold/aba.ta")
	for _, args := range [][]string{
		{"check", pml, "--time", "10"},
		{"check", ta, "--time", "10"},
		{"verify", ta, "--time", "10"},
		{"verify", ta, "--solver-timeout=10"},
		{"sweep", pml, "--time", "10"},
	} {
		flagCase(t, args, trace.ExitUsage, "needs a unit", "10s")
	}
	flagCase(t, []string{"check", pml, "--time", "ten"}, trace.ExitUsage, `invalid value "ten" for flag -time`, "10s")
	var d time.Duration
	fs := newFlags("x", io.Discard)
	durationVar(fs, &d, "time", 5*time.Second, "")
	if err := fs.Parse([]string{"--time", "1m30s"}); err != nil || d != 90*time.Second || fs.Lookup("time").DefValue != "5s" {
		t.Errorf("--time 1m30s: %v, %v, default %q", err, d, fs.Lookup("time").DefValue)
	}
}

// TestFlagSizeUnit: a memory size needs a unit (a bare 8 is most often
// meant as 8GB, not 8 bytes); 0 is no limit.
func TestFlagSizeUnit(t *testing.T) {
	root := testenv.RepoRoot(t)
	pml := filepath.Join(root, "examples/promela/abp.pml")
	ta := filepath.Join(root, "examples/threshold/aba.ta")
	cub := filepath.Join(root, "examples/mcmt/lock.cub")
	for _, args := range [][]string{
		{"check", pml, "--memory", "8"},
		{"verify", ta, "--memory", "8"},
		{"verify", cub, "--memory=8"},
		{"sweep", pml, "--memory", "8"},
	} {
		flagCase(t, args, trace.ExitUsage, "needs a unit", "8GB", "8MB")
	}
	for s, want := range map[string]int64{"8GB": 8e9, "512MB": 512e6, "1.5GB": 1.5e9, "100KB": 1e5, "1B": 1, "0": 0, "2MiB": 2 << 20, "8000000000B": 8e9} {
		var b byteSize
		if err := b.Set(s); err != nil || int64(b) != want {
			t.Errorf("--memory %s: %d, %v; want %d", s, b, err, want)
			continue
		}
		var again byteSize
		if err := again.Set(b.String()); err != nil || again != b {
			t.Errorf("--memory %s: String %q reads back as %d, %v", s, b.String(), again, err)
		}
	}
	for _, s := range []string{"8", "1.5", "-1GB", "GB", "eight"} {
		var b byteSize
		if err := b.Set(s); err == nil {
			t.Errorf("--memory %s: accepted as %d", s, b)
		}
	}
}

// TestFlagDidYouMean: a misspelt flag is one line that names the
// command's closest flag; a name close to none gets no guess.
func TestFlagDidYouMean(t *testing.T) {
	root := testenv.RepoRoot(t)
	pml := filepath.Join(root, "examples/promela/abp.pml")
	ta := filepath.Join(root, "examples/threshold/aba.ta")
	cub := filepath.Join(root, "examples/mcmt/lock.cub")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", pml, "--tiem", "5s"}, "did you mean --time?"},
		{[]string{"check", pml, "--jsno"}, "did you mean --json?"},
		{[]string{"check", pml, "--quite"}, "did you mean --quiet?"},
		{[]string{"check", ta, "--tmie=5s"}, "did you mean --time?"},
		{[]string{"verify", ta, "--solver-timout", "5s"}, "did you mean --solver-timeout?"},
		{[]string{"verify", cub, "--max-node", "5"}, "did you mean --max-nodes?"},
		{[]string{"sweep", pml, "--trail", "d"}, "did you mean --trails?"},
		{[]string{"trace", "r.json", "--txet"}, "did you mean --text?"},
	} {
		flagCase(t, c.args, trace.ExitUsage, "flag provided but not defined", c.want)
	}
	for _, args := range [][]string{{"check", pml, "--frobnicate"}, {"check", pml, "-x"}} {
		_, errs, code := runText(t, args...)
		if code != trace.ExitUsage || strings.Contains(errs, "did you mean") {
			t.Errorf("ftmc %s: exit %d, stderr %q; want 2 and no guess", strings.Join(args, " "), code, errs)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"tiem", "time", 1}, {"jsno", "json", 1}, {"time", "time", 0}, {"", "j", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}} {
		if d := editdist.Distance(c.a, c.b); d != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
}

// TestVersion: ftmc version and ftmc --version print the module's version
// and the VCS revision the build recorded, exit 0.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"version", "--version", "-version"} {
		out, errs, code := runText(t, arg)
		if code != 0 || !strings.HasPrefix(out, "ftmc ") || errs != "" {
			t.Errorf("ftmc %s: exit %d, stdout %q, stderr %q", arg, code, out, errs)
		}
	}
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "ftmc", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-26T12:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := versionText(bi, true), "ftmc (devel) 0123abcd (modified) 2026-11-26T12:00:00Z go1.26.8\n"; got != want {
		t.Errorf("versionText = %q, want %q", got, want)
	}
	bi.Main.Version, bi.Settings = "v1.2.3", nil
	if got, want := versionText(bi, true), "ftmc v1.2.3 go1.26.8\n"; got != want {
		t.Errorf("versionText = %q, want %q", got, want)
	}
	if got := versionText(nil, false); !strings.HasPrefix(got, "ftmc ") {
		t.Errorf("versionText without build info = %q", got)
	}
}
