package trace

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// ring builds a counterexample in the shape the failure-detector models
// produce: Task1 and Task2 of three nodes (pids 1..6, init is pid 0),
// process 1 crashes, and node 2's probes to node 0 pile up until Task1 of
// node 2 blocks on a full channel while holding the mutex (the paper's
// Fig. 10).
func ring() *Counterexample {
	task := func(node, k int) (int, string, string) {
		return 1 + 2*node + k, []string{"Task1", "Task2"}[k], string(rune('0' + node))
	}
	var steps []Step
	add := func(node, k int, stmt string, evs ...Event) {
		pid, proc, group := task(node, k)
		steps = append(steps, Step{Num: len(steps) + 1, Pid: pid, Proc: proc, Group: group, Stmt: stmt, Events: evs})
	}
	send := func(ch, msg string) Event { return Event{Type: "send", Chan: ch, Msg: msg, Partner: -1} }
	recv := func(ch, msg string) Event { return Event{Type: "recv", Chan: ch, Msg: msg, Partner: -1} }
	local := func(text string) Event { return Event{Type: "local", Text: "MSC: " + text + "\n", Partner: -1} }

	steps = append(steps, Step{Num: 1, Pid: 0, Proc: ":init:", Stmt: "run Task1(p)"}) // no events: not drawn
	add(1, 0, "crash", local("crash"))
	add(2, 0, "aya[1]!ARE_YOU_ALIVE", send("aya[1]", "ARE_YOU_ALIVE"))
	add(2, 0, "suspect", local("timeout, suspect 0"))
	add(0, 0, "aya[5]!ARE_YOU_ALIVE", send("aya[3]", "ARE_YOU_ALIVE")) // to process 1: consumed
	add(1, 1, "aya[3]?held[1]", recv("aya[3]", "ARE_YOU_ALIVE"))
	add(0, 0, "suspect", local("timeout, suspect 1"))
	add(0, 0, "aya[4]!ARE_YOU_ALIVE", send("aya[4]", "ARE_YOU_ALIVE"))
	add(2, 1, "aya[4]?held[2]", recv("aya[4]", "ARE_YOU_ALIVE"), send("iaa[0]", "I_AM_ALIVE"), local("stop suspecting 0"))
	add(2, 0, "aya[1]!ARE_YOU_ALIVE", send("aya[1]", "ARE_YOU_ALIVE"))
	add(0, 1, "iaa[0]?held[0]", recv("iaa[0]", "I_AM_ALIVE"))
	add(0, 1, "aya[1]?held[0]", recv("aya[1]", "ARE_YOU_ALIVE"), send("iaa[5]", "I_AM_ALIVE"))
	add(2, 0, "aya[1]!ARE_YOU_ALIVE", send("aya[1]", "ARE_YOU_ALIVE"))
	add(2, 1, "iaa[5]?held[2]", recv("iaa[5]", "I_AM_ALIVE"))
	add(2, 0, "aya[1]!ARE_YOU_ALIVE", send("aya[1]", "ARE_YOU_ALIVE"), Event{Type: "send", Chan: "aya[1]", Msg: "ARE_YOU_ALIVE", Partner: 2, Dropped: true})
	add(0, 0, "received", Event{Type: "local", Text: "dummy", Partner: -1})
	steps[len(steps)-1].Events = nil // a step without events
	return &Counterexample{Kind: "invalid end state", Steps: steps, LoopStart: -1}
}

func TestChartLifelinesGrouped(t *testing.T) {
	c := NewChart(ring(), "ring")
	var got []string
	for _, l := range c.Lifelines {
		got = append(got, GroupLabel(c.Groups[l.Group].Name)+"/"+l.Proc)
	}
	want := "node 0/Task1 node 0/Task2 node 1/Task1 node 1/Task2 node 2/Task1 node 2/Task2"
	if strings.Join(got, " ") != want {
		t.Errorf("lifelines = %v, want %s", got, want)
	}
	if len(c.Groups) != 3 {
		t.Fatalf("groups = %+v, want 3", c.Groups)
	}
	for i, g := range c.Groups {
		if g.Last-g.First != 1 || g.First != 2*i {
			t.Errorf("group %d = %+v, want lifelines %d..%d", i, g, 2*i, 2*i+1)
		}
	}
}

func TestChartMessagesMatched(t *testing.T) {
	c := NewChart(ring(), "ring")
	lineOf := map[int]int{}
	for i, l := range c.Lifelines {
		lineOf[l.Pid] = i
	}
	type arrow struct {
		from, to int // pids
		recv     bool
		label    string
	}
	pidOf := func(l int) int {
		if l < 0 {
			return -1
		}
		return c.Lifelines[l].Pid
	}
	var got []arrow
	for _, m := range c.Messages {
		got = append(got, arrow{pidOf(m.From), pidOf(m.To), m.RecvRow >= 0, m.Label})
	}
	want := []arrow{
		{5, 2, true, "ARE_YOU_ALIVE"},  // first probe of node 2: received by node 0's Task2 (oldest pending)
		{1, 4, true, "ARE_YOU_ALIVE"},  // to the crashed node, consumed
		{1, 6, true, "ARE_YOU_ALIVE"},  // node 0 probes node 2
		{6, 2, true, "I_AM_ALIVE"},     // node 2 answers
		{5, 2, false, "ARE_YOU_ALIVE"}, // second probe: still in the channel
		{2, 6, true, "I_AM_ALIVE"},     // node 0 answers the first probe
		{5, 2, false, "ARE_YOU_ALIVE"}, // third probe: in flight
		{5, 2, false, "ARE_YOU_ALIVE"}, // the fourth: in flight
		{5, 2, false, "ARE_YOU_ALIVE"}, // and the dropped one
	}
	if len(got) != len(want) {
		t.Fatalf("messages:\n got %+v\nwant %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d = %+v, want %+v", i+1, got[i], want[i])
		}
	}
	if !c.Messages[8].Dropped || c.Messages[7].Dropped {
		t.Errorf("dropped flags: %+v", c.Messages)
	}
	// Receives come after their sends.
	for _, m := range c.Messages {
		if m.RecvRow >= 0 && m.SendRow >= m.RecvRow {
			t.Errorf("message %d received at row %d before it is sent at %d", m.Num, m.RecvRow, m.SendRow)
		}
	}
	if n := c.inFlight(); n != 3 {
		t.Errorf("in flight = %d, want 3", n)
	}
}

func TestChartRows(t *testing.T) {
	c := NewChart(ring(), "ring")
	var locals []string
	steps := map[int]bool{}
	for _, r := range c.Rows {
		if r.Kind == RowLocal {
			locals = append(locals, r.Text)
		}
		if r.Kind == RowStmt {
			t.Errorf("row %+v: a model that marks local events gets no statement annotations", r)
		}
		steps[r.Step] = true
	}
	if want := "crash|timeout, suspect 0|timeout, suspect 1|stop suspecting 0"; strings.Join(locals, "|") != want {
		t.Errorf("local events = %q, want %q", strings.Join(locals, "|"), want)
	}
	if steps[1] {
		t.Errorf("the step of init, which has no lifeline, is drawn: %v", steps)
	}
	if len(c.Undrawn) != 1 || c.Undrawn[0].Step != 1 || c.Undrawn[0].Proc != ":init:" {
		t.Errorf("undrawn steps = %+v, want init's step 1", c.Undrawn)
	}
	// Step 16 draws nothing: a mark on its lifeline keeps its number.
	last := c.Rows[len(c.Rows)-1]
	if last.Step != 16 || last.Kind != RowQuiet || c.Lifelines[last.Lifeline].Pid != 1 {
		t.Errorf("last row %+v, want step 16 marked on pid 1", last)
	}
	if !c.Deadlock {
		t.Error("an invalid end state is not marked as a deadlock")
	}
}

func TestChartWithoutMarksAnnotatesStatements(t *testing.T) {
	cx := &Counterexample{Kind: "assertion", Message: "assertion violated (x < 2)", LoopStart: -1, Steps: []Step{
		{Num: 1, Pid: 0, Proc: "P", Stmt: "x = 1"},
		{Num: 2, Pid: 1, Proc: "Q", Stmt: "c!x", Events: []Event{{Type: "send", Chan: "c", Msg: "1", Partner: 0}}},
		{Num: 3, Pid: 0, Proc: "P", Stmt: "c?y", Events: []Event{{Type: "recv", Chan: "c", Msg: "1", Partner: -1}}},
		{Num: 4, Pid: 0, Proc: "P", Stmt: "assert(x < 2)", Note: "assertion violated (x < 2)"},
	}}
	c := NewChart(cx, "")
	var kinds []RowKind
	for _, r := range c.Rows {
		kinds = append(kinds, r.Kind)
	}
	want := []RowKind{RowStmt, RowSend, RowRecv, RowFail}
	if len(kinds) != len(want) {
		t.Fatalf("rows = %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("row %d kind = %v, want %v", i, kinds[i], want[i])
		}
	}
	if c.Rows[3].Text != "assertion" || c.Lifelines[c.Rows[3].Lifeline].Pid != 0 {
		t.Errorf("failing row = %+v", c.Rows[3])
	}
	if v := c.Verdict(); v != "assertion violated (x < 2)" {
		t.Errorf("verdict band = %q", v)
	}
	if c.Deadlock {
		t.Error("an assertion is not a deadlock")
	}
	if m := c.Messages[0]; m.RecvRow != 2 || c.Lifelines[m.To].Pid != 0 {
		t.Errorf("message = %+v", m)
	}
}

func TestChartRendezvousAndLasso(t *testing.T) {
	cx := &Counterexample{Kind: "acceptance cycle", LoopStart: 1, Steps: []Step{
		{Num: 1, Pid: 0, Proc: "A", Events: []Event{{Type: "local", Text: "start", Partner: -1}}},
		// A rendezvous is one step of the sender; the receive is the partner's.
		{Num: 2, Pid: 0, Proc: "A", Events: []Event{{Type: "send", Chan: "r", Msg: "ping", Partner: 1}, {Type: "recv", Chan: "r", Msg: "ping", Partner: 0}}},
		{Num: 3, Pid: 1, Proc: "B", Events: []Event{{Type: "local", Text: "pong", Partner: -1}}},
	}}
	c := NewChart(cx, "")
	if c.LoopRow != 1 {
		t.Errorf("loop row = %d, want 1", c.LoopRow)
	}
	m := c.Messages[0]
	if m.From != 0 || m.To != 1 || m.RecvRow != 2 || m.SendRow != 1 {
		t.Errorf("rendezvous message = %+v", m)
	}
	if c.Rows[2].Lifeline != 1 {
		t.Errorf("the receive of a rendezvous is on lifeline %d, want the partner's (1)", c.Rows[2].Lifeline)
	}
}

func TestChartEmpty(t *testing.T) {
	c := NewChart(&Counterexample{Kind: "invalid end state", LoopStart: -1}, "")
	var svg, text bytes.Buffer
	if err := c.WriteSVG(&svg); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	checkXML(t, svg.Bytes())
}

// TestChartGolden keeps the drawings of the ring run in testdata; -update
// rewrites them. The SVG must be well-formed XML with one arrow per
// received message.
func TestChartGolden(t *testing.T) {
	c := NewChart(ring(), "ring: invalid end state")
	var svg, text bytes.Buffer
	if err := c.WriteSVG(&svg); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	checkXML(t, svg.Bytes())
	if n, want := strings.Count(svg.String(), `marker-end="url(#arrow)"`), 5; n != want {
		t.Errorf("svg has %d received arrows, want %d", n, want)
	}
	if n := strings.Count(svg.String(), "(in flight in aya[1] to node 0)") / 2; n != 3 { // a halo and the text
		t.Errorf("svg marks %d messages in flight to node 0, want 3", n)
	}
	for _, want := range []string{"*#1", "#9 ARE_YOU_ALIVE (dropped)", "[timeout, suspect 0]", "invalid end state"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text chart lacks %q:\n%s", want, text.String())
		}
	}
	golden(t, "ring.svg", svg.Bytes())
	golden(t, "ring.txt", text.Bytes())
}

// TestChartJSON checks that a counterexample read back from a report
// (ftmc trace RESULT.json) draws the same chart.
func TestChartJSON(t *testing.T) {
	cx := ring()
	data, err := json.Marshal(cx)
	if err != nil {
		t.Fatal(err)
	}
	var back Counterexample
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	NewChart(cx, "x").WriteText(&a)
	NewChart(&back, "x").WriteText(&b)
	if a.String() != b.String() {
		t.Errorf("chart differs after a JSON round trip:\n%s\n%s", a.String(), b.String())
	}
}

func checkXML(t *testing.T, data []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return
			}
			t.Fatalf("svg is not well-formed: %v", err)
		}
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n%s", name, got)
	}
}

// stuck is a run in the shape of the paper's Fig. 10 with a channel nobody
// reads in the run, a long title and a long assertion: the answer to a
// probe stays in its channel, so its receiver is unknown.
func stuck() *Counterexample {
	send := func(ch, msg string) Event { return Event{Type: "send", Chan: ch, Msg: msg, Partner: -1} }
	recv := func(ch, msg string) Event { return Event{Type: "recv", Chan: ch, Msg: msg, Partner: -1} }
	local := func(text string) Event { return Event{Type: "local", Text: "MSC: " + text, Partner: -1} }
	step := func(n, pid int, evs ...Event) Step {
		return Step{Num: n, Pid: pid, Proc: []string{"Task1", "Task2"}[(pid+1)%2], Group: string(rune('0' + (pid-1)/2)), Events: evs}
	}
	const expr = "nfull(aya[(node + 1 + ahead[node]) % 3 * (3 - 1) + ((node + 3 - (node + 1 + ahead[node]) % 3) % 3 - 1)])"
	return &Counterexample{Kind: "assertion", Message: "assertion violated: " + expr, LoopStart: -1, Steps: []Step{
		step(2, 5, send("aya[1]", "ARE_YOU_ALIVE")),
		step(3, 5, local("timeout, suspect 0")),
		step(4, 5, send("aya[2]", "ARE_YOU_ALIVE")),
		step(5, 5, local("timeout, suspect 1")),
		step(6, 3, send("aya[4]", "ARE_YOU_ALIVE")),
		step(7, 6, recv("aya[4]", "ARE_YOU_ALIVE"), send("iaa[2]", "I_AM_ALIVE"), local("stop suspecting 1")),
		{Num: 8, Pid: 5, Proc: "Task1", Group: "2", Stmt: "assert(" + expr + ")", Note: "assertion violated: " + expr},
	}}
}

func TestChartInFlightToUnknownReceiverNamesItsChannel(t *testing.T) {
	c := NewChart(stuck(), "weak-completeness.pml BUF=1 CHAN=R ORDER=SPLIT: safety: violated (assertion)")
	var svg, text bytes.Buffer
	if err := c.WriteSVG(&svg); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	checkXML(t, svg.Bytes())
	for _, want := range []string{"ARE_YOU_ALIVE (in flight in aya[1])", "ARE_YOU_ALIVE (in flight in aya[2])", "I_AM_ALIVE (in flight in iaa[2])"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("svg lacks %q", want)
		}
	}
	if n := strings.Count(svg.String(), `marker-end="url(#arrow)"`); n != 1 {
		t.Errorf("svg has %d received arrows, want 1", n)
	}
	// The long assertion is wrapped in the band, not cut off.
	if !strings.Contains(svg.String(), "% 3 - 1)])") {
		t.Errorf("the band lost the end of the assertion:\n%s", svg.String())
	}
	for _, p := range c.SVGProblems() {
		t.Error(p)
	}
}

// TestChartLayoutClear checks the drawings a reader must be able to follow:
// no label over a box or another label, and everything, the title too,
// inside the picture.
func TestChartLayoutClear(t *testing.T) {
	long := stuck()
	long.Steps[0].Events = append(long.Steps[0].Events, Event{Type: "local", Text: "MSC: a local event with a rather long description", Partner: -1})
	for name, c := range map[string]*Chart{
		"ring":  NewChart(ring(), "ring: invalid end state"),
		"stuck": NewChart(stuck(), "stuck"),
		"long":  NewChart(long, strings.Repeat("a long title ", 20)),
		"empty": NewChart(&Counterexample{Kind: "invalid end state", LoopStart: -1}, "empty"),
	} {
		for _, p := range c.SVGProblems() {
			t.Errorf("%s: %s", name, p)
		}
	}
}

// TestSVGProblemsFindsOverlaps makes sure the check above can fail.
func TestSVGProblemsFindsOverlaps(t *testing.T) {
	l := svgLabel{svgRect: svgRect{0, 0, 50, 12}}
	if l.overlap(svgRect{40, 5, 100, 30}) != 70 || l.overlap(svgRect{50, 0, 60, 12}) != 0 {
		t.Errorf("overlap is wrong")
	}
	if got := (svgRect{0, 0, 10, 10}).clipLen(-5, 5, 15, 5); got != 10 {
		t.Errorf("clipLen across = %v, want 10", got)
	}
	if got := (svgRect{0, 0, 10, 10}).clipLen(20, 0, 30, 10); got != 0 {
		t.Errorf("clipLen outside = %v, want 0", got)
	}
	// A message along a lifeline with a box on every row: its label
	// has nowhere free to go.
	c := NewChart(ring(), "")
	for i := range c.Rows {
		c.Rows[i] = Row{Step: i + 1, Kind: RowLocal, Lifeline: 0, Text: strings.Repeat("x", 80), Msg: -1}
	}
	c.Messages = []Message{{Label: strings.Repeat("M", 20), From: 0, To: 0, SendRow: 0, RecvRow: len(c.Rows) - 1}}
	if len(c.SVGProblems()) == 0 {
		t.Error("no problem found in a chart whose label can only go over a box")
	}
}

func TestWrapText(t *testing.T) {
	lines := wrapText("invalid end state: no process can move (2 messages in flight)", 150, 12, 4)
	if len(lines) < 2 || strings.Join(lines, " ") != "invalid end state: no process can move (2 messages in flight)" {
		t.Errorf("wrapText = %q", lines)
	}
	for _, l := range lines {
		if textWidth(l, 12, true) > 150 {
			t.Errorf("line %q is wider than 150", l)
		}
	}
	lines = wrapText(strings.Repeat("word ", 100), 100, 12, 3)
	if len(lines) != 3 || !strings.HasSuffix(lines[2], "…") {
		t.Errorf("wrapText keeps %d lines (%q), want 3 ending in an ellipsis", len(lines), lines)
	}
	if lines := wrapText(strings.Repeat("x", 60), 100, 12, 4); len(lines) < 2 {
		t.Errorf("a word wider than the line is not broken: %q", lines)
	}
}

// fdRuns are counterexamples of the failure-detector models
// (examples/failure-detectors), kept in testdata with what charts read:
// the steps with their events and the processes of the final state. They
// come from ftmc check MODEL -D ... --trail, with the defines in the
// title.
var fdRuns = []string{
	"fd-overflow-R-SPLIT-1",             // Fig. 10: the ARE_YOU_ALIVE channel overflows (an assertion)
	"fd-fig13-weak-accuracy-B-SPLIT-1",  // Fig. 13: two Task2s wait for room
	"fd-deadlock-B-FIFO-1",              // FIFO, WAIT=UPPAAL
	"fd-deadlock-B-FIFO-1-mcrl2",        // FIFO, WAIT=MCRL2: two steps without events
	"fd-deadlock-B-FIFO-1-fdr2-nocrash", // FIFO, WAIT=FDR2, no crash: three probes in flight
}

func fdRun(t *testing.T, name string) (*Counterexample, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Title          string
		Counterexample *Counterexample
	}
	if err := json.Unmarshal(data, &run); err != nil {
		t.Fatal(err)
	}
	return run.Counterexample, run.Title
}

// lineOfPid is the lifeline of pid, or -1.
func lineOfPid(c *Chart, pid int) int {
	for i, l := range c.Lifelines {
		if l.Pid == pid {
			return i
		}
	}
	return -1
}

// Every process of the run has a lifeline, idle or not, Task1 and Task2 of
// a node under its name; init, which ended after starting them, has none,
// and its step is named in the legend.
func TestChartLifelinesOfEveryProcess(t *testing.T) {
	cx, title := fdRun(t, "fd-overflow-R-SPLIT-1")
	c := NewChart(cx, title)
	var heads []string
	for _, l := range c.Lifelines {
		heads = append(heads, fmt.Sprintf("%s/%s/%d", GroupLabel(c.Groups[l.Group].Name), l.Proc, l.Pid))
	}
	want := "node 0/Task1/1 node 0/Task2/2 node 1/Task1/3 node 1/Task2/4 node 2/Task1/5 node 2/Task2/6"
	if got := strings.Join(heads, " "); got != want {
		t.Errorf("lifelines %s, want %s", got, want)
	}
	for _, r := range c.Rows {
		if pid := c.Lifelines[r.Lifeline].Pid; pid == 1 || pid == 2 || pid == 4 {
			t.Errorf("row %+v on the idle process %d", r, pid)
		}
	}
	if len(c.Undrawn) != 1 || c.Undrawn[0].Step != 1 {
		t.Errorf("undrawn %+v, want init's step 1", c.Undrawn)
	}
	if l := c.Legend("○"); len(l) != 1 || !strings.Contains(l[0], "step 1 by :init:") {
		t.Errorf("legend %q does not name init's step", l)
	}

	// Without a process list, the processes that take drawn steps; with
	// one, also those it lists, grouped by their node parameter, but not
	// the optional ones (at their end) that draw nothing.
	cx = &Counterexample{Kind: "assertion", LoopStart: -1, Steps: []Step{
		{Num: 1, Pid: 0, Proc: ":init:", Stmt: "run A(0)"},
		{Num: 2, Pid: 3, Proc: "A", Group: "1", Stmt: "c!1", Events: []Event{{Type: "send", Chan: "c", Msg: "1", Partner: -1}}},
	}}
	if c := NewChart(cx, ""); len(c.Lifelines) != 2 {
		t.Errorf("lifelines %+v without a process list, want init's and A's", c.Lifelines)
	}
	cx.Processes = []Process{
		{Pid: 0, Name: ":init:", Role: RoleProcess, Optional: true},
		{Pid: 1, Name: "A", Role: RoleProcess, Group: "0"},
		{Pid: 2, Name: "B", Role: RoleProcess, Optional: true},
		{Pid: 3, Name: "A", Role: RoleProcess, Group: "1"},
		{Pid: 4, Name: "C", Role: RoleProcess},
	}
	c = NewChart(cx, "")
	heads = nil
	for _, l := range c.Lifelines {
		heads = append(heads, fmt.Sprintf("%s/%s/%d", c.Groups[l.Group].Name, l.Proc, l.Pid))
	}
	if got, want := strings.Join(heads, " "), "/:init:/0 0/A/1 1/A/3 /C/4"; got != want {
		t.Errorf("lifelines %s, want %s", got, want)
	}
}

// A message still in a channel at the end points to its receiver (here
// known from the model: the Task2 that reads that channel) and ends short
// of it, in both drawings, and its label names the channel and where it
// goes.
func TestChartInFlightTowardsReceiver(t *testing.T) {
	for _, tc := range []struct {
		run  string
		want map[string]int // channel -> receiving pid
	}{
		{"fd-deadlock-B-FIFO-1-fdr2-nocrash", map[string]int{"link[2]": 4, "link[0]": 2, "link[4]": 6}},
		{"fd-overflow-R-SPLIT-1", map[string]int{"aya[1]": 2, "aya[2]": 4, "iaa[2]": 4}},
		{"fd-fig13-weak-accuracy-B-SPLIT-1", map[string]int{"iaa[1]": 2, "iaa[4]": 6}},
	} {
		cx, title := fdRun(t, tc.run)
		c := NewChart(cx, title)
		l := c.svgLayout()
		var text bytes.Buffer
		if err := c.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(text.String(), "\n")
		col := c.textCol()
		center := func(l int) int { return textStepW + l*col + col/2 }
		n := 0
		for i, m := range c.Messages {
			if !m.InFlight() {
				continue
			}
			n++
			pid, ok := tc.want[m.Chan]
			if !ok || m.To < 0 || c.Lifelines[m.To].Pid != pid {
				t.Errorf("%s: message %d in %s goes to lifeline %d, want pid %d's", tc.run, m.Num, m.Chan, m.To, pid)
				continue
			}
			a := l.arrows[i]
			from, to := l.x(m.From), l.x(m.To)
			if (a.x2-a.x1)*(to-from) <= 0 || math.Abs(a.x2-to) != svgShort {
				t.Errorf("%s: svg arrow of message %d goes from %.0f to %.0f, want towards %.0f ending %d short", tc.run, m.Num, a.x1, a.x2, to, svgShort)
			}
			dest := GroupLabel(c.Groups[c.Lifelines[m.To].Group].Name)
			if want := m.Label + " (in flight in " + m.Chan + " to " + dest + ")"; a.label.text != want {
				t.Errorf("%s: label %q, want %q", tc.run, a.label.text, want)
			}
			line := []rune(lines[5+m.SendRow]) // title, groups, heads, pids, bars
			head, at := '>', center(m.To)-2
			if to < from {
				head, at = '<', center(m.To)+2
			}
			if at >= len(line) || line[at] != head || line[center(m.To)] != '|' {
				t.Errorf("%s: text arrow of message %d does not end short of column %d with %c:\n%s", tc.run, m.Num, center(m.To), head, string(line))
			}
		}
		if n != len(tc.want) {
			t.Errorf("%s: %d messages in flight, want %d", tc.run, n, len(tc.want))
		}
	}
}

// The overflow of Fig. 10: the failing step's send is drawn towards its
// receiver and not sent, the assertion box is on the process that failed,
// and the band says, after the assertion as written, what it means here.
func TestChartFailedSend(t *testing.T) {
	cx, title := fdRun(t, "fd-overflow-R-SPLIT-1")
	c := NewChart(cx, title)
	m := c.Messages[len(c.Messages)-1]
	if !m.Failed || m.InFlight() || m.Chan != "aya[2]" || c.Lifelines[m.From].Pid != 5 || m.To < 0 || c.Lifelines[m.To].Pid != 4 {
		t.Fatalf("last message %+v, want aya[2] from pid 5 to pid 4, not sent", m)
	}
	last := c.Rows[len(c.Rows)-1]
	if last.Kind != RowFail || c.Lifelines[last.Lifeline].Pid != 5 {
		t.Errorf("failing row %+v, want on pid 5", last)
	}
	v := c.Verdict()
	for _, want := range []string{"assertion violated: nfull(aya[(node + 1 + ahead[node]) % 3", "in this state aya[2], the channel to node 1, is full: Task1 of node 2 cannot send ARE_YOU_ALIVE", "(3 messages in flight)"} {
		if !strings.Contains(v, want) {
			t.Errorf("verdict %q lacks %q", v, want)
		}
	}
	var svg, text bytes.Buffer
	c.WriteSVG(&svg)
	c.WriteText(&text)
	if !strings.Contains(svg.String(), "ARE_YOU_ALIVE (not sent: aya[2] full)") || !strings.Contains(text.String(), "X- ") {
		t.Errorf("the unsent message is not drawn:\n%s", text.String())
	}
	// The step-4 probe still in aya[2] and the step-8 one that does not
	// fit go to the same lifeline.
	for _, o := range c.Messages {
		if o.Chan == "aya[2]" && o.To != m.To {
			t.Errorf("message %+v in aya[2] goes elsewhere than %+v", o, m)
		}
	}
}

// Steps with nothing to draw keep their number: a mark on the lifeline and
// a line of the legend.
func TestChartQuietSteps(t *testing.T) {
	cx, title := fdRun(t, "fd-deadlock-B-FIFO-1-mcrl2")
	c := NewChart(cx, title)
	shown := map[int]bool{}
	var quiet []int
	for _, r := range c.Rows {
		if r.FirstOfStep {
			shown[r.Step] = true
		}
		if r.Kind == RowQuiet {
			quiet = append(quiet, r.Step)
			if l := c.Lifelines[r.Lifeline]; l.Pid != 1 {
				t.Errorf("step %d marked on pid %d, want 1 (Task1 of node 0)", r.Step, l.Pid)
			}
		}
	}
	for _, s := range cx.Steps[1:] {
		if !shown[s.Num] {
			t.Errorf("step %d is not in the chart", s.Num)
		}
	}
	if fmt.Sprint(quiet) != "[10 20]" {
		t.Errorf("marked steps %v, want [10 20]", quiet)
	}
	var svg, text bytes.Buffer
	c.WriteSVG(&svg)
	c.WriteText(&text)
	for _, want := range []string{"steps 10 and 20: no message or event", "step 1 by :init:"} {
		if !strings.Contains(svg.String(), want) || !strings.Contains(text.String(), want) {
			t.Errorf("legend lacks %q", want)
		}
	}
	if !strings.Contains(text.String(), "   10          +") {
		t.Errorf("text chart does not mark step 10:\n%s", text.String())
	}
}

// The charts of the known runs: no label over a box or another label, no
// message through a box or its own label, everything inside the picture
// (the paper's stories must be readable).
func TestChartKnownLayoutsClear(t *testing.T) {
	charts := map[string]*Chart{
		"ring":  NewChart(ring(), "ring: invalid end state"),
		"stuck": NewChart(stuck(), "stuck"),
	}
	for _, name := range fdRuns {
		cx, title := fdRun(t, name)
		charts[name] = NewChart(cx, title)
	}
	for name, c := range charts {
		for _, p := range c.SVGProblems() {
			t.Errorf("%s: %s", name, p)
		}
		for _, p := range c.svgCrossings() {
			t.Errorf("%s: %s", name, p)
		}
	}
}

// svgCrossings finds a message through a box.
func TestSVGCrossingsFindsThem(t *testing.T) {
	c := &Chart{LoopRow: -1, Groups: []ChartGroup{{First: 0, Last: 2}},
		Lifelines: []Lifeline{{Pid: 0, Proc: "A"}, {Pid: 1, Proc: "B"}, {Pid: 2, Proc: "C"}},
		Rows: []Row{
			{Step: 1, FirstOfStep: true, Kind: RowSend, Lifeline: 0, Msg: 0},
			{Step: 2, FirstOfStep: true, Kind: RowLocal, Lifeline: 1, Text: strings.Repeat("wide ", 30), Msg: -1},
			{Step: 3, FirstOfStep: true, Kind: RowRecv, Lifeline: 2, Msg: 0},
		},
		Messages: []Message{{Label: "M", From: 0, To: 2, SendRow: 0, RecvRow: 2, Num: 1}},
	}
	if len(c.svgCrossings()) == 0 {
		t.Error("no crossing found for a message through a box as wide as the chart")
	}
}

// In the text chart a label goes on its arrow or where no lifeline is:
// a lifeline's column holds its bar, except where its own row draws on it
// (an event, a box) or an arrow crosses it.
func TestTextChartLabelsKeepLifelines(t *testing.T) {
	charts := map[string]*Chart{"ring": NewChart(ring(), "ring"), "stuck": NewChart(stuck(), "stuck")}
	for _, name := range fdRuns {
		cx, title := fdRun(t, name)
		charts[name] = NewChart(cx, title)
	}
	for name, c := range charts {
		col := c.textCol()
		center := func(l int) int { return textStepW + l*col + col/2 }
		var text bytes.Buffer
		if err := c.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(text.String(), "\n")
		for i, r := range c.Rows {
			line := []rune(lines[5+i])
			lo, hi := center(r.Lifeline), center(r.Lifeline)
			if r.Kind == RowLocal || r.Kind == RowFail {
				w := len([]rune(r.Text)) + 4
				lo, hi = lo-w/2, hi+w/2
			}
			if r.Kind == RowSend {
				m := c.Messages[r.Msg]
				end := lo + col - 2
				if m.To >= 0 && m.To != m.From {
					end = center(m.To)
				}
				lo, hi = min(lo, end), max(hi, end)
				if !strings.Contains(string(line), fmt.Sprintf("#%d %s", m.Num, m.Label)) {
					t.Errorf("%s: row %d lacks the label of message %d:\n%s", name, i, m.Num, string(line))
				}
			}
			for l := range c.Lifelines {
				x := center(l)
				if x >= lo && x <= hi {
					continue
				}
				if x >= len(line) || line[x] != '|' {
					t.Errorf("%s: row %d (step %d) hides lifeline %d:\n%s", name, i, r.Step, l, string(line))
				}
			}
		}
	}
}

// A legend lists a few step numbers, not hundreds.
func TestChartLegendShort(t *testing.T) {
	cx := &Counterexample{Kind: "invalid end state", LoopStart: -1}
	for i := 1; i <= 40; i++ {
		ev := []Event{{Type: "local", Text: "MSC: x", Partner: -1}}
		if i%2 == 0 {
			ev = nil
		}
		cx.Steps = append(cx.Steps, Step{Num: i, Pid: 1, Proc: "P", Stmt: "skip", Events: ev})
	}
	l := NewChart(cx, "").Legend("○")
	if len(l) != 1 || l[0] != "○ steps 2, 4, 6, 8, 10, 12, 14 and 13 more: no message or event (an internal step of that process)" {
		t.Errorf("legend %q", l)
	}
}

// A bad prefix of an LTL property: the last step is drawn like the others,
// then the mark that the property is lost; the band names a bad prefix.
func TestChartBadPrefix(t *testing.T) {
	cx := &Counterexample{Kind: "acceptance cycle", Message: "every run that begins with these steps violates [](x < 2)", LoopStart: -1, Steps: []Step{
		{Num: 1, Pid: 0, Proc: "P", Stmt: "x = 1"},
		{Num: 2, Pid: 0, Proc: "P", Stmt: "x = 2"},
	}}
	c := NewChart(cx, "")
	var kinds []RowKind
	for _, r := range c.Rows {
		kinds = append(kinds, r.Kind)
	}
	if len(kinds) != 3 || kinds[0] != RowStmt || kinds[1] != RowStmt || kinds[2] != RowFail {
		t.Fatalf("rows = %v, want two statements and the mark", kinds)
	}
	if c.Rows[2].Text != "violated whatever follows" {
		t.Errorf("mark = %q", c.Rows[2].Text)
	}
	if v := c.Verdict(); v != "bad prefix: "+cx.Message {
		t.Errorf("verdict band = %q", v)
	}
	var b strings.Builder
	WriteCounterexample(&b, cx)
	if !strings.HasPrefix(b.String(), "counterexample: bad prefix: every run") {
		t.Errorf("text starts %q", b.String()[:40])
	}
}

// taRun is a threshold automaton's schedule as the front end writes it:
// its locations as lifelines (SE and AC empty at the start, V1 empty and
// never entered), steps that move processes between them, one of them
// twice at once, a rule that stays in its location, and the violation.
func taRun() *Counterexample {
	move := func(num int, rule, from, to string, times int64) Step {
		return Step{Num: num, Pid: -1, Proc: "ST processes", Rule: rule, Stmt: from + " -> " + to, Multiplicity: times,
			Events: []Event{{Type: "move", Msg: rule, From: from, To: to, Partner: -1}}}
	}
	return &Counterexample{Kind: "invariant", LoopStart: -1,
		Processes: []Process{
			{Pid: 0, Name: "V0", Role: RoleLocation, Group: "ST processes", Count: 3},
			{Pid: 1, Name: "V1", Role: RoleLocation, Group: "ST processes", Optional: true},
			{Pid: 2, Name: "SE", Role: RoleLocation, Group: "ST processes", Optional: true},
			{Pid: 3, Name: "AC", Role: RoleLocation, Group: "ST processes", Optional: true},
		},
		Steps: []Step{
			move(1, "r1", "V0", "SE", 2),
			move(2, "r6", "SE", "SE", 0),
			move(3, "r4", "SE", "AC", 0),
		}}
}

// A threshold automaton's chart: a lifeline per location the run uses,
// under the automaton's processes, with its count at the start and no
// pid; each move an arrow from its source to its target labelled with the
// rule (and how many move); a rule that stays is a box; the violation is
// where the last step drew.
func TestChartThresholdAutomaton(t *testing.T) {
	c := NewChart(taRun(), "st.ta")
	var heads []string
	for _, l := range c.Lifelines {
		heads = append(heads, fmt.Sprintf("%s/%s/%s", c.Groups[l.Group].Name, l.Proc, l.Note))
	}
	if got, want := strings.Join(heads, " "), "ST processes/V0/3 at start ST processes/SE/0 at start ST processes/AC/0 at start"; got != want {
		t.Errorf("lifelines %s, want %s", got, want)
	}
	var arrows []string
	for _, m := range c.Messages {
		arrows = append(arrows, fmt.Sprintf("%s->%s %s received=%v", c.Lifelines[m.From].Proc, c.Lifelines[m.To].Proc, m.Label, m.RecvRow >= 0))
	}
	if got, want := strings.Join(arrows, ", "), "V0->SE r1 x 2 received=true, SE->AC r4 received=true"; got != want {
		t.Errorf("arrows %s, want %s", got, want)
	}
	var rows []string
	for _, r := range c.Rows {
		rows = append(rows, fmt.Sprintf("%d:%d@%s %s", r.Step, r.Kind, c.Lifelines[r.Lifeline].Proc, r.Text))
	}
	want := []string{
		fmt.Sprintf("1:%d@V0 ", RowSend), fmt.Sprintf("1:%d@SE ", RowRecv),
		fmt.Sprintf("2:%d@SE r6", RowLocal),
		fmt.Sprintf("3:%d@SE ", RowSend), fmt.Sprintf("3:%d@AC ", RowRecv), fmt.Sprintf("3:%d@AC invariant", RowFail),
	}
	if strings.Join(rows, "|") != strings.Join(want, "|") {
		t.Errorf("rows\n%q\nwant\n%q", rows, want)
	}
	var b bytes.Buffer
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "pid") {
		t.Errorf("the text chart names a pid:\n%s", b.String())
	}
	b.Reset()
	if err := c.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "pid") {
		t.Errorf("the SVG chart names a pid:\n%s", b.String())
	}
}

// A counterexample without a process list (a report written before it
// existed) is drawn from its steps: the processes whose steps draw
// something, named by their steps, with their pids where names repeat; a
// threshold automaton's locations are named by its moves; a drop that an
// older front end wrote as a local event is a box.
func TestChartWithoutProcessList(t *testing.T) {
	cx, title := fdRun(t, "fd-overflow-R-SPLIT-1")
	cx.Processes = nil
	c := NewChart(cx, title)
	var heads []string
	for _, l := range c.Lifelines {
		heads = append(heads, fmt.Sprintf("%s/%s/%s", GroupLabel(c.Groups[l.Group].Name), l.Proc, l.Note))
	}
	// Node 0's tasks and node 1's Task2 take no step that draws.
	if got, want := strings.Join(heads, " "), "node 1/Task1/pid 3 node 2/Task1/pid 5 node 2/Task2/"; got != want {
		t.Errorf("lifelines %s, want %s", got, want)
	}

	ta := taRun()
	ta.Processes = nil
	c = NewChart(ta, "")
	heads = nil
	for _, l := range c.Lifelines {
		heads = append(heads, fmt.Sprintf("%s/%s/%s", c.Groups[l.Group].Name, l.Proc, l.Note))
	}
	if got, want := strings.Join(heads, " "), "ST processes/V0/ ST processes/SE/ ST processes/AC/"; got != want {
		t.Errorf("threshold automaton: lifelines %s, want %s", got, want)
	}
	if len(c.Messages) != 2 || c.Messages[0].Label != "r1 x 2" {
		t.Errorf("threshold automaton: messages %+v, want the two moves", c.Messages)
	}

	old := &Counterexample{Kind: "assertion", LoopStart: -1, Steps: []Step{
		{Num: 1, Pid: 1, Proc: "T", Group: "0", Stmt: "printf", Events: []Event{{Type: "local", Text: "drop PING to node 1", Partner: -1}}},
	}}
	c = NewChart(old, "")
	if len(c.Messages) != 0 || len(c.Rows) < 1 || c.Rows[0].Kind != RowLocal || c.Rows[0].Text != "drop PING to node 1" {
		t.Errorf("an old drop: rows %+v, messages %+v; want a box with its text", c.Rows, c.Messages)
	}
}
