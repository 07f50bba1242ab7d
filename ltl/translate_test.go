package ltl

import (
	"math/rand"
	"os"
	"strconv"
	"testing"
	"time"
)

var testAtoms = []string{"p", "q", "r"}

// randFormula returns a random formula of about size n over testAtoms.
func randFormula(rng *rand.Rand, n int) *Formula {
	if n <= 1 {
		switch rng.Intn(10) {
		case 0:
			return True()
		case 1:
			return False()
		}
		return Atom(testAtoms[rng.Intn(len(testAtoms))])
	}
	ops := []Op{OpNot, OpAnd, OpOr, OpImplies, OpEquiv, OpNext, OpAlways, OpEventually, OpUntil, OpWeakUntil, OpRelease}
	op := ops[rng.Intn(len(ops))]
	if op.unary() {
		return &Formula{Op: op, L: randFormula(rng, n-1)}
	}
	k := 1 + rng.Intn(n-1)
	return &Formula{Op: op, L: randFormula(rng, k), R: randFormula(rng, n-k)}
}

func randLasso(rng *rand.Rand) Lasso {
	var w Lasso
	for i := rng.Intn(4); i > 0; i-- {
		w.Prefix = append(w.Prefix, uint64(rng.Intn(8)))
	}
	for i := 1 + rng.Intn(4); i > 0; i-- {
		w.Loop = append(w.Loop, uint64(rng.Intn(8)))
	}
	return w
}

func TestTranslateSemantics(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	formulas := 3000
	if testing.Short() {
		formulas = 500
	}
	// FTMC_LTL_RANDOM=N checks N formulas with a seed from the clock.
	if n, err := strconv.Atoi(os.Getenv("FTMC_LTL_RANDOM")); err == nil {
		formulas = n
		seed := time.Now().UnixNano()
		t.Logf("seed %d", seed)
		rng = rand.New(rand.NewSource(seed))
	}
	for i := 0; i < formulas; i++ {
		f := randFormula(rng, 1+rng.Intn(14))
		if i%2 == 1 {
			f = Not(f)
		}
		a, err := Translate(f)
		if err != nil {
			t.Fatalf("Translate(%s): %v", f, err)
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("Translate(%s): %v", f, err)
		}
		s := Simplify(f)
		for j := 0; j < 30; j++ {
			w := randLasso(rng)
			want := f.Holds(w, testAtoms)
			if got := s.Holds(w, testAtoms); got != want {
				t.Fatalf("Simplify(%s) = %s: on %v it is %v, the formula %v", f, s, w, got, want)
			}
			if got := a.Accepts(onto(w, testAtoms, a.Atoms)); got != want {
				t.Fatalf("Translate(%s): on %v the automaton says %v, the formula %v\n%s", f, w, got, want, a)
			}
		}
	}
}

func TestHolds(t *testing.T) {
	p := Atom("p")
	// p holds at even positions of the loop only.
	w := Lasso{Prefix: []uint64{0}, Loop: []uint64{1, 0}}
	for _, c := range []struct {
		f    *Formula
		want bool
	}{
		{p, false},
		{Next(p), true},
		{Always(Eventually(p)), true},
		{Eventually(Always(p)), false},
		{Always(p), false},
		{Until(Not(p), p), true},
		{Release(p, Not(p)), false},
		{Release(Not(p), Or(p, Next(p))), true},
		{WeakUntil(Not(p), False()), false},
		{Always(Implies(p, Next(Not(p)))), true},
	} {
		if got := c.f.Holds(w, []string{"p"}); got != c.want {
			t.Errorf("%s on %v: %v, want %v", c.f, w, got, c.want)
		}
	}
}
