//go:build unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openFIFO opens path for writing without waiting for a reader if it is a
// FIFO or a pipe (isFIFO). A FIFO that no process reads is an error.
func openFIFO(path string) (f *os.File, isFIFO bool, err error) {
	st, err := os.Stat(path)
	if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		return nil, false, nil
	}
	f, err = os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, syscall.ENXIO):
		return nil, true, fmt.Errorf("no process reads FIFO %s", path)
	case err != nil:
		return nil, true, fmt.Errorf("cannot write there: %v", unwrapPath(err))
	}
	return f, true, nil
}
