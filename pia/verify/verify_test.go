package verify_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/pia"
	"ftmc/pia/verify"
	"ftmc/promela"
	"ftmc/trace"
)

// load reads an example of examples/bymc as a model named as a file that
// does not exist: the replays on instances parse its text again, as they
// must for a model read from standard input, and never read a file.
func load(t *testing.T, name string) (*promela.Program, verify.Model) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "examples", "bymc", name))
	if err != nil {
		t.Fatal(err)
	}
	m := verify.Model{Name: filepath.Join(t.TempDir(), name), Src: src}
	prog, err := promela.Parse(m.Name, m.Src, promela.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return prog, m
}

// The folklore broadcast's specifications: three hold for all parameters,
// and corr's counterexample of the automaton is replayed along its schedule
// on the instance N=1, an acceptance cycle of the Promela model. The
// callbacks see the abstraction before any verdict, and each verdict as it
// is decided.
func TestVerifyFolkloreBroadcast(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	prog, model := load(t, "fbc.pml")
	var events []string
	res, err := verify.Verify(t.Context(), prog, model, nil, verify.Options{
		Abstracted: func(abs *pia.Result) error {
			events = append(events, "abstracted "+strings.Join(abs.Thresholds, ","))
			return nil
		},
		Verdict: func(r trace.Result) { events = append(events, r.Property+" "+string(r.Verdict)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"abstracted 0,1", "unforg holds", "corr violated", "relay holds", "agree holds"}
	if strings.Join(events, "; ") != strings.Join(want, "; ") {
		t.Errorf("events %q, want %q", events, want)
	}
	if len(res.Verdicts) != 4 {
		t.Fatalf("%d verdicts, want 4", len(res.Verdicts))
	}
	corr := res.Verdicts[1]
	c := corr.Counterexample
	if corr.Verdict != trace.Violated || corr.Kind != "acceptance cycle" || c == nil || c.LoopStart < 0 ||
		c.Params["N"] != 1 || !strings.Contains(c.Message, "found by replaying the abstract counterexample's schedule") {
		t.Errorf("corr: %+v, counterexample %+v", corr, c)
	}
	for _, r := range res.Verdicts {
		if r.Stats == nil || !r.Stats.Complete {
			t.Errorf("%s: stats %+v, want complete", r.Property, r.Stats)
		}
	}
	if f := res.Figures(); len(f) != 4 || f[0].Name != "cases" || f[0].Value != 1 {
		t.Errorf("figures %+v", f)
	}
}

// What keeps Verify from verdicts is an error of its kind: a model outside
// the class, a specification the model lacks, the error of the Abstracted
// callback; an abstraction the run's context stopped leaves every verdict
// unknown.
func TestVerifyErrors(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	prog, model := load(t, "fbc.pml")
	_, err := verify.Verify(t.Context(), prog, model, []string{"corr", "nosuch"}, verify.Options{})
	var ie *verify.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), `has no specification "nosuch" (it has: unforg, corr, relay, agree)`) {
		t.Errorf("unknown specification: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := verify.Verify(ctx, prog, model, []string{"relay", "corr"}, verify.Options{
		Abstracted: func(*pia.Result) error { t.Error("an abstraction that did not finish was seen"); return nil },
	})
	if err != nil || res.Abstraction != nil || len(res.Verdicts) != 2 || res.Figures() != nil {
		t.Fatalf("cancelled: %v, %+v", err, res)
	}
	for i, s := range []string{"relay", "corr"} {
		if r := res.Verdicts[i]; r.Property != s || r.Verdict != trace.Unknown || r.Reason != "interrupted while the abstraction was computed" {
			t.Errorf("cancelled: verdict %+v, want %s unknown, interrupted", r, s)
		}
	}
	stop := errors.New("no room")
	called := false
	_, err = verify.Verify(t.Context(), prog, model, nil, verify.Options{
		Abstracted: func(*pia.Result) error { return stop },
		Verdict:    func(trace.Result) { called = true },
	})
	if err != stop || called {
		t.Errorf("Abstracted's error: %v, a verdict given %v", err, called)
	}
	prog, model = load(t, "cbc.pml")
	_, err = verify.Verify(t.Context(), prog, model, nil, verify.Options{})
	var pe *pia.Error
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), model.Name+":") {
		t.Errorf("a model outside the class: %v", err)
	}
}

// onCycle finds a justice condition on loc1 or loc2, the locations on the
// cycles of membership.pml and retry.pml.
var onCycle = regexp.MustCompile(`\[\]\(<>\(\(?loc[12] == 0`)

// Models outside the class of threshold automata: membership decrements
// a shared variable and retry's processes go back to a state they left.
// By default the abstraction keeps the model's cycles and decrements
// (the schema engine would need the cycles merged, and cannot decrement),
// the counter abstraction with refinement checks each specification
// (figures: refinements), and the justice of processes is asked only of
// the locations off the cycles. --engine schema refuses retry, whose
// lonely counts the processes of a state that merging hides.
func TestVerifyOutsideClass(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	for _, c := range []struct {
		file    string
		want    string
		decr    bool
		justice string // the justice of processes in the specifications, or ""
	}{
		{"membership.pml", "counted holds; quorum violated; never_done violated; progress violated", true, ""},
		{"retry.pml", "unforg holds; sent holds; lonely violated; corr holds; relay holds", false, "([](<>((loc0 == 0 || (T >= nsnt)))))"},
	} {
		prog, model := load(t, c.file)
		var abs *pia.Result
		res, err := verify.Verify(t.Context(), prog, model, nil, verify.Options{Abstracted: func(a *pia.Result) error { abs = a; return nil }})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		var got []string
		for _, r := range res.Verdicts {
			got = append(got, r.Property+" "+string(r.Verdict))
			refined := false
			for _, x := range r.Stats.Extra {
				refined = refined || x.Name == "refinements"
			}
			if !refined || r.Stats.States == 0 {
				t.Errorf("%s %s: stats %+v, want the counter abstraction's", c.file, r.Property, r.Stats)
			}
			if r.Verdict == trace.Violated && (r.Counterexample == nil || len(r.Counterexample.Params) == 0) {
				t.Errorf("%s %s: violated without an instance's counterexample", c.file, r.Property)
			}
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%s: %s, want %s", c.file, strings.Join(got, "; "), c.want)
		}
		text := string(abs.Cases[0].Text)
		if strings.Contains(text, "_m:") || abs.Decreases() != c.decr || c.decr != strings.Contains(text, "alive' == alive - 1;") {
			t.Errorf("%s: the automaton merges a cycle or misses the decrement (decreases %v):\n%s", c.file, abs.Decreases(), text)
		}
		if c.justice != "" && !strings.Contains(text, c.justice) {
			t.Errorf("%s: the justice of processes is not %s:\n%s", c.file, c.justice, text)
		}
		if onCycle.MatchString(text) {
			t.Errorf("%s: the justice of processes asks a location on a cycle to empty:\n%s", c.file, text)
		}
	}
	prog, model := load(t, "retry.pml")
	_, err := verify.Verify(t.Context(), prog, model, nil, verify.Options{Engine: "schema"})
	var pe *pia.Error
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "does not decide") {
		t.Errorf("retry.pml with --engine schema: %v", err)
	}
}
