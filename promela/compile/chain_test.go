package compile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"ftmc/promela"
	"ftmc/state"
)

// succList records the successors and failures of one Next.
type succList struct{ out []string }

func (c *succList) Succ(t state.Trans, v []byte) {
	c.out = append(c.out, fmt.Sprintf("%d/%d %x", t.Proc, t.ID, v))
}

func (c *succList) Fail(t state.Trans, kind, msg string) {
	c.out = append(c.out, fmt.Sprintf("%d/%d %s: %s", t.Proc, t.ID, kind, msg))
}

// chainCases exercise the fast paths of Model.chain: skips jumped over,
// one-statement locations, conditions with one executable option, and
// their failures.
var chainCases = []struct{ name, src string }{
	{"skips inside atomic", `
		byte x, y;
		active [2] proctype p() {
			do
			:: atomic { x < 3 -> printf("a\n"); skip; goto l; l: x++; if :: x == 2 -> skip :: else fi; skip; y = y + x }
			:: atomic { x == 3 -> skip; skip }; break
			od
		}`},
	{"a skip ends the atomic sequence", `
		byte x;
		active [2] proctype p() { atomic { x++; skip }; atomic { skip; x < 2 -> skip }; x++ }`},
	{"blocked after skips", `
		byte x;
		active [2] proctype p() { atomic { x++; skip; skip; x == 2 -> x = 0; skip }; x = 9 }`},
	{"cycle of skips", `
		active proctype p() { atomic { l: skip; m: skip; goto l } }`},
	{"provided clause", `
		byte x;
		active [2] proctype p() provided (x != 1) { atomic { skip; x++; skip; skip; x++; skip }; x = 0 }`},
	{"unless inside atomic", `
		byte x;
		active [2] proctype p() { atomic { { skip; x++; skip; x++ } unless { x == 3 -> skip; skip } }; x = 0 }`},
	{"fault after skips", `
		byte a[2]; byte i;
		active proctype p() { atomic { skip; i = 2; skip; a[i] = 1 } }`},
	{"assertion after skips", `
		byte x;
		active [2] proctype p() { atomic { skip; x++; skip; assert(x < 2) } }`},
	{"several options then skips", `
		byte x;
		active [2] proctype p() {
			do
			:: atomic { if :: x < 4 -> x++ :: x < 3 -> x = x + 2 :: else -> skip fi; skip; skip; x > 1 -> skip }
			:: x >= 4 -> break
			od
		}`},
	{"random receives, both executable", `
		chan c = [3] of { byte }; byte got;
		init { c!1; c!2; atomic { got = 5; if :: c??2 -> got = 2 :: c??1 -> got = 1 fi; skip } }`},
	{"enabled() after an executable send and receive", `
		chan a = [1] of { byte }; chan b = [1] of { byte }; chan c = [1] of { byte };
		active proctype q() { c?_; b!7 }
		active proctype p() {
			byte x;
			atomic { x = 1; c!3; if :: a!1 :: enabled(0) && x == 5 -> skip fi; x = 2 };
			atomic { x = 3; if :: a?x :: enabled(0) && x == 5 -> skip fi; x++ }
		}`},
	{"assignments in a row, one failing", `
		byte a[3]; byte x, y;
		active [2] proctype p() {
			do
			:: atomic { x < 4 -> y = x; x++; skip; y = 10 / (x - 2); a[y % 3] = x; x = x }
			:: atomic { x > 0 -> x--; a[x % 3] = 1; y = a[(x + 1) % 3] + 1 }; x = y
			:: x == 4 -> break
			od
		}`},
	{"a loop of assignments inside atomic", `
		byte x;
		active proctype p() { atomic { x == 0 -> l: x++; x--; goto l } }`},
	{"choices of conditions that cannot fail", `
		byte x, y; byte a[3];
		active [2] proctype p() {
			do
			:: atomic { x < 3 -> y++; if :: x == 1 -> printf("one\n") :: y > 0 && x != 2 -> skip :: else -> skip fi; x++; if :: a[1] == x -> skip :: else fi; y = x }
			:: atomic { x == 3 -> y = 3; if :: a[x % 3] == 0 -> skip :: else fi; if :: y == 3 :: y != 3 fi; x = 4 }
			:: atomic { x == 4 -> y = 2 * y; if :: y == 6 -> skip :: y > 6 fi; x = 5; if :: y == 6 -> skip :: y > 6 && x != 9 -> skip :: else fi; if :: x == 5 -> x = 6 :: else fi }
			:: atomic { x == 5 -> y = 3; if :: y > 1 -> skip :: y != 3 -> skip :: else fi; y = 4; if :: y > 1 -> skip :: y == 4 :: else fi; x = 6 }
			:: x >= 4 -> break
			od
		}`},
	{"a choice of conditions that can fail", `
		byte a[2]; byte i;
		active proctype p() { atomic { i = 1; i++; if :: a[i] == 0 -> skip :: else fi; i = 0 } }`},
	{"a choice of exclusive conditions without an else", `
		byte y;
		active [3] proctype p() { atomic { y++; y++; if :: y == 5 -> skip :: y > 5 fi; y = 0 } }`},
	{"receives and sends alone at their locations", `
		chan c = [3] of { byte }; chan d = [1] of { byte }; byte a[2]; byte i;
		active proctype p() { atomic { c!1; c!2; c!3; i = 1; c?a[i]; d!a[i]; i++; d!i } }
		active proctype q() { atomic { d?i; c?a[i - 1]; i = 3; c?a[i] } }`},
	{"channel tests, complementary or not", `
		chan c[2] = [1] of { byte }; byte i;
		active [2] proctype p() {
			do
			:: atomic { i < 3 -> i++; if :: nfull(c[i % 2]) -> c[i % 2]!i :: full(c[i % 2]) -> printf("full\n") fi; if :: empty(c[1]) -> skip :: nempty(c[1]) -> c[1]?_ fi; i = i }
			:: atomic { i < 2 -> i++; if :: nfull(c[0]) -> skip :: empty(c[0]) -> skip fi; i = i }
			:: i == 3 -> break
			od
		}`},
	{"rendezvous after skips", `
		chan c = [0] of { byte };
		active proctype s() { atomic { skip; c!1; skip; c!2 } }
		active proctype r() { byte v; atomic { c?v; skip; c?v } }`},
}

// TestChainLikeGeneral compares the successors of every reachable state
// computed with the fast paths of Model.chain and without them (each step
// of an atomic sequence through explore, as when steps are recorded): they
// must be the same, successor for successor.
func TestChainLikeGeneral(t *testing.T) {
	type model struct {
		name  string
		file  string
		src   []byte
		opts  promela.Options
		limit int
	}
	var models []model
	for _, c := range chainCases {
		models = append(models, model{name: c.name, file: "test.pml", src: []byte(c.src)})
	}
	files, err := filepath.Glob("testdata/models/*.pml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no models: %v", err)
	}
	fd := "../../examples/failure-detectors/"
	for _, f := range append(files, fd+"weak-completeness.pml", fd+"weak-accuracy.pml", "../../bench/explicit/models/leader.pml", "../../bench/explicit/models/peterson.pml") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, model{name: filepath.Base(f), file: f, src: src, limit: 20000,
			opts: promela.Options{Defines: map[string]string{"CHAN": "I", "BUF": "1"}}})
	}
	for _, mc := range models {
		t.Run(mc.name, func(t *testing.T) {
			fast := compileNamed(t, mc.file, mc.src, mc.opts)
			slow := compileNamed(t, mc.file, mc.src, mc.opts)
			slow.slow = true
			slow.noSpec = true
			s := explore(fast, mc.limit)
			if mc.limit == 0 && s.kind == "" && len(s.seen) < 2 {
				t.Fatalf("%d states", len(s.seen))
			}
			sameSuccessors(t, s.seen, fast, slow, "fast", "general")
		})
	}
}

// sameSuccessors fails t unless models a and b (named na and nb in the
// message) give every state of seen the same successors and failures.
func sameSuccessors(t *testing.T, seen map[string]bool, a, b state.Model, na, nb string) {
	t.Helper()
	var vs [][]byte
	for v := range seen {
		vs = append(vs, []byte(v))
	}
	sort.Slice(vs, func(i, j int) bool { return bytes.Compare(vs[i], vs[j]) < 0 })
	for _, v := range vs {
		var f, g succList
		a.Next(v, &f)
		b.Next(v, &g)
		sort.Strings(f.out)
		sort.Strings(g.out)
		if fmt.Sprint(f.out) != fmt.Sprint(g.out) {
			t.Fatalf("state %x:\n%s: %q\n%s: %q", v, na, f.out, nb, g.out)
		}
	}
}
