//go:build unix

package smt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
)

// The solvers of these tests are shell scripts in testdata/solvers that
// misbehave in one way each. Every test bounds its waits generously (20 s
// for limits of a second) to tell a hang from a slow machine, and checks
// that no process a fake solver started is left running.

// fake and noneRunning are testenv's fake solvers.
var fake, noneRunning = testenv.FakeSolver, testenv.SolversGone

// solverError asserts that err is an *Error that says want and names the
// solver's binary.
func solverError(t *testing.T, err error, path, want string) {
	t.Helper()
	var se *Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v, want a solver error naming %s that says %q", err, path, want)
	}
}

func hangGuard(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestSolverExitsAtOnce(t *testing.T) {
	path, pids := fake(t, "dead")
	_, err := New(hangGuard(t), Options{Path: path})
	solverError(t, err, path, "exited: exit status 1: fake solver: no licence")
	noneRunning(t, pids())
}

// A prestarted solver that cannot start, or never answers, fails New as
// it would without the pool, and counts no failure towards giving up.
func TestPrestartedSolverFails(t *testing.T) {
	for _, c := range []struct{ fake, want string }{
		{"dead", "exited: exit status 1: fake solver: no licence"},
		{"silent", "did not acknowledge its commands within 1s"},
	} {
		path, pids := fake(t, c.fake)
		ctx, done := WithPool(hangGuard(t))
		opts := Options{Path: path, Timeout: time.Second}
		Prestart(ctx, opts)
		_, err := New(ctx, opts)
		solverError(t, err, path, c.want)
		if strings.Contains(err.Error(), "given up") {
			t.Errorf("%s: %v", c.fake, err)
		}
		done()
		noneRunning(t, pids())
	}
}

// A solver that never answers fails New at its timeout, not at the
// context's end.
func TestSolverNeverAnswers(t *testing.T) {
	path, pids := fake(t, "silent")
	ctx := hangGuard(t)
	_, err := New(ctx, Options{Path: path, Timeout: time.Second})
	solverError(t, err, path, "did not acknowledge its commands within 1s")
	noneRunning(t, pids())
	// Without a timeout, the context bounds the wait.
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := New(short, Options{Path: path}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("New without a timeout: %v, want the context's error", err)
	}
	noneRunning(t, pids())
}

func TestSolverStallsOnGetValue(t *testing.T) {
	path, pids := fake(t, "stall-get-value")
	ctx := hangGuard(t)
	for _, timeout := range []time.Duration{time.Second, 0} {
		s, err := New(ctx, Options{Path: path, Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		s.Send(DeclareConst("x", "Int"))
		if st, err := s.Check(ctx); st != Sat || err != nil {
			t.Fatalf("check: %v %v", st, err)
		}
		if timeout > 0 {
			_, err = s.Values(ctx, "x")
			solverError(t, err, path, "did not answer (get-value (x)) within 1s")
		} else {
			short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			_, err = s.Values(short, "x")
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("get-value without a timeout: %v, want the context's error", err)
			}
		}
		s.Close()
	}
	noneRunning(t, pids())
}

// A solver that stops reading its input: ftmc's writes, several times
// what a pipe holds, must not block past the timeout or the context.
func TestSolverStopsReading(t *testing.T) {
	path, pids := fake(t, "deaf")
	ctx := hangGuard(t)
	for _, timeout := range []time.Duration{time.Second, 0} {
		s, err := New(ctx, Options{Path: path, Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 40000; i++ {
			s.Assert("(>= x " + strconv.Itoa(i) + ")")
		}
		if timeout > 0 {
			st, err := s.Check(ctx)
			if st != Unknown || err != nil || !strings.Contains(s.Reason(), "did not read its input within 1s") {
				t.Fatalf("check: %v %v (%s), want unknown: did not read its input", st, err, s.Reason())
			}
		} else {
			short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			st, err := s.Check(short)
			cancel()
			if st != Unknown || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("check without a timeout: %v %v, want unknown and the context's error", st, err)
			}
		}
		s.Close()
	}
	noneRunning(t, pids())
}

// A check-sat that does not answer is a timeout; the solver restarts.
func TestSolverStallsOnCheck(t *testing.T) {
	path, pids := fake(t, "stall-check")
	ctx := hangGuard(t)
	s, err := New(ctx, Options{Path: path, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < maxFailures+1; i++ {
		st, err := s.Check(ctx)
		if st != Unknown || err != nil || !strings.Contains(s.Reason(), "timeout") {
			t.Fatalf("check %d: %v %v (%s), want unknown: timeout", i, st, err, s.Reason())
		}
	}
	if got := len(pids()); got != maxFailures+1 {
		t.Errorf("%d processes started, want one per check: timeouts are not failures of the process", got)
	}
	noneRunning(t, pids())
}

// A solver that crashes on every query is restarted maxFailures times,
// and then given up: the calls fail with an error that names it.
func TestSolverKeepsCrashing(t *testing.T) {
	path, pids := fake(t, "crash-check")
	ctx := hangGuard(t)
	s, err := New(ctx, Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Send(DeclareConst("x", "Int"))
	for i := 1; i < maxFailures; i++ {
		st, err := s.Check(ctx)
		if st != Unknown || err != nil || !strings.Contains(s.Reason(), "exited: exit status 139: fake solver: segmentation fault") {
			t.Fatalf("check %d: %v %v (%s), want unknown and the exit", i, st, err, s.Reason())
		}
	}
	st, err := s.Check(ctx)
	if st != Unknown {
		t.Fatalf("check %d: %v", maxFailures, st)
	}
	solverError(t, err, path, "3 failures in a row, given up")
	started := len(pids())
	if _, err := s.Check(ctx); err == nil {
		t.Error("a solver given up on answered again")
	}
	if len(pids()) != started {
		t.Error("a solver given up on was started again")
	}
	noneRunning(t, pids())
}

// Answers that are not SMT-LIB, or not what was asked, are errors that
// name the solver; the process is stopped.
func TestSolverProtocolErrors(t *testing.T) {
	ctx := hangGuard(t)
	for _, c := range []struct{ fake, want string }{
		{"garbage", "answered sat to a command that answers success"},
		{"deep", "wrote an answer nested deeper than 1000 levels"},
	} {
		path, pids := fake(t, c.fake)
		_, err := New(ctx, Options{Path: path})
		solverError(t, err, path, c.want)
		noneRunning(t, pids())
	}
	path, pids := fake(t, "badcore")
	s, err := New(ctx, Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	s.Send(DeclareConst("a", "Bool"))
	if st, err := s.Check(ctx, "a"); st != Unsat || err != nil {
		t.Fatalf("check: %v %v", st, err)
	}
	_, err = s.UnsatCore(ctx)
	solverError(t, err, path, "answered get-unsat-assumptions with stranger, which is not an assumption")
	s.Close()
	noneRunning(t, pids())
}

// A solver that answers unsat to everything is contradicted by the second
// solver; one that cannot confirm leaves the answer unknown.
func TestCrossCheck(t *testing.T) {
	z3 := testenv.NeedBinary(t, "z3")
	ctx := hangGuard(t)
	liar, pids := fake(t, "liar")
	s, err := New(ctx, Options{Path: liar, CrossCheck: &Options{Name: "z3"}})
	if err != nil {
		t.Fatal(err)
	}
	s.Send(DeclareConst("x", "Int"), DeclareConst("a", "Bool"))
	s.Assert("(=> a (> x 0))")
	st, err := s.Check(ctx, "a")
	want := fmt.Sprintf("solvers disagree: z3 (%s) answered unsat, z3 (%s) sat", liar, z3)
	if st != Unknown || err == nil || err.Error() != want {
		t.Fatalf("check: %v %v, want unknown and %q", st, err, want)
	}
	s.Close()
	noneRunning(t, pids())

	unknown, _ := fake(t, "unknown")
	s, err = New(ctx, Options{Name: "z3", CrossCheck: &Options{Path: unknown}})
	if err != nil {
		t.Fatal(err)
	}
	s.Assert("false")
	if st, err := s.Check(ctx); st != Unknown || err != nil || !strings.Contains(s.Reason(), "did not confirm the unsat answer") {
		t.Fatalf("check: %v %v (%s), want unknown: not confirmed", st, err, s.Reason())
	}
	s.Close()
}

// Two real solvers agree; the core of an unsat answer is the one the
// second solver confirmed, and models come from the first.
func TestCrossCheckAgrees(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	testenv.NeedBinary(t, "cvc5")
	ctx := hangGuard(t)
	s, err := New(ctx, Options{Name: "z3", Logic: "QF_LIA", CrossCheck: &Options{Name: "cvc5", Logic: "QF_LIA"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Send(DeclareConst("x", "Int"), DeclareConst("a", "Bool"), DeclareConst("b", "Bool"), DeclareConst("c", "Bool"))
	s.Assert("(=> a (> x 5))")
	s.Assert("(=> b (< x 3))")
	if st, err := s.Check(ctx, "a", "b", "c"); st != Unsat || err != nil {
		t.Fatalf("check a b c: %v %v", st, err)
	}
	core, err := s.UnsatCore(ctx)
	if err != nil || len(core) != 2 || strings.Contains(strings.Join(core, " "), "c") {
		t.Fatalf("core %v %v, want a and b", core, err)
	}
	s.Push()
	s.Assert("(< x 0)")
	if st, err := s.Check(ctx, "a"); st != Unsat || err != nil {
		t.Fatalf("after push: %v %v", st, err)
	}
	s.Pop(1)
	if st, err := s.Check(ctx, "a"); st != Sat || err != nil {
		t.Fatalf("after pop: %v %v", st, err)
	}
	v, err := s.Values(ctx, "x")
	if n, _ := v[0].Int64(); err != nil || n <= 5 {
		t.Errorf("x = %v %v, want > 5", v, err)
	}
	if got := s.Stats(); got.CrossChecks != 2 || got.Unsat != 2 || got.Sat != 1 {
		t.Errorf("stats %+v: want 2 unsat answers, both cross-checked, and 1 sat", got)
	}
}

// A process that fails during a batch of checks leaves the rest to go
// one by one: each answers Unknown as Check restarts the process, until
// it is given up on, as for checks asked one by one.
func TestCheckEachAfterCrash(t *testing.T) {
	path, pids := fake(t, "crash-check")
	ctx := hangGuard(t)
	s, err := New(ctx, Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Send(DeclareConst("x", "Int"))
	sts, err := CheckEach(ctx, s, []string{"(> x 0)", "(> x 1)", "(> x 2)", "(> x 3)"})
	// The batch's crash is the first failure, the first term's restart
	// the second (Unknown), the second term's the third.
	if want := []Status{Unknown}; !slices.Equal(sts, want) {
		t.Fatalf("statuses %v, want %v", sts, want)
	}
	solverError(t, err, path, "3 failures in a row, given up")
	if got := len(pids()); got != maxFailures {
		t.Errorf("%d processes started, want %d", got, maxFailures)
	}
	noneRunning(t, pids())
}

// A check that the solver does not answer within HedgeAfter is asked of
// a process of the hedge configuration too, brought to the same
// assertions; when that one answers first, it answers the check and the
// rest of the session, and the stalled process is stopped.
func TestHedgeAnswersStalledCheck(t *testing.T) {
	z3 := testenv.NeedBinary(t, "z3")
	path, pids := fake(t, "stall-check")
	ctx := hangGuard(t)
	s, err := New(ctx, Options{Path: path, Hedge: &Options{Path: z3}, HedgeAfter: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.Send(DeclareConst("x", "Int"), DeclareConst("a", "Bool"))
	s.Push()
	s.Assert("(> x 2)")
	s.Assert("(=> a (< x 1))")
	if st, err := s.Check(ctx, "a"); st != Unsat || err != nil {
		t.Fatalf("check: %v %v, want unsat", st, err)
	}
	noneRunning(t, pids()) // the stalled process is stopped
	// The same assertions in the process that answered, which is not
	// hedged again.
	if st, err := s.Check(ctx); st != Sat || err != nil {
		t.Fatalf("second check: %v %v, want sat", st, err)
	}
	vs, err := s.Values(ctx, "x")
	if err != nil || len(vs) != 1 {
		t.Fatalf("values: %v %v", vs, err)
	}
	if n, ok := vs[0].Int64(); !ok || n <= 2 {
		t.Errorf("x = %v, want more than 2", vs[0])
	}
	s.Pop(1)
	s.Assert("(< x 0)")
	if st, err := s.Check(ctx); st != Sat || err != nil {
		t.Fatalf("after pop: %v %v, want sat", st, err)
	}
	if st := s.Stats(); st.Hedges != 1 || st.HedgeWins != 1 {
		t.Errorf("stats %+v, want one hedge, won", st)
	}
	s.Close()
}

// A check answered before HedgeAfter starts no hedge, nor does one of a
// solver with a timeout; a hedge that cannot start leaves the check to
// the first process.
func TestHedgeNotTaken(t *testing.T) {
	z3 := testenv.NeedBinary(t, "z3")
	ctx := hangGuard(t)
	check := func(opts Options, want Status, hedges int64) {
		t.Helper()
		s, err := New(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.Send(DeclareConst("x", "Int"))
		s.Assert("(> x 2)")
		if st, err := s.Check(ctx); st != want || err != nil {
			t.Fatalf("check: %v %v, want %v", st, err, want)
		}
		if st := s.Stats(); st.Hedges != hedges || st.HedgeWins != 0 {
			t.Errorf("stats %+v, want %d hedges, none won", st, hedges)
		}
	}
	check(Options{Path: z3, Hedge: &Options{Path: z3}, HedgeAfter: 10 * time.Second}, Sat, 0)
	slow, _ := fake(t, "slow-check")
	dead, pids := fake(t, "dead") // the pids of both
	check(Options{Path: slow, Hedge: &Options{Path: dead}, HedgeAfter: 100 * time.Millisecond}, Sat, 1)
	if n := len(pids()); n != 2 {
		t.Errorf("%d fake solvers started, want 2", n)
	}
	noneRunning(t, pids())
	path, pids := fake(t, "stall-check")
	check(Options{Path: path, Timeout: time.Second, Hedge: &Options{Path: z3}, HedgeAfter: 100 * time.Millisecond}, Unknown, 0)
	noneRunning(t, pids())
}
