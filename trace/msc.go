package trace

import (
	"fmt"
	"regexp"
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
//   - A process gets a lifeline when it takes a step that is drawn.
//     Lifelines are ordered by group, groups by their smallest pid, and
//     inside a group by pid. Step.Group names the group; processes with no
//     group stand alone. Promela front ends take the group from a proctype
//     parameter named node, and give its value: a group that is a bare
//     number is drawn as "node N".
//   - An event of type "recv" happens on the lifeline of the step's process,
//     except in a rendezvous (a step that also sends on the same channel),
//     where it happens on the sender's Partner.
//   - A receive is matched to the oldest pending send on the same channel
//     with the same contents. Sends never received are in flight at the end
//     (or dropped, when Event.Dropped is set). A message's destination is
//     its receiver, else Event.Partner, else the process that receives on
//     that channel elsewhere in the run.
//   - Local events are boxes on their lifeline. A front end that marks local
//     events (Promela's printf("MSC: ...") convention, as in Spin's charts)
//     gets exactly those and the message events; otherwise every step
//     without events is drawn as an annotation with its statement.
//   - A local event "drop MSG to GROUP" (a model that drops a message to a
//     full channel says so) is drawn as a dropped message: an arrow towards
//     the group's receiving lifeline that ends in a cross.
//   - The failure is marked where it happens: an assertion or run-time
//     error by a box on the lifeline of the last step, an invalid end state
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
}

// A ChartGroup is a set of adjacent lifelines drawn under one name.
type ChartGroup struct {
	Name        string // "" for a process without a group
	First, Last int    // lifeline indexes, inclusive
}

// A Lifeline is one process.
type Lifeline struct {
	Pid   int
	Proc  string
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
	RecvRow int // -1: not received (in flight at the end, or dropped)
	Dropped bool
	Num     int // 1-based, in order of sending
}

// Verdict is the text of the band at the bottom of a chart: what went
// wrong, and how many messages are still in channels.
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
	if n := c.inFlight(); n > 0 {
		text += fmt.Sprintf(" (%d message%s in flight)", n, plural(n))
	}
	return text
}

// InFlight reports whether the message was sent and is still in a channel
// at the end of the run.
func (m *Message) InFlight() bool { return m.RecvRow < 0 && !m.Dropped }

var dropRe = regexp.MustCompile(`^drop (.+) to (.+)$`)

// NewChart lays out cx. title is drawn above the chart (e.g. the model).
func NewChart(cx *Counterexample, title string) *Chart {
	c := &Chart{Title: title, LoopRow: -1, Kind: cx.Kind, Message: cx.Message}
	c.Deadlock = cx.Kind == "invalid end state"

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
		first bool
	}
	var items []item
	for i, s := range cx.Steps {
		n0 := len(items)
		sendPartner := map[string]int{}
		for _, ev := range s.Events {
			if ev.Type == "send" && ev.Partner >= 0 {
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
			case "local":
				text := localText(ev.Text)
				if m := dropRe.FindStringSubmatch(text); m != nil {
					items = append(items, item{step: i, pid: s.Pid, kind: RowSend, ev: Event{Type: "send", Msg: m[1], Partner: -1, Dropped: true, Text: m[2]}})
					continue
				}
				items = append(items, item{step: i, pid: s.Pid, kind: RowLocal, text: text})
			}
		}
		last := i == len(cx.Steps)-1
		failing := last && !c.Deadlock && cx.Kind != "" && cx.LoopStart < 0
		if len(items) == n0 && !marked && !failing && s.Stmt != "" && s.Pid >= 0 {
			items = append(items, item{step: i, pid: s.Pid, kind: RowStmt, text: s.Stmt})
		}
		if failing {
			// The box names the kind; the message (often a long
			// expression) goes in the band at the bottom.
			if s.Note != "" {
				c.Message = s.Note
			}
			items = append(items, item{step: i, pid: s.Pid, kind: RowFail, text: cx.Kind})
		}
		if len(items) > n0 {
			items[n0].first = true
		}
	}

	// Lifelines: every pid with an item, grouped.
	procOf := map[int]string{}
	groupOf := map[int]string{}
	for _, s := range cx.Steps {
		if _, ok := procOf[s.Pid]; !ok {
			procOf[s.Pid] = s.Proc
			groupOf[s.Pid] = s.Group
		}
	}
	pids := map[int]bool{}
	for _, it := range items {
		pids[it.pid] = true
	}
	type gkey struct {
		name string
		pid  int // for ungrouped processes
	}
	keyOf := func(pid int) gkey {
		if g := groupOf[pid]; g != "" {
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
		proc := procOf[pid]
		if proc == "" {
			proc = "pid " + strconv.Itoa(pid)
		}
		c.Lifelines = append(c.Lifelines, Lifeline{Pid: pid, Proc: proc, Group: len(c.Groups) - 1})
		lineOf[pid] = i
	}

	// Channel readers, for messages whose receive is not in the run.
	reader := map[string]int{}
	recvs := map[int]int{}
	for _, it := range items {
		if it.kind == RowRecv {
			recvs[lineOf[it.pid]]++
			if _, ok := reader[it.ev.Chan]; !ok && it.ev.Chan != "" {
				reader[it.ev.Chan] = lineOf[it.pid]
			}
		}
	}

	// Pass 2: rows and messages.
	type mkey struct{ ch, msg string }
	pending := map[mkey][]int{}
	for _, it := range items {
		s := cx.Steps[it.step]
		if it.step == cx.LoopStart && c.LoopRow < 0 {
			c.LoopRow = len(c.Rows)
		}
		row := Row{Step: s.Num, FirstOfStep: it.first, Kind: it.kind, Lifeline: lineOf[it.pid], Text: it.text, Msg: -1}
		switch it.kind {
		case RowSend:
			m := Message{Label: it.ev.Msg, Chan: it.ev.Chan, From: row.Lifeline, To: -1, SendRow: len(c.Rows), RecvRow: -1, Dropped: it.ev.Dropped, Num: len(c.Messages) + 1}
			if it.ev.Partner >= 0 {
				if l, ok := lineOf[it.ev.Partner]; ok {
					m.To = l
				}
			}
			if m.To < 0 && it.ev.Dropped && it.ev.Text != "" {
				m.To = c.groupReceiver(it.ev.Text, recvs)
			}
			if m.To < 0 {
				if l, ok := reader[m.Chan]; ok && m.Chan != "" {
					m.To = l
				}
			}
			row.Msg = len(c.Messages)
			if m.Dropped {
				row.Text = "dropped"
			}
			c.Messages = append(c.Messages, m)
			if !m.Dropped {
				k := mkey{m.Chan, m.Label}
				pending[k] = append(pending[k], row.Msg)
			}
		case RowRecv:
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

// groupReceiver returns the lifeline of the named group that receives
// messages in the run (the most often), else the group's last lifeline, or
// -1 when no lifeline of the group is drawn.
func (c *Chart) groupReceiver(name string, recvs map[int]int) int {
	for _, g := range c.Groups {
		if g.Name != name && GroupLabel(g.Name) != name {
			continue
		}
		best := g.Last
		for l := g.First; l <= g.Last; l++ {
			if recvs[l] > recvs[best] {
				best = l
			}
		}
		return best
	}
	return -1
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
