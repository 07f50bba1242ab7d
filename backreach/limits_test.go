package backreach

import (
	"context"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// verifyWithin runs Verify with a deadline, for searches that must end on
// their own well before it.
func verifyWithin(t *testing.T, d time.Duration, src string, opts Options) *Result {
	t.Helper()
	testenv.NeedBinary(t, "z3")
	s := parse(t, "limits.cub", src)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	r, err := Verify(ctx, s, crossChecked(opts))
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil || strings.HasPrefix(r.Reason, "stopped") {
		t.Fatalf("%s %s at the deadline (%v), after %d fixpoint checks and %d cubes in lemma proofs: the search must end on its own",
			r.Verdict, r.Reason, d, r.Stats.FixpointChecks, r.Stats.ProofNodes)
	}
	return r
}

// A lemma proof whose later cubes cover earlier ones keeps its visited set
// small: the lemma budget counts the cubes it expanded, so every proof
// ends. Here the candidate S[#1] = C is proved at once; the budget once
// counted the visited set, which never grew, and the proof ran forever.
func TestLemmaProofEnds(t *testing.T) {
	r := verifyWithin(t, 5*time.Second, `
type st = A | B | C
array S[proc] : st
array R[proc] : st
var N : int
init (i) { N = 0 && S[i] = A && R[i] = A }
unsafe (x y w) { S[x] = C && R[y] = A && S[w] = A }
transition t0 (i j l)
requires { R[i] = A && R[j] <> C && S[l] = A && S[l] <> B }
{ R[z] := case | z = i : A | R[z] = B : C | _ : R[z] }
transition t1 (i)
requires { R[i] = B && forall_other k. R[k] = A && N < -2 }
{ S[i] := A; N := N - 1 }
transition t2 (i j)
requires { R[i] = B && S[i] = C && R[j] <> B && forall_other k. R[k] = A }
{ R[i] := A; S[z] := case | z = i : B | R[z] = B : A | _ : S[z] }
`, Options{Approx: 3})
	if r.Verdict != trace.Holds {
		t.Errorf("verdict %s (%s), want holds", r.Verdict, r.Reason)
	}
	if max := int64(r.Stats.LemmaTries * 30); r.Stats.ProofNodes > max {
		t.Errorf("%d cubes in lemma proofs, more than %d tries at 30 each", r.Stats.ProofNodes, r.Stats.LemmaTries)
	}
}

// The node limit bounds all the work: here every pre-image covers (and
// removes) the cube it comes from, so the visited set keeps one cube while
// the search goes on forever (B = True && N >= 10, N >= 9, ...); and the
// lemma proofs count too.
func TestNodeLimitBoundsAllWork(t *testing.T) {
	weakening := `
var B : bool
var N : int
array A[proc] : bool
init (i) { B = False && N = 0 && A[i] = False }
unsafe () { B = True && N >= 10 }
transition inc (i)
requires { A[i] = False }
{ N := N + 1 }
`
	for _, approx := range []int{0, 3} {
		r := verifyWithin(t, 10*time.Second, weakening, Options{MaxNodes: 100, Approx: approx})
		if r.Verdict != trace.Unknown || !strings.Contains(r.Reason, "node limit reached: 100 cubes") {
			t.Errorf("approx %d: verdict %s (%s), want unknown at the node limit of 100 cubes", approx, r.Verdict, r.Reason)
		}
	}

	// Safe (G is never B), but every cube G = B && N = k has the
	// pre-image G = B && N = k + 1, and the candidate lemmas N = k + 1
	// exhaust their budget: the proofs take most of the limit.
	r := verifyWithin(t, 20*time.Second, `
type st = A | B | C
var G : st
array S[proc] : st
array R[proc] : st
var N : int
init (i) { N = 0 && S[i] = A && R[i] = A && G = A }
unsafe (x y w) { N = 2 && G = B && S[w] = C }
transition t0 (i)
requires { G = C && N < 2 }
{ N := N + 1; R[z] := case | z = i : A | G <> C : C | _ : R[z] }
transition t1 (i)
requires { R[i] <> A && S[i] = B && forall_other k. G = C }
{ R[i] := C }
transition t2 (i)
requires { G = B && N > 2 }
{ N := N - 1; G := B }
`, Options{MaxNodes: 2000, Approx: 3})
	switch {
	case r.Verdict == trace.Violated:
		t.Errorf("violated on a safe model")
	case r.Verdict == trace.Unknown && !strings.Contains(r.Reason, "node limit reached: 2000 cubes"):
		t.Errorf("unknown (%s), want the node limit of 2000 cubes", r.Reason)
	case r.Stats.ProofNodes > 2000:
		t.Errorf("%d cubes in lemma proofs, beyond the node limit", r.Stats.ProofNodes)
	}
}
