package promela

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// errorSpec is the expectation on the first line of a broken model:
//
//	// error: [FILE:]LINE:COL: REGEXP
//
// FILE (relative to the model's directory) is given when the error is in
// an included file.
var errorSpec = regexp.MustCompile(`^//\s*error:\s*(?:([^:\s]+):)?(\d+):(\d+):\s*(.*)$`)

// TestErrors loads every model in testdata/errors and checks that it is
// rejected with the error its first line states (position and message).
func TestErrors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "errors", "*.pml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("only %d broken models in testdata/errors, want at least 50", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".pml"), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			first, _ := bufio.NewReader(f).ReadString('\n')
			f.Close()
			m := errorSpec.FindStringSubmatch(strings.TrimSpace(first))
			if m == nil {
				t.Fatalf("first line %q is not // error: LINE:COL: REGEXP", first)
			}
			wantFile := file
			if m[1] != "" {
				wantFile = filepath.Join(filepath.Dir(file), m[1])
			}
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			re, err := regexp.Compile(m[4])
			if err != nil {
				t.Fatalf("bad regexp %q: %v", m[4], err)
			}
			_, err = Load(file, Options{})
			if err == nil {
				t.Fatalf("no error, want %s:%d:%d: %s", wantFile, line, col, m[4])
			}
			var list *ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error is %T, not an *ErrorList: %v", err, err)
			}
			for _, e := range list.List {
				if filepath.Clean(e.Pos.Filename()) == filepath.Clean(wantFile) &&
					int(e.Pos.Line) == line && int(e.Pos.Col) == col && re.MatchString(e.Msg) {
					return
				}
			}
			t.Errorf("want %s:%d:%d: %s\ngot:\n%v", wantFile, line, col, m[4], err)
		})
	}
}
