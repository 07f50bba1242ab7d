package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ftmc/internal/testenv"
)

// manual is the text of docs/manual.md.
func manual(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "docs/manual.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// manualTable is the rows of the manual's table whose header row is
// header, as cells.
func manualTable(t *testing.T, text, header string) [][]string {
	t.Helper()
	_, rest, ok := strings.Cut(text, "\n"+header+"\n")
	if !ok {
		t.Fatalf("the manual has no table %q", header)
	}
	if strings.Contains(rest, "\n"+header+"\n") {
		t.Errorf("the manual has the table %q twice", header)
	}
	var rows [][]string
	for _, line := range strings.Split(rest, "\n")[1:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		line = strings.ReplaceAll(line, `\|`, "/")
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	return rows
}

// TestManualFlags: the manual names every flag of every command (of each
// language of check and verify), and its table of common flags lists
// every flag that more than one command has, each with the commands that
// have it, as the commands' flag sets define them.
func TestManualFlags(t *testing.T) {
	text := manual(t)
	has := map[string][]string{} // dashed flag -> the commands that have it
	for _, c := range completionCommands {
		flags := commandFlags(c)
		if c.probes != nil && len(flags) == 0 {
			t.Errorf("ftmc %s: no flags found", c.name)
		}
		for _, f := range flags {
			d := f.dashed()
			has[d] = append(has[d], c.name)
			if !regexp.MustCompile("`" + regexp.QuoteMeta(d) + "[ =`\\[|]").MatchString(text) {
				t.Errorf("the manual does not name %s of ftmc %s", d, c.name)
			}
		}
	}
	inTable := map[string]bool{}
	flagName := regexp.MustCompile("`(--?[A-Za-z][a-z-]*)")
	for _, row := range manualTable(t, text, "| flag | commands | meaning |") {
		if len(row) != 3 {
			t.Errorf("common flags: row %q has %d cells", row, len(row))
			continue
		}
		cmds := strings.Split(row[1], ", ")
		for _, m := range flagName.FindAllStringSubmatch(row[0], -1) {
			d := m[1]
			inTable[d] = true
			if !slices.Equal(cmds, has[d]) {
				t.Errorf("common flags: %s is for %v in the manual, the commands that have it are %v", d, cmds, has[d])
			}
		}
	}
	for d, cmds := range has {
		if len(cmds) > 1 && !inTable[d] {
			t.Errorf("%s is a flag of %v but not in the manual's table of common flags", d, cmds)
		}
	}
}

// TestManualExitCodes: one table of exit codes, with the four codes.
func TestManualExitCodes(t *testing.T) {
	rows := manualTable(t, manual(t), "| exit code | meaning |")
	var codes []string
	for _, r := range rows {
		codes = append(codes, r[0])
	}
	if !slices.Equal(codes, []string{"0", "1", "2", "3"}) {
		t.Errorf("the manual's exit codes are %v, want 0, 1, 2, 3", codes)
	}
}
