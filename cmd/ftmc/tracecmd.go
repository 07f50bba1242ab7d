package main

import (
	"bytes"
	"flag"
	"fmt"
	"sort"

	"ftmc/internal/readfile"
	"ftmc/trace"
)

const traceUsage = `usage: ftmc trace RESULT.json [--text] [--msc OUT.svg] [--msc-text] [--property NAME]

Renders the counterexample of a stored report (ftmc check --json, or
--trail FILE): as text (the default), as a message sequence chart in SVG,
or as a message sequence chart for the terminal. The flags combine: each
output asked for is written, the text first, then the terminal chart.
`

// cmdTrace renders a stored counterexample.
func cmdTrace(e *env, args []string) int {
	fs := newFlags("trace", e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, traceUsage)
		fs.PrintDefaults()
	}
	var o traceOptions
	o.register(fs)
	fs.BoolVar(&o.text, "text", false, "print the report and its counterexample as text (the default)")
	fs.StringVar(&o.property, "property", "", "the property whose counterexample is drawn (default: the first with one)")
	pos, code := parseCommand(fs, args, "")
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprint(e.stderr, traceUsage)
		return trace.ExitUsage
	}
	err := checkOutputsDistinct([]namedPath{{"msc", o.msc}}, []namedPath{{"report", pos[0]}})
	if err == nil {
		err = checkOutputFile("msc", o.msc)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc trace: %v\n", err)
		return trace.ExitUsage
	}
	// An interrupt stops the reading (a FIFO without a writer).
	name, data, err := readInput(e.ctx, e, pos[0], readfile.ReportLimit, "report")
	if stoppedReading(e, "ftmc trace", err) {
		return trace.ExitUnknown
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc trace: %v\n", err)
		return trace.ExitUsage
	}
	rep, err := trace.ParseReport(name, data)
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc trace: %v\n", err)
		return trace.ExitUsage
	}
	if !o.text && o.msc == "" && !o.mscText {
		o.text = true
	}
	// Every output asked for is written, in the order text, chart for the
	// terminal, SVG chart: the text of the whole report when no property is
	// named, else of that property's counterexample.
	if o.text && o.property == "" {
		trace.WriteText(e.stdout, rep)
		if o.msc == "" && !o.mscText {
			return trace.ExitHolds
		}
	}
	res, err := pickCounterexample(rep, o.property)
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc trace: %s: %v\n", name, err)
		return trace.ExitUsage
	}
	if o.text && o.property != "" {
		fmt.Fprintln(e.stdout, trace.VerdictLine(*res))
		trace.WriteCounterexample(e.stdout, res.Counterexample)
	}
	if err := o.draw(e, rep, res); err != nil {
		fmt.Fprintf(e.stderr, "ftmc trace: %v\n", err)
		return trace.ExitUsage
	}
	return trace.ExitHolds
}

// traceOptions are the chart flags, shared by ftmc trace and ftmc check.
type traceOptions struct {
	msc      string
	mscText  bool
	text     bool
	property string
}

func (o *traceOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.msc, "msc", "", "draw the counterexample as a message sequence chart in `FILE` (SVG)")
	fs.BoolVar(&o.mscText, "msc-text", false, "print the counterexample as a message sequence chart for the terminal")
}

// draw writes the charts the options ask for of res's counterexample.
func (o *traceOptions) draw(e *env, rep *trace.Report, res *trace.Result) error {
	if o.msc == "" && !o.mscText {
		return nil
	}
	if res == nil || res.Counterexample == nil {
		return fmt.Errorf("no counterexample to draw")
	}
	c := trace.NewChart(res.Counterexample, chartTitle(rep, res))
	if o.mscText {
		if err := c.WriteText(e.stdout); err != nil {
			return err
		}
	}
	if o.msc != "" {
		var b bytes.Buffer
		if err := c.WriteSVG(&b); err != nil {
			return err
		}
		if err := writeOutput(o.msc, b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// drawReport draws the charts asked for of the first counterexample of a
// report that ftmc check has just printed (a text chart goes to stderr when
// stdout carries JSON). A chart that cannot be drawn is a warning: the
// verdict is in the report already.
func (o *traceOptions) drawReport(e *env, rep *trace.Report, json bool) {
	if o.msc == "" && !o.mscText {
		return
	}
	res, err := pickCounterexample(rep, "")
	if err != nil {
		fmt.Fprintf(e.stderr, "ftmc: --msc: %v\n", err)
		return
	}
	if json {
		e = &env{ctx: e.ctx, stdout: e.stderr, stderr: e.stderr}
	}
	if err := o.draw(e, rep, res); err != nil {
		fmt.Fprintf(e.stderr, "ftmc: warning: the chart was not drawn: %v\n", err)
	}
}

// pickCounterexample is the result named property, or the first result
// with a counterexample.
func pickCounterexample(rep *trace.Report, property string) (*trace.Result, error) {
	for i := range rep.Verdicts {
		r := &rep.Verdicts[i]
		if property != "" && r.Property != property {
			continue
		}
		if r.Counterexample != nil {
			return r, nil
		}
		if property != "" {
			return nil, fmt.Errorf("property %s is %s and has no counterexample", property, r.Verdict)
		}
	}
	if property != "" {
		return nil, fmt.Errorf("no property %q", property)
	}
	return nil, fmt.Errorf("no counterexample: every property holds or is unknown")
}

// chartTitle names the model, its macros and the verdict.
func chartTitle(rep *trace.Report, res *trace.Result) string {
	title := rep.Model
	if d := formatDefines(rep.Defines); d != "" {
		title += " " + d
	}
	return title + ": " + trace.VerdictLine(*res)
}

func formatDefines(defs map[string]string) string {
	if len(defs) == 0 {
		return ""
	}
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for i, n := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s", n, defs[n])
	}
	return b.String()
}
