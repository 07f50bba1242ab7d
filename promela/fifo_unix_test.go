//go:build unix

package promela

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ftmc/internal/readfile"
	"ftmc/internal/testenv"
)

// A model file or an #include file that is a FIFO without a writer does
// not hold the reading up past its context: the error names the file and
// wraps the reading's *readfile.StoppedError.
func TestLoadFIFOStops(t *testing.T) {
	dir := testenv.FIFOs(t, "ff.pml")
	fifo := filepath.Join(dir, "ff.pml")
	model := filepath.Join(dir, "inc.pml")
	if err := os.WriteFile(model, []byte("byte x;\n#include \"ff.pml\"\ninit { skip }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	limit := errors.New("time limit 200ms reached")
	for _, tc := range []struct{ path, want string }{
		{fifo, fifo + ": reading stopped: time limit 200ms reached"},
		{model, model + ":2:10: " + fifo + ": reading stopped: time limit 200ms reached"},
	} {
		ctx, cancel := context.WithTimeoutCause(context.Background(), 200*time.Millisecond, limit)
		done := make(chan error, 1)
		go func() {
			_, err := Load(tc.path, Options{Context: ctx})
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("Load(%s) did not return 20 s after a limit of 200ms", tc.path)
		}
		cancel()
		var se *readfile.StoppedError
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.As(err, &se) || se.Name != fifo {
			t.Errorf("Load(%s): got %v, want %s (a StoppedError)", tc.path, err, tc.want)
		}
	}
}
