package smt

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
)

// endless yields one byte for ever.
type endless byte

func (e endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(e)
	}
	return len(b), nil
}

// A solver's output that nests too deep or runs on is an error, not a
// stack overflow or all of memory.
func TestReadSexpBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		r    io.Reader
		want string
	}{
		{"ten million open parentheses", strings.NewReader(strings.Repeat("(", 10_000_000)), "nested deeper than 1000 levels"},
		{"an endless atom", endless('a'), "longer than 16 MB"},
		{"an endless string", io.MultiReader(strings.NewReader(`"`), endless('x')), "longer than 16 MB"},
		{"an endless list", io.MultiReader(strings.NewReader("("), endless(' ')), "longer than 16 MB"},
		{"a stray parenthesis", strings.NewReader(")"), "unexpected ')'"},
	} {
		_, err := readSexp(bufio.NewReader(c.r))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	// Deep, but within the bound.
	deep := strings.Repeat("(", 1000) + "x" + strings.Repeat(")", 1000)
	e, err := readSexp(bufio.NewReader(strings.NewReader(deep)))
	if err != nil || e.String() != deep {
		t.Errorf("1000 levels: %v", err)
	}
	// A list cut short by the end of the output.
	if _, err := readSexp(bufio.NewReader(strings.NewReader("((a b)"))); err != io.ErrUnexpectedEOF {
		t.Errorf("unterminated list: %v, want io.ErrUnexpectedEOF", err)
	}
}

// FuzzReadSexp: whatever a solver writes, reading it ends with answers or
// an error, never a panic; an answer read back from its text is the same
// answer, and reading values from it does not panic either.
func FuzzReadSexp(f *testing.F) {
	for _, s := range []string{
		"sat", "unsat\n", "success\nsuccess\n", "((x 3) (y (- 2)) (r (/ 1 2)))",
		`(error "line 1: bad ""x""")`, "|a b|", "; comment\nunknown", `(:reason-unknown "timeout")`,
		"((|k[loc0]| 0.5) (b true))", "(((", ")", "a|b", `"unterminated`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		for i := 0; i <= len(data); i++ {
			e, err := readSexp(r)
			if err != nil {
				return
			}
			text := e.String()
			again, err := readSexp(bufio.NewReader(strings.NewReader(text)))
			if err != nil || again.String() != text {
				t.Fatalf("%q read back from %q: %q, %v", text, data, again.String(), err)
			}
			parseValue(e)
			if e.IsList {
				for _, x := range e.List {
					parseValue(x)
				}
			}
		}
		t.Fatalf("more answers than bytes in %q", data)
	})
}
