package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
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
// (their labels, and what is written under them), the groups' names, the
// local events' boxes and the failure's box (and the band's first line),
// in the order drawn, how many
// lifelines are drawn, and the arrows of received messages (from and to
// lifeline labels) with the messages' labels.
type svgChart struct {
	lifelines int
	heads     []string
	notes     []string
	groups    []string
	events    []string
	fails     []string
	arrows    []string // "FROM -> TO", received messages, in the order sent
	labels    []string // the messages' labels, in the order sent
	eventsOn  []string // the lifeline label each event's box is centred on
	crossed   int      // messages dropped or not sent: dashed red lines
}

func readSVGChart(t *testing.T, path string) svgChart {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c svgChart
	d := xml.NewDecoder(bytes.NewReader(data))
	var box string // the fill of the last rectangle, which the next texts label
	var texts int  // texts since that rectangle
	var lifeX []float64
	type line struct{ x1, x2 float64 }
	var arrows []line
	var boxX float64 // the centre of the last rectangle
	var eventX []float64
	num := func(s string) float64 {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: %q is not a number", path, s)
		}
		return x
	}
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
			box = ""
			if attr["stroke-dasharray"] == "4 3" {
				c.lifelines++
				lifeX = append(lifeX, num(attr["x1"]))
			}
			if attr["marker-end"] == "url(#arrow)" {
				arrows = append(arrows, line{num(attr["x1"]), num(attr["x2"])})
			}
			if attr["stroke"] == "#c0392b" && attr["stroke-dasharray"] == "5 3" {
				c.crossed++
			}
		case "rect":
			box, texts = attr["fill"], 0
			boxX = num(attr["x"]) + num(attr["width"])/2
		case "text":
			var text string
			if err := d.DecodeElement(&text, &el); err != nil {
				t.Fatal(err)
			}
			texts++
			switch {
			case box == "#f6f6f6" && texts == 1:
				c.heads = append(c.heads, text)
			case box == "#f6f6f6" && texts == 2:
				c.notes = append(c.notes, text)
			case box == "#e8eef9":
				c.groups = append(c.groups, text)
			case box == "#fff7d6" && texts == 1:
				c.events = append(c.events, text)
				eventX = append(eventX, boxX)
			case box == "#fde2e2" && texts == 1:
				c.fails = append(c.fails, text)
			case attr["font-size"] == "11" && attr["stroke"] == "":
				c.labels = append(c.labels, text)
			}
		default:
			box = ""
		}
	}
	// An arrow goes from the lifeline at its start to the one at its end.
	head := func(x float64) string {
		best := -1
		for i, lx := range lifeX {
			if best < 0 || math.Abs(lx-x) < math.Abs(lifeX[best]-x) {
				best = i
			}
		}
		if best < 0 || best >= len(c.heads) {
			return "?"
		}
		return c.heads[best]
	}
	for _, a := range arrows {
		c.arrows = append(c.arrows, head(a.x1)+" -> "+head(a.x2))
	}
	for _, x := range eventX {
		c.eventsOn = append(c.eventsOn, head(x))
	}
	return c
}

// TestTraceMSCThresholdAutomaton draws the counterexample of a threshold
// automaton's instance, from check's --msc and from the trail through ftmc
// trace, and the schedule ftmc verify finds: the lifelines are the
// locations the run uses, under the automaton's processes, with how many
// processes each holds at the start (never a pid); each step is an arrow
// from the rule's source location to its target, labelled with the rule,
// the last step included, then the violation where it ends.
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
	// The instance has N - F = 2 correct processes, both in V0 (unforg's
	// premise: none in V1); the run moves one to SE, the other to AC.
	for _, path := range []string{svg, svg2} {
		c := readSVGChart(t, path)
		got := fmt.Sprintf("lifelines %d, heads %q, notes %q, groups %q, arrows %q, labels %q, events %q, fails %q",
			c.lifelines, c.heads, c.notes, c.groups, c.arrows, c.labels, c.events, c.fails)
		want := fmt.Sprintf("lifelines %d, heads %q, notes %q, groups %q, arrows %q, labels %q, events %q, fails %q",
			3, []string{"V0", "SE", "AC"}, []string{"2 at start", "0 at start", "0 at start"}, []string{"StByz processes"},
			[]string{"V0 -> SE", "V0 -> AC"}, []string{"r1", "r2"}, []string(nil), []string{"invariant", "invariant: unforg: reached !(AC == 0)"})
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", filepath.Base(path), got, want)
		}
	}
	// A lasso of the instance (check --param's search for a liveness
	// specification): its loop, a rule that stays in V0, is a box there.
	lasso := filepath.Join(dir, "l.svg")
	relay := filepath.Join("..", "..", "examples", "threshold", "st-byz-n-ge-3t.ta")
	if _, errs, code := runCmd("check", relay, "--param", "N=3,T=1,F=1", "relay", "--msc", lasso); code != trace.ExitViolated {
		t.Fatalf("check relay: exit %d: %s", code, errs)
	}
	c := readSVGChart(t, lasso)
	got := fmt.Sprintf("heads %q, notes %q, arrows %q, labels %q, events %q on %q", c.heads, c.notes, c.arrows, c.labels, c.events, c.eventsOn)
	want := fmt.Sprintf("heads %q, notes %q, arrows %q, labels %q, events %q on %q", []string{"V0", "V1", "SE", "AC"},
		[]string{"1 at start", "1 at start", "0 at start", "0 at start"}, []string{"V1 -> SE", "SE -> AC"}, []string{"r0", "r4"}, []string{"r5"}, []string{"V0"})
	if got != want {
		t.Errorf("relay's lasso:\n got %s\nwant %s", got, want)
	}

	// The schedule ftmc verify finds for every instance: an arrow per
	// step, from the rule's source to its target, with the rule's name
	// (and how many processes move, when more than one).
	testenv.NeedBinary(t, "z3")
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
	cx := rep.Verdicts[0].Counterexample
	var arrows, labels []string
	for _, s := range cx.Steps {
		arrows = append(arrows, s.Stmt)
		label := s.Rule
		if s.Multiplicity > 1 {
			label += fmt.Sprintf(" x %d", s.Multiplicity)
		}
		labels = append(labels, label)
	}
	c = readSVGChart(t, svg3)
	if len(cx.Steps) == 0 || strings.Join(c.arrows, "|") != strings.Join(arrows, "|") || strings.Join(c.labels, "|") != strings.Join(labels, "|") {
		t.Errorf("verify's schedule: arrows %q, labels %q; want one per step %q, %q", c.arrows, c.labels, arrows, labels)
	}
	if len(c.groups) != 1 || c.groups[0] != "StByz processes" || len(c.fails) == 0 || c.fails[0] != "invariant" {
		t.Errorf("verify's schedule: groups %q, failure %q; want StByz processes, invariant", c.groups, c.fails)
	}
	for i, h := range c.heads {
		if i >= len(c.notes) || !strings.HasSuffix(c.notes[i], " at start") {
			t.Errorf("verify's schedule: lifeline %s has notes %q, want its count at the start", h, c.notes)
		}
	}
}

// TestTraceMSCMCMT draws the counterexample of an array-based system: one
// lifeline per process index, labelled with it as the transitions name
// it (and nothing under it: no pid), and one event per step, the
// transition's name, on the lifeline of the process it is instantiated
// with, the last step included.
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
		// The run replayed from backward reachability, and the bounded
		// instance's, list the instance's process indexes.
		if fmt.Sprintf("%+v", cx.Processes) != "[{Pid:0 Name:#0 Role:index Group: Optional:false Count:0} {Pid:1 Name:#1 Role:index Group: Optional:false Count:0}]" {
			t.Errorf("verify: processes %+v, want #0 and #1", cx.Processes)
		}
		report, svg := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.svg")
		if err := os.WriteFile(report, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, errs, code := runCmd("trace", report, "--msc", svg); code != 0 {
			t.Fatalf("trace: exit %d: %s", code, errs)
		}
		c := readSVGChart(t, svg)
		if c.lifelines != 2 || strings.Join(c.heads, ",") != "#0,#1" || len(c.notes) != 0 {
			t.Errorf("verify %q: %d lifelines, heads %q, notes %q; want #0,#1 alone", extra, c.lifelines, c.heads, c.notes)
		}
		var want, on []string
		for _, s := range cx.Steps {
			want = append(want, strings.SplitN(s.Stmt, "(", 2)[0])
			on = append(on, fmt.Sprintf("#%d", s.Pid))
			if s.Rule != want[len(want)-1] {
				t.Errorf("verify %q: step %d fires %q, want its transition %q", extra, s.Num, s.Rule, want[len(want)-1])
			}
		}
		if strings.Join(c.events, ",") != strings.Join(want, ",") || strings.Join(c.eventsOn, ",") != strings.Join(on, ",") {
			t.Errorf("verify %q: events %q on %q, want one per step %q on %q", extra, c.events, c.eventsOn, want, on)
		}
		if s := strings.Join(on, ","); !strings.Contains(s, "#0") || !strings.Contains(s, "#1") {
			t.Errorf("verify %q: the steps are all on %s, want both processes to move", extra, s)
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
		// A step of these runs draws one event (a transition) or one
		// arrow (a rule moving processes).
		if n := len(rep.Verdicts[0].Counterexample.Steps); c.lifelines == 0 || len(c.events)+len(c.arrows) != n || len(c.fails) == 0 {
			t.Errorf("verify %q: chart with %d lifelines, events %q, arrows %q, failure %q; want one event or arrow per step of %d and the failure", args, c.lifelines, c.events, c.arrows, c.fails, n)
		}
	}
	// A trail that cannot be written is bad input, before the search.
	_, errs, code := runCmd("verify", "--trail", filepath.Join(t.TempDir(), "no", "t.json"), filepath.Join(ex, "mcmt", "lock_bug.cub"))
	if code != trace.ExitUsage || !strings.Contains(errs, "--trail") {
		t.Errorf("unwritable --trail: exit %d, stderr %q", code, errs)
	}
}

// ftmc trace draws the report of an earlier ftmc, whose counterexample
// lists no processes and whose front ends wrote a dropped message as a
// local event and a threshold automaton's step as an event of one
// lifeline "pid 0": from its steps, a lifeline for each process that
// takes a step that draws, the old events as boxes, no pid for a name
// that no other lifeline has.
func TestTraceOldReport(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(testenv.RepoRoot(t), "examples", "failure-detectors", "strong-accuracy.pml")
	trail, svg := filepath.Join(dir, "new.json"), filepath.Join(dir, "new.svg")
	_, errs, code := runCmd("check", model, "-D", "PROP=SA", "-D", "CHAN=I", "-D", "ORDER=FIFO", "-D", "BUF=1", "--quiet", "--trail", trail, "--msc", svg)
	if code != trace.ExitViolated {
		t.Fatalf("check: exit %d: %s", code, errs)
	}
	c := readSVGChart(t, svg)
	if c.lifelines != 6 || c.crossed != 2 {
		t.Fatalf("the new report's chart: %d lifelines, %d dropped messages; want 6 and 2", c.lifelines, c.crossed)
	}
	data, err := os.ReadFile(trail)
	if err != nil {
		t.Fatal(err)
	}
	// What an earlier ftmc wrote: no process list, a drop as a local
	// event.
	var rep map[string]any
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	cx := rep["verdicts"].([]any)[0].(map[string]any)["counterexample"].(map[string]any)
	if _, ok := cx["processes"]; !ok {
		t.Fatal("the new report lists no processes")
	}
	delete(cx, "processes")
	drops := 0
	for _, s := range cx["steps"].([]any) {
		evs, _ := s.(map[string]any)["events"].([]any)
		for _, e := range evs {
			ev := e.(map[string]any)
			if ev["dropped"] == true {
				drops++
				for k := range ev {
					delete(ev, k)
				}
				ev["type"], ev["partner"], ev["text"] = "local", -1, "drop I_AM_ALIVE to node 2"
			}
		}
	}
	if drops != 2 {
		t.Fatalf("%d drops in the report, want 2", drops)
	}
	old, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	oldReport, oldSVG := filepath.Join(dir, "old.json"), filepath.Join(dir, "old.svg")
	if err := os.WriteFile(oldReport, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCmd("trace", oldReport, "--msc", oldSVG); code != 0 {
		t.Fatalf("trace of the old report: exit %d: %s", code, errs)
	}
	c = readSVGChart(t, oldSVG)
	dropBoxes := 0
	for _, e := range c.events {
		if strings.HasPrefix(e, "drop ") {
			dropBoxes++
		}
	}
	// Node 0's tasks take no step that draws.
	if c.lifelines != 4 || c.crossed != 0 || dropBoxes != 2 {
		t.Errorf("the old report's chart: %d lifelines, %d dropped messages, events %q; want 4, none, two drop boxes", c.lifelines, c.crossed, c.events)
	}

	// A threshold automaton's schedule of an earlier ftmc.
	ta := `{"format": "ftmc-report/1", "model": "st.ta", "verdicts": [{"property": "unforg", "verdict": "violated", "counterexample":
	{"kind": "invariant", "loop_start": -1, "steps": [
	{"num": 1, "pid": 0, "proc": "StByz processes", "stmt": "V0 -> SE", "events": [{"type": "local", "partner": -1, "text": "r1: V0 -> SE"}]},
	{"num": 2, "pid": 0, "proc": "StByz processes", "stmt": "V0 -> AC", "events": [{"type": "local", "partner": -1, "text": "r2: V0 -> AC"}]}]}}],
	"stats": {"states": 1, "transitions": 0, "seconds": 0, "memory_bytes": 0, "complete": true}}`
	taReport, taSVG := filepath.Join(dir, "ta.json"), filepath.Join(dir, "ta.svg")
	if err := os.WriteFile(taReport, []byte(ta), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCmd("trace", taReport, "--msc", taSVG); code != 0 {
		t.Fatalf("trace of the old schedule: exit %d: %s", code, errs)
	}
	c = readSVGChart(t, taSVG)
	if strings.Join(c.heads, ",") != "StByz processes" || len(c.notes) != 0 || strings.Join(c.events, ",") != "r1: V0 -> SE,r2: V0 -> AC" {
		t.Errorf("the old schedule's chart: heads %q, notes %q, events %q; want StByz processes alone and its two rules", c.heads, c.notes, c.events)
	}
}
