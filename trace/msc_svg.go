package trace

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// SVG geometry of a chart, in pixels.
const (
	svgLeft    = 60 // the step-number margin
	svgRowH    = 26
	svgColMin  = 150
	svgFont    = 12
	svgLabelF  = 11 // message labels
	svgTitleF  = 14
	svgHeadH   = 34
	svgGroupH  = 22
	svgBandL   = 17 // height of a line of the band at the bottom
	svgPadding = 16
	svgBoxH    = 20
	svgQuietH  = 16 // height of a row that only marks a step
	svgShort   = 18 // how far short of its receiver a message not received ends
	svgLegendL = 15 // height of a line of the legend
)

// WriteSVG draws the chart as a standalone SVG document.
func (c *Chart) WriteSVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	l := c.svgLayout()
	g := l.svgGeom
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }

	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="%d">`+"\n",
		g.width, g.height, g.width, g.height, svgFont)
	p(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f3a93"/></marker>`)
	p(`<marker id="open" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10" fill="none" stroke="#7a7a7a" stroke-width="1.5"/></marker></defs>` + "\n")
	p(`<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>`+"\n", g.width, g.height)
	if c.Title != "" {
		p(`<text x="%d" y="%d" font-size="%d" font-weight="bold">%s</text>`+"\n", svgPadding, svgPadding+8, svgTitleF, xmlEscape(c.Title))
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
	for i, ll := range c.Lifelines {
		x := g.x(i)
		w := g.col - 24
		p(`<rect x="%.1f" y="%d" width="%.1f" height="%d" rx="3" fill="#f6f6f6" stroke="#333"/>`+"\n", x-w/2, g.headY, w, svgHeadH)
		if ll.Note == "" {
			p(`<text x="%.1f" y="%d" text-anchor="middle" font-weight="bold">%s</text>`+"\n", x, g.headY+21, xmlEscape(ll.Proc))
		} else {
			p(`<text x="%.1f" y="%d" text-anchor="middle" font-weight="bold">%s</text>`+"\n", x, g.headY+15, xmlEscape(ll.Proc))
			p(`<text x="%.1f" y="%d" text-anchor="middle" font-size="10" fill="#555">%s</text>`+"\n", x, g.headY+28, xmlEscape(ll.Note))
		}
		p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999" stroke-dasharray="4 3"/>`+"\n", x, g.headY+svgHeadH, x, g.endY)
	}

	// Step numbers and guides.
	p(`<text x="%d" y="%d" text-anchor="end" font-size="10" fill="#555">step</text>`+"\n", svgLeft-12, g.headY+svgHeadH-4)
	for i, r := range c.Rows {
		if !r.FirstOfStep {
			continue
		}
		y := g.y(i)
		if r.Kind == RowQuiet {
			p(`<text x="%d" y="%.1f" text-anchor="end" font-size="10" fill="#999">%d</text>`+"\n", svgLeft-12, y+3.5, r.Step)
			continue
		}
		p(`<text x="%d" y="%.1f" text-anchor="end" fill="#555">%d</text>`+"\n", svgLeft-12, y+4, r.Step)
		p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>`+"\n", svgLeft-6, y, g.width-svgPadding, y)
	}
	if c.LoopRow >= 0 {
		y := g.top(c.LoopRow)
		p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#b8860b" stroke-dasharray="8 4"/>`+"\n", svgLeft-6, y, g.width-svgPadding, y)
		p(`<text x="%d" y="%.1f" fill="#b8860b" font-size="10">cycle starts here</text>`+"\n", g.width-svgPadding-100, y-3)
	}

	// Messages.
	for _, a := range l.arrows {
		switch a.style {
		case arrowReceived:
			p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#1f3a93" stroke-width="1.4" marker-end="url(#arrow)"/>`+"\n", a.x1, a.y1, a.x2, a.y2)
		case arrowDropped, arrowFailed:
			p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#c0392b" stroke-width="1.4" stroke-dasharray="5 3"/>`+"\n", a.x1, a.y1, a.x2, a.y2)
			p(`<path d="M%.1f,%.1f l10,10 m0,-10 l-10,10" stroke="#c0392b" stroke-width="2"/>`+"\n", a.x2-5, a.y2-5)
		default: // in flight
			p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555" stroke-width="1.4" stroke-dasharray="6 3" marker-end="url(#open)"/>`+"\n", a.x1, a.y1, a.x2, a.y2)
		}
	}

	// Local events, annotations, the failing step, steps with nothing to
	// draw.
	for _, b := range l.boxes {
		r := c.Rows[b.row]
		x, y := g.x(r.Lifeline), g.y(b.row)
		cx := (b.X0 + b.X1) / 2
		switch r.Kind {
		case RowLocal:
			p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%d" rx="3" fill="#fff7d6" stroke="#b8860b"/>`+"\n", b.X0, b.Y0, b.X1-b.X0, svgBoxH)
			p(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", cx, y+4, xmlEscape(b.text))
		case RowStmt:
			p(`<circle cx="%.1f" cy="%.1f" r="2.5" fill="#777"/>`+"\n", x, y)
			p(`<text x="%.1f" y="%.1f" font-size="10" fill="#555">%s</text>`+"\n", x+6, y+4, xmlEscape(b.text))
		case RowFail:
			p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%d" rx="3" fill="#fde2e2" stroke="#c0392b" stroke-width="1.5"/>`+"\n", b.X0, b.Y0, b.X1-b.X0, svgBoxH)
			p(`<text x="%.1f" y="%.1f" text-anchor="middle" fill="#8e1b10">%s</text>`+"\n", cx, y+4, xmlEscape(b.text))
		}
	}
	for i, r := range c.Rows {
		switch r.Kind {
		case RowSend:
			fill := "#1f3a93"
			if m := c.Messages[r.Msg]; m.Dropped || m.Failed {
				fill = "#c0392b"
			}
			p(`<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", g.x(r.Lifeline), g.y(i), fill)
		case RowQuiet:
			p(`<circle cx="%.1f" cy="%.1f" r="3.5" fill="#ffffff" stroke="#777" stroke-width="1.2"><title>%s</title></circle>`+"\n", g.x(r.Lifeline), g.y(i), xmlEscape(fmt.Sprintf("step %d: %s", r.Step, r.Text)))
		}
	}

	// Labels last, over boxes and lines, on a white halo.
	for _, a := range l.arrows {
		lb := a.label
		for _, halo := range []bool{true, false} {
			extra := ""
			if halo {
				extra = ` stroke="#ffffff" stroke-width="3" paint-order="stroke"`
			}
			p(`<text x="%.1f" y="%.1f" text-anchor="middle" font-size="%d" fill="%s"%s>%s</text>`+"\n", lb.x, lb.y, svgLabelF, a.color(), extra, xmlEscape(lb.text))
		}
	}

	// The end of the run.
	for i := range c.Lifelines {
		x := g.x(i)
		p(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333" stroke-width="2"/>`+"\n", x-12, g.endY, x+12, g.endY)
	}
	if len(l.band) > 0 {
		x0 := float64(svgLeft)
		x1 := float64(g.width - svgPadding)
		p(`<rect x="%.1f" y="%d" width="%.1f" height="%d" rx="4" fill="#fde2e2" stroke="#c0392b" stroke-width="1.5"/>`+"\n", x0, g.endY+8, x1-x0, l.bandH())
		for i, line := range l.band {
			p(`<text x="%.1f" y="%d" text-anchor="middle" fill="#8e1b10" font-weight="bold">%s</text>`+"\n", (x0+x1)/2, g.endY+8+16+i*svgBandL, xmlEscape(line))
		}
	}
	for i, line := range l.legend {
		p(`<text x="%d" y="%d" font-size="%d" fill="#555">%s</text>`+"\n", svgLeft, g.legendY+12+i*svgLegendL, svgLabelF, xmlEscape(line))
	}
	p("</svg>\n")
	return bw.Flush()
}

// svgRect is an axis-parallel rectangle.
type svgRect struct{ X0, Y0, X1, Y1 float64 }

// overlap is the area that r and s share.
func (r svgRect) overlap(s svgRect) float64 {
	w := math.Min(r.X1, s.X1) - math.Max(r.X0, s.X0)
	h := math.Min(r.Y1, s.Y1) - math.Max(r.Y0, s.Y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// clipLen is the length of the segment (x1,y1)-(x2,y2) inside r
// (Liang-Barsky clipping).
func (r svgRect) clipLen(x1, y1, x2, y2 float64) float64 {
	t0, t1 := 0.0, 1.0
	dx, dy := x2-x1, y2-y1
	for _, e := range [4][2]float64{{-dx, x1 - r.X0}, {dx, r.X1 - x1}, {-dy, y1 - r.Y0}, {dy, r.Y1 - y1}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return 0
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
	}
	if t0 >= t1 {
		return 0
	}
	return (t1 - t0) * math.Hypot(dx, dy)
}

// An svgBox is what a row draws on its lifeline besides a message: a local
// event or the failure in a box, or a statement annotation.
type svgBox struct {
	svgRect
	row  int
	text string
}

// An svgLabel is a message label: text-anchor middle at x, baseline y.
type svgLabel struct {
	svgRect
	text string
	x, y float64
}

type arrowStyle int

const (
	arrowReceived arrowStyle = iota
	arrowDropped
	arrowInFlight // in flight to a known receiver: towards it, ending short of it
	arrowStub     // in flight, receiver unknown
	arrowFailed   // not sent (the failing step): towards the receiver, ending in a cross
)

// An svgArrow is one message.
type svgArrow struct {
	msg            int
	style          arrowStyle
	x1, y1, x2, y2 float64
	label          svgLabel
}

// bounds is the rectangle an arrow's line spans.
func (a svgArrow) bounds() svgRect {
	return svgRect{math.Min(a.x1, a.x2), math.Min(a.y1, a.y2), math.Max(a.x1, a.x2), math.Max(a.y1, a.y2)}
}

func (a svgArrow) color() string {
	switch a.style {
	case arrowDropped, arrowFailed:
		return "#c0392b"
	case arrowInFlight, arrowStub:
		return "#333"
	}
	return "#1f3a93"
}

// svgLayout is where every part of a chart goes; WriteSVG only draws it,
// and tests check it (no label over a box or another label, everything
// inside the picture).
type svgLayout struct {
	svgGeom
	boxes  []svgBox
	arrows []svgArrow
	band   []string // the lines of the band at the bottom
	legend []string // the lines under it
	title  svgRect
}

func (l *svgLayout) bandH() int { return len(l.band)*svgBandL + 8 }

// textWidth estimates the width of s in DejaVu Sans at size pixels (the
// SVG names that font first), on the generous side; bold text is wider.
func textWidth(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r == ' ':
			w += 0.32
		case r == 'I' || r == 'i' || r == 'l' || r == 'j':
			w += 0.29
		case r == 'M' || r == 'W' || r == 'm' || r == 'w':
			w += 0.88
		case r >= 'A' && r <= 'Z':
			w += 0.72
		case r >= 'a' && r <= 'z':
			w += 0.58
		case r >= '0' && r <= '9':
			w += 0.64
		case strings.ContainsRune(".,:;'|!()[]", r):
			w += 0.38
		default:
			w += 0.62
		}
	}
	if bold {
		w *= 1.15
	}
	return w * size
}

// svgLayout lays the chart out: the arrows first, then the boxes, each
// where the fewest arrows run through it (on its lifeline, or beside it),
// then the labels where they cover the least.
func (c *Chart) svgLayout() svgLayout {
	l := svgLayout{svgGeom: c.svgGeometry()}
	g := &l.svgGeom
	right := float64(g.width - svgPadding) // the rightmost x anything may reach

	var texts []string
	for i := range c.Messages {
		m := &c.Messages[i]
		a := svgArrow{msg: i}
		if m.From < 0 {
			a.x1, a.y1 = float64(svgLeft), g.y(m.RecvRow)-8
		} else {
			a.x1, a.y1 = g.x(m.From), g.y(m.SendRow)
		}
		toward := m.To >= 0 && m.To != m.From
		switch {
		case m.RecvRow >= 0:
			a.style = arrowReceived
			a.x2, a.y2 = g.x(m.To), g.y(m.RecvRow)
		case m.Dropped:
			a.style = arrowDropped
			tx := a.x1 + g.col*0.75
			if toward {
				tx = a.x1 + (g.x(m.To)-a.x1)*0.6
			}
			a.x2, a.y2 = tx, a.y1+8
		case toward:
			// Towards the receiver's lifeline, ending short of it: it has
			// not arrived (in flight), or was never sent (failed).
			a.style = arrowInFlight
			if m.Failed {
				a.style = arrowFailed
			}
			xt := g.x(m.To)
			a.x2, a.y2 = xt-math.Copysign(svgShort, xt-a.x1), a.y1+8
		case m.Failed:
			a.style = arrowFailed
			a.x2, a.y2 = a.x1+g.col*0.4, a.y1+8
		default:
			a.style = arrowStub
			a.x2, a.y2 = a.x1+g.col*0.4, a.y1+6
			if m.From == len(c.Lifelines)-1 && m.From > 0 {
				a.x2 = a.x1 - g.col*0.4
			}
		}
		l.arrows = append(l.arrows, a)
		texts = append(texts, c.MessageText(m))
	}

	// The arrows by height: a box or a label looks only at those near it
	// (long runs have thousands of messages).
	var lines yIndex
	for _, a := range l.arrows {
		lines.add(a.bounds())
	}
	for i, r := range c.Rows {
		x, y := g.x(r.Lifeline), g.y(i)
		switch r.Kind {
		case RowLocal, RowFail:
			w := textWidth(r.Text, svgFont, false) + 14
			l.boxes = append(l.boxes, svgBox{placeBox(l.arrows, &lines, x, y, w, float64(svgLeft)), i, r.Text})
		case RowStmt:
			text := clip(r.Text, int((g.col-12)/6))
			l.boxes = append(l.boxes, svgBox{svgRect{x - 3, y - 8, x + 6 + textWidth(text, 10, false), y + 4}, i, text})
		}
	}

	// Places a label must keep clear of: boxes, lifeline heads, the
	// step-number margin, send dots.
	var taken yIndex
	for _, b := range l.boxes {
		taken.add(b.svgRect)
	}
	taken.add(svgRect{0, float64(g.groupY), float64(svgLeft) - 4, float64(g.endY)})
	taken.add(svgRect{float64(svgLeft), float64(g.groupY), right + 1e4, float64(g.headY + svgHeadH)})
	for i, r := range c.Rows {
		if r.Kind == RowSend || r.Kind == RowQuiet {
			x, y := g.x(r.Lifeline), g.y(i)
			taken.add(svgRect{x - 4, y - 4, x + 4, y + 4})
		}
	}
	for i := range l.arrows {
		l.arrows[i].label = placeLabel(l.arrows, &lines, i, texts[i], &taken)
		taken.add(l.arrows[i].label.svgRect)
	}

	// The picture is wide enough for the title and every label.
	if c.Title != "" {
		w := textWidth(c.Title, svgTitleF, true)
		l.title = svgRect{svgPadding, svgPadding - 4, svgPadding + w, svgPadding + 12}
		right = math.Max(right, l.title.X1)
	}
	for _, a := range l.arrows {
		right = math.Max(right, a.label.X1)
	}
	for _, b := range l.boxes {
		right = math.Max(right, b.X1)
	}
	l.legend = c.Legend("○")
	for _, line := range l.legend {
		right = math.Max(right, svgLeft+textWidth(line, svgLabelF, false))
	}
	g.width = int(math.Ceil(right)) + svgPadding

	g.legendY = g.endY + 6
	if text := c.Verdict(); text != "" {
		l.band = wrapText(text, float64(g.width-svgPadding-svgLeft-16), svgFont, 6)
		g.legendY = g.endY + 8 + l.bandH() + 4
	}
	g.height = g.legendY + svgPadding/2
	if len(l.legend) > 0 {
		g.height = g.legendY + len(l.legend)*svgLegendL + svgPadding/2 + 4
	}
	if g.height < g.endY+svgPadding {
		g.height = g.endY + svgPadding
	}
	return l
}

// placeBox puts a box of width w on the lifeline at x, row y: centered on
// it, or, when an arrow would run through it there, beside the lifeline
// (still across it) where fewer arrows do; never left of minX.
// lines indexes the arrows' bounds.
func placeBox(arrows []svgArrow, lines *yIndex, x, y, w, minX float64) svgRect {
	best, bestScore := svgRect{}, math.Inf(1)
	shift := math.Max(w/2-12, 0)
	for i, dx := range []float64{0, shift, -shift} {
		r := svgRect{x + dx - w/2, y - svgBoxH/2, x + dx + w/2, y + svgBoxH/2}
		if r.X0 < minX && i > 0 {
			continue
		}
		score := float64(i) * 0.5
		for _, k := range lines.near(r.Y0, r.Y1) {
			if a := arrows[k]; math.Min(a.y1, a.y2) <= r.Y1 && math.Max(a.y1, a.y2) >= r.Y0 {
				score += 8 * r.clipLen(a.x1, a.y1, a.x2, a.y2)
			}
		}
		if score < bestScore {
			best, bestScore = r, score
		}
	}
	return best
}

// placeLabel puts the label of arrows[k] where it covers the least of
// taken and of the arrows, its own included (a line through its own label
// strikes it through): above or below the arrow near the sender if that is
// free (arrows that cross further on are still apart there), else further
// along, beside a steep arrow, or beyond the end of a message that is not
// received. lines indexes the arrows' bounds.
func placeLabel(arrows []svgArrow, lines *yIndex, k int, text string, taken *yIndex) svgLabel {
	a := arrows[k]
	w := textWidth(text, svgLabelF, false) + 4
	dx, dy := a.x2-a.x1, a.y2-a.y1
	length := math.Hypot(dx, dy)
	type spot struct{ x, y float64 }
	var spots []spot
	along := func(d float64) spot {
		if length == 0 {
			return spot{a.x1, a.y1}
		}
		t := d / length
		return spot{a.x1 + dx*t, a.y1 + dy*t}
	}
	// lineY is the height of the arrow at x (of its nearer end beyond it).
	lineY := func(x float64) float64 {
		if dx == 0 {
			return a.y1
		}
		x = math.Max(math.Min(x, math.Max(a.x1, a.x2)), math.Min(a.x1, a.x2))
		return a.y1 + dy*(x-a.x1)/dx
	}
	if length < 2*w/3+40 || a.style != arrowReceived {
		spots = append(spots, along(length/2))
	}
	for d := 60.0; d <= length-30; d += 30 {
		spots = append(spots, along(d))
	}
	spots = append(spots, along(length/2))
	type cand struct {
		x, y float64 // text-anchor middle, baseline
		near spot
	}
	var cands []cand
	for _, s := range spots {
		steep := math.Abs(dy) > math.Abs(dx)
		if !steep {
			// Above and below the line, clear of it over the label's width.
			yl, yr := lineY(s.x-w/2), lineY(s.x+w/2)
			cands = append(cands, cand{s.x, math.Min(yl, yr) - 4, s}, cand{s.x, math.Max(yl, yr) + 13, s})
		}
		// Beside it.
		cands = append(cands, cand{s.x + w/2 + 6, s.y + 4, s}, cand{s.x - w/2 - 6, s.y + 4, s})
	}
	if a.style != arrowReceived {
		// Beyond the end, on the side the arrow points to.
		sx := 1.0
		if dx < 0 {
			sx = -1
		}
		e := spot{a.x2, a.y2}
		cands = append(cands, cand{a.x2 + sx*(w/2+6), a.y2 + 4, e})
	}
	// Only what is near a candidate counts (long runs have thousands of
	// messages), added up in the order it was placed.
	best, bestScore := svgLabel{}, math.Inf(1)
	for i, cd := range cands {
		lb := svgLabel{text: text, x: cd.x, y: cd.y}
		lb.svgRect = svgRect{lb.x - w/2, lb.y - 10, lb.x + w/2, lb.y + 3}
		// Near the sender first, and near the line.
		score := float64(i)*0.2 + 0.3*(math.Abs(lb.x-cd.near.x)+math.Abs(lb.y-3.5-cd.near.y))
		for _, j := range taken.near(lb.Y0, lb.Y1) {
			score += lb.overlap(taken.rects[j])
		}
		// A label across another arrow reads as that arrow's.
		for _, j := range lines.near(lb.Y0, lb.Y1) {
			b := arrows[j]
			score += 8 * lb.clipLen(b.x1, b.y1, b.x2, b.y2)
		}
		if score < bestScore {
			best, bestScore = lb, score
		}
	}
	return best
}

// A yIndex finds the rectangles that reach a band of heights without
// looking at the others: each is filed under every stretch of yBand pixels
// it spans, so that the layout of a long run takes time in proportion to
// its length, not its square.
type yIndex struct {
	rects  []svgRect
	bands  map[int][]int32
	seen   []uint32 // seen[i] == stamp: rects[i] is in the answer already
	stamp  uint32
	answer []int
}

// yBand is the height of a stretch: a few rows.
const yBand = 64

func band(y float64) int { return int(math.Floor(y / yBand)) }

// add files r; its index is the number of rectangles added before it.
func (ix *yIndex) add(r svgRect) {
	if ix.bands == nil {
		ix.bands = map[int][]int32{}
	}
	i := int32(len(ix.rects))
	ix.rects = append(ix.rects, r)
	ix.seen = append(ix.seen, 0)
	for b := band(r.Y0); b <= band(r.Y1); b++ {
		ix.bands[b] = append(ix.bands[b], i)
	}
}

// near is the indexes of the rectangles filed under the stretches that
// [y0, y1] reaches, in the order they were added: every rectangle that
// reaches a height in [y0, y1], and perhaps a few that do not. The answer
// is valid until the next call.
func (ix *yIndex) near(y0, y1 float64) []int {
	ix.answer = ix.answer[:0]
	if len(ix.rects) == 0 {
		return ix.answer
	}
	ix.stamp++
	if ix.stamp == 0 {
		clear(ix.seen)
		ix.stamp = 1
	}
	for b := band(y0); b <= band(y1); b++ {
		for _, i := range ix.bands[b] {
			if ix.seen[i] != ix.stamp {
				ix.seen[i] = ix.stamp
				ix.answer = append(ix.answer, int(i))
			}
		}
	}
	sort.Ints(ix.answer)
	return ix.answer
}

// wrapText breaks text into lines of at most width pixels at size, on
// spaces where it can; a line beyond max ends the last with an ellipsis.
func wrapText(text string, width, size float64, max int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		for textWidth(word, size, true) > width && len(word) > 1 {
			// A word longer than a line: break it.
			n := len(word)
			for n > 1 && textWidth(word[:n], size, true) > width {
				n--
			}
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			lines = append(lines, word[:n])
			word = word[n:]
		}
		switch {
		case line == "":
			line = word
		case textWidth(line+" "+word, size, true) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	if len(lines) > max {
		lines = lines[:max]
		last := lines[max-1]
		for last != "" && textWidth(last+" …", size, true) > width {
			last = last[:len(last)-1]
		}
		lines[max-1] = last + " …"
	}
	return lines
}

// svgGeom is where things go.
type svgGeom struct {
	col                   float64
	width, height         int
	groupY, headY, firstY int
	endY                  int
	legendY               int       // top of the legend under the band
	rowY                  []float64 // the middle of each row
}

func (g svgGeom) x(lifeline int) float64 {
	return float64(svgLeft) + g.col/2 + float64(lifeline)*g.col
}

func (g svgGeom) y(row int) float64 {
	if row < 0 || row >= len(g.rowY) {
		return float64(g.firstY)
	}
	return g.rowY[row]
}

// top is where row begins.
func (g svgGeom) top(row int) float64 {
	if row > 0 && row < len(g.rowY) {
		return (g.rowY[row-1] + g.rowY[row]) / 2
	}
	return g.y(row) - svgRowH/2
}

func (c *Chart) svgGeometry() svgGeom {
	var g svgGeom
	// Columns are as wide as the widest local box needs.
	g.col = svgColMin
	for _, r := range c.Rows {
		if r.Kind == RowLocal || r.Kind == RowFail {
			if w := textWidth(r.Text, svgFont, false) + 34; w > g.col {
				g.col = w
			}
		}
	}
	for _, ll := range c.Lifelines {
		if w := textWidth(ll.Proc, svgFont, true) + 40; w > g.col {
			g.col = w
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
	y := float64(g.firstY - svgRowH/2)
	for _, r := range c.Rows {
		h := float64(svgRowH)
		if r.Kind == RowQuiet {
			h = svgQuietH
		}
		g.rowY = append(g.rowY, y+h/2)
		y += h
	}
	g.endY = int(math.Ceil(y)) + svgRowH/2
	n := len(c.Lifelines)
	if n == 0 {
		n = 1
	}
	g.width = svgLeft + int(float64(n)*g.col) + svgPadding
	if g.width < 420 {
		g.width = 420
	}
	g.legendY = g.endY
	g.height = g.endY + svgPadding
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

// SVGProblems lists what would make the SVG drawing hard to read: a
// message label over a box or over another label, a label, box or the
// title outside the picture, a line of the band wider than the band. The
// tests of every chart renderer ask it for nothing.
func (c *Chart) SVGProblems() []string {
	l := c.svgLayout()
	var out []string
	pic := svgRect{0, 0, float64(l.width), float64(l.height)}
	inside := func(r svgRect) bool {
		return r.X0 >= pic.X0 && r.Y0 >= pic.Y0 && r.X1 <= pic.X1 && r.Y1 <= pic.Y1
	}
	const tolerance = 1 // square pixels
	for i, a := range l.arrows {
		if !inside(a.label.svgRect) {
			out = append(out, fmt.Sprintf("label %q outside the picture", a.label.text))
		}
		for _, b := range l.boxes {
			if a.label.overlap(b.svgRect) > tolerance {
				out = append(out, fmt.Sprintf("label %q over box %q", a.label.text, b.text))
			}
		}
		for _, o := range l.arrows[:i] {
			if a.label.overlap(o.label.svgRect) > tolerance {
				out = append(out, fmt.Sprintf("label %q over label %q", a.label.text, o.label.text))
			}
		}
	}
	for _, b := range l.boxes {
		if !inside(b.svgRect) {
			out = append(out, fmt.Sprintf("box %q outside the picture", b.text))
		}
	}
	for _, line := range l.legend {
		if svgLeft+textWidth(line, svgLabelF, false) > float64(l.width) || l.legendY+len(l.legend)*svgLegendL > l.height {
			out = append(out, fmt.Sprintf("legend %q outside the picture", line))
		}
	}
	if c.Title != "" && !inside(l.title) {
		out = append(out, "title wider than the picture")
	}
	for _, line := range l.band {
		if textWidth(line, svgFont, true) > float64(l.width-svgPadding-svgLeft) {
			out = append(out, fmt.Sprintf("band line %q wider than the band", line))
		}
	}
	return out
}

// svgCrossings lists the lines drawn across what they should not cross: a
// message through a box, or through its own label (which it then strikes
// through). Layouts avoid them where they can; the tests ask the charts of
// known runs for none.
func (c *Chart) svgCrossings() []string {
	l := c.svgLayout()
	var out []string
	for _, a := range l.arrows {
		for _, b := range l.boxes {
			if b.clipLen(a.x1, a.y1, a.x2, a.y2) > 1 {
				out = append(out, fmt.Sprintf("message %q runs through box %q", a.label.text, b.text))
			}
		}
		if a.label.clipLen(a.x1, a.y1, a.x2, a.y2) > 0.5 {
			out = append(out, fmt.Sprintf("message %q runs through its label", a.label.text))
		}
	}
	return out
}
