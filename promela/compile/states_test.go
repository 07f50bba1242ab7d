package compile

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ftmc/promela"
	"ftmc/state"
)

// panCount reads the state count a model records from Spin: a line
// "// pan: N states (spin -a -o1 -o2 -o3 ...)".
var panCount = regexp.MustCompile(`(?m)^// pan: (\d+) states \(spin -a -o1 -o2 -o3`)

// TestStateCounts checks that every model in testdata/models has exactly
// the states Spin's verifier stores for it (recorded in the model, from
// spin -a -o1 -o2 -o3 and cc -DSAFETY -DNOREDUCE), and no violation.
func TestStateCounts(t *testing.T) {
	files, err := filepath.Glob("testdata/models/*.pml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 15 {
		t.Fatalf("found %d models, want at least 15", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := panCount.FindSubmatch(src)
			if m == nil {
				t.Fatalf("%s: no \"// pan: N states (spin -a -o1 -o2 -o3 ...)\" line", f)
			}
			want, _ := strconv.Atoi(string(m[1]))
			model := compileNamed(t, f, src, promela.Options{})
			s := explore(model, 0)
			if s.kind != "" {
				t.Fatalf("%s: %s: %s", f, s.kind, s.msg)
			}
			if s.states != want {
				t.Errorf("%s: %d states, Spin stores %d", f, s.states, want)
			}
		})
	}
}

// Each case is a model, the number of states Spin stores for it (with the
// same command line as above; not compared for violations, where the
// search stops early), and the verdict. Spin's verifier crashes on the
// division by zero instead of reporting it.
var semanticsCases = []struct {
	name   string
	src    string
	states int
	kind   string
}{
	{"sequence", `byte x; active proctype p() { x = 1; x = 2; x = 3 }`, 5, ""},
	{"if picks any true option", `byte x; active proctype p() { if :: x = 1 :: x = 2 :: x == 5 -> x = 3 fi }`, 5, ""},
	{"else only when nothing else can", `byte x; active proctype p() { if :: x > 0 -> x = 9 :: else -> x = 2 fi }`, 4, ""},
	{"do with break", `byte x; active proctype p() { do :: x < 3 -> x++ :: x == 3 -> break od }`, 9, ""},
	{"goto loop", `byte x; active proctype p() { L: x++; if :: x < 4 -> goto L :: else fi }`, 10, ""},
	// Intermediate states of atomic sequences are not stored.
	{"atomic is one step", `byte x; active proctype p() { atomic { x = 1; x = 2; x = 3 } }`, 3, ""},
	{"atomic interleaving", `byte x, y; active proctype p() { atomic { x = 1; x = 2 } } active proctype q() { atomic { y = 1; y = 2 } }`, 7, ""},
	{"d_step is one step", `byte x; active proctype p() { d_step { x = 1; x = 2; x = 3 } }`, 3, ""},
	// The handshake's intermediate state is not stored.
	{"rendezvous", `chan c = [0] of { byte }; byte x; active proctype p() { c!5 } active proctype q() { c?x }`, 4, ""},
	{"buffered channel", `chan c = [1] of { byte }; byte x; active proctype p() { c!5 } active proctype q() { c?x }`, 5, ""},
	{"timeout", `byte x; active proctype p() { timeout -> x = 1 } active proctype q() { x == 7 }`, 0, state.KindInvalidEnd},
	// Inside an atomic sequence, each of two executable random receives
	// takes the message its own guard selected.
	{"random receives in atomic", `chan c = [3] of { byte }; byte got;
		init { c!1; c!2; atomic { got = 5; if :: c??2 -> got = 2 :: c??1 -> got = 1 fi; assert(got != 2 || c??[1]) } }`, 7, ""},
	{"end label", `byte x; active proctype p() { end: x == 1 }`, 1, ""},
	{"invalid end", `byte x; active proctype p() { x == 1 }`, 1, state.KindInvalidEnd},
	{"assertion", `byte x; active proctype p() { x = 3; assert(x == 2) }`, 0, state.KindAssertion},
	{"index out of bounds", `byte a[2], i; active proctype p() { i = 2; a[i] = 1 }`, 0, state.KindRuntime},
	{"division by zero", `byte x, y; active proctype p() { x = 10 / y }`, 0, state.KindRuntime},
	{"uninitialized channel", `chan c; chan d = [1] of { byte }; active proctype p() { c!1 }`, 0, state.KindRuntime},
	{"run and end", `byte x; proctype q() { x++ } init { run q(); run q() }`, 12, ""},
	{"byte wraps", `byte x = 255; active proctype p() { x++; assert(x == 0) }`, 4, ""},
	{"D_proctype must be deterministic", `byte x; D_proctype p() { do :: x < 3 -> x++ :: x > 1 -> x = 0 od } init { run p() }`, 0, state.KindRuntime},
	// A provided clause also guards the receiving end of a rendezvous.
	{"provided clause blocks a rendezvous", `chan c = [0] of { byte }; byte y; active proctype r() provided (y > 0) { c?_ } active proctype s() { c!1 }`, 1, state.KindInvalidEnd},
	{"provided clause lets a rendezvous through", `chan c = [0] of { byte }; byte y = 1; active proctype r() provided (y > 0) { c?_ } active proctype s() { c!1 }`, 4, ""},
	{"unless escapes", `byte x; active proctype p() { { do :: x < 5 -> x++ od } unless { x == 3 }; x = 0 }`, 10, ""},
}

// A run-time error in a provided clause is one, whether the process moves
// on its own or completes a rendezvous. (Not among semanticsCases: the
// failure has no statement for Explain to show.)
func TestProvidedFails(t *testing.T) {
	for _, src := range []string{
		`byte y; active proctype p() provided (10 / y > 0) { skip }`,
		`chan c = [0] of { byte }; byte y; active proctype r() provided (10 / y > 0) { c?_ } active proctype s() { c!1 }`,
	} {
		s := explore(compileSrc(t, src, nil), 0)
		if s.kind != state.KindRuntime || !strings.Contains(s.msg, "division by zero") {
			t.Errorf("%s: verdict %q (%s), want a division by zero", src, s.kind, s.msg)
		}
	}
}

func TestSemantics(t *testing.T) {
	for _, c := range semanticsCases {
		t.Run(c.name, func(t *testing.T) {
			m := compileSrc(t, c.src, nil)
			s := explore(m, 0)
			if s.kind != c.kind {
				t.Fatalf("verdict %q (%s), want %q", s.kind, s.msg, c.kind)
			}
			if c.kind == "" && s.states != c.states {
				t.Errorf("%d states, want %d", s.states, c.states)
			}
		})
	}
}
