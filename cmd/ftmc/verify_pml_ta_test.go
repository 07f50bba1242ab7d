package main

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// pmlRun is one run of verify on a ByMC model: the macros of one case
// of its #ifdefs, and the smallest parameters of that case that satisfy
// the model's assumptions (the smallest N and T, with as many faults as
// they allow), or "" when that instance is too large to check in a test.
// A slow run is left out with -short.
type pmlRun struct {
	defines []string
	small   string
	slow    bool
}

// pmlTAPair is a ByMC Parametric Promela model and the threshold automaton
// written by hand for the same algorithm under the same resilience
// condition.
type pmlTAPair struct {
	pml     string   // under ../shared/benchmarks/bymc
	runs    []pmlRun // the model's cases; together they cover the resilience condition
	assume  []string // the model's fairness blocks, assumed by its instance checks
	ta      string   // under examples/threshold
	taSmall string   // the smallest parameters of the automaton
	// specs maps the model's specifications to the automaton's, and want
	// gives the verdict of the thesis's Table 4.1 (for the broadcasts) or
	// of EXPECTED.tsv and Table 5.1 (for ABA), by the model's names.
	specs map[string]string
	want  map[string]trace.Verdict
}

var stSpecs = map[string]string{"unforg": "unforg", "corr": "corr", "relay": "relay"}

func verdicts(u, c, r trace.Verdict) map[string]trace.Verdict {
	return map[string]trace.Verdict{"unforg": u, "corr": c, "relay": r}
}

// instanceTime bounds an explicit check, so that an instance too large
// for the test fails it (unknown) instead of holding it up.
const instanceTime = "60s"

const (
	holds    = trace.Holds
	violated = trace.Violated
)

var pmlTAPairs = []pmlTAPair{
	{pml: "fmcad13/bcast-byz.pml", runs: []pmlRun{{small: "N=4,T=1,F=1"}}, ta: "st-byz.ta", taSmall: "N=4,T=1,F=1",
		specs: stSpecs, want: verdicts(holds, holds, holds)},
	{pml: "fmcad13/bcast-byz-FleTp1.pml", runs: []pmlRun{{small: "N=4,T=1,F=2"}}, ta: "st-byz-f-le-t1.ta", taSmall: "N=4,T=1,F=2",
		specs: stSpecs, want: verdicts(violated, violated, violated)},
	// The model also assumes N > 3, so T = 1 and relay holds on its
	// smallest instance; the violation needs N = 3T, T >= 2.
	{pml: "fmcad13/bcast-byz-Nge3T.pml", runs: []pmlRun{{small: "N=4,T=1,F=1"}}, ta: "st-byz-n-ge-3t.ta", taSmall: "N=3,T=1,F=1",
		specs: stSpecs, want: verdicts(holds, holds, violated)},
	{pml: "fmcad13/bcast-symm.pml", runs: []pmlRun{{small: "N=4,T=1,Fp=1,Fs=1"}}, ta: "st-symm.ta", taSmall: "N=3,T=1,Fp=1,Fs=1",
		specs: stSpecs, want: verdicts(holds, holds, holds)},
	{pml: "fmcad13/bcast-symm-FleTp1.pml", runs: []pmlRun{{small: "N=4,T=1,Fp=2,Fs=2"}}, ta: "st-symm-f-le-t1.ta", taSmall: "N=3,T=1,Fp=2,Fs=2",
		specs: stSpecs, want: verdicts(violated, violated, holds)},
	{pml: "fmcad13/bcast-omit.pml", runs: []pmlRun{{small: "N=3,To=1,Fo=1"}}, ta: "st-omit.ta", taSmall: "N=3,To=1,Fo=1",
		specs: stSpecs, want: verdicts(holds, holds, holds)},
	{pml: "fmcad13/bcast-omit-Nge2T.pml", runs: []pmlRun{{small: "N=2,To=1,Fo=1"}}, ta: "st-omit-n-ge-2t.ta", taSmall: "N=2,To=1,Fo=1",
		specs: stSpecs, want: verdicts(holds, violated, violated)},
	{pml: "fmcad13/bcast-clean.pml", runs: []pmlRun{{small: "N=4,Tc=1,Fc=1,Fnc=1"}}, ta: "st-clean.ta", taSmall: "N=3,Tc=1,Fc=1,Fnc=1",
		specs: stSpecs, want: verdicts(holds, holds, holds)},
	// ABA's model splits its resilience condition in two cases of the
	// order of (N+T)/2 + 1 and 2T + 1 (auxiliary parameter NplusTdiv2);
	// its agreement is the automaton's relay. The #else branches of the
	// model are ByMC's own (NuSMV) formulas: corr and unforg from the
	// initial state only, as the automaton's.
	{pml: "isola18/promela/aba.pml",
		runs: []pmlRun{
			{defines: []string{"CASE1=1"}, small: "N=4,T=1,F=1,NplusTdiv2=2"},
			// 61 locations and 425 rules: corr and agreement take tens of
			// seconds. N=5,T=1,F=1,NplusTdiv2=3 has millions of states
			// (Table 5.1's row T1 took Spin 131 s).
			{defines: []string{"CASE2=1"}, slow: true},
		},
		assume: []string{"fairness", "fairness2"}, ta: "aba.ta", taSmall: "N=4,T=1,F=1",
		specs: map[string]string{"unforg": "unforg", "corr": "corr", "agreement": "relay"},
		want:  map[string]trace.Verdict{"unforg": holds, "corr": holds, "agreement": holds}},
}

// TestVerifyPMLAgainstTA verifies each ByMC model with verify MODEL.pml
// (the PIA abstraction) and the hand-written automaton of the same
// algorithm with verify MODEL.ta: the verdicts agree spec by spec and are
// those of the thesis. Every violation names an instance that violates
// the property in an explicit check of that model, and every property
// that holds holds on the smallest instances of both.
func TestVerifyPMLAgainstTA(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	bymc := filepath.Join(testenv.Shared(t), "benchmarks", "bymc")
	examples := filepath.Join(testenv.RepoRoot(t), "examples", "threshold")
	if len(pmlTAPairs) < 9 {
		t.Fatalf("only %d pairs", len(pmlTAPairs))
	}
	for _, p := range pmlTAPairs {
		t.Run(strings.TrimSuffix(filepath.Base(p.pml), ".pml"), func(t *testing.T) {
			pml, ta := filepath.Join(bymc, p.pml), filepath.Join(examples, p.ta)
			specs := slices.Sorted(maps.Keys(p.specs))
			if len(p.assume) == 0 {
				p.assume = []string{"fairness"}
			}
			var assume []string
			for _, a := range p.assume {
				assume = append(assume, "--assume", a)
			}

			// The automaton, for all parameters and on its smallest instance.
			var taSpecs []string
			for _, s := range specs {
				taSpecs = append(taSpecs, p.specs[s])
			}
			taRep := report(t, append([]string{"verify", ta}, taSpecs...)...)
			taSmall := report(t, append([]string{"check", ta, "--param", p.taSmall, "--time", instanceTime}, taSpecs...)...)
			for _, s := range specs {
				r := result(t, taRep, p.specs[s])
				if r.Verdict != p.want[s] {
					t.Errorf("%s %s: %s (%s), expected %s", p.ta, p.specs[s], r.Verdict, r.Reason, p.want[s])
				}
				switch r.Verdict {
				case trace.Violated:
					c := report(t, "check", ta, "--param", paramText(r.Counterexample.Params), p.specs[s], "--time", instanceTime)
					if v := result(t, c, p.specs[s]).Verdict; v != trace.Violated {
						t.Errorf("%s %s: violated with %s, but the instance check says %s", p.ta, p.specs[s], paramText(r.Counterexample.Params), v)
					}
				case trace.Holds:
					if v := result(t, taSmall, p.specs[s]).Verdict; v != trace.Holds {
						t.Errorf("%s %s: holds, but %s on the instance %s", p.ta, p.specs[s], v, p.taSmall)
					}
				}
			}

			// The model, one run per case; a specification holds when it
			// holds in every case.
			got := map[string]trace.Verdict{}
			partial := false
			for _, run := range p.runs {
				if run.slow && testing.Short() {
					t.Logf("%s %v left out with -short", p.pml, run.defines)
					partial = true
					continue
				}
				var defs []string
				for _, d := range run.defines {
					defs = append(defs, "-D", d)
				}
				rep := report(t, slices.Concat([]string{"verify", pml}, specs, defs)...)
				// The model and the automaton on the model's smallest
				// instance (the automaton has no auxiliary parameters such
				// as NplusTdiv2, and its resilience condition does not
				// repeat the model's N > 3).
				var small, taOnSmall *trace.Report
				if run.small != "" {
					small = report(t, slices.Concat([]string{"check", pml, "--param", run.small, "--time", instanceTime}, assume, defs)...)
					taOnSmall = report(t, append([]string{"check", ta, "--param", sameParams(run.small, p.taSmall), "--time", instanceTime}, taSpecs...)...)
				}
				for _, s := range specs {
					r := result(t, rep, s)
					got[s] = worse(got[s], r.Verdict)
					if r.Verdict == trace.Violated {
						checkPMLViolation(t, pml, s, r, assume, defs)
					} else if r.Verdict != trace.Holds {
						t.Errorf("%s %v %s: %s: %s", p.pml, run.defines, s, r.Verdict, r.Reason)
					}
					if small == nil {
						continue
					}
					smallV := result(t, small, s).Verdict
					if smallV == trace.Unknown {
						t.Errorf("%s %v %s on %s: unknown: %s", p.pml, run.defines, s, run.small, result(t, small, s).Reason)
					}
					if v := result(t, taOnSmall, p.specs[s]).Verdict; smallV != v {
						t.Errorf("%s %v %s on %s: %s, but %s %s: %s", p.pml, run.defines, s, run.small, smallV, p.ta, p.specs[s], v)
					}
					if r.Verdict == trace.Holds && smallV != trace.Holds {
						t.Errorf("%s %v %s: holds, but %s on the instance %s", p.pml, run.defines, s, smallV, run.small)
					}
				}
			}
			for _, s := range specs {
				tv := result(t, taRep, p.specs[s]).Verdict
				if partial && got[s] == trace.Holds && tv == trace.Violated {
					continue // the case left out may be the one that violates it
				}
				if got[s] != tv {
					t.Errorf("%s %s: %s, but %s %s: %s", p.pml, s, got[s], p.ta, p.specs[s], tv)
				}
			}
		})
	}
}

// checkPMLViolation checks that a violation of verify MODEL.pml is a
// counterexample of the model itself (not of its abstraction), on an
// instance that satisfies the model's assumptions, and that an explicit
// check of that instance finds the violation too.
func checkPMLViolation(t *testing.T, pml, spec string, r trace.Result, assume, defs []string) {
	t.Helper()
	c := r.Counterexample
	if c == nil || len(c.Params) == 0 || len(c.Steps) == 0 {
		t.Errorf("%s %s: a violation without a counterexample on an instance: %+v", pml, spec, c)
		return
	}
	if !strings.Contains(c.Message, "violates ltl "+spec) {
		t.Errorf("%s %s: the counterexample is not the instance's: %q", pml, spec, c.Message)
	}
	for _, st := range c.Steps {
		if st.Proc == "" || st.Pid < 0 || filepath.Base(st.File) != filepath.Base(pml) || st.Line == 0 {
			t.Errorf("%s %s: step %+v is not a step of the model", pml, spec, st)
			break
		}
	}
	params := paramText(c.Params)
	var stderr string
	rep := reportErr(t, &stderr, slices.Concat([]string{"check", pml, "--param", params, "--ltl", spec, "--time", instanceTime}, assume, defs)...)
	if strings.Contains(stderr, "violates assume") {
		t.Errorf("%s %s: the counterexample's parameters %s violate the model's assumptions: %s", pml, spec, params, stderr)
	}
	if v := result(t, rep, spec).Verdict; v != trace.Violated {
		t.Errorf("%s %s: violated with %s, but the instance check says %s", pml, spec, params, v)
	}
}

// sameParams keeps the values in vals (N=4,T=1,...) of the parameters
// that like names.
func sameParams(vals, like string) string {
	var keep []string
	for _, v := range strings.Split(vals, ",") {
		name, _, _ := strings.Cut(v, "=")
		for _, l := range strings.Split(like, ",") {
			if n, _, _ := strings.Cut(l, "="); n == name {
				keep = append(keep, v)
			}
		}
	}
	return strings.Join(keep, ",")
}

// worse combines the verdicts of the cases of a model: violated if one
// is, else unknown if one is, else holds.
func worse(a, b trace.Verdict) trace.Verdict {
	for _, v := range []trace.Verdict{trace.Violated, trace.Unknown, trace.Holds} {
		if a == v || b == v {
			return v
		}
	}
	return b
}

func report(t *testing.T, args ...string) *trace.Report {
	t.Helper()
	var stderr string
	return reportErr(t, &stderr, args...)
}

// reportErr runs ftmc with --json and returns its report; bad input or an
// unreadable report fails t.
func reportErr(t *testing.T, stderr *string, args ...string) *trace.Report {
	t.Helper()
	rep, code, errs := runFtmc(context.Background(), args)
	*stderr = errs
	if rep == nil {
		t.Fatalf("ftmc %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return rep
}

func result(t *testing.T, rep *trace.Report, spec string) trace.Result {
	t.Helper()
	for _, r := range rep.Verdicts {
		if r.Property == spec {
			return r
		}
	}
	t.Fatalf("%s: no verdict for %s", rep.Model, spec)
	return trace.Result{}
}

// TestVerifyPMLCEGAR verifies the thesis's models of Table 4.1 with the
// counter abstraction with refinement (--engine cegar), the thesis's own
// method: the verdicts are the thesis's, as the schema engine's are
// (TestVerifyPMLAgainstTA), every violation is a counterexample of the
// model that its instance check confirms, and the report gives the
// abstract states and the refinements, some of which the liveness
// specifications need.
func TestVerifyPMLCEGAR(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	bymc := filepath.Join(testenv.Shared(t), "benchmarks", "bymc")
	refined, rows := 0, 0
	for _, p := range pmlTAPairs {
		if !strings.HasPrefix(p.pml, "fmcad13/") {
			continue
		}
		pml := filepath.Join(bymc, p.pml)
		specs := slices.Sorted(maps.Keys(p.specs))
		rep := report(t, append([]string{"verify", pml, "--engine", "cegar"}, specs...)...)
		if !strings.Contains(rep.Engine, "counter abstraction with refinement") {
			t.Errorf("%s: engine %q", p.pml, rep.Engine)
		}
		for _, s := range specs {
			rows++
			r := result(t, rep, s)
			if r.Verdict != p.want[s] {
				t.Errorf("%s %s: %s (%s), the thesis says %s", p.pml, s, r.Verdict, r.Reason, p.want[s])
			}
			if r.Verdict == trace.Violated {
				checkPMLViolation(t, pml, s, r, []string{"--assume", "fairness"}, nil)
			}
			if r.Stats == nil || r.Stats.States == 0 || len(r.Stats.Extra) == 0 || r.Stats.Extra[0].Name != "refinements" {
				t.Errorf("%s %s: no abstract states or refinements in %+v", p.pml, s, r.Stats)
				continue
			}
			if r.Stats.Extra[0].Value > 0 {
				refined++
			}
		}
	}
	if rows < 24 || refined == 0 {
		t.Errorf("%d rows, %d of them refined: want the 24 rows of the fmcad13 models, some refined", rows, refined)
	}
}
