package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"ftmc/trace"
)

// errWriter is the report's stream (standard output): it remembers the
// first write that fails and drops what follows, so that the commands
// print without checking every write and run reports the failure once.
type errWriter struct {
	w   io.Writer
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	if w.err == nil {
		if _, err := w.w.Write(p); err != nil {
			w.err = err
		}
	}
	return len(p), nil
}

// reportWriteFailure says on stderr that the report could not be written
// (err) and returns the exit code: a verdict's violated or unknown stands,
// anything else becomes 2, so that a report lost to a full disk is never
// taken for "every property holds".
func reportWriteFailure(stderr io.Writer, err error, code int) int {
	fmt.Fprintf(stderr, "ftmc: writing the report: %v\n", err)
	if code == trace.ExitViolated || code == trace.ExitUnknown {
		return code
	}
	return trace.ExitUsage
}

// checkOutputFile makes sure, before a search starts, that the FILE of
// flag can be written when the search is over: its directory exists and
// the file can be opened for writing. An existing file is left as it is
// (it is not truncated), and one that was not there is not left behind.
// A FIFO (or a pipe) is opened without waiting for a reader: one that no
// process reads is an error, one that is read is kept open until the run
// writes it (closing it would end its reader's input), by createOutput.
func checkOutputFile(flag, path string) error {
	if path == "" {
		return nil
	}
	if f, isFIFO, err := openFIFO(path); isFIFO {
		if err != nil {
			return fmt.Errorf("--%s %s: %v", flag, path, err)
		}
		heldOutputs.put(path, f)
		return nil
	}
	_, statErr := os.Lstat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("--%s %s: cannot write there: %v", flag, path, unwrapPath(err))
	}
	f.Close()
	if errors.Is(statErr, fs.ErrNotExist) {
		os.Remove(path)
	}
	return nil
}

// A namedPath is a file of the run and what names it: a flag for an
// output ("trail"), a description for an input ("model file").
type namedPath struct{ name, path string }

// checkOutputsDistinct refuses, before a search starts, an output that is
// a file the run reads (the model, a report) or that another output of the
// run writes: the input would be lost, or one output would replace the
// other. Two names are the same file when both exist and os.SameFile says
// so, or when neither exists and they are one name in one directory. Only
// regular files (and names that do not exist yet) are refused:
// /dev/null, /dev/stdout or a FIFO may be named more than once.
func checkOutputsDistinct(outputs, inputs []namedPath) error {
	for i, o := range outputs {
		if o.path == "" {
			continue
		}
		if st, err := os.Stat(o.path); err == nil && !st.Mode().IsRegular() {
			continue
		}
		for _, in := range inputs {
			// "-" is standard input, not a file of that name.
			if in.path != "" && in.path != "-" && sameFile(o.path, in.path) {
				return fmt.Errorf("--%s %s: that is the %s: writing there would overwrite it", o.name, o.path, in.name)
			}
		}
		for _, p := range outputs[:i] {
			if p.path != "" && sameFile(o.path, p.path) {
				return fmt.Errorf("--%s %s: --%s writes that file too: one would overwrite the other", o.name, o.path, p.name)
			}
		}
	}
	return nil
}

// sameFile reports whether the names a and b are the same file.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	switch {
	case errA == nil && errB == nil:
		return os.SameFile(sa, sb)
	case errA == nil || errB == nil:
		return false
	}
	// Neither exists (yet): the same name in the same directory.
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	da, errA := os.Stat(filepath.Dir(a))
	db, errB := os.Stat(filepath.Dir(b))
	if errA == nil && errB == nil {
		return os.SameFile(da, db)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// heldOutputs are the FIFOs that checkOutputFile opened, until the run
// writes them (createOutput) or ends (release).
var heldOutputs held

type held struct {
	mu    sync.Mutex
	files map[string]*os.File
}

func (h *held) put(path string, f *os.File) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.files == nil {
		h.files = make(map[string]*os.File)
	}
	if old := h.files[path]; old != nil {
		old.Close()
	}
	h.files[path] = f
}

func (h *held) take(path string) *os.File {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.files[path]
	delete(h.files, path)
	return f
}

// release closes the FIFOs the run has not written.
func (h *held) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for path, f := range h.files {
		f.Close()
		delete(h.files, path)
	}
}

// createOutput opens path to write an output of the run (a trail, a chart,
// a profile, a log): the FIFO checkOutputFile opened, else a FIFO opened
// without waiting (one that no process reads is an error), else the file,
// created or truncated.
func createOutput(path string) (*os.File, error) {
	if f := heldOutputs.take(path); f != nil {
		return f, nil
	}
	if f, isFIFO, err := openFIFO(path); isFIFO {
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		return f, nil
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// writeOutput writes data to the output path (createOutput).
func writeOutput(path string, data []byte) error {
	f, err := createOutput(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// checkOutputDir makes sure, before the checks start, that files can be
// written in the directory of flag, creating it when it is not there.
func checkOutputDir(flag, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--%s %s: %v", flag, dir, unwrapPath(err))
	}
	f, err := os.CreateTemp(dir, ".ftmc-probe-*")
	if err != nil {
		return fmt.Errorf("--%s %s: cannot write there: %v", flag, dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// unwrapPath is what went wrong with a path, without the operation and
// path that the message around it already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// writeJSON prints a report as one JSON object, in the versioned format
// of trace.WriteJSON.
func writeJSON(w io.Writer, rep *trace.Report) error {
	return trace.WriteJSON(w, rep)
}

// writeWarnings writes a report's warnings, which qualify its verdicts
// (parameter values outside the model's assume, a fairness block not
// assumed, ...): with --quiet they go to standard error.
func writeWarnings(w io.Writer, ws []string) {
	for _, s := range ws {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}

// writeVerdicts prints one line per property.
func writeVerdicts(w io.Writer, rs []trace.Result) {
	for _, r := range rs {
		fmt.Fprintln(w, trace.VerdictLine(r))
	}
}
