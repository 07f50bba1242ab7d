package main

import (
	"encoding/json"
	"fmt"
	"io"

	"ftmc/trace"
)

// writeJSON prints a report as one JSON object.
func writeJSON(w io.Writer, rep *trace.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeVerdicts prints one line per property.
// writeWarnings writes a report's warnings, which qualify its verdicts
// (parameter values outside the model's assume, a fairness block not
// assumed, ...): with --quiet they go to standard error.
func writeWarnings(w io.Writer, ws []string) {
	for _, s := range ws {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}

func writeVerdicts(w io.Writer, rs []trace.Result) {
	for _, r := range rs {
		fmt.Fprintf(w, "%s: %s", r.Property, r.Verdict)
		if r.Kind != "" {
			fmt.Fprintf(w, " (%s)", r.Kind)
		}
		if r.Reason != "" {
			fmt.Fprintf(w, ": %s", r.Reason)
		}
		fmt.Fprintln(w)
	}
}
