package trace

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

const (
	textStepW = 6  // the step-number margin
	textColW  = 18 // characters per lifeline, at least
	textColX  = 40 // at most
)

// textCol is the width of a lifeline's column: wide enough for the boxes
// on it to leave the lifelines beside them alone (up to textColX).
func (c *Chart) textCol() int {
	w := textColW
	for _, r := range c.Rows {
		n := 0
		switch r.Kind {
		case RowLocal:
			n = len([]rune(r.Text)) + 2
		case RowFail:
			n = len([]rune(r.Text)) + 3
		default:
			continue
		}
		need := n/2 + 2 // centered between the neighbours' bars
		if r.Lifeline == 0 {
			need = (2*n+2)/3 + 1 // from the step numbers to the next bar
		}
		w = max(w, min(need, textColX))
	}
	return w
}

// WriteText draws the chart for a terminal: one column per lifeline, one
// line per row. A message is drawn as an arrow on the line where it is sent,
// numbered (#n), and its receive is marked *#n on the receiver's line; a
// message not received is dashed and ends short of its receiver. A label
// goes on its arrow, else beside it where no lifeline is, else after the
// last lifeline: it never hides a lifeline. A step with nothing to draw is
// a + on its lifeline.
func (c *Chart) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	col := c.textCol()
	width := textStepW + len(c.Lifelines)*col
	center := func(l int) int { return textStepW + l*col + col/2 }

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
			a := textStepW + g.First*col + 1
			b := textStepW + (g.Last+1)*col - 1
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
		putCentered(line, center(i), l.Proc, textStepW+i*col, textStepW+(i+1)*col-1)
	}
	writeLine(bw, line)
	line = blank(width)
	for i, l := range c.Lifelines {
		putCentered(line, center(i), l.Note, textStepW+i*col, textStepW+(i+1)*col-1)
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
			line = c.textArrow(line, c.Messages[r.Msg], x, center, width, col)
		case RowRecv:
			line = put(line, x, fmt.Sprintf("*#%d", c.Messages[r.Msg].Num))
		case RowLocal:
			line = putBox(line, x, "["+r.Text+"]")
		case RowStmt:
			text := ". " + r.Text
			if r.Lifeline < len(c.Lifelines)-1 {
				text = clip(text, col-1)
			}
			line = put(line, x, text)
		case RowFail:
			line = putBox(line, x, "!! "+r.Text)
		case RowQuiet:
			line[x] = '+'
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
	for _, l := range c.Legend("+") {
		fmt.Fprintln(bw, strings.Repeat(" ", textStepW)+l)
	}
	return bw.Flush()
}

// textArrow draws message m from column x on line: to its receiver, or,
// when it was not received, dashed and two columns short of it (a short
// stub to the right when the receiver is unknown); a dropped or unsent
// message ends in X.
func (c *Chart) textArrow(line []rune, m Message, x int, center func(int) int, width, col int) []rune {
	label := fmt.Sprintf("#%d %s", m.Num, c.MessageText(&m))
	end := '>'
	if m.Dropped || m.Failed {
		end = 'X'
	}
	dashed := m.RecvRow < 0 && !m.Dropped
	to := -1
	if m.To >= 0 && m.To != m.From {
		to = center(m.To)
		switch {
		case m.Dropped:
			// A dropped message stops on its way.
			to = x + (to-x)*2/3
		case m.RecvRow < 0 && to > x:
			to -= 2
		case m.RecvRow < 0:
			to += 2
		}
	}
	if to < 0 {
		// Unknown receiver: a short arrow to the right.
		to = x + col - 2
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
	// free reports whether columns [a, b) hold nothing (no lifeline).
	free := func(a, b int) bool {
		if a < textStepW {
			return false
		}
		for i := a; i < b && i < len(line); i++ {
			if line[i] != ' ' {
				return false
			}
		}
		return true
	}
	for i := lo + 1; i < hi; i++ {
		if !dashed || (i-lo)%2 == 1 {
			line[i] = '-'
		}
	}
	line[x] = 'o'
	if to < x {
		line[lo] = end
	} else {
		line[hi] = end
	}
	n := len([]rune(label))
	if n+4 <= hi-lo-1 {
		putCentered(line, (lo+hi)/2, " "+label+" ", lo+1, hi-1)
		return line
	}
	// Beyond the head, else behind the tail, where no lifeline is.
	var spots []int
	if to > x {
		spots = []int{hi + 2, lo - 2 - n}
	} else {
		spots = []int{lo - 2 - n, hi + 2}
	}
	for _, at := range spots {
		if free(at-1, at+n+1) {
			return put(line, at, label)
		}
	}
	// After the last lifeline, the number on the arrow.
	if num := fmt.Sprintf(" #%d ", m.Num); len(num)+2 <= hi-lo-1 {
		putCentered(line, (lo+hi)/2, num, lo+1, hi-1)
	}
	at := len([]rune(strings.TrimRight(string(line), " "))) + 2
	if at < width+1 {
		at = width + 1
	}
	return put(line, at, label)
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
