// Package readfile reads the files ftmc is given (models, included files,
// reports) with a bound on their size, so that a device such as /dev/zero,
// a FIFO or a huge file is refused at the bound instead of filling memory.
// Devices and pipes are read like files (/dev/stdin, process substitution)
// as long as they end before the bound.
package readfile

import (
	"fmt"
	"io"
	"os"
)

// The bounds. A real model is far below: the largest models ftmc is known
// to read are a few megabytes.
const (
	// ModelLimit bounds a model file of any language, and the text of a
	// Promela model with all its #include files.
	ModelLimit = 64 << 20
	// ReportLimit bounds a report (JSON) read by ftmc trace.
	ReportLimit = 256 << 20
)

// TooLargeError is the error of a file larger than its bound.
type TooLargeError struct {
	Name  string
	Limit int64
	What  string // "model file", "report", ...
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %d MB: too large for a %s", e.Name, e.Limit>>20, e.What)
}

// Read reads the file name, which must hold at most limit bytes; what
// names the kind of file for the error. A regular file is refused by its
// size before it is read; anything else is read up to the bound.
func Read(name string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, &TooLargeError{name, limit, what}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{name, limit, what}
	}
	return data, nil
}
