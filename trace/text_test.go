package trace

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func sampleReport() *Report {
	return &Report{
		Model: "phil.pml",
		Verdicts: []Result{{
			Property: "safety", Verdict: Violated, Kind: "assertion",
			Counterexample: &Counterexample{
				Kind: "assertion", Message: "assertion violated (x == 1)",
				Initial: []Var{{"x", "0"}, {"q", "[]"}},
				Steps: []Step{
					{Num: 1, Pid: 0, Proc: "P", File: "phil.pml", Line: 4, Stmt: "q!ping,1",
						Events:  []Event{{Type: "send", Chan: "q", Msg: "ping,1", Partner: 1}},
						Changes: []Var{{"q", "[ping,1]"}}},
					{Num: 2, Pid: 1, Proc: "Q", File: "phil.pml", Line: 9, Stmt: "x = 2", Changes: []Var{{"x", "2"}}},
					{Num: 3, Pid: 1, Proc: "Q", File: "phil.pml", Line: 10, Stmt: "assert(x == 1)", Note: "assertion violated (x == 1)"},
				},
				LoopStart: -1,
				Final:     []Var{{"x", "2"}, {"q", "[ping,1]"}},
			},
		}},
		Stats: Stats{States: 1234, Matched: 56, Transitions: 1289, Depth: 17, VectorBytes: 40,
			StoreBytes: 65536, BytesPerState: 53.1, MemoryBytes: 9 << 20, Seconds: 0.25, StatesPerSec: 4936},
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	WriteText(&b, sampleReport())
	out := b.String()
	for _, want := range []string{
		"State-vector 40 byte, depth reached 17 (search not completed)\n",
		"        1234 states, stored\n",
		"          56 states, matched\n",
		"        1289 transitions\n",
		"       0.066 state store (53.1 bytes per state)\n",
		"       9.437 total memory usage\n",
		"elapsed time 0.25 seconds, 4936 states/second\n",
		"safety: violated (assertion)\n",
		"counterexample: assertion: assertion violated (x == 1) (3 steps)\ninitial state:\n\tx = 0\n\tq = []\n",
		"  1: P(0) phil.pml:4 [q!ping,1]\n\tq!ping,1 (to pid 1)\n\tq = [ping,1]\n",
		"  3: Q(1) phil.pml:10 [assert(x == 1)]\n\t=> assertion violated (x == 1)\nfinal state:\n\tx = 2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// The verdict comes after the statistics and before the counterexample.
	if s, v, c := strings.Index(out, "states, stored"), strings.Index(out, "safety: violated"), strings.Index(out, "counterexample:"); !(s < v && v < c) {
		t.Errorf("order: stats %d, verdict %d, counterexample %d", s, v, c)
	}
}

// TestWriteTextMerging checks that the text report says for which
// properties statement merging ran when it ran for some only.
func TestWriteTextMerging(t *testing.T) {
	on, off := &Stats{States: 5, Merging: true}, &Stats{States: 7}
	cases := []struct {
		verdicts []Result
		want     string
	}{
		{[]Result{{Property: "safety", Stats: on}, {Property: "p", Stats: on}}, "statement merging: on\n"},
		{[]Result{{Property: "safety", Stats: on}, {Property: "p", Stats: off}, {Property: "q", Stats: on}}, "statement merging: on for safety, q; off for p\n"},
		{[]Result{{Property: "p", Stats: off}}, ""},
	}
	for _, c := range cases {
		r := &Report{Verdicts: c.verdicts}
		for _, v := range c.verdicts {
			r.Stats.Add(*v.Stats)
		}
		var b bytes.Buffer
		WriteText(&b, r)
		out := b.String()
		if c.want == "" {
			if strings.Contains(out, "merging") {
				t.Errorf("merging reported without merging:\n%s", out)
			}
			continue
		}
		if !strings.Contains(out, c.want) {
			t.Errorf("missing %q in\n%s", c.want, out)
		}
	}
}

func TestWriteLasso(t *testing.T) {
	c := &Counterexample{Kind: "acceptance cycle", LoopStart: 1, Steps: []Step{
		{Num: 1, Pid: -1, Proc: "r1", Multiplicity: 3}, {Num: 2, Pid: 2, Proc: "p"}, {Num: 3, Pid: 2, Proc: "p"}},
		Params: map[string]int64{"n": 4, "f": 1}}
	var b bytes.Buffer
	WriteCounterexample(&b, c)
	want := "counterexample: acceptance cycle (3 steps)\nparameters: f=1, n=4\n  1: r1 x 3\n<<<<< START OF CYCLE >>>>>\n  2: p(2)\n  3: p(2)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestStatsOfOtherEngines(t *testing.T) {
	var b bytes.Buffer
	WriteStats(&b, &Stats{Seconds: 1.5, Complete: true, Extra: []Figure{{"schemas", 12}, {"SMT calls", 340}}})
	want := "          12 schemas\n         340 SMT calls\nelapsed time 1.5 seconds\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestReportRoundTrip(t *testing.T) {
	var b bytes.Buffer
	rep := sampleReport()
	if err := WriteJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	got, err := ParseReport("r.json", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var t1, t2 bytes.Buffer
	WriteText(&t1, rep)
	WriteText(&t2, got)
	if t1.String() != t2.String() {
		t.Errorf("round trip changed the report:\n%s\n---\n%s", t1.String(), t2.String())
	}
}

func TestParseReportErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\n  \"verdicts\": [\n    {\"verdict\": 3}]}", "r.json:3:17: "},
		{"{\n  \"model\": \"m\",\n  oops}", "r.json:3:3: "},
		{"{\"model\": \"m\"}", "r.json:1:1: expected an ftmc report with \"verdicts\""},
		{"", "r.json:1:1: "},
		{"{\"format\": 2, \"verdicts\": []}", "r.json:1:12: "},
	} {
		_, err := ParseReport("r.json", []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseReport(%q) = %v, want prefix %q", c.in, err, c.want)
		}
	}
}

// A format from the input that an error quotes is clipped to 40
// characters.
func TestParseReportClipsNames(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	_, err := ParseReport("r.json", []byte(`{"verdicts": [], "format": "`+long+`"}`))
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), `"`+long[:40]+`..."`) {
		t.Errorf("got %d bytes: %.200v", len(fmt.Sprint(err)), err)
	}
}

// WriteJSON writes the format first, whatever the report says.
func TestWriteJSONFormatFirst(t *testing.T) {
	for _, f := range []string{"", "ftmc-report/0", FormatVersion} {
		rep := sampleReport()
		rep.Format = f
		var b bytes.Buffer
		if err := WriteJSON(&b, rep); err != nil {
			t.Fatal(err)
		}
		if want := "{\n  \"format\": \"ftmc-report/1\",\n  \"model\": "; !strings.HasPrefix(b.String(), want) {
			t.Errorf("Format %q: report begins %.60q, want %q", f, b.String(), want)
		}
		if rep.Format != f {
			t.Errorf("WriteJSON changed the report's Format to %q", rep.Format)
		}
	}
}

// A reader ignores the fields it does not know, reads a report without a
// format (older files) and refuses another major version, saying where in
// one line.
func TestParseReportFormat(t *testing.T) {
	const body = `"model": "m", "verdicts": [{"property": "p", "verdict": "holds", "formula": "[]p", "later": {"x": [1]}}], "stats": {"states": 1, "new": true}, "also_new": "x"}`
	for _, f := range []string{"", `"format": "ftmc-report/1", `, `"format": "ftmc-report/1.4", `} {
		rep, err := ParseReport("r.json", []byte("{"+f+body))
		if err != nil {
			t.Errorf("format %q: %v", f, err)
			continue
		}
		if len(rep.Verdicts) != 1 || rep.Verdicts[0].Formula != "[]p" || rep.Stats.States != 1 {
			t.Errorf("format %q: read %+v", f, rep)
		}
	}
	for _, tc := range []struct{ format, want string }{
		{"ftmc-report/2", `r.json:2:13: report format "ftmc-report/2" is not one this ftmc reads (ftmc-report/1)`},
		{"ftmc-report/10.1", `r.json:2:13: report format "ftmc-report/10.1" is not one`},
		{"other/1", `r.json:2:13: expected an ftmc report (format "ftmc-report/1"), found format "other/1"`},
	} {
		_, err := ParseReport("r.json", []byte("{\"model\": \"m\",\n  \"format\": \""+tc.format+"\", "+body[14:]))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("format %q: got %v, want one line beginning %q", tc.format, err, tc.want)
		}
	}
}

func FuzzParseReport(f *testing.F) {
	var b bytes.Buffer
	WriteJSON(&b, sampleReport())
	f.Add(b.Bytes())
	f.Add([]byte(`{"verdicts":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := ParseReport("f.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json:") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		var out bytes.Buffer
		WriteText(&out, rep)
	})
}

// A send the failing step did not make says so, and why.
func TestEventTextFailedSend(t *testing.T) {
	for _, tc := range []struct {
		ev   Event
		want string
	}{
		{Event{Type: "send", Chan: "aya[2]", Msg: "ARE_YOU_ALIVE", Partner: 4, Failed: true, Text: "full"}, "aya[2]!ARE_YOU_ALIVE (to pid 4) (not sent: aya[2] full)"},
		{Event{Type: "send", Chan: "c", Msg: "1", Partner: -1, Failed: true}, "c!1 (not sent)"},
		{Event{Type: "send", Chan: "c", Msg: "1", Partner: 2}, "c!1 (to pid 2)"},
		{Event{Type: "send", Chan: "c", Msg: "1", Partner: 2, Dropped: true}, "c!1 (to pid 2) (dropped)"},
		{Event{Type: "move", Msg: "r1", From: "V0", To: "SE", Partner: -1}, "* r1: V0 -> SE"},
	} {
		if got := eventText(tc.ev); got != tc.want {
			t.Errorf("eventText(%+v) = %q, want %q", tc.ev, got, tc.want)
		}
	}
}

// A report keeps its counterexample's processes and the steps' rules and
// moves through JSON.
func TestReportRoundTripProcesses(t *testing.T) {
	cx := taRun()
	var b bytes.Buffer
	if err := WriteJSON(&b, &Report{Model: "st.ta", Verdicts: []Result{{Property: "p", Verdict: Violated, Counterexample: cx}}}); err != nil {
		t.Fatal(err)
	}
	rep, err := ParseReport("r.json", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Verdicts[0].Counterexample
	if fmt.Sprintf("%+v", got.Processes) != fmt.Sprintf("%+v", cx.Processes) || fmt.Sprintf("%+v", got.Steps) != fmt.Sprintf("%+v", cx.Steps) {
		t.Errorf("round trip:\n%+v\n%+v\nwant\n%+v\n%+v", got.Processes, got.Steps, cx.Processes, cx.Steps)
	}
}

// TestStatsAdd: counts and times add up, sizes and depths are the
// largest, and the sum is complete only when every part is.
func TestStatsAdd(t *testing.T) {
	s := Stats{Complete: true}
	s.Add(Stats{States: 10, Transitions: 20, Matched: 1, Expanded: 9, Seconds: 1, MemoryBytes: 100, Depth: 5, VectorBytes: 8, StoreBytes: 50, Complete: true})
	s.Add(Stats{States: 30, Transitions: 40, Matched: 2, Expanded: 3, Seconds: 3, MemoryBytes: 70, Depth: 7, VectorBytes: 4, StoreBytes: 60, Complete: false})
	want := Stats{States: 40, Transitions: 60, Matched: 3, Expanded: 12, Seconds: 4, MemoryBytes: 100, Depth: 7, VectorBytes: 8, StoreBytes: 60, StatesPerSec: 10, Complete: false}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("sum %+v\nwant %+v", s, want)
	}
}
