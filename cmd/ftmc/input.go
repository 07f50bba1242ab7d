package main

import (
	"context"
	"fmt"
	"strings"

	"ftmc/internal/readfile"
	"ftmc/ta"
	"ftmc/trace"
)

// stdinName is how errors and reports name a model or report read from
// standard input, given as "-": <stdin>:3:5: ...
const stdinName = "<stdin>"

// readInput reads the model or report path, bounded by limit and, for what
// is not a regular file, by ctx (readfile.ReadContext); "-" is standard
// input. It returns the name that errors and the report give the input
// (stdinName for "-", else path). A model read from standard input has no
// directory: its "file" #includes are found from the working directory.
func readInput(ctx context.Context, e *env, path string, limit int64, what string) (string, []byte, error) {
	if path != "-" {
		data, err := readfile.ReadContext(ctx, path, limit, what)
		return path, data, err
	}
	in := e.stdin
	if in == nil {
		in = strings.NewReader("")
	}
	data, err := readfile.ReadFrom(ctx, in, stdinName, limit, what)
	return stdinName, data, err
}

// loadTA reads and checks the threshold automaton path ("-": standard
// input) for the command cmd, within ctx. Errors are printed; the code is
// then the exit code: 3 when ctx stopped the reading, else 2.
func loadTA(ctx context.Context, e *env, cmd, path string) (*ta.File, int) {
	name, src, err := readInput(ctx, e, path, readfile.ModelLimit, "model file")
	if stoppedReading(e, cmd, err) {
		return nil, trace.ExitUnknown
	}
	var f *ta.File
	if err == nil {
		f, err = ta.Parse(name, src)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", cmd, err)
		return nil, trace.ExitUsage
	}
	return f, -1
}

// taSpecs are the specifications of f that the command line names (args
// after the model): all of them, in f's order, for none or "all".
func taSpecs(f *ta.File, args []string) []string {
	if len(args) > 0 && !(len(args) == 1 && args[0] == "all") {
		return args
	}
	var specs []string
	for _, s := range f.Specs {
		specs = append(specs, s.Name)
	}
	return specs
}
