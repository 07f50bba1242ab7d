package compile

import (
	"testing"

	"ftmc/promela"
	"ftmc/state"
)

// search is a plain breadth-first search for the tests of this package: it
// counts the reachable states and finds the first violation.
type search struct {
	seen   map[string]bool
	queue  [][]byte
	kind   string // "" (no violation), or a state.Kind*
	msg    string
	nsucc  int
	limit  int
	states int
}

func (s *search) Succ(_ state.Trans, v []byte) {
	s.nsucc++
	if !s.seen[string(v)] {
		s.seen[string(v)] = true
		s.queue = append(s.queue, append([]byte(nil), v...))
	}
}

func (s *search) Fail(_ state.Trans, kind, msg string) {
	s.nsucc++
	if s.kind == "" {
		s.kind, s.msg = kind, msg
	}
}

// explore searches m completely (or until a violation or limit states).
func explore(m state.Model, limit int) *search {
	s := &search{seen: map[string]bool{}, limit: limit}
	_ = m.Initial(func(v []byte) {
		s.seen[string(v)] = true
		s.queue = append(s.queue, append([]byte(nil), v...))
	})
	for len(s.queue) > 0 && s.kind == "" {
		if limit > 0 && len(s.seen) > limit {
			break
		}
		v := s.queue[0]
		s.queue = s.queue[1:]
		s.nsucc = 0
		m.Next(v, s)
		if s.nsucc == 0 && !m.ValidEnd(v) && s.kind == "" {
			s.kind, s.msg = state.KindInvalidEnd, "invalid end state"
		}
	}
	s.states = len(s.seen)
	return s
}

// compileSrc compiles a model given as text.
func compileSrc(t *testing.T, src string, defines map[string]string) *Model {
	t.Helper()
	return compileWith(t, src, promela.Options{Defines: defines})
}

// compileWith compiles a model given as text, read with opts.
func compileWith(t *testing.T, src string, opts promela.Options) *Model {
	t.Helper()
	return compileNamed(t, "test.pml", []byte(src), opts)
}

// compileNamed compiles the model src of the file name, read with opts.
func compileNamed(t *testing.T, name string, src []byte, opts promela.Options) *Model {
	t.Helper()
	prog, err := promela.Parse(name, src, opts)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	m, err := Compile(prog)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return m
}
