package mcmt

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"ftmc/internal/clip"
	"ftmc/mcmt/system"
)

// Error is a syntax or type error at a position of the source. The seed
// file of the MCMT distribution is one 12 KB line, so the message also
// quotes the text around the position.
type Error struct {
	File    string
	Pos     system.Pos
	Msg     string
	Snippet string
	stopped bool // the context ended the reading
}

// Stopped reports whether reading ended because the context passed to
// ParseContext was done, not because of the input.
func (e *Error) Stopped() bool { return e.stopped }

func (e *Error) Error() string {
	s := fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	if e.Snippet != "" {
		s += fmt.Sprintf(" (near %q)", e.Snippet)
	}
	return s
}

// snippet returns up to 30 characters before and 30 after offset off, on
// off's line, with "..." where the line goes on.
func snippet(src []byte, off int) string {
	if off > len(src) {
		off = len(src)
	}
	start := off
	for start > 0 && src[start-1] != '\n' && off-start < 30 {
		start--
	}
	end := off
	for end < len(src) && src[end] != '\n' && end-off < 30 {
		end++
	}
	s := strings.Join(strings.Fields(string(src[start:end])), " ")
	if start > 0 && src[start-1] != '\n' {
		s = "..." + s
	}
	if end < len(src) && src[end] != '\n' {
		s += "..."
	}
	return s
}

type tokKind uint8

const (
	tEOF   tokKind = iota
	tIdent         // a name
	tNum           // a natural number
	tPunct         // punctuation or an operator
	tKey           // :keyword (MCMT's :keyword syntax)
)

type token struct {
	kind tokKind
	text string
	num  int64
	off  int
	pos  system.Pos
	// doc is the text of the comment just before the token.
	doc string
}

func (t token) String() string {
	if t.kind == tEOF {
		return "end of file"
	}
	return strconv.Quote(clip.Text(t.text))
}

// syntax selects comment and operator conventions.
type syntax uint8

const (
	synMCMT    syntax = iota // /* */ comments
	synMCMT1                 // :comment lines, :keywords
	synCubicle               // nested (* *) comments
)

var puncts = map[syntax][]string{
	synMCMT:    {":=", "!=", "<=", ">=", "(", ")", "[", "]", "{", "}", ",", ";", ":", "=", "<", ">", "+", "-"},
	synMCMT1:   {"<=", ">=", "(", ")", "[", "]", "=", "<", ">", "+", "-"},
	synCubicle: {"<=>", "=>", ":=", "<>", "<=", ">=", "&&", "||", "(", ")", "[", "]", "{", "}", ",", ";", ":", "=", "<", ">", "+", "-", "*", ".", "?", "|", "#"},
}

// lexer turns source text into tokens, one at a time, as the parser asks
// for them: an error near the start of a large file is found without
// reading the rest.
type lexer struct {
	file string
	src  []byte
	syn  syntax
	off  int
	line int
	col  int
	doc  string
	ctx  context.Context
	n    int // tokens scanned
}

// errorf makes the error at off; strings among args (names from the input)
// are clipped.
func (lx *lexer) errorf(off int, pos system.Pos, format string, args ...any) *Error {
	return &Error{File: lx.file, Pos: pos, Msg: clip.Sprintf(format, args...), Snippet: snippet(lx.src, off)}
}

func (lx *lexer) pos() system.Pos { return system.Pos{Line: lx.line, Col: lx.col} }

func (lx *lexer) advance(n int) {
	for i := 0; i < n && lx.off < len(lx.src); i++ {
		if lx.src[lx.off] == '\n' {
			lx.line++
			lx.col = 1
		} else if lx.src[lx.off]&0xC0 != 0x80 {
			lx.col++
		}
		lx.off++
	}
}

func (lx *lexer) hasPrefix(s string) bool {
	return strings.HasPrefix(string(lx.src[lx.off:min(len(lx.src), lx.off+len(s))]), s)
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// skip passes over white space and comments, remembering the last comment.
func (lx *lexer) skip() *Error {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.advance(1)
		case lx.syn == synMCMT && lx.hasPrefix("/*"):
			start, pos := lx.off, lx.pos()
			end := strings.Index(string(lx.src[lx.off+2:]), "*/")
			if end < 0 {
				return lx.errorf(start, pos, "unterminated comment")
			}
			lx.doc = string(lx.src[lx.off+2 : lx.off+2+end])
			lx.advance(end + 4)
		case lx.syn == synCubicle && lx.hasPrefix("(*"):
			start, pos := lx.off, lx.pos()
			depth := 0
			for {
				if lx.off >= len(lx.src) {
					return lx.errorf(start, pos, "unterminated comment")
				}
				if lx.hasPrefix("(*") {
					depth++
					lx.advance(2)
				} else if lx.hasPrefix("*)") {
					depth--
					lx.advance(2)
					if depth == 0 {
						break
					}
				} else {
					lx.advance(1)
				}
			}
			lx.doc = string(lx.src[start+2 : lx.off-2])
		case lx.syn == synMCMT1 && lx.hasPrefix(":comment"):
			start := lx.off
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.advance(1)
			}
			lx.doc = string(lx.src[start+len(":comment") : lx.off])
		default:
			return nil
		}
	}
	return nil
}

// checkEvery is how many tokens the lexer scans between two looks at its
// context.
const checkEvery = 1 << 12

// next scans the next token. After the end of file it returns tEOF again.
func (lx *lexer) next() (token, *Error) {
	if lx.line == 0 {
		lx.line, lx.col = 1, 1
	}
	if lx.n++; lx.n%checkEvery == 0 && lx.ctx != nil && lx.ctx.Err() != nil {
		return token{}, &Error{File: lx.file, Pos: lx.pos(), Msg: "stopped reading the model: " + context.Cause(lx.ctx).Error(), stopped: true}
	}
	{
		if err := lx.skip(); err != nil {
			return token{}, err
		}
		t := token{off: lx.off, pos: lx.pos(), doc: strings.TrimSpace(lx.doc)}
		lx.doc = ""
		if lx.off >= len(lx.src) {
			t.kind = tEOF
			return t, nil
		}
		c := lx.src[lx.off]
		switch {
		case isLetter(c) && !(c == '_' && lx.syn == synCubicle):
			end := lx.off
			for end < len(lx.src) && (isLetter(lx.src[end]) || isDigit(lx.src[end]) || lx.syn == synMCMT1 && lx.src[end] == '-') {
				end++
			}
			t.kind, t.text = tIdent, string(lx.src[lx.off:end])
			lx.advance(end - lx.off)
		case c == '_':
			t.kind, t.text = tPunct, "_"
			lx.advance(1)
		case isDigit(c):
			end := lx.off
			for end < len(lx.src) && isDigit(lx.src[end]) {
				end++
			}
			if end < len(lx.src) && lx.src[end] == '.' && end+1 < len(lx.src) && isDigit(lx.src[end+1]) {
				return token{}, lx.errorf(lx.off, t.pos, "real numbers are not supported")
			}
			text := string(lx.src[lx.off:end])
			n, err := strconv.ParseInt(text, 10, 64)
			if err != nil || n > 1<<40 {
				return token{}, lx.errorf(lx.off, t.pos, "number %s is too large", text)
			}
			t.kind, t.text, t.num = tNum, text, n
			lx.advance(end - lx.off)
		case lx.syn == synMCMT1 && c == ':' && lx.off+1 < len(lx.src) && isLetter(lx.src[lx.off+1]):
			end := lx.off + 1
			for end < len(lx.src) && (isLetter(lx.src[end]) || isDigit(lx.src[end])) {
				end++
			}
			t.kind, t.text = tKey, string(lx.src[lx.off:end])
			lx.advance(end - lx.off)
		default:
			found := ""
			for _, p := range puncts[lx.syn] {
				if lx.hasPrefix(p) {
					found = p
					break
				}
			}
			if found == "" {
				if c == 0 {
					return token{}, lx.errorf(lx.off, t.pos, "unexpected NUL byte (the file is not text)")
				}
				r, n := utf8.DecodeRune(lx.src[lx.off:])
				if r == utf8.RuneError && n <= 1 {
					return token{}, lx.errorf(lx.off, t.pos, "unexpected byte 0x%02x (the file is not UTF-8 text)", c)
				}
				return token{}, lx.errorf(lx.off, t.pos, "unexpected character %q", r)
			}
			t.kind, t.text = tPunct, found
			lx.advance(len(found))
		}
		return t, nil
	}
}
