//go:build unix

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ftmc/trace"
)

// An output that is a FIFO is tried without waiting for a reader: none is
// a usage error before the search; one that reads gets the output, the
// FIFO kept open from the try to the write.
func TestOutputFIFO(t *testing.T) {
	model := filepath.Join(t.TempDir(), "a.pml")
	if err := os.WriteFile(model, []byte("int x;\nactive proctype P() { x = 1; assert(x == 2) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := fifoDir(t, "tf.fifo")
	fifo := filepath.Join(dir, "tf.fifo")
	for _, flag := range []string{"--trail", "--msc", "--cpuprofile"} {
		out, errs, code := runWithin(t, context.Background(), "check", model, flag, fifo)
		if want := "ftmc check: " + flag + " " + fifo + ": no process reads FIFO " + fifo + "\n"; code != trace.ExitUsage || out != "" || errs != want {
			t.Errorf("%s FIFO without a reader: exit %d, stdout %q, stderr %q; want 2 and %q", flag, code, out, errs, want)
		}
	}
	// A reader that ends at the first end of input it sees, as cat does:
	// it gets the trail only if the FIFO stays open from the try before
	// the search to the write after it.
	read := make(chan string, 1)
	go func() {
		r, err := os.Open(fifo)
		if err != nil {
			read <- err.Error()
			return
		}
		defer r.Close()
		r.SetReadDeadline(time.Now().Add(20 * time.Second))
		data, _ := io.ReadAll(r)
		read <- string(data)
	}()
	// The reader is there once its opening waits: until then, the run
	// finds no reader.
	_, errs, code := runWithin(t, context.Background(), "check", model, "--trail", fifo, "--quiet")
	for i := 0; i < 200 && code == trace.ExitUsage && strings.Contains(errs, "no process reads"); i++ {
		time.Sleep(10 * time.Millisecond)
		_, errs, code = runWithin(t, context.Background(), "check", model, "--trail", fifo, "--quiet")
	}
	if code != trace.ExitViolated {
		t.Fatalf("--trail FIFO with a reader: exit %d, stderr %q", code, errs)
	}
	if data := <-read; !strings.Contains(data, `"verdict": "violated"`) || !strings.HasSuffix(data, "}\n") {
		t.Errorf("the reader of the FIFO got %q, want the trail", data)
	}
}
