package main

import (
	"flag"
	"fmt"

	"ftmc/trace"
)

// reportFiles are the flags that save a run's report and draw its
// counterexample (--trail, --msc, --msc-text), the same for every command
// that checks a model: ftmc check on any model, ftmc verify on any.
type reportFiles struct {
	trail string
	chart traceOptions // --msc, --msc-text (tracecmd.go)
}

func (r *reportFiles) register(fs *flag.FlagSet) {
	fs.StringVar(&r.trail, "trail", "", "also save the report with its counterexample as JSON in `FILE` (ftmc trace reads it)")
	r.chart.register(fs)
}

// checkOutputs makes sure that the files the flags name, and more (e.g.
// --cpuprofile), can be written, before the search: a path that cannot is
// a usage error, not a surprise after hours of search; so is a path that
// is the model file or that another of the flags names.
func (r *reportFiles) checkOutputs(model string, more ...namedPath) error {
	outputs := append([]namedPath{{"trail", r.trail}, {"msc", r.chart.msc}}, more...)
	if err := checkOutputsDistinct(outputs, []namedPath{{"model file", model}}); err != nil {
		return err
	}
	for _, f := range outputs {
		if err := checkOutputFile(f.name, f.path); err != nil {
			return err
		}
	}
	return nil
}

// finish is the tail of every check: it saves the report (--trail), prints
// it as the command does (print, which returns the exit code), then draws
// its counterexample (--msc, --msc-text; a text chart goes to stderr when
// stdout carries JSON). A trail or chart that cannot be written is a
// warning: the verdict stands.
func (r *reportFiles) finish(e *env, cmd string, rep *trace.Report, json bool, print func() int) int {
	if r.trail != "" {
		if err := writeTrail(r.trail, rep); err != nil {
			fmt.Fprintf(e.stderr, "%s: warning: the report was not saved: %v\n", cmd, err)
		}
	}
	code := print()
	r.chart.drawReport(e, rep, json)
	return code
}
