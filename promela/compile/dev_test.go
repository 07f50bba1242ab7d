package compile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ftmc/internal/expect"
	"ftmc/internal/spin"
	"ftmc/promela"
)

// TestCompareSpin compares state counts and verdicts with Spin on the
// models named in FTMC_COMPARE (files or globs, separated by spaces). It is
// a development aid; the corpus's differential test is the acceptance test.
func TestCompareSpin(t *testing.T) {
	list := os.Getenv("FTMC_COMPARE")
	if list == "" {
		t.Skip("set FTMC_COMPARE to model files to compare with Spin")
	}
	var files []string
	for _, g := range strings.Fields(list) {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		runs, _ := expect.Parse(strings.NewReader(string(src)), "check")
		if len(runs) == 0 {
			runs = []expect.Run{{}}
		}
		for _, r := range runs {
			compareOne(t, f, r)
		}
	}
}

func compareOne(t *testing.T, file string, r expect.Run) {
	defs, sdefs := defines(r.Args)
	name := file + " " + strings.Join(sdefs, " ")
	prog, err := promela.Load(file, promela.Options{Defines: defs})
	if err != nil {
		t.Logf("%s: load: %v", name, err)
		return
	}
	m, err := Compile(prog)
	if err != nil {
		t.Logf("%s: compile: %v", name, err)
		return
	}
	s := explore(m, 5000000)
	res, err := spin.Run(context.Background(), file, spin.Options{Defines: sdefs, CCOpt: "-O0"})
	if err != nil {
		t.Logf("%s: ftmc %d states %s; spin error: %v", name, s.states, s.kind, err)
		return
	}
	status := "ok"
	switch {
	case s.kind != res.Kind:
		status = "VERDICT"
	case s.kind == "" && int64(s.states) != res.States:
		status = "STATES"
	}
	t.Logf("%-8s %s: ftmc %d %q %s | spin %d %q %s", status, name, s.states, s.kind, s.msg, res.States, res.Kind, res.Message)
}
