package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/trace"
)

// traceReport is a stored report of a two-process run that deadlocks.
func traceReport(t *testing.T) string {
	send := func(ch, m string) trace.Event { return trace.Event{Type: "send", Chan: ch, Msg: m, Partner: -1} }
	recv := func(ch, m string) trace.Event { return trace.Event{Type: "recv", Chan: ch, Msg: m, Partner: -1} }
	cx := &trace.Counterexample{Kind: "invalid end state", LoopStart: -1, Steps: []trace.Step{
		{Num: 1, Pid: 1, Proc: "Task1", Group: "node 0", Stmt: "a!PING", Events: []trace.Event{send("a", "PING")}},
		{Num: 2, Pid: 3, Proc: "Task2", Group: "node 1", Stmt: "a?m", Events: []trace.Event{recv("a", "PING"), send("b", "PONG")}},
		{Num: 3, Pid: 3, Proc: "Task2", Group: "node 1", Stmt: "b!PONG", Events: []trace.Event{send("b", "PONG"), {Type: "local", Text: "MSC: stuck\n", Partner: -1}}},
	}}
	rep := &trace.Report{Model: "pingpong.pml", Defines: map[string]string{"CHAN": "B", "BUF": "1"},
		Verdicts: []trace.Result{
			{Property: "liveness", Verdict: trace.Holds},
			{Property: "safety", Verdict: trace.Violated, Kind: "invalid end state", Counterexample: cx},
		},
		Stats: trace.Stats{States: 12, Transitions: 20, Complete: false}}
	path := filepath.Join(t.TempDir(), "r.json")
	var b bytes.Buffer
	if err := trace.WriteJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCmd(args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := run(&env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}, args)
	return stdout.String(), stderr.String(), code
}

func TestTraceMSC(t *testing.T) {
	path := traceReport(t)
	svg := filepath.Join(t.TempDir(), "out.svg")
	out, errs, code := runCmd("trace", path, "--msc", svg, "--msc-text")
	if code != 0 {
		t.Fatalf("exit code %d: %s", code, errs)
	}
	for _, want := range []string{"pingpong.pml BUF=1 CHAN=B: safety: violated (invalid end state)", "node 0", "node 1", "#1 PING", "*#1", "[stuck]", "2 messages in flight"} {
		if !strings.Contains(out, want) {
			t.Errorf("--msc-text output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	texts := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed: %v", svg, err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "text" {
			texts++
		}
	}
	if texts == 0 || !bytes.Contains(data, []byte("PONG (in flight in b)")) {
		t.Errorf("the chart lacks its labels:\n%s", data)
	}
}

func TestTraceText(t *testing.T) {
	path := traceReport(t)
	out, _, code := runCmd("trace", path)
	if code != 0 || !strings.Contains(out, "safety: violated (invalid end state)") || !strings.Contains(out, "counterexample: invalid end state (3 steps)") {
		t.Errorf("trace --text: code %d\n%s", code, out)
	}
	out, _, code = runCmd("trace", path, "--text", "--property", "safety")
	if code != 0 || !strings.HasPrefix(out, "safety: violated") {
		t.Errorf("trace --text --property: code %d\n%s", code, out)
	}
}

// TestTraceOutputsCombine: every output asked for is written, whatever the
// other flags; none is dropped.
func TestTraceOutputsCombine(t *testing.T) {
	path := traceReport(t)
	dir := t.TempDir()
	const report, chart = "counterexample: invalid end state (3 steps)", "2 messages in flight"
	for _, tc := range []struct {
		args        []string
		text, chart bool // on stdout
		svg         bool
	}{
		{[]string{"--text", "--msc", "y.svg"}, true, false, true},
		{[]string{"--msc", "y.svg", "--text"}, true, false, true},
		{[]string{"--msc-text", "--text"}, true, true, false},
		{[]string{"--text", "--msc-text", "--msc", "y.svg"}, true, true, true},
		{[]string{"--text", "--property", "safety", "--msc-text"}, true, true, false},
		{[]string{"--msc", "y.svg", "--msc-text"}, false, true, true},
	} {
		svg := filepath.Join(dir, "y.svg")
		os.Remove(svg)
		args := []string{"trace", path}
		for _, a := range tc.args {
			if a == "y.svg" {
				a = svg
			}
			args = append(args, a)
		}
		out, errs, code := runCmd(args...)
		_, err := os.Stat(svg)
		if code != 0 || strings.Contains(out, report) != tc.text || strings.Contains(out, chart) != tc.chart || (err == nil) != tc.svg {
			t.Errorf("ftmc trace %s: exit %d, text %v, chart %v, svg %v; want 0, %v, %v, %v\n%s%s", strings.Join(tc.args, " "), code,
				strings.Contains(out, report), strings.Contains(out, chart), err == nil, tc.text, tc.chart, tc.svg, out, errs)
		}
		if tc.text && tc.chart && strings.Index(out, report) > strings.Index(out, chart) {
			t.Errorf("ftmc trace %s: the chart comes before the text:\n%s", strings.Join(tc.args, " "), out)
		}
	}
	// A chart of a report without a counterexample is an error, after the
	// text.
	none := filepath.Join(dir, "none.json")
	os.WriteFile(none, []byte(`{"model":"m","verdicts":[{"property":"p","verdict":"holds"}],"stats":{"states":1,"transitions":0,"seconds":0,"memory_bytes":0,"complete":true}}`), 0o644)
	out, errs, code := runCmd("trace", none, "--text", "--msc", filepath.Join(dir, "n.svg"))
	if code != trace.ExitUsage || !strings.Contains(out, "p: holds") || !strings.Contains(errs, "no counterexample") {
		t.Errorf("no counterexample: exit %d, stdout %q, stderr %q; want 2, the text and why no chart", code, out, errs)
	}
}

func TestTraceBadInput(t *testing.T) {
	path := traceReport(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\n  \"verdicts\": [\n    {\"property\": 3}\n  ]\n}\n"), 0o644)
	none := filepath.Join(dir, "none.json")
	os.WriteFile(none, []byte(`{"model":"m","verdicts":[{"property":"p","verdict":"holds"}],"stats":{"states":1,"transitions":0,"seconds":0,"memory_bytes":0,"complete":true}}`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"trace"}, "usage"},
		{[]string{"trace", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"trace", bad, "--msc-text"}, "bad.json:3:"},
		{[]string{"trace", none, "--msc-text"}, "no counterexample"},
		{[]string{"trace", path, "--msc-text", "--property", "liveness"}, "liveness is holds and has no counterexample"},
		{[]string{"trace", path, "--msc-text", "--property", "nope"}, `no property "nope"`},
		{[]string{"trace", path, "--msc", filepath.Join(dir, "no", "such", "dir.svg")}, "no such file"},
		// A report that does not end is refused at the bound.
		{[]string{"trace", "/dev/zero"}, "/dev/zero: larger than 256 MB: too large for a report"},
	} {
		_, errs, code := runCmd(tc.args...)
		if code != trace.ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("ftmc %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, errs, tc.want)
		}
	}
}

// TestCheckMSC draws the counterexample of a search right away (ftmc check
// --msc, --msc-text), with the explicit engine's test model.
func TestCheckMSC(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "c.svg")
	code, out, errs := runExplicitArgs(t, &tokenRing{n: 3}, "--msc", svg, "--msc-text")
	if code != trace.ExitViolated {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "ring.go: safety: violated (invalid end state)") || !strings.Contains(out, ". stop") {
		t.Errorf("no text chart after the report:\n%s", out)
	}
	if data, err := os.ReadFile(svg); err != nil || !bytes.Contains(data, []byte("<svg")) {
		t.Errorf("no chart in %s: %v", svg, err)
	}
	// With --json the text chart goes to stderr, and stdout stays JSON.
	code, out, errs = runExplicitArgs(t, &tokenRing{n: 3}, "--json", "--msc-text")
	if code != trace.ExitViolated || !strings.Contains(errs, ". stop") {
		t.Errorf("--json --msc-text: exit %d, stderr:\n%s", code, errs)
	}
	if _, err := trace.ParseReport("stdout", []byte(out)); err != nil {
		t.Errorf("stdout is not a report: %v", err)
	}
	// Nothing to draw when the property holds: said, not an error.
	code, _, errs = runExplicitArgs(t, &tokenRing{n: 3, stopOK: true}, "--msc-text")
	if code != trace.ExitHolds || !strings.Contains(errs, "no counterexample") {
		t.Errorf("holds: exit %d, stderr %q", code, errs)
	}
}

// TestFailureDetectorChart draws the shortest deadlock of the
// weak-accuracy model with bounded channels that let an I_AM_ALIVE
// overtake an ARE_YOU_ALIVE (the paper's Fig. 13) and checks what a reader
// follows the story by: one lifeline per task, Task1 and Task2 of a node
// side by side under the node's name, every received message an arrow from
// a send to a later receive on another lifeline, the crash, the suspicions
// and the blocked senders as boxes, the deadlock at the bottom, and nothing
// drawn over anything else.
func TestFailureDetectorChart(t *testing.T) {
	model := filepath.Join(testenv.RepoRoot(t), "examples", "failure-detectors", "weak-accuracy.pml")
	trail := filepath.Join(t.TempDir(), "fig13.json")
	_, errs, code := runCmd("check", model, "-D", "CHAN=B", "-D", "ORDER=SPLIT", "-D", "BUF=1", "--quiet", "--trail", trail)
	if code != trace.ExitViolated {
		t.Fatalf("exit %d, want a violation: %s", code, errs)
	}
	data, err := os.ReadFile(trail)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := trace.ParseReport(trail, data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pickCounterexample(rep, "")
	if err != nil {
		t.Fatal(err)
	}
	c := trace.NewChart(res.Counterexample, chartTitle(rep, res))
	if !c.Deadlock || !strings.HasPrefix(c.Verdict(), "invalid end state") {
		t.Errorf("not marked as a deadlock: %q", c.Verdict())
	}
	var heads []string
	for _, l := range c.Lifelines {
		heads = append(heads, trace.GroupLabel(c.Groups[l.Group].Name)+"/"+l.Proc)
	}
	if got, want := strings.Join(heads, " "), "node 0/Task1 node 0/Task2 node 1/Task1 node 1/Task2 node 2/Task1 node 2/Task2"; got != want {
		t.Errorf("lifelines %s, want %s", got, want)
	}
	received := 0
	for _, m := range c.Messages {
		if m.RecvRow < 0 {
			continue
		}
		received++
		if m.From < 0 || m.To < 0 || m.From == m.To || m.SendRow >= m.RecvRow {
			t.Errorf("message %d (%s) is not an arrow from a send to a later receive: %+v", m.Num, m.Label, m)
		}
		if c.Lifelines[m.To].Proc != "Task2" {
			t.Errorf("message %d (%s) received by %s, want a Task2", m.Num, m.Label, c.Lifelines[m.To].Proc)
		}
	}
	if received < 3 {
		t.Errorf("%d received messages, want at least 3", received)
	}
	boxes := map[string]bool{}
	blocked := 0
	for _, r := range c.Rows {
		if r.Kind == trace.RowLocal {
			boxes[r.Text] = true
			if strings.HasPrefix(r.Text, "blocked") {
				blocked++
			}
		}
	}
	for _, want := range []string{"crash", "timeout, suspect 1", "stop suspecting 2"} {
		if !boxes[want] {
			t.Errorf("no box %q among %v", want, boxes)
		}
	}
	if blocked == 0 {
		t.Errorf("no blocked sender among the boxes %v", boxes)
	}
	for _, p := range c.SVGProblems() {
		t.Error(p)
	}
}

// ftmc trace reads a report with fields it does not know and one without
// a format, and refuses another major version in one line with exit 2.
func TestTraceReportFormat(t *testing.T) {
	data, err := os.ReadFile(traceReport(t))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("{\n  \"format\": \""+trace.FormatVersion+"\",\n")) {
		t.Fatalf("the stored report does not begin with its format:\n%.80s", data)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	newer := write("newer.json", bytes.Replace(data, []byte(`"model": `), []byte(`"added": {"a": [1, 2]}, "model": `), 1))
	older := write("older.json", bytes.Replace(data, []byte(`"format": "`+trace.FormatVersion+`",`), nil, 1))
	for _, p := range []string{newer, older} {
		out, errs, code := runCmd("trace", p)
		if code != trace.ExitHolds || !strings.Contains(out, "invalid end state") {
			t.Errorf("ftmc trace %s: exit %d, stderr %q, stdout %q", filepath.Base(p), code, errs, out)
		}
	}
	v2 := write("v2.json", bytes.Replace(data, []byte(trace.FormatVersion), []byte("ftmc-report/2"), 1))
	out, errs, code := runCmd("trace", v2)
	want := "ftmc trace: " + v2 + `:2:13: report format "ftmc-report/2" is not one this ftmc reads (ftmc-report/1)`
	if code != trace.ExitUsage || out != "" || !strings.HasPrefix(errs, want) || strings.Count(errs, "\n") != 1 {
		t.Errorf("ftmc trace v2.json: exit %d, stdout %q, stderr %q; want 2 and one line beginning %q", code, out, errs, want)
	}
}

// svgChart is what a reader of a chart in SVG sees: the lifelines' heads
// (their labels), the local events' boxes and the failure's box, in the
// order drawn, and how many lifelines are drawn.
type svgChart struct {
	lifelines int
	heads     []string
	events    []string
	fails     []string
}

func readSVGChart(t *testing.T, path string) svgChart {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c svgChart
	d := xml.NewDecoder(bytes.NewReader(data))
	var box string // the fill of the last rectangle, which the next text labels
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range el.Attr {
			attr[a.Name.Local] = a.Value
		}
		switch el.Name.Local {
		case "line":
			if attr["stroke-dasharray"] == "4 3" {
				c.lifelines++
			}
		case "rect":
			box = attr["fill"]
		case "text":
			var text string
			if err := d.DecodeElement(&text, &el); err != nil {
				t.Fatal(err)
			}
			switch box {
			case "#f6f6f6":
				c.heads = append(c.heads, text)
			case "#fff7d6":
				c.events = append(c.events, text)
			case "#fde2e2":
				c.fails = append(c.fails, text)
			}
			box = ""
		}
	}
	return c
}

// TestTraceMSCThresholdAutomaton draws the counterexample of a threshold
// automaton's instance, from check's --msc and from the trail through ftmc
// trace: one lifeline for the automaton's processes, one event per step
// naming the rule with its source and target locations, the last step
// included, then the violation.
func TestTraceMSCThresholdAutomaton(t *testing.T) {
	dir := t.TempDir()
	trail, svg := filepath.Join(dir, "t.json"), filepath.Join(dir, "c.svg")
	model := filepath.Join("..", "..", "examples", "threshold", "st-byz-f-le-t1.ta")
	_, errs, code := runCmd("check", model, "--param", "N=4,T=1,F=2", "unforg", "--trail", trail, "--msc", svg)
	if code != trace.ExitViolated {
		t.Fatalf("check: exit %d: %s", code, errs)
	}
	svg2 := filepath.Join(dir, "t.svg")
	if _, errs, code := runCmd("trace", trail, "--msc", svg2); code != 0 {
		t.Fatalf("trace: exit %d: %s", code, errs)
	}
	paths := []string{svg, svg2}
	// The schedule ftmc verify finds for every instance, on a smaller
	// model: the same chart, with the steps that schedule takes.
	if _, err := exec.LookPath("z3"); err == nil {
		out, errs, code := runCmd("verify", model, "unforg", "--json")
		if code != trace.ExitViolated {
			t.Fatalf("verify: exit %d: %s", code, errs)
		}
		report, svg3 := filepath.Join(dir, "v.json"), filepath.Join(dir, "v.svg")
		if err := os.WriteFile(report, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, errs, code := runCmd("trace", report, "--msc", svg3); code != 0 {
			t.Fatalf("trace: exit %d: %s", code, errs)
		}
		rep, err := trace.ParseReport("stdout", []byte(out))
		if err != nil || rep.Verdicts[0].Counterexample == nil {
			t.Fatalf("verify: no counterexample (%v)", err)
		}
		c := readSVGChart(t, svg3)
		steps := rep.Verdicts[0].Counterexample.Steps
		if c.lifelines != 1 || len(c.heads) != 1 || c.heads[0] != "StByz processes" || len(c.events) != len(steps) {
			t.Fatalf("verify's schedule: %d lifelines, heads %q, events %q; want one, StByz processes, one event per step of %d", c.lifelines, c.heads, c.events, len(steps))
		}
		for i, s := range steps {
			if !strings.Contains(c.events[i], ": "+s.Stmt) {
				t.Errorf("verify's schedule: event %d is %q, want the rule of step %d [%s]", i, c.events[i], s.Num, s.Stmt)
			}
		}
	}
	for _, path := range paths {
		c := readSVGChart(t, path)
		if c.lifelines != 1 || len(c.heads) != 1 || c.heads[0] != "StByz processes" {
			t.Errorf("%s: %d lifelines, heads %q; want one, StByz processes", filepath.Base(path), c.lifelines, c.heads)
		}
		want := []string{"r1: V0 -> SE", "r2: V0 -> AC"}
		if strings.Join(c.events, "|") != strings.Join(want, "|") {
			t.Errorf("%s: events %q, want %q", filepath.Base(path), c.events, want)
		}
		if len(c.fails) == 0 || c.fails[0] != "invariant" {
			t.Errorf("%s: failure boxes %q, want invariant", filepath.Base(path), c.fails)
		}
	}
}

// TestTraceMSCMCMT draws the counterexample of an array-based system: one
// lifeline per process index, labelled with it as the transitions name
// it, and one event per step, the transition's name, on the lifeline of
// the process it is instantiated with, the last step included.
func TestTraceMSCMCMT(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	dir := t.TempDir()
	model := filepath.Join("..", "..", "examples", "mcmt", "lock_bug.cub")
	for _, extra := range [][]string{nil, {"--bounded", "2"}} {
		out, errs, code := runCmd(append([]string{"verify", model, "--json"}, extra...)...)
		if code != trace.ExitViolated {
			t.Fatalf("verify %q: exit %d: %s", extra, code, errs)
		}
		rep, err := trace.ParseReport("stdout", []byte(out))
		if err != nil {
			t.Fatal(err)
		}
		cx := rep.Verdicts[0].Counterexample
		if cx == nil || len(cx.Steps) == 0 {
			t.Fatalf("verify %q: no counterexample", extra)
		}
		report, svg := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.svg")
		if err := os.WriteFile(report, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, errs, code := runCmd("trace", report, "--msc", svg); code != 0 {
			t.Fatalf("trace: exit %d: %s", code, errs)
		}
		c := readSVGChart(t, svg)
		if c.lifelines != 2 || strings.Join(c.heads, ",") != "#0,#1" {
			t.Errorf("verify %q: %d lifelines, heads %q; want #0,#1", extra, c.lifelines, c.heads)
		}
		var want []string
		for _, s := range cx.Steps {
			want = append(want, strings.SplitN(s.Stmt, "(", 2)[0])
		}
		if strings.Join(c.events, ",") != strings.Join(want, ",") {
			t.Errorf("verify %q: events %q, want one per step %q", extra, c.events, want)
		}
		if len(c.fails) == 0 || c.fails[0] != "invariant" {
			t.Errorf("verify %q: failure boxes %q, want invariant", extra, c.fails)
		}
	}
}

// TestVerifyTrailMSC: ftmc verify saves the report (--trail) and draws the
// counterexample (--msc) as ftmc check does, for threshold automata and
// array-based systems, proved for every size or on an instance.
func TestVerifyTrailMSC(t *testing.T) {
	testenv.NeedBinary(t, "z3")
	ex := filepath.Join("..", "..", "examples")
	for _, args := range [][]string{
		{filepath.Join(ex, "threshold", "st-byz-f-le-t1.ta"), "unforg"},
		{filepath.Join(ex, "mcmt", "lock_bug.cub")},
		{filepath.Join(ex, "mcmt", "lock_bug.cub"), "--bounded", "2"},
	} {
		dir := t.TempDir()
		trail, svg := filepath.Join(dir, "t.json"), filepath.Join(dir, "c.svg")
		_, errs, code := runCmd(append([]string{"verify", "--trail", trail, "--msc", svg}, args...)...)
		if code != trace.ExitViolated {
			t.Errorf("verify %q: exit %d: %s", args, code, errs)
			continue
		}
		data, err := os.ReadFile(trail)
		if err != nil {
			t.Errorf("verify %q: no trail: %v", args, err)
			continue
		}
		rep, err := trace.ParseReport(trail, data)
		if err != nil || len(rep.Verdicts) == 0 || rep.Verdicts[0].Counterexample == nil {
			t.Errorf("verify %q: the trail has no counterexample (%v)", args, err)
			continue
		}
		c := readSVGChart(t, svg)
		if n := len(rep.Verdicts[0].Counterexample.Steps); c.lifelines == 0 || len(c.events) != n || len(c.fails) == 0 {
			t.Errorf("verify %q: chart with %d lifelines, events %q, failure %q; want one event per step of %d and the failure", args, c.lifelines, c.events, c.fails, n)
		}
	}
	// A trail that cannot be written is bad input, before the search.
	_, errs, code := runCmd("verify", "--trail", filepath.Join(t.TempDir(), "no", "t.json"), filepath.Join(ex, "mcmt", "lock_bug.cub"))
	if code != trace.ExitUsage || !strings.Contains(errs, "--trail") {
		t.Errorf("unwritable --trail: exit %d, stderr %q", code, errs)
	}
}
