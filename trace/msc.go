package trace

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A Chart is a message sequence chart of a counterexample, laid out
// independently of how it is drawn (SVG for documents, text for
// terminals): one lifeline per process, the lifelines of a group (the
// tasks of one node) side by side, one row per drawn event, and every
// message matched from its send to its receive.
//
// The rules, which front ends rely on:
//
//   - Every process that exists in the run gets a lifeline, idle or not:
//     the processes the front end lists (Counterexample.Processes), except
//     those marked Optional (a Promela process at its end, a location empty
//     at the start) unless a step draws on them, and the processes of
//     steps that draw something. A process whose steps draw nothing and
//     that is optional or not listed (Promela's init, after it started the
//     others) gets none; Undrawn lists its steps. A counterexample without
//     the list (a report written before it existed) gets the lifelines of
//     the processes whose steps draw something, named by their steps (with
//     their pids under the names that several share).
//     Lifelines are ordered by group, groups by their smallest pid, and
//     inside a group by pid. Process.Group (else Step.Group) names the
//     group; processes with no group stand alone. The Promela front end
//     takes the group from a proctype parameter named node: a group that
//     is a bare number is drawn as "node N".
//   - A Promela process is named by its proctype, with its pid under the
//     name; an array-based system's process index by "#N", the step's
//     event the transition's name. A threshold automaton's counter system
//     does not tell processes apart: its lifelines are its locations
//     (with how many processes are there at the start), grouped under the
//     automaton's processes, and a step's "move" event is an arrow from
//     the location the processes leave to the one they enter, labelled
//     with the rule and how many move ("r3 x 2"); a rule that stays in
//     its location is a box there.
//   - An event of type "recv" happens on the lifeline of the step's process,
//     except in a rendezvous (a step that also sends on the same channel),
//     where it happens on the sender's Partner.
//   - A receive is matched to the oldest pending send on the same channel
//     with the same contents. Sends never received are in flight at the end
//     (or dropped, when Event.Dropped is set). A message's destination is
//     its receiver, else Event.Partner, else the process that receives on
//     that channel elsewhere in the run. A message in flight is drawn
//     towards its destination, ending short of it, and named by its channel
//     and destination.
//   - A send marked Event.Failed (the failing step was about to make it) is
//     drawn towards its destination, ending in a cross; the band at the
//     bottom says why (the channel is full).
//   - Local events are boxes on their lifeline. A front end that marks local
//     events (Promela's printf("MSC: ...") convention, as in Spin's charts)
//     gets exactly those and the message events, and every other step is a
//     small mark on its lifeline (RowQuiet), so that no step number goes
//     missing; otherwise every step without events is drawn as an
//     annotation with its statement.
//   - A send marked Event.Dropped (the model dropped a message to a full
//     channel) is drawn towards its destination, ending in a cross.
//   - The failure is marked where it happens: an assertion or run-time
//     error by a box on the lifeline of the last step (where it drew last,
//     for a step that moves no one process), an invalid end state
//     (a deadlock) at the end of every lifeline; a band at the bottom says
//     what went wrong.
type Chart struct {
	Title     string
	Groups    []ChartGroup
	Lifelines []Lifeline
	Rows      []Row
	Messages  []Message
	// LoopRow is the first row of a lasso's cycle, or -1.
	LoopRow int
	// Kind and Message describe the failure (Counterexample.Kind, .Message).
	Kind    string
	Message string
	// Deadlock is set when the run ends in an invalid end state.
	Deadlock bool
	// Undrawn are the steps of processes without a lifeline.
	Undrawn []UndrawnStep
}

// An UndrawnStep is a step of a process that has no lifeline.
type UndrawnStep struct {
	Step int
	Pid  int
	Proc string
}

// A ChartGroup is a set of adjacent lifelines drawn under one name.
type ChartGroup struct {
	Name        string // "" for a process without a group
	First, Last int    // lifeline indexes, inclusive
}

// A Lifeline is one process, or one location of a threshold automaton.
type Lifeline struct {
	Pid  int
	Proc string // its name: a proctype, "#N", a location
	// Note is drawn under the name: "pid N" for a process, how many
	// processes a location holds at the start.
	Note  string
	Group int // index into Chart.Groups
}

// RowKind says what a row draws.
type RowKind int

const (
	RowSend  RowKind = iota // a message leaves Lifeline (Messages[Msg])
	RowRecv                 // a message arrives at Lifeline (Messages[Msg])
	RowLocal                // a local event box with Text
	RowStmt                 // a step without events: its statement as an annotation
	RowFail                 // the failing step: Text is the kind of failure
	RowQuiet                // a step with nothing to draw in a chart of marked events: a mark (Text: its statement)
)

// A Row is one drawn event, at one vertical position.
type Row struct {
	Step        int // Step.Num of the step the event belongs to
	FirstOfStep bool
	Kind        RowKind
	Lifeline    int
	Text        string
	Msg         int // index into Chart.Messages for RowSend and RowRecv, else -1
}

// A Message is one arrow.
type Message struct {
	Label   string
	Chan    string
	From    int // lifeline of the sender
	To      int // lifeline of the receiver, or -1 when unknown
	SendRow int
	RecvRow int // -1: not received (in flight at the end, dropped, or not sent)
	Dropped bool
	// Failed: the failing step was about to send it and did not; Why is
	// the front end's reason ("full": its channel is full).
	Failed bool
	Why    string
	Num    int // 1-based, in order of sending
}

// Verdict is the text of the band at the bottom of a chart: what went
// wrong, what it means in the failing state when the front end says (the
// channel a failed send found full), and how many messages are still in
// channels.
func (c *Chart) Verdict() string {
	var text string
	switch {
	case c.Kind == "":
		return ""
	case c.Deadlock && (c.Message == "" || c.Message == c.Kind):
		text = "invalid end state: no process can move"
	case c.Message == "" || c.Message == c.Kind:
		text = c.Kind
	case strings.HasPrefix(c.Message, c.Kind):
		text = c.Message
	default:
		text = c.Kind + ": " + c.Message
	}
	for _, m := range c.Messages {
		if !m.Failed {
			continue
		}
		ch := m.Chan
		if ch == "" {
			ch = "the channel"
		}
		if m.To >= 0 && m.To != m.From {
			ch += ", the channel to " + c.destName(m.To) + ","
		}
		why := m.Why
		if why == "" {
			why = "not ready"
		}
		text += fmt.Sprintf("; in this state %s is %s: %s cannot send %s", ch, why, c.ProcName(m.From), m.Label)
	}
	if n := c.inFlight(); n > 0 {
		text += fmt.Sprintf(" (%d message%s in flight)", n, plural(n))
	}
	return text
}

// InFlight reports whether the message was sent and is still in a channel
// at the end of the run.
func (m *Message) InFlight() bool { return m.RecvRow < 0 && !m.Dropped && !m.Failed }

// ProcName names the process of lifeline l in sentences: "Task1 of node
// 2", or its proctype (with its pid when another lifeline has the same).
func (c *Chart) ProcName(l int) string {
	if l < 0 || l >= len(c.Lifelines) {
		return "a process"
	}
	ll := c.Lifelines[l]
	if g := c.Groups[ll.Group].Name; g != "" {
		return ll.Proc + " of " + GroupLabel(g)
	}
	return c.soloName(l)
}

// destName names the destination of a message: its group ("node 1"), or
// its process.
func (c *Chart) destName(l int) string {
	if l < 0 || l >= len(c.Lifelines) {
		return "?"
	}
	if g := c.Groups[c.Lifelines[l].Group].Name; g != "" {
		return GroupLabel(g)
	}
	return c.soloName(l)
}

func (c *Chart) soloName(l int) string {
	ll := c.Lifelines[l]
	for i, o := range c.Lifelines {
		if i != l && o.Proc == ll.Proc {
			return fmt.Sprintf("%s (pid %d)", ll.Proc, ll.Pid)
		}
	}
	return ll.Proc
}

// MessageText is a message's label with what became of it when it was not
// received: "ARE_YOU_ALIVE (in flight in link[2] to node 1)", "... (dropped)",
// "... (not sent: aya[2] full)".
func (c *Chart) MessageText(m *Message) string {
	text := m.Label
	switch {
	case m.RecvRow >= 0:
	case m.Failed:
		text += " (not sent"
		if m.Why != "" {
			if m.Chan != "" {
				text += ": " + m.Chan + " " + m.Why
			} else {
				text += ": " + m.Why
			}
		}
		text += ")"
	case m.Dropped:
		text += " (dropped)"
	default:
		text += " (in flight"
		if m.Chan != "" {
			text += " in " + m.Chan
		}
		if m.To >= 0 && m.To != m.From {
			text += " to " + c.destName(m.To)
		}
		text += ")"
	}
	return text
}

// Legend lists what a reader needs to know about the steps that a chart
// shows no event for: the marks of steps with nothing to draw (quiet
// names the mark, e.g. "○"), and the steps of processes without a
// lifeline.
func (c *Chart) Legend(quiet string) []string {
	var out []string
	var steps []string
	for _, r := range c.Rows {
		if r.Kind == RowQuiet {
			steps = append(steps, strconv.Itoa(r.Step))
		}
	}
	if n := len(steps); n > 0 {
		if n > legendSteps {
			steps = append(steps[:legendSteps-1:legendSteps-1], fmt.Sprintf("%d more", n-legendSteps+1))
		}
		out = append(out, fmt.Sprintf("%s step%s %s: no message or event (an internal step of that process)", quiet, plural(n), joinAnd(steps)))
	}
	if len(c.Undrawn) > 0 {
		byProc := map[string][]string{}
		var procs []string
		for _, u := range c.Undrawn {
			k := fmt.Sprintf("%s (pid %d)", u.Proc, u.Pid)
			if _, ok := byProc[k]; !ok {
				procs = append(procs, k)
			}
			byProc[k] = append(byProc[k], strconv.Itoa(u.Step))
		}
		var parts []string
		for _, k := range procs {
			steps := byProc[k]
			if n := len(steps); n > legendSteps {
				steps = append(steps[:legendSteps-1:legendSteps-1], fmt.Sprintf("%d more", n-legendSteps+1))
			}
			parts = append(parts, fmt.Sprintf("step%s %s by %s", plural(len(byProc[k])), joinAnd(steps), k))
		}
		out = append(out, "not drawn: "+strings.Join(parts, "; ")+", a process that ended without a message or event")
	}
	return out
}

// legendSteps is how many step numbers a line of the legend lists.
const legendSteps = 8

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// A chartProc is what a chart knows about a lifeline.
type chartProc struct {
	name, group, note string
	listed            bool // in Counterexample.Processes
	optional          bool // drawn only when a step draws on it
}

// chartProcs collects the lifelines of a run, by pid: those the front end
// lists (Counterexample.Processes), then the processes of steps it does
// not list (a report written before the list existed), named by their
// steps. Locations are referred to by name; locPid gives each its pid (a
// location not listed gets one after every other pid).
func chartProcs(cx *Counterexample) (procs map[int]*chartProc, locPid map[string]int) {
	procs = map[int]*chartProc{}
	locPid = map[string]int{}
	next := 0
	for _, p := range cx.Processes {
		cp := &chartProc{name: p.Name, group: p.Group, listed: true, optional: p.Optional}
		switch p.Role {
		case RoleLocation:
			cp.note = fmt.Sprintf("%d at start", p.Count)
			locPid[p.Name] = p.Pid
		case RoleIndex:
		default:
			cp.note = fmt.Sprintf("pid %d", p.Pid)
		}
		procs[p.Pid] = cp
		next = max(next, p.Pid+1)
	}
	for _, s := range cx.Steps {
		next = max(next, s.Pid+1)
		if _, ok := procs[s.Pid]; !ok {
			procs[s.Pid] = &chartProc{name: s.Proc, group: s.Group}
		}
	}
	for _, s := range cx.Steps {
		for _, ev := range s.Events {
			if ev.Type != "move" {
				continue
			}
			for _, l := range []string{ev.From, ev.To} {
				if _, ok := locPid[l]; !ok && l != "" {
					locPid[l] = next
					procs[next] = &chartProc{name: l, group: s.Proc}
					next++
				}
			}
		}
	}
	return procs, locPid
}

// NewChart lays out cx. title is drawn above the chart (e.g. the model).
func NewChart(cx *Counterexample, title string) *Chart {
	c := &Chart{Title: title, LoopRow: -1, Kind: cx.Label(), Message: cx.Message}
	c.Deadlock = cx.Kind == "invalid end state"
	procs, locPid := chartProcs(cx)

	marked := false
	for _, s := range cx.Steps {
		for _, ev := range s.Events {
			if ev.Type == "local" {
				marked = true
			}
		}
	}

	// Pass 1: the events each step draws, each on a pid.
	type item struct {
		step  int // index into cx.Steps
		pid   int
		kind  RowKind
		ev    Event
		text  string
		move  bool // a move's send and receive: one message, not matched by channel
		first bool
	}
	var items []item
	for i, s := range cx.Steps {
		n0 := len(items)
		sendPartner := map[string]int{}
		for _, ev := range s.Events {
			if ev.Type == "send" && ev.Partner >= 0 && !ev.Failed {
				sendPartner[ev.Chan] = ev.Partner
			}
		}
		for _, ev := range s.Events {
			switch ev.Type {
			case "send":
				items = append(items, item{step: i, pid: s.Pid, kind: RowSend, ev: ev})
			case "recv":
				pid := s.Pid
				if p, ok := sendPartner[ev.Chan]; ok && p != s.Pid {
					pid = p
				}
				items = append(items, item{step: i, pid: pid, kind: RowRecv, ev: ev})
			case "move":
				// Processes leave one location's lifeline for another's:
				// an arrow labelled with the rule and how many move, or a
				// box for a rule that stays in its location.
				text := ev.Msg
				if s.Multiplicity > 1 {
					text += fmt.Sprintf(" x %d", s.Multiplicity)
				}
				from, ok := locPid[ev.From]
				to, ok2 := locPid[ev.To]
				switch {
				case !ok && !ok2:
					items = append(items, item{step: i, pid: s.Pid, kind: RowLocal, text: text})
				case !ok2 || from == to:
					items = append(items, item{step: i, pid: from, kind: RowLocal, text: text})
				case !ok:
					items = append(items, item{step: i, pid: to, kind: RowLocal, text: text})
				default:
					ev := Event{Type: "send", Msg: text, Partner: to}
					items = append(items, item{step: i, pid: from, kind: RowSend, ev: ev, move: true},
						item{step: i, pid: to, kind: RowRecv, ev: ev, move: true})
				}
			case "local":
				items = append(items, item{step: i, pid: s.Pid, kind: RowLocal, text: localText(ev.Text)})
			}
		}
		last := i == len(cx.Steps)-1
		failing := last && !c.Deadlock && cx.Kind != "" && cx.LoopStart < 0
		// A bad prefix of an LTL property: its last step is a step like
		// the others, after which the property is violated whatever the
		// run does.
		badPrefix := failing && cx.Kind == "acceptance cycle"
		if len(items) == n0 && (!failing || badPrefix) && s.Stmt != "" && s.Pid >= 0 {
			kind := RowStmt
			if marked {
				kind = RowQuiet
			}
			items = append(items, item{step: i, pid: s.Pid, kind: kind, text: s.Stmt})
		}
		if failing {
			// The box names the kind; the message (often a long
			// expression) goes in the band at the bottom.
			if s.Note != "" {
				c.Message = s.Note
			}
			text := cx.Kind
			if badPrefix {
				text = "violated whatever follows"
			}
			// A step that moves no one process (a threshold automaton's)
			// fails where it drew last.
			pid := s.Pid
			if pid < 0 && len(items) > n0 {
				pid = items[len(items)-1].pid
			}
			items = append(items, item{step: i, pid: pid, kind: RowFail, text: text})
		}
		if len(items) > n0 {
			items[n0].first = true
		}
	}

	// Lifelines: every process that draws something or that the front end
	// lists as there, grouped. The steps of the others are listed.
	pids := map[int]bool{}
	for _, it := range items {
		if it.kind != RowQuiet {
			pids[it.pid] = true
		}
	}
	for pid, p := range procs {
		if p.listed && !p.optional {
			pids[pid] = true
		}
	}
	kept := items[:0]
	for _, it := range items {
		if it.kind == RowQuiet && !pids[it.pid] {
			s := cx.Steps[it.step]
			c.Undrawn = append(c.Undrawn, UndrawnStep{Step: s.Num, Pid: s.Pid, Proc: s.Proc})
			continue
		}
		kept = append(kept, it)
	}
	items = kept
	for i := range items {
		items[i].first = i == 0 || items[i-1].step != items[i].step
	}
	groupOf := func(pid int) string {
		if p := procs[pid]; p != nil {
			return p.group
		}
		return ""
	}
	type gkey struct {
		name string
		pid  int // for ungrouped processes
	}
	keyOf := func(pid int) gkey {
		if g := groupOf(pid); g != "" {
			return gkey{name: g, pid: -1}
		}
		return gkey{pid: pid}
	}
	minPid := map[gkey]int{}
	for pid := range pids {
		k := keyOf(pid)
		if m, ok := minPid[k]; !ok || pid < m {
			minPid[k] = pid
		}
	}
	order := make([]int, 0, len(pids))
	for pid := range pids {
		order = append(order, pid)
	}
	sort.Slice(order, func(i, j int) bool {
		ki, kj := keyOf(order[i]), keyOf(order[j])
		if ki != kj {
			return minPid[ki] < minPid[kj]
		}
		return order[i] < order[j]
	})
	lineOf := map[int]int{}
	for i, pid := range order {
		k := keyOf(pid)
		if len(c.Groups) == 0 || keyOf(c.Lifelines[len(c.Lifelines)-1].Pid) != k {
			c.Groups = append(c.Groups, ChartGroup{Name: k.name, First: i})
		}
		c.Groups[len(c.Groups)-1].Last = i
		ll := Lifeline{Pid: pid, Group: len(c.Groups) - 1}
		if p := procs[pid]; p != nil {
			ll.Proc, ll.Note = p.name, p.note
		}
		if ll.Proc == "" {
			ll.Proc = "pid " + strconv.Itoa(pid)
			ll.Note = ""
		}
		c.Lifelines = append(c.Lifelines, ll)
		lineOf[pid] = i
	}
	// Processes that are not listed and share a name are told apart by
	// their pids.
	names := map[string]int{}
	for _, ll := range c.Lifelines {
		names[ll.Proc]++
	}
	for i, ll := range c.Lifelines {
		if p := procs[ll.Pid]; p != nil && !p.listed && ll.Pid >= 0 && names[ll.Proc] > 1 {
			c.Lifelines[i].Note = fmt.Sprintf("pid %d", ll.Pid)
		}
	}

	// Channel readers, for messages whose receive is not in the run.
	reader := map[string]int{}
	for _, it := range items {
		if it.kind == RowRecv && !it.move {
			if _, ok := reader[it.ev.Chan]; !ok && it.ev.Chan != "" {
				reader[it.ev.Chan] = lineOf[it.pid]
			}
		}
	}

	// Pass 2: rows and messages.
	type mkey struct{ ch, msg string }
	pending := map[mkey][]int{}
	lastMove := -1
	for _, it := range items {
		s := cx.Steps[it.step]
		if it.step == cx.LoopStart && c.LoopRow < 0 {
			c.LoopRow = len(c.Rows)
		}
		row := Row{Step: s.Num, FirstOfStep: it.first, Kind: it.kind, Lifeline: lineOf[it.pid], Text: it.text, Msg: -1}
		switch {
		case it.kind == RowSend:
			m := Message{Label: it.ev.Msg, Chan: it.ev.Chan, From: row.Lifeline, To: -1, SendRow: len(c.Rows), RecvRow: -1, Dropped: it.ev.Dropped, Num: len(c.Messages) + 1}
			if it.ev.Failed {
				m.Failed, m.Why = true, it.ev.Text
			}
			if it.ev.Partner >= 0 {
				if l, ok := lineOf[it.ev.Partner]; ok {
					m.To = l
				}
			}
			if m.To < 0 {
				if l, ok := reader[m.Chan]; ok && m.Chan != "" {
					m.To = l
				}
			}
			row.Msg = len(c.Messages)
			switch {
			case m.Dropped:
				row.Text = "dropped"
			case m.Failed:
				row.Text = "not sent"
			}
			c.Messages = append(c.Messages, m)
			switch {
			case it.move:
				lastMove = row.Msg
			case !m.Dropped && !m.Failed:
				k := mkey{m.Chan, m.Label}
				pending[k] = append(pending[k], row.Msg)
			}
		case it.kind == RowRecv && it.move:
			row.Msg = lastMove
			m := &c.Messages[row.Msg]
			m.To = row.Lifeline
			m.RecvRow = len(c.Rows)
		case it.kind == RowRecv:
			k := mkey{it.ev.Chan, it.ev.Msg}
			if q := pending[k]; len(q) > 0 {
				row.Msg = q[0]
				pending[k] = q[1:]
				m := &c.Messages[row.Msg]
				m.To = row.Lifeline
				m.RecvRow = len(c.Rows)
			} else {
				// Received but never sent in the run (e.g. a channel
				// initialised with contents): an arrow from nowhere.
				row.Msg = len(c.Messages)
				c.Messages = append(c.Messages, Message{Label: it.ev.Msg, Chan: it.ev.Chan, From: -1, To: row.Lifeline, SendRow: -1, RecvRow: len(c.Rows), Num: len(c.Messages) + 1})
			}
		}
		c.Rows = append(c.Rows, row)
	}
	return c
}

// GroupLabel is how a group is named in a chart: "node N" for a group
// that is a bare number (the value of a node parameter), else its name.
func GroupLabel(name string) string {
	if _, err := strconv.Atoi(name); err == nil {
		return "node " + name
	}
	return name
}

// localText strips the "MSC:" marker and line ends that a front end may
// leave in a local event's text.
func localText(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimPrefix(s, "MSC:"))
	return s
}
