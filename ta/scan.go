package ta

import (
	"fmt"
	"unicode/utf8"

	"ftmc/internal/clip"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tOp // punctuation and operators; the text says which
)

type token struct {
	kind tokKind
	text string
	pos  Pos
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return fmt.Sprintf("name %q", clip.Text(t.text))
	case tInt:
		return fmt.Sprintf("number %s", clip.Text(t.text))
	}
	return fmt.Sprintf("%q", t.text)
}

// scanner splits a .ta file into tokens. Comments are /* ... */ only, as in
// ByMC's lexer.
type scanner struct {
	src  []byte
	off  int
	line int
	col  int
	err  *Error
	file string
}

func newScanner(file string, src []byte) *scanner {
	return &scanner{src: src, line: 1, col: 1, file: file}
}

func (s *scanner) errorf(p Pos, format string, args ...any) {
	if s.err == nil {
		s.err = newError(s.file, p, format, args...)
	}
}

func (s *scanner) advance(n int) {
	for i := 0; i < n && s.off < len(s.src); i++ {
		if s.src[s.off] == '\n' {
			s.line++
			s.col = 1
		} else if s.src[s.off]&0xC0 != 0x80 {
			s.col++ // columns count characters, not the bytes of UTF-8
		}
		s.off++
	}
}

func (s *scanner) peekByte(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

var ops2 = []string{"<=", ">=", "==", "!=", "&&", "||", "->", "<>", "[]", ":="}

func (s *scanner) next() token {
	for s.off < len(s.src) {
		c := s.src[s.off]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			s.advance(1)
			continue
		}
		if c == '/' && s.peekByte(1) == '/' {
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				if s.src[s.off] == 0 {
					s.errorf(Pos{s.line, s.col}, "unexpected NUL byte (the file is not text)")
					return token{kind: tEOF, pos: Pos{s.line, s.col}}
				}
				s.advance(1)
			}
			continue
		}
		if c == '/' && s.peekByte(1) == '*' {
			p := Pos{s.line, s.col}
			s.advance(2)
			closed := false
			for s.off < len(s.src) {
				if s.src[s.off] == '*' && s.peekByte(1) == '/' {
					s.advance(2)
					closed = true
					break
				}
				if s.src[s.off] == 0 {
					s.errorf(Pos{s.line, s.col}, "unexpected NUL byte (the file is not text)")
					return token{kind: tEOF, pos: Pos{s.line, s.col}}
				}
				s.advance(1)
			}
			if !closed {
				s.errorf(p, "comment not terminated: expected */")
				return token{kind: tEOF, pos: Pos{s.line, s.col}}
			}
			continue
		}
		break
	}
	p := Pos{s.line, s.col}
	if s.off >= len(s.src) {
		return token{kind: tEOF, pos: p}
	}
	c := s.src[s.off]
	switch {
	case isLetter(c):
		start := s.off
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.advance(1)
		}
		return token{kind: tIdent, text: string(s.src[start:s.off]), pos: p}
	case isDigit(c):
		start := s.off
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.advance(1)
		}
		return token{kind: tInt, text: string(s.src[start:s.off]), pos: p}
	}
	for _, op := range ops2 {
		if c == op[0] && s.peekByte(1) == op[1] {
			s.advance(2)
			return token{kind: tOp, text: op, pos: p}
		}
	}
	switch c {
	case '{', '}', '(', ')', '[', ']', ';', ':', ',', '\'', '+', '-', '*', '/', '<', '>', '!', '=':
		s.advance(1)
		return token{kind: tOp, text: string(c), pos: p}
	}
	r, n := utf8.DecodeRune(s.src[s.off:])
	switch {
	case c == 0:
		s.errorf(p, "unexpected NUL byte (the file is not text)")
	case r == utf8.RuneError && n <= 1:
		s.errorf(p, "unexpected byte 0x%02x (the file is not UTF-8 text)", c)
	default:
		s.errorf(p, "unexpected character %q", r)
	}
	s.advance(n)
	return token{kind: tEOF, pos: p}
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
