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
