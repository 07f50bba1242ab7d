package trace

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

const (
	textStepW = 6  // the step-number margin
	textColW  = 18 // characters per lifeline
)

// WriteText draws the chart for a terminal: one column per lifeline, one
// line per row. A message is drawn as an arrow on the line where it is sent,
// numbered (#n), and its receive is marked *#n on the receiver's line.
func (c *Chart) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	width := textStepW + len(c.Lifelines)*textColW
	center := func(l int) int { return textStepW + l*textColW + textColW/2 }

	if c.Title != "" {
		fmt.Fprintln(bw, c.Title)
	}
	hasGroups := false
	for _, g := range c.Groups {
		if g.Name != "" {
			hasGroups = true
		}
	}
	if hasGroups {
		line := blank(width)
		for _, g := range c.Groups {
			if g.Name == "" {
				continue
			}
			a := textStepW + g.First*textColW + 1
			b := textStepW + (g.Last+1)*textColW - 1
			for i := a; i < b; i++ {
				line[i] = '-'
			}
			putCentered(line, (a+b)/2, " "+GroupLabel(g.Name)+" ", a, b)
		}
		writeLine(bw, line)
	}
	line := blank(width)
	copy(line, []rune(" step"))
	for i, l := range c.Lifelines {
		putCentered(line, center(i), l.Proc, textStepW+i*textColW, textStepW+(i+1)*textColW-1)
	}
	writeLine(bw, line)
	line = blank(width)
	for i, l := range c.Lifelines {
		putCentered(line, center(i), fmt.Sprintf("pid %d", l.Pid), textStepW+i*textColW, textStepW+(i+1)*textColW-1)
	}
	writeLine(bw, line)
	writeLine(bw, c.textBars(width, center))

	for i, r := range c.Rows {
		if i == c.LoopRow {
			fmt.Fprintln(bw, strings.Repeat(" ", textStepW)+"---- cycle starts here ----")
		}
		line := c.textBars(width, center)
		if r.FirstOfStep {
			copy(line, []rune(fmt.Sprintf("%5d ", r.Step)))
		}
		x := center(r.Lifeline)
		switch r.Kind {
		case RowSend:
			line = c.textArrow(line, c.Messages[r.Msg], x, center)
		case RowRecv:
			line = put(line, x, fmt.Sprintf("*#%d", c.Messages[r.Msg].Num))
		case RowLocal:
			line = putBox(line, x, "["+r.Text+"]")
		case RowStmt:
			line = put(line, x, ". "+r.Text)
		case RowFail:
			line = putBox(line, x, "!! "+r.Text)
		}
		writeLine(bw, line)
	}
	end := c.textBars(width, center)
	for i := range c.Lifelines {
		end[center(i)] = '='
	}
	writeLine(bw, end)
	if text := c.Verdict(); text != "" {
		if n := c.inFlight(); n > 0 {
			text += ":"
			for _, m := range c.Messages {
				if m.InFlight() {
					text += fmt.Sprintf(" #%d", m.Num)
				}
			}
		}
		fmt.Fprintln(bw, strings.Repeat(" ", textStepW)+"**** "+text)
	}
	return bw.Flush()
}

// textArrow draws message m from column x on line.
func (c *Chart) textArrow(line []rune, m Message, x int, center func(int) int) []rune {
	label := fmt.Sprintf("#%d %s", m.Num, m.Label)
	end := '>'
	switch {
	case m.Dropped:
		label += " (dropped)"
		end = 'X'
	case m.InFlight() && (m.To < 0 || m.To == m.From) && m.Chan != "":
		label += " (in flight in " + m.Chan + ")"
	case m.InFlight():
		label += " (in flight)"
	}
	to := -1
	if m.To >= 0 && m.To != m.From {
		to = center(m.To)
	}
	if to < 0 {
		// Unknown receiver: a short arrow to the right.
		to = x + textColW - 2
	}
	if m.Dropped && m.To >= 0 && m.To != m.From {
		// A dropped message stops on its way.
		to = x + (to-x)*2/3
	}
	lo, hi := x, to
	if to < x {
		lo, hi = to, x
		if end == '>' {
			end = '<'
		}
	}
	for len(line) <= hi+1 {
		line = append(line, ' ')
	}
	for i := lo + 1; i < hi; i++ {
		line[i] = '-'
	}
	line[x] = 'o'
	if to < x {
		line[lo] = end
	} else {
		line[hi] = end
	}
	if len(label)+4 <= hi-lo-1 {
		putCentered(line, (lo+hi)/2, " "+label+" ", lo+1, hi-1)
		return line
	}
	return put(line, hi+2, label)
}

func (c *Chart) textBars(width int, center func(int) int) []rune {
	line := blank(width)
	for i := range c.Lifelines {
		line[center(i)] = '|'
	}
	return line
}

func blank(n int) []rune { return []rune(strings.Repeat(" ", n)) }

// put writes s from column x, growing the line when needed.
func put(line []rune, x int, s string) []rune {
	r := []rune(s)
	for len(line) < x+len(r) {
		line = append(line, ' ')
	}
	copy(line[x:], r)
	return line
}

// putBox writes s centered on column x when it fits, else from near x.
func putBox(line []rune, x int, s string) []rune {
	start := x - len([]rune(s))/2
	if start < textStepW {
		start = textStepW
	}
	return put(line, start, s)
}

// putCentered writes s centered on x within [lo, hi], clipped.
func putCentered(line []rune, x int, s string, lo, hi int) {
	r := []rune(s)
	if n := hi - lo + 1; len(r) > n && n > 0 {
		r = r[:n]
	}
	start := x - len(r)/2
	if start < lo {
		start = lo
	}
	for i, ch := range r {
		if start+i < len(line) && start+i <= hi {
			line[start+i] = ch
		}
	}
}

func writeLine(w io.Writer, line []rune) {
	fmt.Fprintln(w, strings.TrimRight(string(line), " "))
}
