package trace

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
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
	add(2, 0, "aya[1]!ARE_YOU_ALIVE", send("aya[1]", "ARE_YOU_ALIVE"), local("drop ARE_YOU_ALIVE to node 0"))
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
		{5, 2, false, "ARE_YOU_ALIVE"}, // and the dropped one (drop event)
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
	if steps[1] || steps[16] {
		t.Errorf("steps without events are drawn: %v", steps)
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
	if n := strings.Count(svg.String(), "(in flight)") / 2; n != 3 { // a halo and the text
		t.Errorf("svg marks %d messages in flight, want 3", n)
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
