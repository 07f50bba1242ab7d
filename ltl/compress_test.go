package ltl

import (
	"context"
	"math/rand"
	"reflect"
	"testing"
)

// TestCheckCompressed: the nested depth-first search on a compressed store
// finds the same verdicts, lassos and state counts as on a plain one.
func TestCheckCompressed(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	violated := 0
	for i := range 150 {
		m, val := randModel(rng, 2+rng.Intn(6), 1+rng.Intn(3))
		f := randFormula(rng, 1+rng.Intn(8))
		a, err := Translate(Not(f))
		if err != nil {
			t.Fatal(err)
		}
		preds := randPredicates(a, val)
		for _, fair := range []bool{false, true} {
			r0, st0, err0 := Check(context.Background(), m, a, preds, Options{Fairness: fair})
			r1, st1, err1 := Check(context.Background(), m, a, preds, Options{Fairness: fair, Compress: true})
			if err0 != nil || err1 != nil {
				t.Fatal(err0, err1)
			}
			if !reflect.DeepEqual(r0, r1) || st0.States != st1.States || st0.Transitions != st1.Transitions {
				t.Fatalf("model %d (fair %v), !(%s): plain %+v, %d states; compressed %+v, %d states", i, fair, f, r0, st0.States, r1, st1.States)
			}
			if st0.StoreBytes == st1.StoreBytes {
				t.Fatalf("model %d: the store takes %d bytes compressed or not: was it compressed?", i, st1.StoreBytes)
			}
			if r0.Counterexample != nil {
				violated++
			}
		}
	}
	if violated == 0 {
		t.Error("no property was violated: the counterexamples were not compared")
	}
}
