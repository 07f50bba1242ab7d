package promela

// scanner splits one source file into tokens. It knows nothing about
// macros or directives; the preprocessor drives it, line-aware, through
// atLineEnd, skipLine, restOfLine and skipToDirective.
//
// The scanner does not allocate per token: the token's text is the byte
// range src[start:end], and its kind, position, value and flags are fields
// of the scanner, valid until the next call of next.
type scanner struct {
	src     []byte
	file    *string
	errh    func(Pos, string)
	off     int   // reading offset
	line    int32 // current line
	lineOff int   // offset where the current line starts

	// The last token.
	tok         Token
	pos         Pos
	start, end  int
	val         int64 // INT value
	space       bool  // white space or a comment precedes the token
	lineStart   bool  // the token is the first on its line
	newlineSeen bool  // a newline was crossed since the last token
	spaceSeen   bool  // white space was skipped since the last token (by atLineEnd)
}

func (s *scanner) init(file *string, src []byte, errh func(Pos, string)) {
	*s = scanner{src: src, file: file, errh: errh, line: 1, newlineSeen: true}
	// A UTF-8 byte order mark is not part of the text.
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.off, s.lineOff = 3, 3
	}
}

func (s *scanner) posAt(off int) Pos {
	return Pos{s.file, s.line, int32(off-s.lineOff) + 1}
}

func (s *scanner) error(off int, msg string) {
	if s.errh != nil {
		s.errh(s.posAt(off), msg)
	}
}

// newline records that the byte at s.off-1 was a newline.
func (s *scanner) newline() {
	s.line++
	s.lineOff = s.off
	s.newlineSeen = true
}

// skipSpace skips white space, comments and line continuations. If
// stopAtNewline is set it stops before a newline that ends the line.
// It reports whether anything was skipped.
func (s *scanner) skipSpace(stopAtNewline bool) bool {
	skipped := false
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.off++
		case c == 0:
			s.nul()
		case c == '\n':
			if stopAtNewline {
				return skipped
			}
			s.off++
			s.newline()
		case c == '\\' && s.continuation():
			// consumed by continuation
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*':
			start := s.off
			startPos := s.posAt(start)
			s.off += 2
			closed := false
			for s.off < len(s.src) {
				if s.src[s.off] == '*' && s.off+1 < len(s.src) && s.src[s.off+1] == '/' {
					s.off += 2
					closed = true
					break
				}
				if s.src[s.off] == 0 {
					s.nul()
					continue
				}
				s.off++
				if s.src[s.off-1] == '\n' {
					s.newline()
				}
			}
			if !closed && s.errh != nil {
				s.errh(startPos, "comment not terminated (expected */)")
			}
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				if s.src[s.off] == '\\' && s.continuation() {
					continue
				}
				if s.src[s.off] == 0 {
					s.nul()
					continue
				}
				s.off++
			}
		default:
			return skipped
		}
		skipped = true
	}
	return skipped
}

// nul reports the NUL byte at s.off, which is no part of a text (the file
// is binary, or a device was read), and passes it.
func (s *scanner) nul() {
	s.error(s.off, "unexpected NUL byte (the file is not text)")
	s.off++
}

// continuation consumes a backslash-newline (a line continuation) at s.off
// and reports whether there was one.
func (s *scanner) continuation() bool {
	i := s.off + 1
	if i < len(s.src) && s.src[i] == '\r' {
		i++
	}
	if i < len(s.src) && s.src[i] == '\n' {
		s.off = i + 1
		s.line++
		s.lineOff = s.off
		return true
	}
	return false
}

// next scans the next token.
func (s *scanner) next() {
	s.newlineSeen = s.newlineSeen || s.off == 0
	s.space = s.skipSpace(false) || s.spaceSeen
	s.lineStart = s.newlineSeen
	s.newlineSeen, s.spaceSeen = false, false
	s.start = s.off
	s.pos = s.posAt(s.off)
	s.val = 0
	if s.off >= len(s.src) {
		s.tok = EOF
		s.end = s.off
		return
	}
	c := s.src[s.off]
	s.off++
	switch {
	case isLetter(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.off++
		}
		s.tok = IDENT
	case isDigit(c):
		v := int64(c - '0')
		overflow := false
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			d := int64(s.src[s.off] - '0')
			if v > (1<<63-1-d)/10 {
				overflow = true
			} else {
				v = v*10 + d
			}
			s.off++
		}
		if overflow {
			s.error(s.start, "integer constant too large")
		}
		s.tok, s.val = INT, v
	case c == '\'':
		s.scanChar()
	case c == '"':
		s.scanString()
	default:
		s.tok = s.scanOperator(c)
	}
	s.end = s.off
}

func (s *scanner) scanChar() {
	s.tok = INT
	if s.off >= len(s.src) || s.src[s.off] == '\n' {
		s.error(s.start, "character constant not terminated (expected ')")
		return
	}
	c := s.src[s.off]
	if c == 0 {
		s.nul()
		return
	}
	s.off++
	if c == '\\' && s.off < len(s.src) && s.src[s.off] != '\n' {
		c = s.src[s.off]
		s.off++
		switch c {
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'f':
			c = '\f'
		case '0':
			c = 0
		}
	}
	s.val = int64(c)
	if s.off >= len(s.src) || s.src[s.off] != '\'' {
		s.error(s.start, "character constant not terminated (expected ')")
		return
	}
	s.off++
}

func (s *scanner) scanString() {
	s.tok = STRING
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch c {
		case '"':
			s.off++
			return
		case '\n':
			s.error(s.start, "string not terminated (expected \")")
			return
		case '\\':
			if s.continuation() {
				continue
			}
			s.off++
			if s.off < len(s.src) && s.src[s.off] != '\n' && s.src[s.off] != 0 {
				s.off++
			}
			continue
		case 0:
			s.nul()
			continue
		}
		s.off++
	}
	s.error(s.start, "string not terminated (expected \")")
}

func (s *scanner) peekByte(c byte) bool {
	if s.off < len(s.src) && s.src[s.off] == c {
		s.off++
		return true
	}
	return false
}

// operators1 gives the token of each operator of one byte, operators2 the
// operators of two bytes by their first byte: the scanner reads what
// tokenNames spells, from + to \.
var operators1, operators2 = func() (one [0x80]Token, two [0x80][]Token) {
	for t := ADD; t <= BACKSLASH; t++ {
		switch op := tokenNames[t]; len(op) {
		case 1:
			one[op[0]] = t
		case 2:
			two[op[0]] = append(two[op[0]], t)
		}
	}
	return one, two
}()

func (s *scanner) scanOperator(c byte) Token {
	if c < 0x80 {
		if s.off < len(s.src) {
			for _, t := range operators2[c] {
				if tokenNames[t][1] == s.src[s.off] {
					s.off++
					return t
				}
			}
		}
		if t := operators1[c]; t != ILLEGAL {
			return t
		}
	}
	if c >= 0x80 {
		// Swallow the rest of a UTF-8 sequence so that it is one error.
		for s.off < len(s.src) && s.src[s.off]&0xC0 == 0x80 {
			s.off++
		}
		s.error(s.start, "unexpected non-ASCII character")
	} else {
		s.error(s.start, "unexpected character "+quoteByte(c))
	}
	return ILLEGAL
}

func quoteByte(c byte) string {
	if c >= ' ' && c < 0x7f {
		return "'" + string(rune(c)) + "'"
	}
	const hex = "0123456789abcdef"
	return "0x" + string([]byte{hex[c>>4], hex[c&15]})
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// text returns the last token's source text.
func (s *scanner) text() []byte { return s.src[s.start:s.end] }

// atLineEnd skips white space and comments up to the end of the current
// line and reports whether the line ends there (or the file does).
func (s *scanner) atLineEnd() bool {
	if s.skipSpace(true) {
		s.spaceSeen = true
	}
	return s.off >= len(s.src) || s.src[s.off] == '\n'
}

// skipLine consumes the rest of the current line, including its newline.
func (s *scanner) skipLine() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		if c == '\\' && s.continuation() {
			continue
		}
		if c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*' {
			s.skipSpace(true) // a comment may run over several lines
			continue
		}
		s.off++
		if c == '\n' {
			s.newline()
			return
		}
	}
}

// restOfLine returns the raw text up to the end of the line (without the
// newline and without surrounding white space), with comments and
// continuations removed, and leaves the scanner before the newline.
func (s *scanner) restOfLine() string {
	var b []byte
	for {
		if s.skipSpace(true) && len(b) > 0 {
			b = append(b, ' ')
		}
		if s.off >= len(s.src) || s.src[s.off] == '\n' {
			break
		}
		c := s.src[s.off]
		if c == '"' || c == '\'' {
			start := s.off
			s.skipQuoted()
			b = append(b, s.src[start:s.off]...)
			continue
		}
		b = append(b, c)
		s.off++
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return string(b)
}

// skipQuoted skips the string or character constant whose quote is at
// s.off, up to its closing quote (escapes included) or the end of the
// line, leniently: it reports no error.
func (s *scanner) skipQuoted() {
	c := s.src[s.off]
	s.off++
	for s.off < len(s.src) && s.src[s.off] != c && s.src[s.off] != '\n' {
		if s.src[s.off] == '\\' && s.off+1 < len(s.src) && s.src[s.off+1] != '\n' {
			s.off++
		}
		s.off++
	}
	if s.off < len(s.src) && s.src[s.off] == c {
		s.off++
	}
}

// skipToDirective skips whole lines (of a group that #if left out) until a
// line whose first token is '#', and leaves the scanner before that '#'.
// Comments that span lines are honoured, so a '#' inside one does not
// count. It reports false at the end of the file.
func (s *scanner) skipToDirective() bool {
	for s.off < len(s.src) {
		s.skipSpace(true)
		if s.off < len(s.src) && s.src[s.off] == '#' {
			s.newlineSeen = true
			return true
		}
		// Skip the rest of the line, leniently: skipped text need not
		// consist of valid tokens (it may be prose with apostrophes).
		for s.off < len(s.src) && s.src[s.off] != '\n' {
			c := s.src[s.off]
			if c == '\\' && s.continuation() {
				continue
			}
			if c == '/' && s.off+1 < len(s.src) && (s.src[s.off+1] == '*' || s.src[s.off+1] == '/') {
				if s.src[s.off+1] == '*' {
					// An unterminated comment in a skipped group is an error
					// as it would be anywhere else.
					s.skipSpace(true)
				} else {
					for s.off < len(s.src) && s.src[s.off] != '\n' {
						s.off++
					}
				}
				continue
			}
			if c == '"' || c == '\'' {
				s.skipQuoted()
				continue
			}
			s.off++
		}
		if s.off < len(s.src) {
			s.off++
			s.newline()
		}
	}
	return false
}
