package main

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"ftmc/trace"
)

// lossyFlags are the lossy storage command lines TestLossySameAsDepthFirst
// compares with the exact depth-first search. The bit array is 2^28 bits
// (32 MiB) rather than the default 512 MiB, which a test run does not
// need to fault in.
var lossyFlags = [][]string{{"--hash-compact"}, {"--bitstate", "--bitstate-bits", "28"}}

// TestLossySameAsDepthFirst runs the Promela checks of the corpus and the
// small benchmark runs with each lossy storage and without reduction.
// On these models (at most some 10^5 states) 64-bit fingerprints and a bit
// array of 2^28 bits are expected to miss no state (the estimates are
// below 10^-4), so the search is the exact depth-first search's: the same
// states, transitions and depth, and the same counterexamples, which are
// paths of the model (TestLossyCounterexampleReplays); where the exact
// search holds, the lossy one says unknown with the probability of a
// miss, exit code 3. With reduction the verdicts are the same too. The
// runs with LTL properties are usage errors.
func TestLossySameAsDepthFirst(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var violated, unknown int
	for _, r := range compressRuns(t) {
		args := append(append([]string(nil), r.args...), "--no-reduce")
		exact, code, stderr := runFtmc(ctx, append(args, "--dfs"))
		if exact == nil {
			t.Errorf("%s: exit %d: %s", r.where, code, stderr)
			continue
		}
		hasLTL := false
		for _, v := range exact.Verdicts {
			hasLTL = hasLTL || v.Property != "safety"
		}
		for _, lf := range lossyFlags {
			where := r.where + " " + strings.Join(lf, " ")
			rep, lcode, lerr := runFtmc(ctx, append(append([]string(nil), args...), lf...))
			if hasLTL {
				if lcode != trace.ExitUsage || !strings.Contains(lerr, "is for safety searches") {
					t.Errorf("%s: a model with LTL properties: exit %d, %q; want a usage error", where, lcode, lerr)
				}
				continue
			}
			if rep == nil {
				t.Errorf("%s: exit %d: %s", where, lcode, lerr)
				continue
			}
			e, l := exact.Stats, rep.Stats
			if e.Complete || exact.Verdicts[0].Verdict == trace.Violated {
				if e.States != l.States || e.Transitions != l.Transitions || e.Matched != l.Matched || e.Depth != l.Depth {
					t.Errorf("%s: states %d transitions %d matched %d depth %d, exact %d %d %d %d", where, l.States, l.Transitions, l.Matched, l.Depth, e.States, e.Transitions, e.Matched, e.Depth)
				}
			}
			if l.Complete || l.Storage != lf[0][2:] {
				t.Errorf("%s: complete %v, storage %q", where, l.Complete, l.Storage)
			}
			switch exact.Verdicts[0].Verdict {
			case trace.Violated:
				if lcode != trace.ExitViolated || !reflect.DeepEqual(exact.Verdicts, rep.Verdicts) {
					t.Errorf("%s: exit %d, verdicts %+v\nexact depth-first %+v", where, lcode, rep.Verdicts, exact.Verdicts)
				}
				violated++
			case trace.Holds:
				v := rep.Verdicts[0]
				if lcode != trace.ExitUnknown || v.Verdict != trace.Unknown || !strings.Contains(v.Reason, "probability that a state was missed") {
					t.Errorf("%s: exit %d, %s: %s; want unknown with the probability of a miss", where, lcode, v.Verdict, v.Reason)
				}
				unknown++
			}
			// With partial-order reduction (its stricter proviso): the
			// same verdicts, a counterexample that is a path, and no
			// more states than without reduction.
			red, rcode, rerr := runFtmc(ctx, append(append([]string(nil), r.args...), lf...))
			if red == nil {
				t.Errorf("%s with reduction: exit %d: %s", where, rcode, rerr)
				continue
			}
			rv := red.Verdicts[0]
			if want := map[trace.Verdict]trace.Verdict{trace.Violated: trace.Violated, trace.Holds: trace.Unknown}[exact.Verdicts[0].Verdict]; want != "" && rv.Verdict != want {
				t.Errorf("%s with reduction: %s, want %s", where, rv.Verdict, want)
			}
			if e.Complete && red.Stats.States > e.States {
				t.Errorf("%s with reduction: %d states, %d without", where, red.Stats.States, e.States)
			}
			if c := rv.Counterexample; c != nil {
				for _, st := range c.Steps {
					if strings.Contains(st.Note, "no transition") {
						t.Errorf("%s with reduction: step %d: %s", where, st.Num, st.Note)
					}
				}
			}
		}
	}
	if violated < 10 || unknown < 10 {
		t.Errorf("%d violations, %d unknown for holds: the test does not cover enough", violated, unknown)
	}
}

// TestLossyCounterexampleReplays: the counterexamples of lossy searches
// (with reduction, the default) are paths of the model that end in the
// violation: every step is a transition from the state before (else the
// step says so) and the last one reaches the deadlock or fails the
// assertion.
func TestLossyCounterexampleReplays(t *testing.T) {
	cases := []struct{ src, kind, final string }{
		{`
byte x;
active proctype P() { byte a; do :: a < 20 -> a++ :: a > 0 -> a-- :: a == 7 -> break od; x = a }
active proctype Q() { byte b; do :: b < 20 -> b++ :: b == 13 -> break :: b == 20 -> break od; assert(b != 13 || x != 7) }
`, "assertion", "b = 13"},
		{`
bit m1, m2;
active proctype P() { byte a; a++; atomic { m1 == 0 -> m1 = 1 }; a++; atomic { m2 == 0 -> m2 = 1 }; m2 = 0; m1 = 0 }
active proctype Q() { byte b; b++; atomic { m2 == 0 -> m2 = 1 }; b++; atomic { m1 == 0 -> m1 = 1 }; m1 = 0; m2 = 0 }
`, "invalid end state", "m1 = 1"},
	}
	for _, c := range cases {
		model := writeModel(t, "m.pml", c.src)
		for _, lf := range lossyFlags {
			rep, code, stderr := runFtmc(context.Background(), append([]string{"check", model}, lf...))
			if rep == nil || code != trace.ExitViolated || len(rep.Verdicts) != 1 {
				t.Fatalf("%s: exit %d: %s", lf[0], code, stderr)
			}
			v := rep.Verdicts[0]
			cex := v.Counterexample
			if v.Kind != c.kind || cex == nil || len(cex.Steps) == 0 {
				t.Fatalf("%s: %+v, want %s with a counterexample", lf[0], v, c.kind)
			}
			for _, s := range cex.Steps {
				if strings.Contains(s.Note, "no transition") {
					t.Errorf("%s: step %d is not a transition of the model: %s", lf[0], s.Num, s.Note)
				}
			}
			final := ""
			for _, x := range cex.Final {
				final += x.Name + " = " + x.Value + "; "
			}
			if !strings.Contains(final, c.final) {
				t.Errorf("%s: final state %s, want %s", lf[0], final, c.final)
			}
		}
	}
}

// TestLossyTinyBitArray: a bit array of 2^10 bits holds at most 1024
// states; on a model of over 10^5 states the search stores far fewer and
// says unknown, with a probability of a miss of 1, never holds.
func TestLossyTinyBitArray(t *testing.T) {
	model := writeModel(t, "m.pml", `
byte a, b, c;
active proctype P() { do :: a < 60 -> a++ :: b < 60 -> b++ :: c < 60 -> c++ :: else -> break od }
`)
	rep, code, stderr := runFtmc(context.Background(), []string{"check", model, "--bitstate", "--bitstate-bits", "10"})
	if rep == nil || code != trace.ExitUnknown {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	v := rep.Verdicts[0]
	if v.Verdict != trace.Unknown || !strings.Contains(v.Reason, "probability that a state was missed ≤ 1 ") {
		t.Errorf("%s: %s; want unknown with a probability of 1", v.Verdict, v.Reason)
	}
	if rep.Stats.States > 1<<10 || rep.Stats.States == 0 {
		t.Errorf("%d states stored in 2^10 bits", rep.Stats.States)
	}
	// The exact search: 61^3 states.
	exact, _, _ := runFtmc(context.Background(), []string{"check", model, "--dfs"})
	if exact == nil || exact.Stats.States < 61*61*61 {
		t.Errorf("the exact search stores %v states, want at least 61^3", exact)
	}
}

// TestLossyUsage: the lossy flags exclude each other, --bfs, --compress
// and -j above 1, and the bit array's size is bounded.
func TestLossyUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bitstate", "--hash-compact"}, "--bitstate and --hash-compact exclude each other"},
		{[]string{"--bitstate", "-j", "2"}, "--bitstate with -j 2"},
		{[]string{"--hash-compact", "-j", "2"}, "--hash-compact with -j 2"},
		{[]string{"--hash-compact", "--compress"}, "--hash-compact with --compress"},
		{[]string{"--bitstate", "--bfs"}, "--bitstate with --bfs"},
		{[]string{"--bitstate", "--bitstate-bits", "41"}, "--bitstate-bits 41: expected 3 to 40"},
		{[]string{"--bitstate", "--bitstate-bits", "2"}, "--bitstate-bits 2: expected 3 to 40"},
		{[]string{"--bitstate-bits", "20"}, "give --bitstate too"},
	} {
		code, _, errs := runExplicitArgs(t, &tokenRing{n: 3, stopOK: true}, c.args...)
		if code != trace.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	code, out, errs := runExplicitArgs(t, &tokenRing{n: 3, stopOK: true}, "--bitstate", "--dfs", "--quiet")
	if code != trace.ExitUnknown || !strings.HasPrefix(out, "safety: unknown: no violation found with bitstate storage (2^32 bits, 3 hash functions)") {
		t.Errorf("--bitstate --dfs: exit %d, %q %q", code, out, errs)
	}
	// The text report says the storage.
	code, out, errs = runExplicitArgs(t, &tokenRing{n: 3, stopOK: true}, "--hash-compact")
	if code != trace.ExitUnknown || !strings.Contains(out, "state storage: hash-compact (lossy: states may have been missed)\n") {
		t.Errorf("--hash-compact: exit %d, %q %q", code, out, errs)
	}
}

// TestLossyLTLRefused: lossy storage is for the safety search: LTL flags,
// and models with ltl blocks or a never claim, are usage errors.
func TestLossyLTLRefused(t *testing.T) {
	plain := writeModel(t, "m.pml", "byte x;\nactive proctype P() { x = 1 }\n")
	withLTL := writeModel(t, "m.pml", "byte x;\nactive proctype P() { x = 1 }\nltl p { <> (x == 1) }\n")
	withNever := writeModel(t, "m.pml", "byte x;\nactive proctype P() { x = 1 }\nnever { do :: x == 0 od }\n")
	for _, args := range [][]string{
		{"check", plain, "--bitstate", "--ltl-formula", "<> (x == 1)"},
		{"check", plain, "--hash-compact", "--non-progress"},
		{"check", withLTL, "--bitstate"},
		{"check", withLTL, "--hash-compact", "--ltl", "p"},
		{"check", withNever, "--hash-compact"},
	} {
		_, code, stderr := runFtmc(context.Background(), args)
		if code != trace.ExitUsage || !strings.Contains(stderr, "is for safety searches") {
			t.Errorf("%v: exit %d, %q; want a usage error", args[2:], code, stderr)
		}
	}
}

// TestSweepLossy: sweep passes the lossy flags on to every check, and
// refuses what check would.
func TestSweepLossy(t *testing.T) {
	f := &fakeCheck{}
	runSweep(t, f, sweepModel(t), "-D", "CHAN=B,I", "--bitstate", "--bitstate-bits", "20")
	if len(f.seen) != 2 {
		t.Fatalf("%d checks, want 2", len(f.seen))
	}
	for _, c := range f.seen {
		if !strings.Contains(" "+c+" ", " --bitstate --bitstate-bits 20 ") {
			t.Errorf("sweep ran %q, without --bitstate --bitstate-bits 20", c)
		}
	}
	f = &fakeCheck{}
	runSweep(t, f, sweepModel(t), "--hash-compact")
	if len(f.seen) != 1 || !strings.Contains(f.seen[0], "--hash-compact") || strings.Contains(f.seen[0], "--bitstate-bits") {
		t.Errorf("sweep ran %q", f.seen)
	}
	for _, args := range [][]string{
		{"--bitstate", "--hash-compact"},
		{"--hash-compact", "--compress"},
		{"--bitstate", "--ltl", "p"},
	} {
		f = &fakeCheck{}
		_, errs, code := runSweep(t, f, append([]string{sweepModel(t)}, args...)...)
		if code != trace.ExitUsage || len(f.seen) != 0 {
			t.Errorf("%v: exit %d, %d checks, %q; want a usage error", args, code, len(f.seen), errs)
		}
	}
}
