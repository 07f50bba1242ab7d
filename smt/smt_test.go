package smt

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
)

func solvers(t *testing.T) []string {
	var names []string
	for _, n := range []string{"z3", "cvc5"} {
		if n == "cvc5" {
			// cvc5 is optional; z3 is required under CI.
			if _, err := New(context.Background(), Options{Name: n}); err != nil {
				continue
			}
		} else {
			testenv.NeedBinary(t, n)
		}
		names = append(names, n)
	}
	return names
}

func TestIncremental(t *testing.T) {
	ctx := context.Background()
	for _, name := range solvers(t) {
		t.Run(name, func(t *testing.T) {
			s, err := New(context.Background(), Options{Name: name, Logic: "QF_LIA"})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			s.Send(DeclareConst("x", "Int"), DeclareConst("y", "Int"), DeclareConst("a", "Bool"), DeclareConst("b", "Bool"))
			s.Assert("(>= x 0)")
			s.Assert("(=> a (> x 5))")
			s.Assert("(=> b (< x 3))")
			st, err := s.Check(ctx, "a")
			if err != nil || st != Sat {
				t.Fatalf("check a: %v %v", st, err)
			}
			vals, err := s.Values(ctx, "x", "(- x 10)")
			if err != nil {
				t.Fatal(err)
			}
			x, ok := vals[0].Int64()
			if !ok || x <= 5 {
				t.Errorf("x = %v, want > 5", vals[0])
			}
			if d, _ := vals[1].Int64(); d != x-10 {
				t.Errorf("x-10 = %v, want %d", vals[1], x-10)
			}
			st, err = s.Check(ctx, "a", "b")
			if err != nil || st != Unsat {
				t.Fatalf("check a b: %v %v", st, err)
			}
			core, err := s.UnsatCore(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(core, " ") != "a b" && strings.Join(core, " ") != "b a" {
				t.Errorf("core = %v, want a b", core)
			}
			s.Push()
			s.Assert("(< x 0)")
			if st, _ := s.Check(ctx); st != Unsat {
				t.Errorf("after push: %v, want unsat", st)
			}
			s.Pop(1)
			if st, _ := s.Check(ctx); st != Sat {
				t.Errorf("after pop: %v, want sat", st)
			}
			if got := s.Stats().Checks; got != 4 {
				t.Errorf("checks = %d, want 4", got)
			}
		})
	}
}

func TestErrorsAreReported(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	s, err := New(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Assert("(> undeclared 0)")
	if _, err := s.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "undeclared") {
		t.Errorf("want an error naming the undeclared constant, got %v", err)
	}
	// The solver is still usable.
	s.Send(DeclareConst("z", "Int"))
	s.Assert("(= z 3)")
	if st, err := s.Check(context.Background()); st != Sat || err != nil {
		t.Errorf("after error: %v %v", st, err)
	}
}

func TestTimeoutIsUnknown(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	s, err := New(context.Background(), Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// A hard nonlinear problem: x^3 + y^3 = z^3 with positive integers.
	s.Send(DeclareConst("x", "Int"), DeclareConst("y", "Int"), DeclareConst("z", "Int"))
	s.Assert("(and (> x 0) (> y 0) (> z 0) (= (+ (* x x x) (* y y y)) (* z z z)))")
	st, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st != Unknown {
		t.Fatalf("status %v, want unknown", st)
	}
	if !strings.Contains(s.Reason(), "timeout") {
		t.Errorf("reason %q, want a timeout", s.Reason())
	}
}

// TestRLimitIsUnknown: z3 stops a check at its resource limit, which
// counts the solver's work, and the check answers unknown with the limit
// as its reason; the process then answers the next check as usual.
func TestRLimitIsUnknown(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	// The timeout, far beyond the limit, ends the check if the limit
	// does not.
	s, err := New(context.Background(), Options{RLimit: 100_000, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Send(DeclareConst("x", "Int"), DeclareConst("y", "Int"), DeclareConst("z", "Int"))
	s.Send("(push 1)")
	s.Assert("(and (> x 0) (> y 0) (> z 0) (= (+ (* x x x) (* y y y)) (* z z z)))")
	start := time.Now()
	st, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st != Unknown || s.Reason() != "solver resource limit (100000)" {
		t.Fatalf("status %v (%s), want unknown at the resource limit", st, s.Reason())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the check took %v", d)
	}
	s.Send("(pop 1)")
	s.Assert("(and (= x 2) (= y (* 2 x)))")
	if st, err := s.Check(context.Background()); st != Sat || err != nil {
		t.Errorf("after the limit: %v %v", st, err)
	}
}

func TestCrashIsUnknownAndRestarts(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	s, err := New(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Send(DeclareConst("x", "Int"))
	s.Assert("(= x 7)")
	p := s.(*process)
	p.cmd.Process.Kill()
	<-p.ex.done
	st, _ := s.Check(context.Background())
	if st != Unknown {
		t.Fatalf("after kill: %v, want unknown", st)
	}
	// The next check restarts the solver with the same assertions.
	st, err = s.Check(context.Background())
	if st != Sat || err != nil {
		t.Fatalf("after restart: %v %v", st, err)
	}
	v, err := s.Values(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := v[0].Int64(); n != 7 {
		t.Errorf("x = %v, want 7", v[0])
	}
}

func TestMissingSolver(t *testing.T) {
	_, err := New(context.Background(), Options{Name: "z3", Path: ""})
	if err != nil {
		t.Skip("z3 present check only")
	}
	t.Setenv("PATH", t.TempDir())
	_, err = New(context.Background(), Options{Name: "z3"})
	if err == nil || !strings.Contains(err.Error(), "apt-get install z3") {
		t.Errorf("want an error naming the package, got %v", err)
	}
}

func TestReadSexp(t *testing.T) {
	in := `sat ((x 3) (y (- 2)) (r (/ 1 2))) (error "line 1: bad ""x""") |a b|`
	r := bufio.NewReader(strings.NewReader(in))
	var got []string
	for {
		e, err := readSexp(r)
		if err != nil {
			break
		}
		got = append(got, e.String())
	}
	want := []string{"sat", "((x 3) (y (- 2)) (r (/ 1 2)))", `(error "line 1: bad ""x""")`, "|a b|"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	v, err := parseValue(Sexp{IsList: true, List: []Sexp{{Atom: "-"}, {Atom: "2"}}})
	if n, ok := v.Int64(); err != nil || !ok || n != -2 {
		t.Errorf("(- 2) = %v %v", v, err)
	}
}

func TestTerms(t *testing.T) {
	if got := And(); got != "true" {
		t.Error(got)
	}
	if got := And("a", App(">=", "x", Int(-3))); got != "(and a (>= x (- 3)))" {
		t.Error(got)
	}
	for _, c := range []struct{ got, want string }{
		{Or(), "false"}, {Or("a"), "a"}, {Or("a", "b"), "(or a b)"},
		{Sum(), "0"}, {Sum("x"), "x"}, {Sum("x", "y", "z"), "(+ x y z)"},
		{And("a"), "a"},
	} {
		if c.got != c.want {
			t.Errorf("%s, want %s", c.got, c.want)
		}
	}
	if got := Sym("k[loc0]"); got != "|k[loc0]|" {
		t.Error(got)
	}
	if got := Sym("nsnt"); got != "nsnt" {
		t.Error(got)
	}
}

// TestManyCommands sends more commands before a check-sat than the pipes
// hold acknowledgements of. The solver here is a shell loop that answers
// each line at once, as z3 does when its input comes faster than it is
// read: unread answers used to block it while ftmc blocked writing to it.
func TestManyCommands(t *testing.T) {
	sh := testenv.NeedBinary(t, "sh")
	script := filepath.Join(t.TempDir(), "solver")
	loop := `while IFS= read -r line; do
  case "$line" in
  "(check-sat"*) echo sat ;;
  "(exit)"*) exit 0 ;;
  *) echo success ;;
  esac
done
`
	if err := os.WriteFile(script, []byte("#!"+sh+"\n"+loop), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := New(context.Background(), Options{Name: "z3", Path: script})
	if err != nil {
		t.Fatal(err)
	}
	// Not closed on failure: Close would wait on the same full pipe.
	done := make(chan struct{})
	var st Status
	go func() {
		defer close(done)
		// 8 bytes of "success\n" each: several times what a pipe holds.
		for i := 0; i < 40000; i++ {
			s.Assert("(>= x " + strconv.Itoa(i) + ")")
		}
		st, err = s.Check(context.Background())
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the solver and ftmc wait on each other")
	}
	if err != nil || st != Sat {
		t.Fatalf("check after many commands: %v %v", st, err)
	}
	s.Close()
}

// TestCancelledByTimeout checks that an error z3 reports because its
// timeout fired outside check-sat is told as the timeout's doing.
func TestCancelledByTimeout(t *testing.T) {
	for _, c := range []struct {
		timeout time.Duration
		answer  string
		want    string
	}{
		{time.Millisecond, `(error "line 5103 column 7: push canceled")`, "solver timeout (1ms): solver z3 (/usr/bin/z3): line 5103 column 7: push canceled"},
		{time.Millisecond, `(error "line 3 column 9: model is not available")`, "solver timeout (1ms): solver z3 (/usr/bin/z3): line 3 column 9: model is not available"},
		{0, `(error "line 3 column 9: model is not available")`, "solver z3 (/usr/bin/z3): line 3 column 9: model is not available"},
		{time.Millisecond, `(error "line 1 column 1: unknown constant x")`, "solver z3 (/usr/bin/z3): line 1 column 1: unknown constant x"},
	} {
		e, err := readSexp(bufio.NewReader(strings.NewReader(c.answer)))
		if err != nil {
			t.Fatal(err)
		}
		p := &process{opts: Options{Name: "z3", Timeout: c.timeout}, path: "/usr/bin/z3"}
		if got := p.errorOf(e).Error(); got != c.want {
			t.Errorf("%s with timeout %v: %q, want %q", c.answer, c.timeout, got, c.want)
		}
	}
}

// TestCloseBusy: a process closed while it still works through commands
// it was sent (a query given up half sent) is stopped, not kept for the
// next New nor asked to exit after them.
func TestCloseBusy(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	ctx, done := WithPool(context.Background())
	defer done()
	s, err := New(ctx, Options{Name: "z3", Logic: "ALL"})
	if err != nil {
		t.Fatal(err)
	}
	p := s.(*process)
	first := p.cmd.Process.Pid
	var cmds []string
	for i := range 200_000 {
		x := fmt.Sprintf("x%d", i)
		cmds = append(cmds, DeclareConst(x, "Int"), "(assert (> (* "+x+" "+x+") "+strconv.Itoa(i)+"))")
	}
	s.Send(cmds...)
	s.Close()
	if !p.dead || p.exitSent {
		t.Errorf("the busy process: stopped %v, asked to exit %v; want stopped at once", p.dead, p.exitSent)
	}
	s, err = New(ctx, Options{Name: "z3", Logic: "ALL"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.(*process).cmd.Process.Pid == first {
		t.Error("the busy process was kept for the next New")
	}
}

// Under WithPool, Close keeps a z3 process cleared, and the next New
// with the same options takes it: nothing declared, asserted or pushed
// before is left, and a resource limit set for a check is not. Outside
// the pool's context, and for a process that ended while kept, New
// starts a process; the pool's end ends what it keeps.
func TestPool(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	ctx, done := WithPool(context.Background())
	opts := Options{Name: "z3", RLimit: 100_000, Logic: "ALL"}
	s, err := New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	first := s.(*process).cmd.Process.Pid
	s.Send(DeclareConst("x", "Int"), DeclareConst("y", "Int"), DeclareConst("z", "Int"))
	s.Assert("(= x 5)")
	s.Push()
	s.Assert("(and (> y 0) (> z 0) (= (+ (* x x x) (* y y y)) (* z z z)))")
	if st, _ := s.Check(ctx); st != Unknown {
		t.Fatalf("the limit: %v, want unknown", st)
	}
	s.Close()
	opts.RLimit = 0
	s, err = New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	p := s.(*process)
	if p.cmd.Process.Pid != first {
		t.Fatalf("a new process (%d) rather than the one closed (%d)", p.cmd.Process.Pid, first)
	}
	if p.Stats().Checks != 0 {
		t.Errorf("stats of the last user: %+v", p.Stats())
	}
	// x is not declared any more: declaring it again is no error; the
	// assertion x == 5 is gone, and so is the limit.
	if e, err := p.query(ctx, "(get-option :rlimit)"); err != nil || e.Atom != "0" {
		t.Errorf("rlimit after the reset: %v %v, want 0", e, err)
	}
	s.Send(DeclareConst("x", "Int"))
	s.Assert("(= x 3)")
	if st, err := s.Check(ctx); st != Sat || err != nil {
		t.Fatalf("after the reset: %v %v (%s), want sat", st, err, s.Reason())
	}
	s.Close()
	// Outside the pool's context the process is not taken.
	s, err = New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.(*process).cmd.Process.Pid == first {
		t.Error("a process kept for reuse was given to New outside its pool")
	}
	s.Close()
	// A process killed while kept is not handed out.
	s, err = New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	p = s.(*process)
	if p.cmd.Process.Pid != first {
		t.Fatalf("a new process (%d) rather than the one kept (%d)", p.cmd.Process.Pid, first)
	}
	s.Close()
	p.cmd.Process.Kill()
	<-p.ex.done
	s, err = New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	p = s.(*process)
	if p.cmd.Process.Pid == first {
		t.Error("a process that ended while kept was handed out")
	}
	s.Send(DeclareConst("x", "Int"))
	if st, err := s.Check(ctx); st != Sat || err != nil {
		t.Errorf("the new process: %v %v", st, err)
	}
	s.Close()
	// The pool's end ends the process it kept.
	done()
	select {
	case <-p.ex.done:
	case <-time.After(5 * time.Second):
		t.Error("a kept process outlived its pool")
	}
}

// A prestarted process is the one the first New for its solver takes,
// with the options New would give it; New for other options, or outside
// the pool, starts its own; the pool's end ends one never taken.
func TestPrestart(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	ctx, done := WithPool(context.Background())
	defer done()
	opts := Options{Name: "z3", Logic: "QF_LIA"}
	Prestart(context.Background(), opts) // no pool: nothing
	Prestart(ctx, Options{Name: "cvc5"}) // not kept by a pool: nothing
	Prestart(ctx, opts)
	pool := ctx.Value(poolKey{}).(*Pool)
	key := ""
	for k, ps := range pool.procs {
		if len(ps) != 1 || key != "" {
			t.Fatalf("pool after Prestart: %v", pool.procs)
		}
		key = k
	}
	if key == "" {
		t.Fatal("Prestart kept no process")
	}
	pre := pool.procs[key][0]
	other, err := New(ctx, Options{Name: "z3", Logic: "QF_LRA"})
	if err != nil {
		t.Fatal(err)
	}
	if other.(*process) == pre {
		t.Fatal("New with another logic took the prestarted process")
	}
	other.Close()
	s, err := New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.(*process) != pre {
		t.Fatal("New started a process beside the prestarted one")
	}
	s.Send(DeclareConst("x", "Int"))
	s.Assert("(> x 2)")
	if st, err := s.Check(ctx); st != Sat || err != nil {
		t.Fatalf("the prestarted process: %v %v (%s)", st, err, s.Reason())
	}
	if e, err := s.(*process).query(ctx, "(get-value (x))"); err != nil || !strings.Contains(e.String(), "x") {
		t.Errorf("get-value: %v %v", e, err)
	}
	s.Close()
	// One never taken ends with the pool.
	Prestart(ctx, Options{Name: "z3", Logic: "QF_UF"})
	var idle *process
	for k, ps := range pool.procs {
		if k != key && len(ps) > 0 && ps[0].opts.Logic == "QF_UF" {
			idle = ps[0]
		}
	}
	if idle == nil {
		t.Fatalf("no idle process for QF_UF: %v", pool.procs)
	}
	done()
	select {
	case <-idle.ex.done:
	case <-time.After(5 * time.Second):
		t.Error("a prestarted process outlived its pool")
	}
}

// CheckEach answers as Push, Assert, Check and Pop would, one term after
// the other, and leaves the assertions as they were; an error stops it
// with the answers before it, and a process goes on with its assertions.
func TestCheckEach(t *testing.T) {
	ctx := context.Background()
	for _, name := range solvers(t) {
		for _, cross := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/cross=%v", name, cross), func(t *testing.T) {
				opts := Options{Name: name, Logic: "QF_LIA"}
				if cross {
					// One by one, each unsat confirmed.
					opts.CrossCheck = &Options{Name: name, Logic: "QF_LIA"}
				}
				s, err := New(ctx, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				s.Send(DeclareConst("x", "Int"), DeclareConst("y", "Int"))
				s.Assert("(and (>= x 0) (<= x 5) (= y (* 2 x)))")
				terms := []string{"(= y 3)", "(= y 4)", "(> x 5)", "(< y 0)", "(= x 5)"}
				want := []Status{Unsat, Sat, Unsat, Unsat, Sat}
				sts, err := CheckEach(ctx, s, terms)
				if err != nil || !slices.Equal(sts, want) {
					t.Fatalf("CheckEach: %v %v, want %v", sts, err, want)
				}
				if got := s.Stats().Checks; got != int64(len(terms)) {
					t.Errorf("%d checks counted, want %d", got, len(terms))
				}
				if st, err := s.Check(ctx); st != Sat || err != nil {
					t.Fatalf("after CheckEach: %v %v, want sat", st, err)
				}
				s.Push()
				s.Assert("(= y 11)")
				if st, err := s.Check(ctx); st != Unsat || err != nil {
					t.Fatalf("the assertions after CheckEach: %v %v, want unsat", st, err)
				}
				s.Pop(1)
				if cross {
					return
				}
				sts, err = CheckEach(ctx, s, []string{"(= y 4)", "(= z 1)", "(= y 3)"})
				if err == nil || !slices.Equal(sts, []Status{Sat}) {
					t.Fatalf("CheckEach with an undeclared constant: %v %v, want [sat] and an error", sts, err)
				}
				if st, err := s.Check(ctx); st != Sat || err != nil {
					t.Fatalf("after the error: %v %v, want sat", st, err)
				}
				s.Push()
				s.Assert("(= y 11)")
				if st, err := s.Check(ctx); st != Unsat || err != nil {
					t.Fatalf("the assertions after the error: %v %v, want unsat", st, err)
				}
			})
		}
	}
}
