package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"ftmc/internal/expect"
	"ftmc/internal/testenv"
	"ftmc/trace"
)

// The shared array-based models through the command line, as a reader runs
// them: the Chandra-Toueg seed and the benchmarks are safe (exit 0), the
// seed's suggested invariants are all proved, and the bounded checks of the
// seed agree for 2 and 3 processes.
func TestVerifyMCMTShared(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	shared := testenv.Shared(t)
	seed := filepath.Join(shared, "seeds/002_89f49e16422360b2.txt")
	for _, c := range []struct {
		args   []string
		engine string
	}{
		{[]string{"verify", "--lang", "mcmt", seed}, "backreach"},
		{[]string{"verify", "--lang", "mcmt", "--bounded", "2", seed}, "explicit"},
		{[]string{"verify", "--lang", "mcmt", "--bounded", "3", seed}, "explicit"},
		{[]string{"verify", filepath.Join(shared, "benchmarks/mcmt/crash.in")}, "backreach"},
		{[]string{"verify", filepath.Join(shared, "benchmarks/mcmt/crash.cub")}, "backreach"},
		{[]string{"verify", filepath.Join(shared, "benchmarks/mcmt/mutex.cub")}, "backreach"},
		{[]string{"verify", "--brab", "0", filepath.Join(shared, "benchmarks/mcmt/crash.cub")}, "backreach"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		rep, code, stderr := runFtmc(ctx, c.args)
		cancel()
		if rep == nil {
			t.Fatalf("ftmc %v: exit %d: %s", c.args, code, stderr)
		}
		if code != trace.ExitHolds || len(rep.Verdicts) != 1 || rep.Verdicts[0].Verdict != trace.Holds {
			t.Errorf("ftmc %v: exit %d, verdicts %+v; want one verdict holds, exit 0", c.args, code, rep.Verdicts)
			continue
		}
		if rep.Engine != c.engine || !rep.Stats.Complete {
			t.Errorf("ftmc %v: engine %s, complete %v; want %s, complete", c.args, rep.Engine, rep.Stats.Complete, c.engine)
		}
		if c.engine == "backreach" && c.args[len(c.args)-1] == seed {
			if rep.Verdicts[0].Property != "AGREEMENT" {
				t.Errorf("seed: property %q, want AGREEMENT", rep.Verdicts[0].Property)
			}
			figs := map[string]float64{}
			for _, f := range rep.Stats.Extra {
				figs[f.Name] = f.Value
			}
			if figs["invariants"] != 7 || figs["refuted_candidates"] != 0 {
				t.Errorf("seed: %v suggested invariants proved, %v refuted; want 7 and 0", figs["invariants"], figs["refuted_candidates"])
			}
			if figs["nodes"] == 0 || figs["lemmas"] == 0 {
				t.Errorf("seed: %v nodes, %v lemmas; the proof visits cubes and needs lemmas", figs["nodes"], figs["lemmas"])
			}
		}
	}
}

// The invariant search's modes give every array-based model its expected
// verdict: candidates proved or else guessed (the default), proved only
// (--guess=false), and guessed without a proof (--lemma-budget -1). The
// models are the seed and the shared benchmarks (all safe) and
// examples/mcmt, with the verdict their header gives the plain verify
// run. On the seed the default guesses (its bounded proofs leave
// candidates open), names each guess in a note, and --guess=false does not
// guess.
func TestVerifyMCMTSearchModes(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	shared := testenv.Shared(t)
	seed := filepath.Join(shared, "seeds/002_89f49e16422360b2.txt")
	type model struct {
		args []string
		want expect.Outcome
	}
	holds := expect.Outcome{Verdict: string(trace.Holds)}
	models := []model{
		{[]string{"--lang", "mcmt", seed}, holds},
		{[]string{filepath.Join(shared, "benchmarks/mcmt/crash.in")}, holds},
		{[]string{filepath.Join(shared, "benchmarks/mcmt/crash.cub")}, holds},
		{[]string{filepath.Join(shared, "benchmarks/mcmt/mutex.cub")}, holds},
	}
	examples, err := filepath.Glob(filepath.Join(testenv.RepoRoot(t), "examples/mcmt/*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range examples {
		if _, ok := modelCommand[filepath.Ext(path)]; !ok {
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := expect.Parse(f, "verify")
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		i := slices.IndexFunc(runs, func(r expect.Run) bool { return slices.Equal(r.Args, []string{"verify"}) && r.Overall != nil })
		if i < 0 {
			t.Errorf("%s: no expected verdict for ftmc verify", path)
			continue
		}
		models = append(models, model{[]string{path}, *runs[i].Overall})
	}
	for _, mode := range [][]string{nil, {"--guess=false"}, {"--lemma-budget", "-1"}} {
		for _, m := range models {
			args := append(append([]string{"verify"}, m.args...), mode...)
			rep, code, errs := runFtmc(t.Context(), args)
			if rep == nil {
				t.Errorf("ftmc %v: exit %d: %s", args, code, errs)
				continue
			}
			if got := overall(rep.Verdicts); !matches(m.want, got) {
				t.Errorf("ftmc %v: %s, want %s", args, got, m.want)
			}
			if m.args[len(m.args)-1] != seed {
				continue
			}
			figs := map[string]float64{}
			for _, f := range rep.Stats.Extra {
				figs[f.Name] = f.Value
			}
			if guessed := figs["guessed_invariants"] > 0; guessed != !slices.Equal(mode, []string{"--guess=false"}) {
				t.Errorf("ftmc %v: %v guessed invariants", args, figs["guessed_invariants"])
			}
			notes := 0
			for _, w := range rep.Warnings {
				if strings.HasPrefix(w, "unreachable (guessed, proved with the property): ") {
					notes++
				}
			}
			if float64(notes) != figs["guessed_invariants"] {
				t.Errorf("ftmc %v: %d notes on guesses, %v guessed invariants", args, notes, figs["guessed_invariants"])
			}
		}
	}
}

// runText runs ftmc with args and returns its text output and exit code.
func runText(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errs bytes.Buffer
	code = run(&env{ctx: t.Context(), stdout: &out, stderr: &errs}, args)
	return out.String(), errs.String(), code
}

// writeModel writes src to a file called name in a temporary directory.
func writeModel(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Flag values the searches cannot honour are usage errors before any
// search starts, not ignored: an unknown solver (even with --bounded, which
// needs none), negative limits, -j.
func TestVerifyMCMTBadFlags(t *testing.T) {
	lock := filepath.Join(testenv.RepoRoot(t), "examples/mcmt/lock.cub")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--solver", "foo"}, "--solver foo: expected z3 or cvc5"},
		{[]string{"--solver", "foo", "--bounded", "2"}, "--solver foo"},
		{[]string{"--bounded", "-1"}, "--bounded -1: must not be negative"},
		{[]string{"--bounded", "2", "--max-states", "-1"}, "--max-states -1: must not be negative"},
		{[]string{"--max-nodes", "-1"}, "--max-nodes -1"},
		{[]string{"--brab", "-2"}, "--brab -2"},
		{[]string{"--confirm", "-1"}, "--confirm -1"},
		{[]string{"--lemma-budget", "-2"}, "--lemma-budget -2: expected -1"},
		{[]string{"--lemma-budget", "-1", "--guess=false"}, "--lemma-budget -1 makes every candidate a guess, --guess=false uses proved candidates only"},
		{[]string{"--time", "-1s"}, "must not be negative"},
		{[]string{"--solver-timeout", "-1s"}, "must not be negative"},
		{[]string{"--cross-check", "foo"}, "--cross-check foo: expected z3, cvc5 or none"},
		{[]string{"--cross-check", "none", "--cross-check-path", "/usr/bin/cvc5"}, "--cross-check-path needs --cross-check z3 or cvc5"},
		{[]string{"-j", "4"}, "-j 4: backward reachability and --bounded run on one worker"},
		{[]string{"-j", "2", "--bounded", "2"}, "-j 2"},
	} {
		out, errs, code := runText(t, append([]string{"verify", lock}, c.args...)...)
		if code != trace.ExitUsage || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("ftmc verify %v: exit %d, stderr %q, stdout %q; want exit 2, %q and no search", c.args, code, errs, out, c.want)
		}
	}
	// -j 1, the default, is accepted.
	if _, errs, code := runText(t, "verify", lock, "-j", "1", "--bounded", "2"); code != trace.ExitHolds {
		t.Errorf("-j 1: exit %d: %s", code, errs)
	}
}

// --time and --memory stop both searches with verdict unknown, exit 3,
// and a reason that names the limit and what the search had done.
func TestVerifyMCMTLimits(t *testing.T) {
	lock := filepath.Join(testenv.RepoRoot(t), "examples/mcmt/lock.cub")
	for _, c := range []struct {
		args []string
		want *regexp.Regexp
	}{
		{[]string{"--bounded", "3", "--time", "1ns"}, regexp.MustCompile(`^time limit 1ns reached after \d+ states$`)},
		{[]string{"--bounded", "3", "--memory", "1MB"}, regexp.MustCompile(`^memory limit 1 MB reached after \d+ states$`)},
		{[]string{"--brab", "0", "--time", "1ns"}, regexp.MustCompile(`^time limit 1ns reached after 0 cubes$`)},
		{[]string{"--brab", "0", "--memory", "1MB"}, regexp.MustCompile(`^memory limit 1 MB reached after 0 cubes$`)},
		{[]string{"--time", "1ns"}, regexp.MustCompile(`^time limit 1ns reached while the instance with 3 processes that candidate invariants come from was explored \(--brab 3\)$`)},
	} {
		if !slices.Contains(c.args, "--bounded") {
			testenv.NeedBinary(t, "z3")
		}
		args := append([]string{"verify", lock}, c.args...)
		rep, code, errs := runFtmc(t.Context(), args)
		if rep == nil {
			t.Errorf("ftmc %v: exit %d: %s", args, code, errs)
			continue
		}
		if code != trace.ExitUnknown || len(rep.Verdicts) != 1 || rep.Verdicts[0].Verdict != trace.Unknown || !c.want.MatchString(rep.Verdicts[0].Reason) {
			t.Errorf("ftmc %v: exit %d, verdicts %+v; want unknown, exit 3, reason matching %s", args, code, rep.Verdicts, c.want)
		}
	}
}

// The audit's case: the seed's 4-process instance (1.1 million states)
// needs about 140 MB; with --memory 100MB it stops near 100 MB instead of
// saying holds.
func TestVerifyMCMTMemorySeed(t *testing.T) {
	seed := filepath.Join(testenv.Shared(t), "seeds/002_89f49e16422360b2.txt")
	rep, code, errs := runFtmc(t.Context(), []string{"verify", "--lang", "mcmt", "--bounded", "4", "--memory", "100MB", seed})
	if rep == nil {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code != trace.ExitUnknown || rep.Verdicts[0].Verdict != trace.Unknown || !strings.HasPrefix(rep.Verdicts[0].Reason, "memory limit 100 MB reached") {
		t.Errorf("exit %d, verdicts %+v; want unknown: memory limit 100 MB reached", code, rep.Verdicts)
	}
	// explore's store keeps about 770000 states in 100 MB.
	if rep.Stats.Complete || rep.Stats.States == 0 || rep.Stats.States > 1000000 {
		t.Errorf("stats %+v: want an incomplete search of some states, well short of the instance's 1.1 million", rep.Stats)
	}
}

// The figures of a --bounded search cut short say what it explored: all
// the states found, and those expanded; a limit smaller than the initial
// states says so. One process is "1 process".
func TestVerifyMCMTBoundedFigures(t *testing.T) {
	// Every process starts anywhere in A..D: 4^3 = 64 initial states.
	many := writeModel(t, "many.cub", "type loc = A | B | C | D\narray P[proc] : loc\ninit (i) { P[i] <> D || P[i] = D }\n"+
		"unsafe (i j) { P[i] = D && P[j] = D && P[i] <> D }\ntransition t (i)\nrequires { P[i] = A }\n{ P[i] := B }\n")
	out, errs, code := runText(t, "verify", many, "--bounded", "3", "--max-states", "10")
	if code != trace.ExitUnknown {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	for _, want := range []string{"unsafe: unknown: state limit 10 reached: the instance has 64 initial states\n", "3 processes: 64 states found, 0 expanded, 0 transitions"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	lock := filepath.Join(testenv.RepoRoot(t), "examples/mcmt/lock.cub")
	out, errs, code = runText(t, "verify", lock, "--bounded", "1")
	if code != trace.ExitHolds || !strings.Contains(out, "\n1 process: 3 states") {
		t.Errorf("--bounded 1: exit %d, output %q %s; want \"1 process: 3 states\"", code, out, errs)
	}
}

// Options the model gives and ftmc does not use are named in a note; a
// name that is not an option is an error (exit 2).
func TestVerifyMCMTOptionNote(t *testing.T) {
	const model = "local bool s [nat]\nkey_search s;\n(:mcmt :inv_search_max_index_var 4 :)\ninitial (universal x:nat) { (s[x] = false) }\n" +
		"unsafe (existential x:nat, existential y:nat) { (s[x] = true) AND (s[y] = true) }\n" +
		"transition (existential x:nat, universal y:nat) { guard: (s[x] = false) uguard: (s[y] = false) update: s[x] := true; }\n"
	path := writeModel(t, "opt.mcmt", model)
	out, errs, code := runText(t, "verify", path, "--bounded", "2")
	if code != trace.ExitHolds || !strings.Contains(out, "note: MCMT options key_search s, inv_search_max_index_var 4 have no effect") {
		t.Errorf("exit %d, output %q %s; want holds and a note on the options", code, out, errs)
	}
	cub := writeModel(t, "n.cub", "number_procs 3\n"+lockSource(t))
	if out, errs, _ := runText(t, "verify", cub, "--bounded", "2"); !strings.Contains(out, "note: number_procs 3 has no effect") {
		t.Errorf("output %q %s; want a note on number_procs", out, errs)
	}
	bad := writeModel(t, "bad.mcmt", strings.Replace(model, "key_search s;", "key_search rounds;", 1))
	if _, errs, code := runText(t, "verify", bad, "--bounded", "2"); code != trace.ExitUsage || !strings.Contains(errs, "bad.mcmt:2:12: key_search rounds names no declared array") {
		t.Errorf("key_search rounds: exit %d, %s; want exit 2 and the position", code, errs)
	}
}

// lockSource is examples/mcmt/lock.cub.
func lockSource(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "examples/mcmt/lock.cub"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The usage text and errors of verify for array-based systems: --lang
// lists mcmt1 and promela (an empty model without its .pml, /dev/null,
// is read as Promela with --lang promela), --max-nodes says what 0 means.
func TestVerifyMCMTUsage(t *testing.T) {
	if _, errs, code := runText(t, "verify", "model.txt"); code != trace.ExitUsage || !strings.Contains(errs, "give a .ta, .pml, .mcmt, .in or .cub file, or --lang ta|promela|mcmt|mcmt1|cubicle") {
		t.Errorf("verify model.txt: exit %d, %q; want the --lang hint with promela and mcmt1", code, errs)
	}
	if out, _, code := runText(t, "verify", "-h"); code != 0 || !strings.Contains(out, "MODEL.{ta,pml,mcmt,in,cub}") || !strings.Contains(out, "MODEL.pml -h") {
		t.Errorf("verify -h: exit %d, %q; want .pml in the usage", code, out)
	}
	if out, errs, code := runText(t, "verify", "--lang", "promela", os.DevNull); code != trace.ExitUsage || out != "" || !strings.HasPrefix(errs, os.DevNull+":1:1: no process runs") {
		t.Errorf("verify --lang promela %s: exit %d, %q%q", os.DevNull, code, out, errs)
	}
	if _, errs, code := runText(t, "verify", "--lang", "foo", "model.txt"); code != trace.ExitUsage || !strings.Contains(errs, "--lang foo: expected ta, promela, mcmt, mcmt1 or cubicle") {
		t.Errorf("verify --lang foo: exit %d, %q", code, errs)
	}
	lock := filepath.Join(testenv.RepoRoot(t), "examples/mcmt/lock.cub")
	_, errs, _ := runText(t, "verify", lock, "-h")
	if !regexp.MustCompile(`-max-nodes int\n\s+stop with verdict unknown after this many visited cubes \(0: no limit\)`).MatchString(errs) {
		t.Errorf("verify -h does not say what --max-nodes 0 means:\n%s", errs)
	}
	if rep, code, errs := runFtmc(t.Context(), []string{"verify", lock, "--bounded", "2", "--lang", "cub"}); rep == nil || code != trace.ExitHolds {
		t.Errorf("--lang cub: exit %d: %s", code, errs)
	}
}

// ftmc check on an MCMT or Cubicle file says to use ftmc verify --bounded,
// instead of reading it as Promela.
func TestCheckArrayModel(t *testing.T) {
	lock := filepath.Join(testenv.RepoRoot(t), "examples/mcmt/lock.cub")
	for _, args := range [][]string{{"check", lock}, {"check", "crash.in"}, {"check", "--time", "1m", "x.mcmt"}} {
		model := args[len(args)-1]
		_, errs, code := runText(t, args...)
		if code != trace.ExitUsage || !strings.Contains(errs, "'ftmc verify "+model+" --bounded K'") || strings.Contains(errs, "expected an expression") {
			t.Errorf("ftmc %v: exit %d, %q; want exit 2 and the verify --bounded command", args, code, errs)
		}
	}
	if _, errs, code := runText(t, "check", "--lang", "mcmt", "seed.txt"); code != trace.ExitUsage || !strings.Contains(errs, "ftmc verify --lang mcmt MODEL --bounded K") {
		t.Errorf("check --lang mcmt: exit %d, %q", code, errs)
	}
}

// Without --memory, both searches stop at the machine's default limit, as
// ftmc check does, and say where it comes from; --memory 0 is no limit.
func TestVerifyMCMTDefaultMemoryLimit(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	old := defaultMemoryLimit
	t.Cleanup(func() { defaultMemoryLimit = old })
	defaultMemoryLimit = func(int) (int64, string) { return 1e6, "85% of physical memory" }
	lock := filepath.Join(testenv.RepoRoot(t), "examples/mcmt/lock.cub")
	for _, args := range [][]string{{"--bounded", "2"}, {"--brab", "0"}} {
		out, errs, code := runText(t, append([]string{"verify", lock}, args...)...)
		if code != trace.ExitUnknown || !strings.HasPrefix(out, "unsafe: unknown: memory limit 1 MB (85% of physical memory) reached after ") {
			t.Errorf("verify %v: exit %d, %q %s; want unknown at the default limit", args, code, out, errs)
		}
		out, errs, code = runText(t, append([]string{"verify", lock, "--memory", "0"}, args...)...)
		if code != trace.ExitHolds {
			t.Errorf("verify %v --memory 0: exit %d, %q %s; want no limit", args, code, out, errs)
		}
	}
}

// An instance without an initial state has no run to check: --bounded says
// unknown, not a vacuous holds.
func TestVerifyMCMTBoundedNoInitialState(t *testing.T) {
	path := writeModel(t, "home.cub", "var Home : proc\narray A[proc] : bool\ninit (p) { Home <> p && A[p] = False }\n"+
		"unsafe (i) { A[i] = True }\ntransition t (i)\nrequires { A[i] = False }\n{ A[i] := True }\n")
	out, errs, code := runText(t, "verify", path, "--bounded", "2")
	if code != trace.ExitUnknown || !strings.Contains(out, "unsafe: unknown: the instance with 2 processes has no initial state") {
		t.Errorf("exit %d, output %q %s; want unknown for an instance without initial states", code, out, errs)
	}
}

// A counter that outgrows the instance's bytes stops the bounded search
// with unknown, not with a usage error and no verdict.
func TestVerifyMCMTBoundedOutOfRange(t *testing.T) {
	path := writeModel(t, "count.cub", "var C : int\narray A[proc] : bool\ninit (p) { C = 0 && A[p] = False }\n"+
		"unsafe (i) { A[i] = True && C < 0 }\ntransition inc (i)\nrequires { A[i] = False }\n{ C := C + 1 }\n")
	out, errs, code := runText(t, "verify", path, "--bounded", "1")
	if code != trace.ExitUnknown || !strings.Contains(out, "unsafe: unknown: inc(") || !strings.Contains(out, "a value leaves -128..127") {
		t.Errorf("exit %d, output %q %s; want unknown naming the transition whose value left the range", code, out, errs)
	}
}

// --cpuprofile writes a profile of the backward search, as for ftmc check.
func TestVerifyMCMTCPUProfile(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	lock := filepath.Join(testenv.RepoRoot(t), "examples/mcmt/lock.cub")
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	if _, errs, code := runText(t, "verify", lock, "--cpuprofile", prof); code != trace.ExitHolds {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("profile: %v, want a non-empty file", err)
	}
}

// A system without an initial state is unknown with the reason, exit 3,
// from backward reachability as from --bounded: nothing was checked.
func TestVerifyMCMTNoInitialState(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	src := lockSource(t)
	init := regexp.MustCompile(`(?m)^init \(i\) \{(.*)\}$`)
	if !init.MatchString(src) {
		t.Fatal("lock.cub has no one-line init (i) { ... }")
	}
	model := writeModel(t, "noinit.cub", init.ReplaceAllString(src, "init (i) {$1 && Lock = True && Lock = False }"))
	for _, args := range [][]string{{"verify", model}, {"verify", model, "--bounded", "2"}, {"verify", model, "--brab", "0"}} {
		out, errs, code := runText(t, args...)
		if code != trace.ExitUnknown || !strings.Contains(out, "unsafe: unknown: ") || !strings.Contains(out, "no initial state") || !strings.Contains(out, "nothing was checked") {
			t.Errorf("ftmc %s: exit %d, want 3 and unknown, no initial state:\n%s%s", strings.Join(args, " "), code, out, errs)
		}
	}
}

// A proof for every number of processes also says the verdict as Cubicle
// and MCMT word it (SAFE: the unsafe states are unreachable); the verdict
// token stays ftmc's, and an instance's verdict (--bounded) is not said in
// their words.
func TestVerifyMCMTCubicleWords(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	dir := filepath.Join("..", "..", "examples", "mcmt")
	for _, c := range []struct {
		file string
		args []string
		want string
		code int
	}{
		{"lock.cub", nil, "unsafe: holds (Cubicle: SAFE)\n", trace.ExitHolds},
		{"lock_bug.cub", nil, "unsafe: violated (invariant) (Cubicle: UNSAFE)\n", trace.ExitViolated},
		{"broadcast.mcmt", nil, "VALIDITY: holds (MCMT: SAFE)\n", trace.ExitHolds},
		{"broadcast_bug.mcmt", nil, "VALIDITY: violated (invariant) (MCMT: UNSAFE)\n", trace.ExitViolated},
		{"lock.cub", []string{"--bounded", "2"}, "unsafe: holds\n", trace.ExitHolds},
	} {
		args := append([]string{"verify", filepath.Join(dir, c.file)}, c.args...)
		out, errs, code := runText(t, args...)
		if code != c.code || !strings.HasPrefix(out, c.want) {
			t.Errorf("ftmc %s: exit %d, want %d and first line %q:\n%s%s", strings.Join(args[1:], " "), code, c.code, c.want, out, errs)
		}
	}
}
