package backreach

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"ftmc/internal/testenv"
	"ftmc/mcmt"
	"ftmc/mcmt/system"
	"ftmc/smt"
	"ftmc/state"
	"ftmc/trace"
)

// The random differential test: small random Cubicle systems, verified
// backwards for any number of processes and explored on the instances with
// 1..3 processes. A backward "holds" with an unsafe instance is unsound; a
// backward "violated" must come with a run that replays on its instance.
// FTMC_RANDOM_MODELS sets the number of models (default 150),
// FTMC_RANDOM_SEED the first seed (default 1), FTMC_RANDOM_PROCS the
// largest instance (default 3); FTMC_RANDOM_PROGRESS=1 prints each seed
// as it starts and the reason of each unknown verdict. The models take the
// searches of randomSearches in turn; FTMC_RANDOM_SEARCH=NAME runs one of
// them on every model.

// randomSearches are the searches the test compares with the instances:
// without invariant search, with candidates proved or dropped, proved or
// else guessed (ftmc verify's default), and guessed without a proof, from
// the instance with 3 processes and from those with 1 and 2, whose
// candidates are often wrong: such guesses must be found reachable and
// banned, never kept in a "holds".
var randomSearches = []struct {
	name string
	opts Options
}{
	{"plain", Options{}},
	{"prove", Options{Approx: 3}},
	{"guess", Options{Approx: 3, Guess: true}},
	{"guess-only", Options{Approx: 3, Guess: true, LemmaBudget: -1}},
	{"guess-1", Options{Approx: 1, Guess: true, LemmaBudget: -1}},
	{"guess-2", Options{Approx: 2, Guess: true, LemmaBudget: -1}},
}

// randomSystem writes a random Cubicle system. Every variable has a finite
// range on the instances (the counter N stays within 0..2), so that they
// can be explored completely; backwards, N is an unbounded integer.
func randomSystem(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	g := &randGen{r: r}
	chance := func(p float64) bool { return r.Float64() < p }
	g.arrays = []string{"S"}
	if chance(0.5) {
		g.arrays = append(g.arrays, "R")
	}
	g.flag = chance(0.5)
	g.procArr = chance(0.15)
	g.enumG = chance(0.5)
	g.boolG = chance(0.35)
	g.counter = chance(0.4)
	g.turn = chance(0.3)
	// The unsafe formula's process variables: none at times, and then it
	// speaks of the globals.
	k := [...]int{0, 1, 1, 2, 2, 3}[r.IntN(6)]
	if k == 0 && !g.hasGlobals() {
		g.boolG = true
	}

	var b strings.Builder
	b.WriteString("type st = A | B | C\n")
	var init []string
	if g.enumG {
		b.WriteString("var G : st\n")
		init = append(init, "G = A")
	}
	if g.boolG {
		b.WriteString("var X : bool\n")
		init = append(init, "X = False")
	}
	if g.counter {
		b.WriteString("var N : int\n")
		init = append(init, "N = 0")
	}
	if g.turn {
		// Left free by the initial formula: any process.
		b.WriteString("var T : proc\n")
	}
	for _, a := range g.arrays {
		fmt.Fprintf(&b, "array %s[proc] : st\n", a)
		init = append(init, a+"[i] = A")
	}
	if g.flag {
		b.WriteString("array F[proc] : bool\n")
		init = append(init, "F[i] = False")
	}
	if g.procArr {
		// Free as well, or each process pointing at itself.
		b.WriteString("array P[proc] : proc\n")
		if chance(0.5) {
			init = append(init, "P[i] = i")
		}
	}
	fmt.Fprintf(&b, "init (i) { %s }\n", strings.Join(init, " && "))

	vars := []string{"x", "y", "w"}[:k]
	ul := g.lits(vars)
	if k == 0 && chance(0.5) {
		fmt.Fprintf(&b, "unsafe { %s }\n", strings.Join(ul, " && "))
	} else {
		fmt.Fprintf(&b, "unsafe (%s) { %s }\n", strings.Join(vars, " "), strings.Join(ul, " && "))
	}

	for t := range 2 + r.IntN(4) {
		m := [...]int{0, 1, 1, 2, 2, 3}[r.IntN(6)]
		if m == 0 && !g.hasGlobals() {
			m = 1
		}
		ps := []string{"i", "j", "l"}[:m]
		guard := g.lits(ps)
		var upd []string
		used := map[string]bool{}
		for range 1 + r.IntN(2) {
			u, v := g.update(ps, &guard)
			if u != "" && !used[v] {
				used[v] = true
				upd = append(upd, u)
			}
		}
		if len(upd) == 0 {
			if m > 0 {
				upd = append(upd, fmt.Sprintf("S[%s] := B", ps[0]))
			} else {
				upd = append(upd, "S[z] := case | S[z] = A : B | _ : S[z]")
			}
		}
		if m > 0 && chance(0.3) {
			guard = append(guard, "forall_other k. "+g.lit("k", nil))
		}
		if len(guard) == 0 {
			guard = append(guard, g.lit(ps[0], ps))
		}
		fmt.Fprintf(&b, "transition t%d (%s)\nrequires { %s }\n{ %s }\n", t, strings.Join(ps, " "), strings.Join(guard, " && "), strings.Join(upd, "; "))
	}
	return b.String()
}

type randGen struct {
	r                                          *rand.Rand
	arrays                                     []string
	flag, procArr, enumG, boolG, counter, turn bool
}

func (g *randGen) hasGlobals() bool { return g.enumG || g.boolG || g.counter }

func (g *randGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// lit is a literal about process v (others: the process variables in
// scope).
func (g *randGen) lit(v string, others []string) string {
	r := g.r
	for {
		switch r.IntN(9) {
		case 0, 1, 2:
			return fmt.Sprintf("%s[%s] %s %s", g.pick(g.arrays...), v, g.pick("=", "=", "<>"), g.pick("A", "B", "C"))
		case 3:
			if g.flag {
				return fmt.Sprintf("F[%s] = %s", v, g.pick("True", "False"))
			}
		case 4:
			if len(others) > 1 {
				w := g.pick(others...)
				if w != v {
					return fmt.Sprintf("%s[%s] %s %s[%s]", g.arrays[0], v, g.pick("=", "<>"), g.arrays[0], w)
				}
			}
		case 5:
			if g.turn {
				return fmt.Sprintf("T %s %s", g.pick("=", "<>"), v)
			}
		case 6:
			if g.procArr {
				w := v
				if len(others) > 0 {
					w = g.pick(others...)
				}
				return fmt.Sprintf("P[%s] %s %s", v, g.pick("=", "<>"), w)
			}
		case 7:
			if gl := g.globalLit(); gl != "" {
				return gl
			}
		case 8:
			if len(g.arrays) > 1 {
				return fmt.Sprintf("S[%s] %s R[%s]", v, g.pick("=", "<>"), v)
			}
		}
	}
}

// lits gives one or two literals over each of the process variables vs,
// and one over the globals when vs is empty or by chance.
func (g *randGen) lits(vs []string) []string {
	var ls []string
	for _, v := range vs {
		for range 1 + g.r.IntN(2) {
			ls = append(ls, g.lit(v, vs))
		}
	}
	if len(vs) == 0 || g.r.Float64() < 0.3 {
		if gl := g.globalLit(); gl != "" {
			ls = append(ls, gl)
		}
	}
	return ls
}

// globalLit is a literal about the globals, or "" when there are none.
func (g *randGen) globalLit() string {
	var opts []func() string
	if g.enumG {
		opts = append(opts, func() string { return fmt.Sprintf("G %s %s", g.pick("=", "<>"), g.pick("A", "B", "C")) })
	}
	if g.boolG {
		opts = append(opts, func() string { return "X = " + g.pick("True", "False") })
	}
	if g.counter {
		opts = append(opts, func() string { return fmt.Sprintf("N %s %d", g.pick("=", "<", ">", "<=", ">="), g.r.IntN(3)) })
	}
	if len(opts) == 0 {
		return ""
	}
	return opts[g.r.IntN(len(opts))]()
}

// update is an assignment of a transition with parameters ps and the
// variable it assigns; it may add to the guard (the counter's bounds).
func (g *randGen) update(ps []string, guard *[]string) (string, string) {
	r := g.r
	p := ""
	if len(ps) > 0 {
		p = g.pick(ps...)
	}
	switch r.IntN(8) {
	case 0:
		if g.enumG {
			if p != "" && r.IntN(2) == 0 {
				return "G := " + g.arrays[0] + "[" + p + "]", "G"
			}
			return "G := " + g.pick("A", "B", "C"), "G"
		}
	case 1:
		if g.boolG {
			return "X := " + g.pick("True", "False"), "X"
		}
	case 2:
		if g.counter {
			if r.IntN(2) == 0 {
				*guard = append(*guard, "N < 2")
				return "N := N + 1", "N"
			}
			*guard = append(*guard, "N > 0")
			return "N := N - 1", "N"
		}
	case 3:
		if g.turn {
			if p != "" && r.IntN(3) > 0 {
				return "T := " + p, "T"
			}
			return "T := .", "T"
		}
	case 4:
		a := g.pick(g.arrays...)
		cond := "z = " + p
		if p == "" {
			cond = g.lit("z", nil)
		}
		return fmt.Sprintf("%s[z] := case | %s : %s | %s : %s | _ : %s[z]", a, cond, g.pick("A", "B", "C"), g.lit("z", nil), g.pick("A", "B", "C"), a), a
	case 5:
		if g.flag && p != "" {
			return fmt.Sprintf("F[%s] := %s", p, g.pick("True", "False")), "F"
		}
	case 6:
		if g.procArr && p != "" {
			return fmt.Sprintf("P[%s] := %s", p, g.pick(ps...)), "P"
		}
	}
	if p == "" {
		return "", ""
	}
	a := g.pick(g.arrays...)
	v := g.pick("A", "B", "C")
	if r.IntN(3) == 0 {
		v = fmt.Sprintf("%s[%s]", g.pick(g.arrays...), g.pick(ps...))
	}
	return fmt.Sprintf("%s[%s] := %s", a, p, v), a
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

func TestRandomDifferential(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	models := envInt(t, "FTMC_RANDOM_MODELS", 150)
	first := envInt(t, "FTMC_RANDOM_SEED", 1)
	procs := envInt(t, "FTMC_RANDOM_PROCS", 3)
	progress := os.Getenv("FTMC_RANDOM_PROGRESS") != ""
	only := -1
	if name := os.Getenv("FTMC_RANDOM_SEARCH"); name != "" {
		for i, s := range randomSearches {
			if s.name == name {
				only = i
			}
		}
		if only < 0 {
			var names []string
			for _, s := range randomSearches {
				names = append(names, s.name)
			}
			t.Fatalf("FTMC_RANDOM_SEARCH=%s: expected one of %s", name, strings.Join(names, ", "))
		}
	}
	var tally struct {
		holds, violated, unknown, unknownUnsafe, limits int
		guessed, banned, lemmas                         int // models whose search guessed, guesses banned, models with lemmas
	}
	for seed := first; seed < first+models; seed++ {
		src := randomSystem(uint64(seed))
		if progress {
			fmt.Fprintf(os.Stderr, "seed %d\n", seed)
		}
		search := only
		if search < 0 {
			search = seed % len(randomSearches)
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("seed %d (search %s): %s\n%s", seed, randomSearches[search].name, fmt.Sprintf(format, args...), src)
		}
		s, err := mcmt.Parse(fmt.Sprintf("random%d.cub", seed), []byte(src), "")
		if err != nil {
			fail("%v", err)
			continue
		}
		// The instances: the smallest unsafe one, if any.
		unsafeAt := 0
		var complete []bool
		for k := 1; k <= procs; k++ {
			in, err := system.NewInstance(s, k)
			if err != nil {
				fail("instance with %d processes: %v", k, err)
				break
			}
			res, err := system.Explore(t.Context(), in, system.ExploreOptions{MaxStates: 200000})
			if err != nil {
				fail("instance with %d processes: %v", k, err)
				break
			}
			complete = append(complete, res.Complete || res.Unsafe != nil)
			if res.Unsafe != nil {
				unsafeAt = k
				break
			}
		}
		opts := randomSearches[search].opts
		opts.MaxNodes = 1000
		opts.Solver = smt.Options{Timeout: 10 * time.Second}
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		r, err := Verify(ctx, s, crossChecked(opts))
		cancel()
		if err != nil {
			fail("backward search: %v", err)
			continue
		}
		if r.Stats.Guesses > 0 || r.Stats.Banned > 0 {
			tally.guessed++
		}
		if r.Stats.Lemmas > 0 {
			tally.lemmas++
		}
		tally.banned += r.Stats.Banned
		switch r.Verdict {
		case trace.Holds:
			tally.holds++
			if unsafeAt > 0 {
				fail("backward search says holds, the instance with %d processes is unsafe", unsafeAt)
			}
		case trace.Violated:
			tally.violated++
			if r.Trace == nil {
				fail("violated without a trace")
				continue
			}
			if err := checkTrace(s, r.Trace); err != nil {
				fail("the trace does not replay: %v", err)
			}
			n := int(r.Trace.Params["processes"])
			if n <= len(complete) && complete[n-1] && (unsafeAt == 0 || unsafeAt > n) {
				fail("violated on %d processes, but that instance is safe", n)
			}
		default:
			tally.unknown++
			if unsafeAt > 0 {
				tally.unknownUnsafe++
			}
			if strings.Contains(r.Reason, "limit") || strings.HasPrefix(r.Reason, "stopped") {
				tally.limits++
			}
			if progress {
				fmt.Fprintf(os.Stderr, "seed %d: unknown: %s\n", seed, r.Reason)
			}
		}
	}
	searches := "the searches in turn"
	if only >= 0 {
		searches = "search " + randomSearches[only].name
	}
	t.Logf("%d models from seed %d, %s: holds %d, violated %d, unknown %d (%d of them at a limit, %d with an unsafe instance of at most %d processes); "+
		"lemmas proved in %d models, guesses made in %d, %d guesses banned",
		models, first, searches, tally.holds, tally.violated, tally.unknown, tally.limits, tally.unknownUnsafe, procs,
		tally.lemmas, tally.guessed, tally.banned)
}

// checkTrace replays a counterexample on an instance of the system, step
// by step through the state.Model interface: the first state is initial,
// each step a successor, and the last state unsafe.
func checkTrace(s *system.System, cx *trace.Counterexample) error {
	n := int(cx.Params["processes"])
	in, err := system.NewInstance(s, n)
	if err != nil {
		return err
	}
	// The first state, read back from its printed values; the instance's
	// own initial states leave out values that nothing reads.
	if len(cx.Initial) != in.C.Size {
		return fmt.Errorf("the first state has %d values, the instance with %d processes %d", len(cx.Initial), n, in.C.Size)
	}
	names := in.C.Names()
	vals := make([]int64, in.C.Size)
	for _, v := range s.Vars {
		ps := 1
		if v.Local {
			ps = n
		}
		for p := range ps {
			slot := in.C.Slot(v, p)
			iv := cx.Initial[slot]
			if iv.Name != names[slot] {
				return fmt.Errorf("the first state has %s where the instance has %s", iv.Name, names[slot])
			}
			x, err := parseValue(in.C, v.Sort, slot, iv.Value)
			if err != nil {
				return fmt.Errorf("%s = %s: %v", iv.Name, iv.Value, err)
			}
			vals[slot] = x
		}
	}
	if !in.C.IsInitial(vals) {
		return fmt.Errorf("the first state is not an initial state of the instance with %d processes", n)
	}
	cur, ok := system.Encode(vals, nil)
	if !ok {
		return fmt.Errorf("the first state has values out of the instance's range")
	}
	for _, step := range cx.Steps {
		var next []byte
		in.Next(cur, sinkFunc(func(tr state.Trans, st []byte) {
			if next == nil && in.Explain(tr, nil, nil).Stmt == step.Stmt && sameVars(trace.Diff(in.Decode(cur), in.Decode(st)), step.Changes) {
				next = append([]byte(nil), st...)
			}
		}))
		if next == nil {
			return fmt.Errorf("step %d (%s) is not a transition of the instance with %d processes", step.Num, step.Stmt, n)
		}
		cur = next
	}
	if _, _, bad := in.Check(cur); !bad {
		return fmt.Errorf("the last state is not unsafe")
	}
	return nil
}

// parseValue reads a value as Concrete.Format prints it.
func parseValue(c *system.Concrete, sort system.Sort, slot int, text string) (int64, error) {
	if sort.Kind == system.Int {
		return strconv.ParseInt(text, 10, 64)
	}
	dom, err := c.Domain(sort)
	if err != nil {
		return 0, err
	}
	for _, x := range dom {
		if c.Format(slot, x) == text {
			return x, nil
		}
	}
	return 0, fmt.Errorf("not a value of sort %s on %d processes", sort, c.N)
}
