package promela

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"ftmc/internal/clip"
	"ftmc/internal/readfile"
)

// This file implements the part of the C preprocessor that Promela models
// use (Spin runs cpp over every model): object-like and function-like
// macros with # and ##, #undef, conditional groups with #if expressions,
// #include, #line, #pragma, #error and #warning.
//
// It works on tokens, not text, so every token keeps the position of its
// source: a token of a macro body takes the position of the macro's use,
// a token of a macro argument keeps its own, and tokens of an included file
// point into that file. Expansion follows the C standard's rescanning rule
// with hide sets: a macro is not expanded again inside its own expansion.

// token is a token with its text and position. Tokens are what the
// preprocessor hands to the parser.
type token struct {
	tok   Token
	space bool // white space (or a comment) precedes the token
	nl    bool // a line break precedes the token (Spin's lexer inserts ';' at some)
	pos   Pos
	lit   string // the source text of identifiers, numbers and strings
	val   int64  // the value of INT
	hide  *hideSet
}

func (t token) String() string {
	switch t.tok {
	case IDENT, INT, STRING:
		return t.lit
	}
	if t.tok.IsKeyword() {
		return t.lit
	}
	return t.tok.String()
}

// hideSet is an immutable sorted set of macro names.
type hideSet struct{ names []string }

type hideKey struct {
	h    *hideSet
	name string
}

// with returns h plus name, sharing equal sets made before (a macro that
// expands to many macros would otherwise copy its hide set for each). A
// new set counts against the bound of macro expansion.
func (p *preprocessor) with(h *hideSet, name string) *hideSet {
	k := hideKey{h, name}
	if r, ok := p.hideSets[k]; ok {
		return r
	}
	r := h.with(name)
	if p.hideSets == nil {
		p.hideSets = make(map[hideKey]*hideSet)
	}
	p.hideSets[k] = r
	if r != h {
		p.madeBytes += 16 * len(r.names)
	}
	return r
}

// union returns the union of h and o, sharing equal unions made before:
// the tokens of a macro argument, which often have the same hide set,
// get one set for all.
func (p *preprocessor) union(h, o *hideSet) *hideSet {
	switch {
	case h == nil:
		return o
	case o == nil || h == o:
		return h
	}
	k := [2]*hideSet{h, o}
	if r, ok := p.unions[k]; ok {
		return r
	}
	r := h
	for _, n := range o.names {
		r = p.with(r, n)
	}
	if p.unions == nil {
		p.unions = make(map[[2]*hideSet]*hideSet)
	}
	p.unions[k] = r
	return r
}

func (h *hideSet) has(name string) bool {
	if h == nil {
		return false
	}
	i := sort.SearchStrings(h.names, name)
	return i < len(h.names) && h.names[i] == name
}

func (h *hideSet) with(name string) *hideSet {
	if h.has(name) {
		return h
	}
	var names []string
	if h != nil {
		names = append(names, h.names...)
	}
	names = append(names, name)
	sort.Strings(names)
	return &hideSet{names}
}

type macro struct {
	name     string
	pos      Pos
	funcLike bool
	params   []string
	body     []token
}

func (m *macro) param(t token) int {
	if !m.funcLike || t.tok != IDENT {
		return -1
	}
	for i, p := range m.params {
		if p == t.lit {
			return i
		}
	}
	return -1
}

func sameMacro(a, b *macro) bool {
	if a.funcLike != b.funcLike || len(a.params) != len(b.params) || len(a.body) != len(b.body) {
		return false
	}
	for i := range a.params {
		if a.params[i] != b.params[i] {
			return false
		}
	}
	for i := range a.body {
		x, y := a.body[i], b.body[i]
		if x.tok != y.tok || x.lit != y.lit || (i > 0 && x.space != y.space) {
			return false
		}
	}
	return true
}

type ppCond struct {
	pos    Pos
	taken  bool // a branch of this group has been (or is being) used
	inElse bool
}

type ppFile struct {
	sc    scanner
	dir   string
	conds []ppCond
}

// Pragma is a #pragma line, kept for tools that read them (ByMC models use
// #pragma option "...").
type Pragma struct {
	Pos  Pos
	Text string
}

const maxIncludeDepth = 64

type preprocessor struct {
	macros      map[string]*macro
	files       []*ppFile
	intern      map[string]string
	fileNames   map[string]*string
	includeDirs []string
	readFile    func(string) ([]byte, error)
	errs        *ErrorList
	warnings    []Warning
	pragmas     []Pragma
	pending     []token // pushed-back tokens of the main stream; the next is last

	// Limits against runaway input: macros that expand exponentially,
	// files that include themselves twice. When one is hit (or there are
	// MaxErrors errors), the preprocessor stops and reports what it has.
	expanded  int // tokens made by macro expansion so far
	madeBytes int // bytes of text (# and ##) and hide sets made so far
	hideSets  map[hideKey]*hideSet
	unions    map[[2]*hideSet]*hideSet
	includes  int // files included so far
	bytes     int // bytes of the files pushed so far
	stopped   bool

	lastFile *string // the file and line of the last token out (nextOut)
	lastLine int32
}

const (
	maxExpanded = 1 << 20
	maxIncludes = 10000
	// bytesPerToken is how many bytes of text made by # and ## (and of
	// hide sets) count as one token against maxExpanded: a token takes
	// 56 bytes, so what expansion makes stays below some 60 MB.
	bytesPerToken = 16
)

// room returns how many more bytes of text expansion may make.
func (p *preprocessor) room() int {
	return (maxExpanded-p.expanded)*bytesPerToken - p.madeBytes
}

// grow counts n more tokens made by macro expansion (with the text and
// hide sets made so far) and reports whether they are within the bound;
// past it, it stops preprocessing with an error at pos (the use of the
// macro being expanded). Expansion calls it before making the tokens, so
// that what it makes stays within the bound.
func (p *preprocessor) grow(n int, pos Pos) bool {
	if p.stopped {
		return false
	}
	p.expanded += n
	if p.room() < 0 {
		p.stop(pos, fmt.Sprintf("macro expansion too large (more than %d tokens made by macros)", maxExpanded))
		return false
	}
	return true
}

// stop ends preprocessing after an error that makes going on pointless.
func (p *preprocessor) stop(pos Pos, msg string) { p.stopErr(pos, msg, nil) }

// stopErr is stop with an error that comes from err.
func (p *preprocessor) stopErr(pos Pos, msg string, err error) {
	if !p.stopped {
		p.errs.addErr(pos, msg, err)
	}
	p.stopped = true
	p.pending = nil
	p.files = nil
}

func newPreprocessor(opts *Options, errs *ErrorList) *preprocessor {
	p := &preprocessor{
		macros:      make(map[string]*macro),
		intern:      make(map[string]string),
		fileNames:   make(map[string]*string),
		includeDirs: opts.IncludeDirs,
		readFile:    opts.ReadFile,
		errs:        errs,
	}
	if p.readFile == nil {
		p.readFile = func(name string) ([]byte, error) {
			return readfile.ReadContext(opts.Context, name, readfile.ModelLimit, "model file")
		}
	}
	names := make([]string, 0, len(opts.Defines))
	for n := range opts.Defines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p.defineFromOption(n, opts.Defines[n])
	}
	return p
}

func (p *preprocessor) fileName(name string) *string {
	if f, ok := p.fileNames[name]; ok {
		return f
	}
	f := new(string)
	*f = name
	p.fileNames[name] = f
	return f
}

func (p *preprocessor) internBytes(b []byte) string {
	if s, ok := p.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	p.intern[s] = s
	return s
}

func (p *preprocessor) errorf(pos Pos, format string, args ...any) {
	p.errs.Addf(pos, format, args...)
}

// defineFromOption defines a macro given on the command line (-D NAME=VAL).
// An empty value defines NAME as 1, as -D NAME does.
func (p *preprocessor) defineFromOption(name, val string) {
	file := p.fileName("-D " + name)
	if val == "" {
		val = "1"
	}
	var sc scanner
	sc.init(p.fileName("-D"), []byte(name), p.errs.Add)
	sc.next()
	if sc.tok != IDENT || !sc.atLineEnd() {
		p.errorf(Pos{}, "-D %s: expected a macro name", name)
		return
	}
	m := &macro{name: name, pos: Pos{file: file}}
	sc.init(file, []byte(val), p.errs.Add)
	for !sc.atLineEnd() {
		sc.next()
		m.body = append(m.body, p.makeToken(&sc))
	}
	if len(m.body) > 0 {
		m.body[0].space = false
	}
	p.macros[name] = m
}

func (p *preprocessor) makeToken(sc *scanner) token {
	t := token{tok: sc.tok, space: sc.space, pos: sc.pos, val: sc.val}
	switch sc.tok {
	case IDENT, INT:
		t.lit = p.internBytes(sc.text())
	case STRING:
		t.lit = string(sc.text())
	}
	return t
}

// pushFile starts reading a file (the main one or an included one).
func (p *preprocessor) pushFile(name string, src []byte) {
	f := &ppFile{dir: filepath.Dir(name)}
	f.sc.init(p.fileName(name), src, p.errs.Add)
	p.files = append(p.files, f)
	p.bytes += len(src)
}

// run preprocesses the files pushed so far and returns the token stream,
// ending with EOF.
func (p *preprocessor) run() []token {
	var out []token
	for {
		t := p.nextOut()
		out = append(out, t)
		if t.tok == EOF {
			return out
		}
	}
}

// nextOut returns the next token of the preprocessed stream: macros
// expanded, keywords told from names. After the end it returns EOF again.
func (p *preprocessor) nextOut() token {
	for {
		t := p.next()
		if t.tok == IDENT && p.expand(t, p.next, p.unread) {
			continue
		}
		if t.tok == IDENT {
			if k, ok := keywords[t.lit]; ok {
				t.tok = k
			}
		}
		t.hide = nil
		// A token starts a line if it is further down its file than any
		// token before: a macro's expansion (at the position of its use)
		// after arguments on later lines stays on the line, as cpp puts it.
		if t.pos.file != p.lastFile || t.pos.Line > p.lastLine {
			t.nl = true
			p.lastFile, p.lastLine = t.pos.file, t.pos.Line
		}
		return t
	}
}

func (p *preprocessor) unread(t token) { p.pending = append(p.pending, t) }

// next returns the next unexpanded token of the main stream: pushed-back
// tokens first, then the files, with directives carried out.
func (p *preprocessor) next() token {
	for {
		if p.errs.Full() && !p.stopped {
			// The list keeps no more: stop, and say nothing more.
			p.stopped, p.pending, p.files = true, nil, nil
		}
		if n := len(p.pending); n > 0 {
			t := p.pending[n-1]
			p.pending = p.pending[:n-1]
			return t
		}
		if len(p.files) == 0 {
			return token{tok: EOF}
		}
		f := p.files[len(p.files)-1]
		f.sc.next()
		switch {
		case f.sc.tok == HASH && f.sc.lineStart:
			p.directive(f)
			continue
		case f.sc.tok == EOF:
			for _, c := range f.conds {
				p.errorf(c.pos, "#if without #endif")
			}
			p.files = p.files[:len(p.files)-1]
			if len(p.files) == 0 {
				return token{tok: EOF, pos: f.sc.pos, space: true}
			}
			continue
		}
		return p.makeToken(&f.sc)
	}
}

// expand expands the macro named by t, if there is one and it is not
// hidden, reading arguments with next and pushing the result back with
// unread. It reports whether t was consumed.
func (p *preprocessor) expand(t token, next func() token, unread func(token)) bool {
	m := p.macros[t.lit]
	if m == nil || t.hide.has(m.name) {
		return false
	}
	var args [][]token
	if m.funcLike {
		u := next()
		if u.tok != LPAREN {
			unread(u)
			return false
		}
		var ok bool
		args, ok = p.collectArgs(m, t, next)
		if !ok {
			return true
		}
	}
	out, ok := p.substitute(m, args, t)
	if !ok {
		return true
	}
	for i := len(out) - 1; i >= 0; i-- {
		unread(out[i])
	}
	return true
}

func (p *preprocessor) collectArgs(m *macro, name token, next func() token) ([][]token, bool) {
	depth := 0
	args := [][]token{nil}
	for {
		u := next()
		switch u.tok {
		case EOF:
			if !p.stopped {
				p.errorf(name.pos, "unterminated call of macro %s (expected ')')", m.name)
			}
			return nil, false
		case LPAREN:
			depth++
		case RPAREN:
			if depth == 0 {
				if len(m.params) == 0 && len(args) == 1 && len(args[0]) == 0 {
					args = nil
				}
				if len(args) != len(m.params) {
					p.errorf(name.pos, "macro %s expects %d arguments, found %d", m.name, len(m.params), len(args))
					return nil, false
				}
				return args, true
			}
			depth--
		case COMMA:
			if depth == 0 {
				args = append(args, nil)
				continue
			}
		}
		args[len(args)-1] = append(args[len(args)-1], u)
	}
}

// expandList macro-expands a token list in isolation (a macro argument, an
// #if expression); at is the use of the macro (or the #if) for an error.
// A list without macros is returned as it is (the caller must not change
// it); else the tokens of the list count against the bound of expansion
// as they are copied, since arguments nested in arguments are copied once
// for each level.
func (p *preprocessor) expandList(ts []token, at Pos) []token {
	if !p.hasMacro(ts) {
		return ts
	}
	i := 0
	var pending []token
	next := func() token {
		if n := len(pending); n > 0 {
			t := pending[n-1]
			pending = pending[:n-1]
			return t
		}
		if i < len(ts) && p.grow(1, at) {
			i++
			return ts[i-1]
		}
		return token{tok: EOF}
	}
	unread := func(t token) { pending = append(pending, t) }
	var out []token
	for {
		t := next()
		if t.tok == EOF || p.stopped {
			return out
		}
		if t.tok == IDENT && p.expand(t, next, unread) {
			continue
		}
		out = append(out, t)
	}
}

// hasMacro reports whether a token of ts names a macro.
func (p *preprocessor) hasMacro(ts []token) bool {
	for _, t := range ts {
		if t.tok == IDENT && p.macros[t.lit] != nil {
			return true
		}
	}
	return false
}

// substitute returns the replacement of one use of m (named by the token
// name) with the arguments args, or false if it would be larger than the
// bound of expansion (counted before it is made).
func (p *preprocessor) substitute(m *macro, args [][]token, name token) ([]token, bool) {
	hs := p.with(name.hide, m.name)
	placemarker := token{tok: ILLEGAL}
	var out []token
	fromBody := func(b token) token {
		b.pos = name.pos
		b.hide = hs
		return b
	}
	// addArg appends the tokens of an argument, in the expansion's hide
	// set, the first with the given space before it.
	addArg := func(a []token, space bool) {
		for i, t := range a {
			t.hide = p.union(t.hide, hs)
			if i == 0 {
				t.space = space
			}
			out = append(out, t)
		}
	}
	// The arguments used other than with # and ## are macro-expanded
	// first, once each. With them the size of the replacement is known
	// (at most: ## joins two tokens into one) before it is made.
	body := m.body
	var expanded [][]token
	size := 0
	for i := 0; i < len(body); i++ {
		b := body[i]
		switch k := m.param(b); {
		case m.funcLike && b.tok == HASH && i+1 < len(body) && m.param(body[i+1]) >= 0:
			i++
			size++
		case k >= 0 && !pastedAt(body, i):
			if expanded == nil {
				expanded = make([][]token, len(args))
			}
			if expanded[k] == nil {
				expanded[k] = p.expandList(args[k], name.pos)
				if p.stopped {
					return nil, false
				}
				if expanded[k] == nil {
					expanded[k] = []token{}
				}
			}
			size += len(expanded[k])
		case k >= 0:
			size += len(args[k])
		case b.tok != HASHHASH:
			size++
		}
	}
	if !p.grow(size, name.pos) {
		return nil, false
	}
	out = make([]token, 0, size)
	for i := 0; i < len(body); i++ {
		b := body[i]
		switch k := m.param(b); {
		case m.funcLike && b.tok == HASH && i+1 < len(body) && m.param(body[i+1]) >= 0:
			i++
			// The string is new text: count it as it is made.
			room := p.room()
			lit, ok := stringify(args[m.param(body[i])], room)
			if !ok {
				lit = ""
				p.madeBytes += room + 1
			}
			p.madeBytes += len(lit)
			if !p.grow(0, name.pos) {
				return nil, false
			}
			out = append(out, fromBody(token{tok: STRING, lit: lit, space: b.space}))
		case b.tok == HASHHASH:
			i++
			k := m.param(body[i])
			var right []token
			if k >= 0 {
				right = args[k]
			} else {
				right = []token{fromBody(body[i])}
			}
			if len(right) == 0 {
				continue
			}
			last := len(out) - 1
			if last >= 0 && out[last].tok == ILLEGAL && out[last].lit == "" {
				out = out[:last] // the placemarker
			} else if last >= 0 {
				// The pasted text is new: count it before it is made.
				p.madeBytes += len(out[last].String()) + len(right[0].String())
				if !p.grow(0, name.pos) {
					return nil, false
				}
				r := right[0]
				r.hide = p.union(r.hide, hs)
				out[last] = p.paste(out[last], r, name)
				right = right[1:]
			}
			if len(right) > 0 {
				addArg(right, right[0].space)
			}
		case k >= 0:
			a := args[k]
			if pastedAt(body, i) {
				if len(a) == 0 {
					out = append(out, placemarker)
					continue
				}
			} else {
				a = expanded[k]
			}
			if len(a) > 0 {
				addArg(a, b.space)
			}
		default:
			out = append(out, fromBody(b))
		}
	}
	// Drop placemarkers.
	j := 0
	for _, t := range out {
		if t.tok == ILLEGAL && t.lit == "" {
			continue
		}
		out[j] = t
		j++
	}
	out = out[:j]
	if len(out) > 0 {
		out[0].space = name.space
	}
	return out, p.grow(0, name.pos)
}

// pastedAt reports whether body[i] is an operand of ##.
func pastedAt(body []token, i int) bool {
	return i+1 < len(body) && body[i+1].tok == HASHHASH || i > 0 && body[i-1].tok == HASHHASH
}

// stringify returns the string literal of ts (the # operator), or false
// if it would be longer than limit bytes.
func stringify(ts []token, limit int) (string, bool) {
	var b strings.Builder
	b.WriteByte('"')
	for i, t := range ts {
		if b.Len() > limit {
			return "", false
		}
		if i > 0 && t.space {
			b.WriteByte(' ')
		}
		s := t.String()
		if t.tok == STRING || t.tok == INT && strings.HasPrefix(s, "'") {
			s = strings.ReplaceAll(s, `\`, `\\`)
			s = strings.ReplaceAll(s, `"`, `\"`)
		}
		b.WriteString(s)
	}
	b.WriteByte('"')
	return b.String(), b.Len() <= limit
}

// paste joins two tokens into one (the ## operator).
func (p *preprocessor) paste(l, r token, name token) token {
	text := l.String() + r.String()
	var sc scanner
	bad := false
	sc.init(l.pos.file, []byte(text), func(Pos, string) { bad = true })
	sc.next()
	t := p.makeToken(&sc)
	sc.next()
	if bad || sc.tok != EOF {
		p.errorf(name.pos, "pasting %q and %q in macro %s does not give a valid token", l.String(), r.String(), name.lit)
		return l
	}
	t.pos, t.space, t.hide = l.pos, l.space, p.union(l.hide, r.hide)
	return t
}

// lineTokens returns the remaining tokens of the current directive line.
func (p *preprocessor) lineTokens(f *ppFile) []token {
	var ts []token
	for !f.sc.atLineEnd() {
		f.sc.next()
		ts = append(ts, p.makeToken(&f.sc))
	}
	return ts
}

// directive carries out the directive whose '#' the scanner just read.
func (p *preprocessor) directive(f *ppFile) {
	sc := &f.sc
	hash := sc.pos
	if sc.atLineEnd() { // the null directive
		sc.skipLine()
		return
	}
	sc.next()
	if sc.tok == INT { // a line marker: # 12 "file"
		p.applyLine(f, append([]token{p.makeToken(sc)}, p.lineTokens(f)...))
		return
	}
	if sc.tok != IDENT {
		p.errorf(sc.pos, "expected a directive name after #, found %s", describe(p.makeToken(sc)))
		sc.skipLine()
		return
	}
	name := string(sc.text())
	namePos := sc.pos
	switch name {
	case "define":
		p.define(f)
	case "undef":
		ts := p.lineTokens(f)
		if len(ts) == 0 || ts[0].tok != IDENT {
			p.errorf(namePos, "expected a macro name after #undef")
		} else {
			if len(ts) > 1 {
				p.errorf(ts[1].pos, "unexpected %s after #undef %s", describe(ts[1]), ts[0].lit)
			}
			delete(p.macros, ts[0].lit)
		}
	case "include":
		p.include(f, hash)
		return
	case "if", "ifdef", "ifndef":
		var v bool
		ts := p.lineTokens(f)
		if name == "if" {
			v = p.evalIf(ts, namePos)
		} else {
			if len(ts) == 0 || ts[0].tok != IDENT {
				p.errorf(namePos, "expected a macro name after #%s", name)
			} else if len(ts) > 1 {
				p.errorf(ts[1].pos, "unexpected %s after #%s %s", describe(ts[1]), name, ts[0].lit)
			}
			v = len(ts) > 0 && p.macros[ts[0].lit] != nil
			if name == "ifndef" {
				v = !v
			}
		}
		f.conds = append(f.conds, ppCond{pos: hash, taken: v})
		sc.skipLine()
		if !v {
			p.skipGroup(f)
		}
		return
	case "elif", "else":
		if len(f.conds) == 0 {
			p.errorf(hash, "#%s without #if", name)
			break
		}
		p.branch(&f.conds[len(f.conds)-1], hash, name)
		// The group before was being used: skip to the #endif.
		sc.skipLine()
		p.skipGroup(f)
		return
	case "endif":
		if len(f.conds) == 0 {
			p.errorf(hash, "#endif without #if")
			break
		}
		f.conds = f.conds[:len(f.conds)-1]
	case "error":
		p.errorf(hash, "#error %s", clip.Text(sc.restOfLine()))
	case "warning":
		p.warnings = append(p.warnings, Warning{hash, "#warning " + sc.restOfLine()})
	case "pragma":
		p.pragmas = append(p.pragmas, Pragma{hash, sc.restOfLine()})
	case "line":
		ts := p.lineTokens(f)
		if len(ts) == 0 || ts[0].tok != INT {
			p.errorf(namePos, "expected a line number after #line")
			break
		}
		p.applyLine(f, ts)
		return
	default:
		p.errorf(namePos, "unknown preprocessor directive #%s", name)
	}
	sc.skipLine()
}

// applyLine carries out #line N "file" (and the marker # N "file").
func (p *preprocessor) applyLine(f *ppFile, ts []token) {
	n := ts[0].val
	var file *string
	if len(ts) > 1 {
		if ts[1].tok != STRING {
			p.errorf(ts[1].pos, "expected a file name in quotes after the line number")
		} else {
			file = p.fileName(unquote(ts[1].lit))
		}
	}
	f.sc.skipLine()
	if n < 1 || n > 1<<30 {
		p.errorf(ts[0].pos, "line number out of range")
		return
	}
	f.sc.line = int32(n)
	if file != nil {
		f.sc.file = file
	}
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

func (p *preprocessor) define(f *ppFile) {
	sc := &f.sc
	if sc.atLineEnd() {
		p.errorf(sc.posAt(sc.off), "expected a macro name after #define")
		return
	}
	sc.next()
	if sc.tok != IDENT {
		p.errorf(sc.pos, "expected a macro name after #define, found %s", describe(p.makeToken(sc)))
		return
	}
	m := &macro{name: p.internBytes(sc.text()), pos: sc.pos}
	if m.name == "defined" {
		p.errorf(sc.pos, "\"defined\" cannot be used as a macro name")
		return
	}
	if sc.off < len(sc.src) && sc.src[sc.off] == '(' {
		m.funcLike = true
		sc.next() // (
		for {
			if sc.atLineEnd() {
				p.errorf(sc.posAt(sc.off), "expected ')' in the parameter list of macro %s", m.name)
				return
			}
			sc.next()
			if sc.tok == RPAREN && len(m.params) == 0 {
				break
			}
			if sc.tok == DOT || sc.tok == DOTDOT {
				p.errorf(sc.pos, "variadic macros are not supported")
				return
			}
			if sc.tok != IDENT {
				p.errorf(sc.pos, "expected a parameter name in macro %s, found %s", m.name, describe(p.makeToken(sc)))
				return
			}
			prm := p.internBytes(sc.text())
			for _, q := range m.params {
				if q == prm {
					p.errorf(sc.pos, "duplicate parameter %s in macro %s", prm, m.name)
				}
			}
			m.params = append(m.params, prm)
			if sc.atLineEnd() {
				continue // reported above on the next round
			}
			sc.next()
			if sc.tok == RPAREN {
				break
			}
			if sc.tok != COMMA {
				p.errorf(sc.pos, "expected ',' or ')' in the parameter list of macro %s, found %s", m.name, describe(p.makeToken(sc)))
				return
			}
		}
	}
	m.body = p.lineTokens(f)
	if len(m.body) > 0 {
		m.body[0].space = false
		if m.body[0].tok == HASHHASH {
			p.errorf(m.body[0].pos, "'##' cannot begin a macro body")
			m.body = nil
		} else if m.body[len(m.body)-1].tok == HASHHASH {
			p.errorf(m.body[len(m.body)-1].pos, "'##' cannot end a macro body")
			m.body = nil
		}
	}
	if m.funcLike {
		for i, b := range m.body {
			if b.tok == HASH && (i+1 >= len(m.body) || m.param(m.body[i+1]) < 0) {
				p.errorf(b.pos, "'#' is not followed by a parameter of macro %s", m.name)
			}
		}
	}
	if old := p.macros[m.name]; old != nil && !sameMacro(old, m) {
		p.warnings = append(p.warnings, Warning{m.pos, "macro " + m.name + " redefined (previous definition at " + old.pos.String() + ")"})
	}
	p.macros[m.name] = m
}

func (p *preprocessor) include(f *ppFile, hash Pos) {
	sc := &f.sc
	sc.skipSpace(true)
	argPos := sc.posAt(sc.off)
	rest := sc.restOfLine()
	sc.skipLine()
	var name string
	var dirs []string
	switch {
	case strings.HasPrefix(rest, "\""):
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			p.errorf(argPos, "expected \"file\" or <file> after #include")
			return
		}
		name = rest[1 : 1+end]
		dirs = append([]string{f.dir}, p.includeDirs...)
	case strings.HasPrefix(rest, "<"):
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			p.errorf(argPos, "expected \"file\" or <file> after #include")
			return
		}
		name = rest[1:end]
		dirs = p.includeDirs
	default:
		p.errorf(argPos, "expected \"file\" or <file> after #include")
		return
	}
	if name == "" {
		p.errorf(argPos, "empty file name in #include")
		return
	}
	if len(p.files) >= maxIncludeDepth {
		p.stop(hash, "#include nested too deeply (a file includes itself?)")
		return
	}
	if p.includes++; p.includes > maxIncludes {
		p.stop(hash, "too many #include files")
		return
	}
	var paths []string
	if filepath.IsAbs(name) {
		paths = []string{name}
	} else {
		for _, d := range dirs {
			paths = append(paths, filepath.Join(d, name))
		}
	}
	for _, path := range paths {
		src, err := p.readFile(path)
		var tl *readfile.TooLargeError
		if errors.As(err, &tl) {
			p.stop(argPos, err.Error())
			return
		}
		var se *readfile.StoppedError
		if errors.As(err, &se) {
			// A limit or a signal stopped the reading (of a FIFO): the
			// error says which file it was reading (a path that could be
			// opened, of at most PATH_MAX bytes: not clipped).
			p.stopErr(argPos, fmt.Sprintf("%s: reading stopped: %v", path, se.Cause), err)
			return
		}
		if err == nil {
			if p.bytes+len(src) > readfile.ModelLimit {
				p.stop(argPos, fmt.Sprintf("%s: the model with its included files is larger than %d MB", clip.Text(path), readfile.ModelLimit>>20))
				return
			}
			p.pushFile(path, src)
			return
		}
	}
	p.errorf(argPos, "cannot find include file %q", clip.Text(name))
}

// branch records the start of the #elif or #else (name) at hash in the
// group top: after its #else, that is an error.
func (p *preprocessor) branch(top *ppCond, hash Pos, name string) {
	if top.inElse {
		p.errorf(hash, "#%s after #else", name)
	}
	if name == "else" {
		top.inElse = true
	}
}

// skipGroup skips the lines of a group that a conditional directive left
// out, up to the directive that ends it or starts a group to use.
func (p *preprocessor) skipGroup(f *ppFile) {
	sc := &f.sc
	depth := 0
	for {
		if !sc.skipToDirective() {
			return // the missing #endif is reported at the end of the file
		}
		sc.next() // #
		hash := sc.pos
		if sc.atLineEnd() {
			sc.skipLine()
			continue
		}
		sc.next()
		if sc.tok != IDENT {
			sc.skipLine()
			continue
		}
		name := string(sc.text())
		namePos := sc.pos
		switch name {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			if depth > 0 {
				depth--
				break
			}
			f.conds = f.conds[:len(f.conds)-1]
			sc.skipLine()
			return
		case "elif", "else":
			if depth > 0 {
				break
			}
			top := &f.conds[len(f.conds)-1]
			p.branch(top, hash, name)
			if name == "else" {
				if !top.taken {
					top.taken = true
					sc.skipLine()
					return
				}
				break
			}
			if top.taken {
				break
			}
			if p.evalIf(p.lineTokens(f), namePos) {
				top.taken = true
				sc.skipLine()
				return
			}
		}
		sc.skipLine()
	}
}

// evalIf evaluates the expression of an #if or #elif.
func (p *preprocessor) evalIf(ts []token, at Pos) bool {
	if len(ts) == 0 {
		p.errorf(at, "expected an expression after #if")
		return false
	}
	ts = p.replaceDefined(ts)
	ts = p.replaceDefined(p.expandList(ts, at))
	for i := range ts {
		if ts[i].tok == IDENT {
			// Names that are not macros are 0, as in C.
			ts[i] = token{tok: INT, lit: "0", pos: ts[i].pos}
		}
	}
	e := ifEval{p: p, ts: ts}
	v, ok := e.cond()
	if ok && e.i < len(e.ts) {
		p.errorf(e.ts[e.i].pos, "unexpected %s in #if expression", describe(e.ts[e.i]))
		ok = false
	}
	return ok && v != 0
}

// replaceDefined replaces defined X and defined(X) by 1 or 0.
func (p *preprocessor) replaceDefined(ts []token) []token {
	var out []token
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.tok != IDENT || t.lit != "defined" {
			out = append(out, t)
			continue
		}
		var name token
		switch {
		case i+1 < len(ts) && ts[i+1].tok == IDENT:
			name = ts[i+1]
			i++
		case i+3 < len(ts) && ts[i+1].tok == LPAREN && ts[i+2].tok == IDENT && ts[i+3].tok == RPAREN:
			name = ts[i+2]
			i += 3
		default:
			p.errorf(t.pos, "expected a macro name after defined")
			out = append(out, token{tok: INT, lit: "0", pos: t.pos})
			continue
		}
		v := token{tok: INT, lit: "0", pos: t.pos}
		if p.macros[name.lit] != nil {
			v.val, v.lit = 1, "1"
		}
		out = append(out, v)
	}
	return out
}

// ifEval evaluates #if expressions with C's operators and precedence.
type ifEval struct {
	p  *preprocessor
	ts []token
	i  int
}

func (e *ifEval) peek() Token {
	if e.i < len(e.ts) {
		return e.ts[e.i].tok
	}
	return EOF
}

func (e *ifEval) errAt(msg string) {
	if e.i < len(e.ts) {
		e.p.errorf(e.ts[e.i].pos, "%s in #if expression, found %s", msg, describe(e.ts[e.i]))
	} else if len(e.ts) > 0 {
		e.p.errorf(e.ts[len(e.ts)-1].pos, "%s in #if expression, found end of line", msg)
	}
}

func (e *ifEval) cond() (int64, bool) {
	c, ok := e.binary(1)
	if !ok || e.peek() != QUEST {
		return c, ok
	}
	e.i++
	a, ok := e.condThen(COLON)
	if !ok {
		return 0, false
	}
	b, ok := e.cond()
	if !ok {
		return 0, false
	}
	if c != 0 {
		return a, true
	}
	return b, true
}

// condThen reads a conditional expression and the token end after it
// (the ':' of c ? a : b, a closing parenthesis).
func (e *ifEval) condThen(end Token) (int64, bool) {
	x, ok := e.cond()
	if !ok {
		return 0, false
	}
	if e.peek() != end {
		e.errAt("expected '" + end.String() + "'")
		return 0, false
	}
	e.i++
	return x, true
}

func (e *ifEval) binary(prec int) (int64, bool) {
	x, ok := e.unary()
	if !ok {
		return 0, false
	}
	for {
		op := e.peek()
		// Promela's precedence, which is C's (its temporal operators
		// and implication are never scanned).
		q := opPrec(op)
		if q < prec || q == 0 {
			return x, true
		}
		opTok := e.ts[e.i]
		e.i++
		y, ok := e.binary(q + 1)
		if !ok {
			return 0, false
		}
		if (op == QUO || op == REM) && y == 0 {
			e.p.errorf(opTok.pos, "division by zero in #if expression")
			return 0, false
		}
		x = evalBinary(op, x, y)
	}
}

func (e *ifEval) unary() (int64, bool) {
	switch e.peek() {
	case SUB, ADD, NOT, TILDE:
		op := e.peek()
		e.i++
		x, ok := e.unary()
		switch op {
		case SUB:
			x = -x
		case NOT:
			x = b2i(x == 0)
		case TILDE:
			x = ^x
		}
		return x, ok
	case INT:
		e.i++
		return e.ts[e.i-1].val, true
	case LPAREN:
		e.i++
		return e.condThen(RPAREN)
	}
	e.errAt("expected a number or '('")
	return 0, false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// evalBinary applies a binary operator to constants with C's (and Spin's)
// meaning. Division by zero must be excluded by the caller.
func evalBinary(op Token, x, y int64) int64 {
	switch op {
	case ADD:
		return x + y
	case SUB:
		return x - y
	case MUL:
		return x * y
	case QUO:
		return x / y
	case REM:
		return x % y
	case AND:
		return x & y
	case OR:
		return x | y
	case XOR:
		return x ^ y
	case SHL:
		return x << uint64(y&63)
	case SHR:
		return x >> uint64(y&63)
	case LAND:
		return b2i(x != 0 && y != 0)
	case LOR:
		return b2i(x != 0 || y != 0)
	case EQL:
		return b2i(x == y)
	case NEQ:
		return b2i(x != y)
	case LSS:
		return b2i(x < y)
	case LEQ:
		return b2i(x <= y)
	case GTR:
		return b2i(x > y)
	case GEQ:
		return b2i(x >= y)
	}
	return 0
}

// described is a description of a token, clipped already (ErrorList.Addf
// leaves it alone).
type described string

// describe names a token for error messages: 'x' for identifiers and
// operators, the text for numbers and strings.
func describe(t token) described {
	switch t.tok {
	case EOF:
		return "end of file"
	case IDENT:
		return described("'" + clip.Text(t.lit) + "'")
	case INT:
		return described("number " + clip.Text(t.lit))
	case STRING:
		return described("string " + clip.Text(t.lit))
	case ILLEGAL:
		return "illegal character"
	}
	if t.tok.IsKeyword() {
		return described("keyword '" + t.tok.String() + "'")
	}
	return described("'" + t.tok.String() + "'")
}
