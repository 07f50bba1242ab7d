package main

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ftmc/internal/testenv"
)

// pmlTemplate is a small ByMC model; the cases below change one part of
// it to step outside the class that verify MODEL.pml handles.
const pmlTemplate = `symbolic int N, T, F;
int nsnt;
GLOBALS
assume(N > 3 * T);
assume(T >= F);
assume(F >= 0);
assume(T >= 1);
atomic ex_acc = some(P:pc == 1);
PROPS
active[N - F] proctype P() {
  byte pc = 0; int nrcvd = 0; int next = 0;
  if :: pc = 0 :: pc = 1 fi;
end: do
  :: atomic {
       havoc(next);
       assume(nrcvd <= next && next <= nsnt + F);
       if :: GUARD -> pc = 1; SEND :: else fi;
       nrcvd = next; next = 0; EXTRA
     }
  od AFTER
}
PROCS
ltl live { LTL }
`

func pmlModel(repl map[string]string) string {
	def := map[string]string{"GLOBALS": "", "PROPS": "", "GUARD": "next >= T + 1 && pc == 0", "SEND": "nsnt++", "EXTRA": "", "AFTER": "", "PROCS": "", "LTL": "<>ex_acc"}
	for k, v := range repl {
		def[k] = v
	}
	s := pmlTemplate
	for k, v := range def {
		s = strings.ReplaceAll(s, k, v)
	}
	return s
}

// Models outside the class get a positioned error that names the
// construct, and exit code 2; nothing is skipped silently.
func TestVerifyPMLOutsideClass(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	cases := []struct {
		name string
		repl map[string]string
		want string
	}{
		{"scaled", map[string]string{"SEND": "nsnt = nsnt * 2"}, "may only change by a constant"},
		{"product", map[string]string{"EXTRA": "nrcvd = nrcvd * nrcvd;"}, "product of two variables"},
		{"channel", map[string]string{"GLOBALS": "chan c = [1] of { byte };"}, "channels"},
		{"array", map[string]string{"GLOBALS": "int a[3];"}, "arrays"},
		{"second proctype", map[string]string{"PROCS": "active proctype Q() { skip }"}, "second proctype"},
		{"init", map[string]string{"PROCS": "init { skip }"}, "init process"},
		{"goto", map[string]string{"EXTRA": "goto end;"}, "goto"},
		{"assert", map[string]string{"EXTRA": "assert(pc < 3);"}, "assert"},
		{"nested loop", map[string]string{"EXTRA": "do :: break od;"}, "loop inside a step"},
		{"run", map[string]string{"EXTRA": "run P();"}, "run"},
		{"after loop", map[string]string{"AFTER": "; pc = 0"}, "after the main loop"},
		{"pid", map[string]string{"GUARD": "_pid == 0"}, "anonymous"},
		{"until", map[string]string{"LTL": "ex_acc U ex_acc"}, "outside the supported LTL fragment"},
		{"next", map[string]string{"LTL": "X ex_acc"}, "next-time"},
		{"division", map[string]string{"GUARD": "next >= N / 2"}, "introduce a parameter"},
		{"card", map[string]string{"PROPS": "atomic many = (card(P:nrcvd < nsnt) > 1);", "LTL": "<>many"}, "card(...) over a condition"},
		{"conditional", map[string]string{"EXTRA": "pc = (pc > 0 -> 1 : 0);"}, "conditional expressions"},
		{"local outside", map[string]string{"PROPS": "atomic bad = (nrcvd > 0);", "LTL": "<>bad"}, "undeclared variable"},
	}
	if len(cases) < 15 {
		t.Fatal("too few cases")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeModel(t, "m.pml", pmlModel(c.repl))
			_, stderr, code := runText(t, "verify", path)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr:\n%s", code, stderr)
			}
			re := regexp.MustCompile("^" + regexp.QuoteMeta(path) + `:\d+:\d+: `)
			if !re.MatchString(stderr) || !strings.Contains(stderr, c.want) {
				t.Fatalf("stderr %q: want file:line:col: and %q", stderr, c.want)
			}
		})
	}
	// The template itself is inside the class.
	path := writeModel(t, "m.pml", pmlModel(nil))
	if out, stderr, code := runText(t, "verify", path, "-q"); code == 2 {
		t.Fatalf("the template is refused: %s%s", out, stderr)
	}
	// A shared variable that decreases is inside, if the guard keeps it
	// from going below zero; otherwise the verdict is unknown, and says
	// why, at the rule.
	path = writeModel(t, "m.pml", pmlModel(map[string]string{"GUARD": "pc == 0", "SEND": "nsnt--", "LTL": "[](nsnt <= N)"}))
	out, stderr, code := runText(t, "verify", path, "-q")
	if code != 3 || !strings.Contains(out, "but its guard does not keep nsnt >= 1") {
		t.Errorf("an unguarded decrement: exit %d, want 3 (unknown) and why; output:\n%s%s", code, out, stderr)
	}
}

// The extracted automaton reads back with ftmc verify and gives the same
// verdicts.
func TestVerifyPMLEmitTA(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	dir := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "promela")
	for _, c := range []struct{ model, def string }{{"strb.pml", ""}, {"strb.pml", "BUG1=1"}, {"nbacr.pml", ""}} {
		emitted := filepath.Join(t.TempDir(), "x.ta")
		args := []string{"verify", filepath.Join(dir, c.model), "all", "-q", "--emit-ta", emitted}
		if c.def != "" {
			args = append(args, "-D", c.def)
		}
		out1, stderr, code := runText(t, args...)
		if code == 2 {
			t.Fatalf("%v: %s", args, stderr)
		}
		if _, err := os.Stat(emitted); err != nil {
			t.Fatal(err)
		}
		out2, stderr, code2 := runText(t, "verify", emitted, "all", "-q")
		if code2 == 2 {
			t.Fatalf("the emitted automaton does not read back: %s", stderr)
		}
		// A violation of the automaton is replayed on the instance for
		// the .pml; both must agree wherever the .pml run decided.
		v1, v2 := pmlVerdicts(out1), pmlVerdicts(out2)
		for spec, v := range v1 {
			if v != "unknown" && v2[spec] != v {
				t.Errorf("%s %s: %s on the model, %s on the emitted automaton", c.model, spec, v, v2[spec])
			}
		}
	}
}

func pmlVerdicts(out string) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok && !strings.Contains(k, " ") {
			m[k] = strings.Fields(v)[0]
		}
	}
	return m
}

// The rows of ../shared/benchmarks/bymc/EXPECTED.tsv for the Promela models
// that verify decides quickly: every verdict as expected, and with
// --engine cegar every verdict it reaches within 5 s. (bench/pml runs
// every row, ENGINE=cegar with the counter abstraction with refinement.)
func TestVerifyPMLExpected(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	root := filepath.Join(testenv.Shared(t), "benchmarks", "bymc")
	data, err := os.ReadFile(filepath.Join(root, "EXPECTED.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	quick := map[string]bool{"frb.pml": true, "strb.pml": true, "nbacr.pml": true, "nbacg.pml": true, "cf1s.pml": true}
	n, decided := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 5 || !strings.HasPrefix(f[0], "isola18-promela") || !quick[filepath.Base(f[1])] {
			continue
		}
		args := []string{"verify", filepath.Join(root, f[1])}
		spec := f[2]
		if strings.HasPrefix(spec, "(") {
			args = append(args, "all")
		} else {
			args = append(args, spec)
		}
		for _, d := range regexp.MustCompile(`-D ([A-Za-z0-9_]+=[0-9]+)`).FindAllStringSubmatch(f[3], -1) {
			args = append(args, "-D", d[1])
		}
		if filepath.Base(f[1]) == "cf1s.pml" && strings.Contains(f[3], "BUG1") && !strings.Contains(f[3], "CASE") {
			// The row's default case is CASE1, F == 0: no process crashes,
			// so the bug (a crashing process sends 1) cannot show; all
			// four specifications hold there (instances agree). The bug
			// shows with F == 1.
			args = append(args, "-D", "CASE2=1")
		}
		args = append(args, "-q")
		want := "holds"
		if strings.HasPrefix(f[4], "counterexample") {
			want = "violated"
		}
		n++
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			out, stderr, code := runText(t, args...)
			if code == 2 {
				t.Fatalf("exit 2: %s", stderr)
			}
			v := pmlVerdicts(out)
			if strings.HasPrefix(spec, "(") {
				if !slices.Contains(slices.Collect(maps.Values(v)), want) {
					t.Fatalf("no specification %s:\n%s", want, out)
				}
			} else if v[spec] != want {
				t.Fatalf("%s: %s, want %s:\n%s", spec, v[spec], want, out)
			}
			// The counter abstraction with refinement, for a few seconds:
			// where it decides, it agrees.
			out, stderr, code = runText(t, slices.Concat(args[:len(args)-1], []string{"--engine", "cegar", "--time", "5s", "-q"})...)
			if code == 2 {
				t.Fatalf("--engine cegar: exit 2: %s", stderr)
			}
			vc := pmlVerdicts(out)
			for k, v := range vc {
				vc[k] = strings.TrimSuffix(v, ":") // unknown: the reason
			}
			switch {
			case strings.HasPrefix(spec, "("):
				if want == "violated" && !slices.ContainsFunc(slices.Collect(maps.Values(vc)), func(s string) bool { return s != "holds" }) {
					t.Fatalf("--engine cegar: every specification holds, want one violated:\n%s", out)
				}
			case vc[spec] == "unknown":
			case vc[spec] != want:
				t.Fatalf("--engine cegar: %s: %s, want %s:\n%s", spec, vc[spec], want, out)
			default:
				decided++
			}
		})
	}
	if n < 20 {
		t.Fatalf("only %d rows", n)
	}
	if decided < 10 {
		t.Errorf("the counter abstraction with refinement decided %d rows within 5 s each, want at least 10", decided)
	}
}

// A threshold that names no parameter is a usage error (exit 2); a
// solver that fails leaves the verdict unknown (exit 3), not bad input.
func TestVerifyPMLThresholdsAndSolver(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	path := writeModel(t, "m.pml", pmlModel(nil))
	if _, stderr, code := runText(t, "verify", path, "--thresholds", "T+1,X"); code != 2 || !strings.Contains(stderr, `threshold "X": X is not a parameter`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := runText(t, "verify", path, "-O", "piaDom.thresholds='0,T+1,N-T'"); code == 2 {
		t.Fatalf("ByMC's -O piaDom.thresholds refused: %s", stderr)
	}
	if _, stderr, code := runText(t, "verify", path, "--solver-path", "/bin/false"); code != 3 || !strings.Contains(stderr, "unknown") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// refineModel accepts on N - T messages, written 2 * n >= 2 * (N - T),
// which the collection of thresholds does not read (only x >= e is read),
// so the collected domain 0, 1 cannot tell whether a process accepts; the
// model's #pragma gives N - T.
const refineModel = `#pragma option "piaDom.thresholds=N-T"
symbolic int N, T, F;
assume(N > 3 * T);
assume(T >= 1);
assume(F >= 0);
assume(F <= T);
int nsnt;
atomic all_acc = all(P:pc == 2);
atomic in_transit = some(P:nrcvd < nsnt);
active[N - F] proctype P() {
	byte pc = 0;
	int nrcvd = 0, next = 0;
	pc = 0;
end:
	do
	:: atomic {
		if
		:: next = nrcvd + 1
		:: next = nrcvd
		fi;
		if
		:: !(next <= nsnt + F) -> next = nrcvd
		:: else
		fi;
		if
		:: pc == 0 -> nsnt++; pc = 1
		:: pc == 1 && 2 * next >= 2 * (N - T) -> pc = 2
		:: else
		fi;
		nrcvd = next
	}
	od
}
ltl fairness { []<>(!in_transit) }
ltl term { <>all_acc }
`

// Where the collected thresholds leave a specification undecided (a
// counterexample that does not replay), the model's #pragma thresholds
// refine them, and the verdict is decided.
func TestVerifyPMLRefinesWithPragma(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	path := filepath.Join(t.TempDir(), "refine.pml")
	if err := os.WriteFile(path, []byte(refineModel), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runText(t, "verify", path, "term")
	if code != 0 || !strings.Contains(out, "refining with the model's guards and the #pragma at "+path+":1:1: thresholds 0, 1, N - T") || pmlVerdicts(out)["term"] != "holds" {
		t.Errorf("exit %d:\n%s%s", code, out, stderr)
	}
	// A pragma that names no parameter cannot refine: the verdict stays
	// unknown and says why.
	bad := filepath.Join(t.TempDir(), "bad.pml")
	if err := os.WriteFile(bad, []byte(strings.Replace(refineModel, "thresholds=N-T", "thresholds=N-X", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runText(t, "verify", bad, "term", "-q")
	if code != 3 || !strings.Contains(out, "the thresholds of the #pragma at "+bad+":1:1 could not refine it") {
		t.Errorf("bad pragma: exit %d:\n%s", code, out)
	}
	// With the thresholds given, they are used as they are: no refinement.
	out, _, code = runText(t, "verify", path, "term", "--thresholds", "1")
	if code != 3 || strings.Contains(out, "refining") {
		t.Errorf("--thresholds 1: exit %d:\n%s", code, out)
	}
}

// cc.pml with BUG1 (a majority of floor(N/2) + 1) violates agreement on
// N = 4: two processes pick 1, as the one 1-message outnumbers the 0s they
// received, two pick 0, and MAJ = 2 lets one of each side decide. The
// instance has more than 70 million states (the whole-instance replay ran
// out of 16 GB); the replay along the abstract counterexample's schedule
// finds the run among a few hundred.
func TestVerifyPMLGuidedReplay(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	path := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "promela", "cc.pml")
	out, stderr, code := runText(t, "verify", path, "agreement", "-D", "BUG1=1", "--memory", "4GB", "--time", "10m")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (violated):\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{"replayed on the instance F=0,MAJ=2,N=4,T=1", "found by replaying the abstract counterexample's schedule on the instance", "agreement: violated"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A lasso: the schedule leads to the configuration the loop repeats,
	// and the instance check finds the weakly fair loop from there.
	path = filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "promela", "aba.pml")
	out, stderr, code = runText(t, "verify", path, "completeness", "-D", "BUG2=1", "--memory", "4GB", "--time", "10m")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (violated):\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{"this weakly fair run violates ltl completeness", "found by replaying the abstract counterexample's schedule on the instance", "completeness: violated"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// cc.pml's termination is a liveness specification whose fairness observes
// every abstract location (some(Proc:nrcvd00 < nsnt00), ...): it is
// checked on the automaton contracted with what that fairness asks of a
// process that stays, and holds for all parameters of CASE2 (it had no
// verdict before contraction covered liveness). The instance N=3, T=1,
// F=0, MAJ=2 agrees.
func TestVerifyPMLLivenessContraction(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	path := filepath.Join(testenv.Shared(t), "benchmarks", "bymc", "isola18", "promela", "cc.pml")
	out, stderr, code := runText(t, "verify", path, "termination", "-D", "CASE2=1", "--time", "5m")
	if code != 0 {
		t.Fatalf("exit %d, want 0 (holds):\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{"termination: holds", "after contracting the moves the specification cannot observe"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, stderr, code = runText(t, "check", path, "-D", "CASE2=1", "--param", "N=3,T=1,F=0,MAJ=2", "--ltl", "termination", "--assume", "fairness,fairness2")
	if code != 0 || !strings.Contains(out, "termination: holds") {
		t.Fatalf("the instance: exit %d:\n%s\n%s", code, out, stderr)
	}
}

// A Promela model with no proctype, or none with symbolic parameters, is
// refused by verify at a position (exit 2), as check refuses a model in
// which no process runs.
func TestVerifyPMLEmptyModel(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"empty", "", ":1:1: no process runs: the model has no proctype"},
		{"declarations only", "int x;\n", ":1:1: no process runs: the model has no proctype"},
		{"no parameters", "active [2] proctype P() { skip }\n", ":1:1: the model has no symbolic parameters"},
	} {
		path := writeModel(t, "m.pml", c.src)
		out, errs, code := runText(t, "verify", path)
		if code != 2 || !strings.HasPrefix(errs, path+c.want) || out != "" {
			t.Errorf("%s: exit %d, want 2 and %q:\n%s%s", c.name, code, path+c.want, out, errs)
		}
	}
}
