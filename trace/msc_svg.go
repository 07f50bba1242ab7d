package trace

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
)

// SVG geometry of a chart, in pixels.
const (
	svgLeft    = 60 // the step-number margin
	svgRowH    = 26
	svgColMin  = 150
	svgCharW   = 6.6 // average width of a character at svgFont
	svgFont    = 12
	svgHeadH   = 34
	svgGroupH  = 22
	svgBandH   = 30
	svgPadding = 16
)

// WriteSVG draws the chart as a standalone SVG document.
func (c *Chart) WriteSVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	g := c.svgGeometry()
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }

	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="%d">`+"\n",
		g.width, g.height, g.width, g.height, svgFont)
	p(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f3a93"/></marker>`)
	p(`<marker id="open" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10" fill="none" stroke="#7a7a7a" stroke-width="1.5"/></marker></defs>` + "\n")
	p(`<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>`+"\n", g.width, g.height)
	if c.Title != "" {
		p(`<text x="%d" y="%d" font-size="%d" font-weight="bold">%s</text>`+"\n", svgPadding, svgPadding+8, svgFont+2, xmlEscape(c.Title))
	}

	// Groups and lifeline heads.
	for _, gr := range c.Groups {
		if gr.Name == "" {
			continue
		}
		x0 := g.x(gr.First) - g.col/2 + 4
		x1 := g.x(gr.Last) + g.col/2 - 4
		p(`<rect x="%.1f" y="%d" width="%.1f" height="%d" rx="4" fill="#e8eef9" stroke="#5b79b8"/>`+"\n", x0, g.groupY, x1-x0, svgGroupH)
		p(`<text x="%.1f" y="%d" text-anchor="middle" font-weight="bold">%s</text>`+"\n", (x0+x1)/2, g.groupY+15, xmlEscape(GroupLabel(gr.Name)))
	}
	for i, l := range c.Lifelines {
		x := g.x(i)
		w := g.col - 24
		p(`<rect x="%.1f" y="%d" width="%.1f" height="%d" rx="3" fill="#f6f6f6" stroke="#333"/>`+"\n", x-w/2, g.headY, w, svgHeadH)
		p(`<text x="%.1f" y="%d" text-anchor="middle" font-weight="bold">%s</text>`+"\n", x, g.headY+15, xmlEscape(l.Proc))
		p(`<text x="%.1f" y="%d" text-anchor="middle" font-size="10" fill="#555">pid %d</text>`+"\n", x, g.headY+28, l.Pid)
		p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999" stroke-dasharray="4 3"/>`+"\n", x, g.headY+svgHeadH, x, g.endY)
	}

	// Step numbers and guides.
	p(`<text x="%d" y="%d" text-anchor="end" font-size="10" fill="#555">step</text>`+"\n", svgLeft-12, g.headY+svgHeadH-4)
	for i, r := range c.Rows {
		if !r.FirstOfStep {
			continue
		}
		y := g.y(i)
		p(`<text x="%d" y="%.1f" text-anchor="end" fill="#555">%d</text>`+"\n", svgLeft-12, y+4, r.Step)
		p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>`+"\n", svgLeft-6, y, g.width-svgPadding, y)
	}
	if c.LoopRow >= 0 {
		y := g.y(c.LoopRow) - svgRowH/2
		p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#b8860b" stroke-dasharray="8 4"/>`+"\n", svgLeft-6, y, g.width-svgPadding, y)
		p(`<text x="%d" y="%.1f" fill="#b8860b" font-size="10">cycle starts here</text>`+"\n", g.width-svgPadding-100, y-3)
	}

	// Messages.
	labels := make([]string, 0, len(c.Messages))
	for _, m := range c.Messages {
		labels = append(labels, c.svgMessage(bw, g, m))
	}

	// Local events, annotations, the failing step.
	for i, r := range c.Rows {
		x, y := g.x(r.Lifeline), g.y(i)
		switch r.Kind {
		case RowLocal:
			w := float64(len(r.Text))*svgCharW + 14
			p(`<rect x="%.1f" y="%.1f" width="%.1f" height="20" rx="3" fill="#fff7d6" stroke="#b8860b"/>`+"\n", x-w/2, y-10, w)
			p(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, y+4, xmlEscape(r.Text))
		case RowStmt:
			p(`<circle cx="%.1f" cy="%.1f" r="2.5" fill="#777"/>`+"\n", x, y)
			p(`<text x="%.1f" y="%.1f" font-size="10" fill="#555">%s</text>`+"\n", x+6, y+4, xmlEscape(clip(r.Text, int((g.col-12)/6))))
		case RowFail:
			w := float64(len(r.Text))*svgCharW + 14
			p(`<rect x="%.1f" y="%.1f" width="%.1f" height="20" rx="3" fill="#fde2e2" stroke="#c0392b" stroke-width="1.5"/>`+"\n", x-w/2, y-10, w)
			p(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="#8e1b10">%s</text>`+"\n", x, y+4, xmlEscape(r.Text))
		case RowSend:
			p(`<circle cx="%.1f" cy="%.1f" r="3" fill="#1f3a93"/>`+"\n", x, y)
		}
	}

	// Labels last, over boxes and lines.
	for _, l := range labels {
		bw.WriteString(l)
	}

	// The end of the run.
	for i := range c.Lifelines {
		x := g.x(i)
		p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333" stroke-width="2"/>`+"\n", x-12, g.endY, x+12, g.endY)
	}
	if text := c.Verdict(); text != "" {
		x0 := float64(svgLeft)
		x1 := float64(g.width - svgPadding)
		text = clip(text, int((x1-x0-12)/svgCharW))
		p(`<rect x="%.1f" y="%d" width="%.1f" height="%d" rx="4" fill="#fde2e2" stroke="#c0392b" stroke-width="1.5"/>`+"\n", x0, g.endY+8, x1-x0, svgBandH-6)
		p(`<text x="%.1f" y="%d" text-anchor="middle" fill="#8e1b10" font-weight="bold">%s</text>`+"\n", (x0+x1)/2, g.endY+8+16, xmlEscape(text))
	}
	p("</svg>\n")
	return bw.Flush()
}

// svgMessage draws the arrow of m and returns its label, to be drawn after
// the boxes.
func (c *Chart) svgMessage(w io.Writer, g svgGeom, m Message) string {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	var x1, y1, x2, y2 float64
	switch {
	case m.From < 0:
		x1, y1 = float64(svgLeft), g.y(m.RecvRow)-8
	default:
		x1, y1 = g.x(m.From), g.y(m.SendRow)
	}
	label := m.Label
	switch {
	case m.RecvRow >= 0:
		x2, y2 = g.x(m.To), g.y(m.RecvRow)
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#1f3a93" stroke-width="1.4" marker-end="url(#arrow)"/>`+"\n", x1, y1, x2, y2)
	case m.Dropped:
		tx := x1 + g.col*0.75
		if m.To >= 0 && m.To != m.From {
			tx = x1 + (g.x(m.To)-x1)*0.6
		}
		x2, y2 = tx, y1+8
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#c0392b" stroke-width="1.4" stroke-dasharray="5 3"/>`+"\n", x1, y1, x2, y2)
		p(`<path d="M%.1f,%.1f l10,10 m0,-10 l-10,10" stroke="#c0392b" stroke-width="2"/>`+"\n", x2-5, y2-5)
		label += " (dropped)"
	case m.To >= 0 && m.To != m.From: // in flight at the end, to a known receiver
		x2, y2 = g.x(m.To), float64(g.endY)-4
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#7a7a7a" stroke-width="1.4" stroke-dasharray="6 3" marker-end="url(#open)"/>`+"\n", x1, y1, x2, y2)
		label += " (in flight)"
	default: // in flight, receiver unknown: a stub
		x2, y2 = x1+g.col*0.4, y1+6
		if m.From == len(c.Lifelines)-1 {
			x2 = x1 - g.col*0.4
		}
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#7a7a7a" stroke-width="1.4" stroke-dasharray="6 3" marker-end="url(#open)"/>`+"\n", x1, y1, x2, y2)
		label += " (in flight)"
	}
	// The label sits on the arrow near its sender, where arrows that
	// cross further on are still apart.
	t := 0.5
	if d := math.Hypot(x2-x1, y2-y1); d > 0 && 90/d < t {
		t = 90 / d
	}
	mx, my := x1+(x2-x1)*t, y1+(y2-y1)*t-4
	return fmt.Sprintf(`<text x="%.1f" y="%.1f" text-anchor="middle" font-size="11" fill="#1f3a93" stroke="#ffffff" stroke-width="3" paint-order="stroke">%s</text>`+"\n", mx, my, xmlEscape(label)) +
		fmt.Sprintf(`<text x="%.1f" y="%.1f" text-anchor="middle" font-size="11" fill="#1f3a93">%s</text>`+"\n", mx, my, xmlEscape(label))
}

// svgGeom is where things go.
type svgGeom struct {
	col                   float64
	width, height         int
	groupY, headY, firstY int
	endY                  int
}

func (g svgGeom) x(lifeline int) float64 {
	return float64(svgLeft) + g.col/2 + float64(lifeline)*g.col
}

func (g svgGeom) y(row int) float64 {
	return float64(g.firstY + row*svgRowH)
}

func (c *Chart) svgGeometry() svgGeom {
	var g svgGeom
	// Columns are as wide as the widest local box or label needs.
	g.col = svgColMin
	for _, r := range c.Rows {
		if r.Kind == RowLocal {
			if w := float64(len(r.Text))*svgCharW + 30; w > g.col {
				g.col = w
			}
		}
	}
	g.groupY = svgPadding
	if c.Title != "" {
		g.groupY += 20
	}
	g.headY = g.groupY
	for _, gr := range c.Groups {
		if gr.Name != "" {
			g.headY = g.groupY + svgGroupH + 6
			break
		}
	}
	g.firstY = g.headY + svgHeadH + 22
	g.endY = g.firstY + len(c.Rows)*svgRowH
	n := len(c.Lifelines)
	if n == 0 {
		n = 1
	}
	g.width = svgLeft + int(float64(n)*g.col) + svgPadding
	if g.width < 420 {
		g.width = 420
	}
	g.height = g.endY + svgPadding
	if c.Kind != "" {
		g.height += svgBandH + 4
	}
	return g
}

func (c *Chart) inFlight() int {
	n := 0
	for i := range c.Messages {
		if c.Messages[i].InFlight() {
			n++
		}
	}
	return n
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func clip(s string, n int) string {
	if n < 4 {
		n = 4
	}
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

var xmlReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func xmlEscape(s string) string { return xmlReplacer.Replace(s) }
