package spin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/state"
	"ftmc/trace"
)

const holdsOut = `
(Spin Version 6.5.2 -- 6 December 2019)

Full statespace search for:
	never claim         	- (none specified)
	assertion violations	+
	cycle checks       	- (disabled by -DSAFETY)
	invalid end states	+

State-vector 20 byte, depth reached 2687015, errors: 0
  5308416 states, stored
  5308417 states, matched
 10616833 transitions (= stored+matched)
        0 atomic steps
hash conflicts:   1020881 (resolved)

Stats on memory usage (in Megabytes):
  202.500	equivalent memory usage for states (stored*(State-vector + overhead))
  121.795	actual memory usage for states (compression: 60.15%)
         	state-vector as stored = 4 byte + 20 byte overhead
  128.000	memory used for hash table (-w24)
  457.764	memory used for DFS stack (-m10000000)
  707.443	total actual memory usage

pan: elapsed time 3.54 seconds
pan: rate 1499552.5 states/second
`

const assertOut = `pan:1: assertion violated (x!=20) (at depth 41)
pan: wrote a.pml.trail

(Spin Version 6.5.2 -- 6 December 2019)
Warning: Search not completed

State-vector 12 byte, depth reached 41, errors: 1
       42 states, stored
        0 states, matched
       42 transitions (= stored+matched)
        0 atomic steps
hash conflicts:         0 (resolved)

  173.972	total actual memory usage

pan: elapsed time 0 seconds
`

const truncOut = `error: max search depth too small

(Spin Version 6.5.2 -- 6 December 2019)

State-vector 12 byte, depth reached 9, errors: 0
       10 states, stored
        1 states, matched
       11 transitions (= stored+matched)
        0 atomic steps
  128.195	total actual memory usage

pan: elapsed time 0 seconds
`

const nestedOut = `pan:1: acceptance cycle (at depth 8)
Warning: Search not completed
State-vector 28 byte, depth reached 15, errors: 1
       14 states, stored (20 visited)
       10 states, matched
       30 transitions (= visited+matched)
        0 atomic steps
`

const bigOut = `State-vector 20 byte, depth reached 12, errors: 0
1.2345679e+08 states, stored
        0 states, matched
1.2345679e+08 transitions (= stored+matched)
`

const indexOut = `pan:1: assertion violated - invalid array index (at depth 10)
Warning: Search not completed
State-vector 20 byte, depth reached 10, errors: 1
       11 states, stored
`

const vectorOut = `pan: error, VECTORSZ too small, recompile pan.c with -DVECTORSZ=N with N>1028
pan:1: aborting (at depth 505)
Warning: Search not completed
State-vector 1028 byte, depth reached 505, errors: 1
      506 states, stored
`

const vectorOut2 = `pan:1: VECTORSZ is too small, edit pan.h (at depth 4281)
pan: wrote p108.pml.trail
Warning: Search not completed
State-vector 1020 byte, depth reached 4281, errors: 1
     4282 states, stored
`

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, out         string
		verdict           trace.Verdict
		kind, msg         string
		complete          bool
		states, visited   int64
		matched, trans    int64
		depth             int64
		vector, errors    int
		memory, seconds   float64
		reasonMentions    string
		messageMentionsOK bool
	}{
		{name: "holds", out: holdsOut, verdict: trace.Holds, complete: true, states: 5308416, visited: 5308416,
			matched: 5308417, trans: 10616833, depth: 2687015, vector: 20, memory: 707.443, seconds: 3.54},
		{name: "assertion", out: assertOut, verdict: trace.Violated, kind: state.KindAssertion,
			msg: "assertion violated (x!=20)", states: 42, visited: 42, trans: 42, depth: 41, vector: 12, errors: 1, memory: 173.972},
		{name: "truncated", out: truncOut, verdict: trace.Unknown, states: 10, visited: 10, matched: 1, trans: 11,
			depth: 9, vector: 12, memory: 128.195, reasonMentions: "depth"},
		{name: "nested", out: nestedOut, verdict: trace.Violated, kind: state.KindAcceptCycle, msg: "acceptance cycle",
			states: 14, visited: 20, matched: 10, trans: 30, depth: 15, vector: 28, errors: 1},
		{name: "big", out: bigOut, verdict: trace.Holds, complete: true, states: 123456790, visited: 123456790,
			trans: 123456790, depth: 12, vector: 20},
		{name: "index", out: indexOut, verdict: trace.Violated, kind: state.KindRuntime,
			msg: "assertion violated - invalid array index", states: 11, visited: 11, depth: 10, vector: 20, errors: 1},
		{name: "vector", out: vectorOut, verdict: trace.Unknown, states: 506, visited: 506, depth: 505, vector: 1028,
			errors: 1, reasonMentions: "VECTORSZ"},
		{name: "vector2", out: vectorOut2, verdict: trace.Unknown, states: 4282, visited: 4282, depth: 4281, vector: 1020,
			errors: 1, reasonMentions: "VECTORSZ"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Parse(c.out)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != c.verdict || r.Kind != c.kind || r.Message != c.msg || r.Complete != c.complete {
				t.Errorf("got verdict %q kind %q message %q complete %v, want %q %q %q %v",
					r.Verdict, r.Kind, r.Message, r.Complete, c.verdict, c.kind, c.msg, c.complete)
			}
			if r.States != c.states || r.Visited != c.visited || r.Matched != c.matched || r.Transitions != c.trans || r.Depth != c.depth {
				t.Errorf("got states %d visited %d matched %d transitions %d depth %d, want %d %d %d %d %d",
					r.States, r.Visited, r.Matched, r.Transitions, r.Depth, c.states, c.visited, c.matched, c.trans, c.depth)
			}
			if r.VectorBytes != c.vector || r.Errors != c.errors || r.MemoryMB != c.memory || r.Seconds != c.seconds {
				t.Errorf("got vector %d errors %d memory %g seconds %g, want %d %d %g %g",
					r.VectorBytes, r.Errors, r.MemoryMB, r.Seconds, c.vector, c.errors, c.memory, c.seconds)
			}
			if !strings.Contains(r.Reason, c.reasonMentions) || (c.reasonMentions == "") != (r.Reason == "") {
				t.Errorf("reason %q, want one mentioning %q", r.Reason, c.reasonMentions)
			}
		})
	}
}

func TestParseRejectsGarbage(t *testing.T) {
	for _, out := range []string{"", "spin: error", "pan:1: assertion violated (x) (at depth 3)\n"} {
		if r, err := Parse(out); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", out, r)
		}
	}
	// Errors counted without a message line is inconsistent output.
	if _, err := Parse("State-vector 4 byte, depth reached 1, errors: 1\n"); err == nil {
		t.Error("Parse accepted errors without an error line")
	}
}

func TestCommands(t *testing.T) {
	o := Options{Defines: []string{"N=3", "X"}, Mode: NonProgress, Fair: true, LTL: "p1", HashBits: 20, CCOpt: "-O0"}
	if got := strings.Join(spinCommand("/m.pml", o), " "); got != "-a -o1 -o2 -o3 -DN=3 -DX /m.pml" {
		t.Errorf("spin %s", got)
	}
	if got := strings.Join(ccCommand(o, 0), " "); got != "-O0 -DNP -DNOREDUCE -o pan pan.c" {
		t.Errorf("cc %s", got)
	}
	if got := strings.Join(panCommand(o), " "); got != "-m1000000 -l -f -N p1 -w20 -n" {
		t.Errorf("pan %s", got)
	}
	o = Options{Mode: Acceptance, Optimize: true, Reduce: true, Formula: "![]p", Depth: 50}
	if got := strings.Join(spinCommand("m.pml", o), " "); got != "-a -f ![]p m.pml" {
		t.Errorf("spin %s", got)
	}
	if got := strings.Join(ccCommand(o, 4096), " "); got != "-O2 -DVECTORSZ=4096 -o pan pan.c" {
		t.Errorf("cc %s", got)
	}
	if got := strings.Join(panCommand(o), " "); got != "-m50 -a -n" {
		t.Errorf("pan %s", got)
	}
}

func needTools(t *testing.T) {
	t.Helper()
	testenv.NeedBinary(t, "spin")
	testenv.NeedBinary(t, "gcc")
}

// write creates files in a fresh directory and returns the path of the first.
func write(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i < len(files); i += 2 {
		if err := os.WriteFile(filepath.Join(dir, files[i]), []byte(files[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, files[0])
}

func TestRun(t *testing.T) {
	needTools(t)
	t.Parallel()
	counter := `
byte x;
active proctype p() {
	do
	:: x < LIMIT -> x++
	:: x == LIMIT -> break
	od;
	assert(x != 20)
}
`
	for _, c := range []struct {
		name    string
		files   []string
		opts    Options
		verdict trace.Verdict
		kind    string
		states  int64
		note    string // in SpinNotes
	}{
		{name: "holds", files: []string{"m.pml", counter}, opts: Options{Defines: []string{"LIMIT=10"}},
			verdict: trace.Holds, states: 24},
		{name: "assertion", files: []string{"m.pml", counter}, opts: Options{Defines: []string{"LIMIT=20"}},
			verdict: trace.Violated, kind: state.KindAssertion},
		{name: "depth", files: []string{"m.pml", counter}, opts: Options{Defines: []string{"LIMIT=10"}, Depth: 5},
			verdict: trace.Unknown},
		{name: "deadlock", files: []string{"m.pml", "chan c = [0] of {byte};\nactive proctype p() { c!1 }\n"},
			verdict: trace.Violated, kind: state.KindInvalidEnd},
		{name: "index", files: []string{"m.pml", "byte a[2]; byte i;\nactive proctype p() { do :: i < 3 -> a[i] = 1; i++ :: else -> break od }\n"},
			verdict: trace.Violated, kind: state.KindRuntime},
		{name: "include", files: []string{"m.pml", "#include \"inc.h\"\nactive proctype p() { assert(K == 7) }\n", "inc.h", "#define K 7\n"},
			verdict: trace.Holds, states: 3},
		{name: "vectorsize", files: []string{"m.pml", `
proctype q() { end: false }
init { byte i; do :: i < 200 -> run q(); i++ :: else -> break od }
`}, verdict: trace.Holds, states: 602},
		{name: "dubious", files: []string{"m.pml", "chan c = [1] of {byte};\nactive proctype p() { if :: c?1 :: else fi }\n"},
			verdict: trace.Holds, note: "dubious use of 'else'"},
		{name: "vectorsize-run", files: []string{"m.pml", `
proctype q() { chan d = [200] of { byte }; end: false }
init { byte i; do :: i < 12 -> run q(); i++ :: else -> break od }
`}, verdict: trace.Holds, states: 38},
		{name: "acceptance", files: []string{"m.pml", "byte x;\nactive proctype p() { do :: x < 3 -> x++ :: x == 3 -> x = 0 od }\n"},
			opts: Options{Mode: Acceptance, Formula: "!([]<>(x==3))"}, verdict: trace.Holds},
		{name: "acceptance-violated", files: []string{"m.pml", "byte x;\nactive proctype p() { do :: x < 3 -> x++ :: x == 3 -> x = 0 od }\n"},
			opts: Options{Mode: Acceptance, Formula: "!([]<>(x==4))"}, verdict: trace.Violated, kind: state.KindAcceptCycle},
		{name: "non-progress", files: []string{"m.pml", "byte x;\nactive proctype p() { do :: x < 3 -> x++ :: x == 3 -> x = 0 od }\n"},
			opts: Options{Mode: NonProgress}, verdict: trace.Violated, kind: state.KindNonProgress},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			model := write(t, c.files...)
			c.opts.CCOpt = "-O0"
			c.opts.HashBits = 18
			r, err := Run(context.Background(), model, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != c.verdict || r.Kind != c.kind {
				t.Fatalf("got %s, want %s (%s)\n%s", r, c.verdict, c.kind, r.Output)
			}
			if !strings.Contains(strings.Join(r.SpinNotes, "\n"), c.note) || (c.note == "") != (len(r.SpinNotes) == 0) {
				t.Errorf("spin's notes %q, want one containing %q", r.SpinNotes, c.note)
			}
			if c.states != 0 && r.States != c.states {
				t.Errorf("got %d states, want %d", r.States, c.states)
			}
			if r.Complete != (c.verdict == trace.Holds) {
				t.Errorf("complete = %v for verdict %s", r.Complete, r.Verdict)
			}
			// Nothing is left beside the model.
			entries, _ := os.ReadDir(filepath.Dir(model))
			if len(entries) != len(c.files)/2 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("files beside the model after the run: %v", names)
			}
		})
	}
}

func TestRunRejected(t *testing.T) {
	needTools(t)
	t.Parallel()
	model := write(t, "bad.pml", "active proctype p() { x = 1 }\n")
	_, err := Run(context.Background(), model, Options{CCOpt: "-O0"})
	var e *Error
	if !errors.As(err, &e) || e.Stage != "spin" || !strings.Contains(e.Output, "undeclared variable") {
		t.Fatalf("got %v, want a spin error naming the undeclared variable", err)
	}
	if _, err := Run(context.Background(), filepath.Join(t.TempDir(), "missing.pml"), Options{}); err == nil {
		t.Error("Run on a missing file succeeded")
	}
}

func TestRunCancelled(t *testing.T) {
	needTools(t)
	t.Parallel()
	model := write(t, "m.pml", "active proctype p() { skip }\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := Run(ctx, model, Options{}); err == nil {
		t.Fatalf("a cancelled run gave %v", r)
	}
}

// FuzzParse checks that no pan output makes Parse panic, and that what it
// returns is consistent: holds only for a complete search, a kind only for
// a violation.
func FuzzParse(f *testing.F) {
	for _, s := range []string{holdsOut, assertOut, truncOut, nestedOut, bigOut, indexOut, vectorOut} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		r, err := Parse(out)
		if err != nil {
			return
		}
		if (r.Verdict == trace.Holds) != r.Complete {
			t.Errorf("verdict %s with complete=%v", r.Verdict, r.Complete)
		}
		if (r.Verdict == trace.Violated) != (r.Kind != "") {
			t.Errorf("verdict %s with kind %q", r.Verdict, r.Kind)
		}
		if r.Verdict == trace.Unknown && r.Reason == "" {
			t.Error("unknown without a reason")
		}
	})
}
