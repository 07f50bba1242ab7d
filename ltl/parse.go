package ltl

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a syntax error in a formula, at a position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Spec is a named property: an `ltl name { formula }` block, or a formula
// given on the command line.
type Spec struct {
	Name    string
	Formula *Formula
	Pos     Pos
}

// Parse reads one formula in Spin's syntax. src starts at position start (a
// formula inside an ltl block of a model starts where the block's text
// does; use Pos{File: "<command line>", Line: 1, Col: 1} otherwise), so that
// errors and atom positions point into the model file.
func Parse(start Pos, src string) (*Formula, error) {
	p := newParser(start, src)
	n := p.formula()
	if p.err == nil && p.tok.kind != tEOF {
		p.errorf(p.tok.off, "expected an operator or the end of the formula, found %s", p.tok.describe())
	}
	if p.err != nil {
		return nil, p.err
	}
	f := p.convert(n)
	if p.err != nil {
		return nil, p.err
	}
	return f, nil
}

// ParseSpecs reads a file of `ltl name { formula }` blocks (the names are
// optional, as in Promela, where an unnamed block is called ltl_0, ltl_1,
// ...). Comments /* */ and // are skipped.
func ParseSpecs(file, src string) ([]Spec, error) {
	p := newParser(Pos{File: file, Line: 1, Col: 1}, src)
	var specs []Spec
	for p.err == nil && p.tok.kind != tEOF {
		if p.tok.kind != tIdent || p.tok.text != "ltl" {
			p.errorf(p.tok.off, "expected ltl, found %s", p.tok.describe())
			break
		}
		at := p.tok.off
		p.next()
		name := fmt.Sprintf("ltl_%d", len(specs))
		if p.tok.kind == tIdent {
			name = p.tok.text
			p.next()
		}
		if !p.expect("{") {
			break
		}
		n := p.formula()
		if !p.expect("}") {
			break
		}
		f := p.convert(n)
		if p.err != nil {
			break
		}
		for _, s := range specs {
			if s.Name == name {
				p.errorf(at, "ltl %s declared twice (first at %s)", name, s.Pos)
			}
		}
		specs = append(specs, Spec{Name: name, Formula: f, Pos: p.pos(at)})
	}
	if p.err != nil {
		return nil, p.err
	}
	return specs, nil
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNum
	tPunct // operators and brackets; text says which
)

type token struct {
	kind tokKind
	text string
	off  int  // byte offset in src
	sp   bool // preceded by white space
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end of the formula"
	case tIdent:
		return fmt.Sprintf("%q", t.text)
	case tNum:
		return "number " + t.text
	}
	return fmt.Sprintf("%q", t.text)
}

type parser struct {
	start Pos
	src   string
	off   int // next byte to scan
	tok   token
	err   *Error
	depth int
}

func newParser(start Pos, src string) *parser {
	if start.Line == 0 {
		start.Line = 1
	}
	if start.Col == 0 {
		start.Col = 1
	}
	p := &parser{start: start, src: src}
	p.next()
	return p
}

// pos converts a byte offset into a position.
func (p *parser) pos(off int) Pos {
	pos := p.start
	for i := 0; i < off && i < len(p.src); i++ {
		if p.src[i] == '\n' {
			pos.Line++
			pos.Col = 1
		} else {
			pos.Col++
		}
	}
	return pos
}

func (p *parser) errorf(off int, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Pos: p.pos(off), Msg: fmt.Sprintf(format, args...)}
	}
	p.tok = token{kind: tEOF, off: len(p.src)}
	p.off = len(p.src)
}

// punctuation, longest first within each starting byte.
var puncts = []string{
	"<->", "<<", "<=", "<>", "<", "->", "-", "[]", "[", "]", "(", ")", "{", "}",
	"!=", "!", "&&", "&", "||", "|", "==", ">=", ">>", ">", "+", "*", "/", "%",
	"^", "~", "@", ":", ".", ",",
}

func (p *parser) next() {
	if p.err != nil {
		return
	}
	sp := false
	for p.off < len(p.src) {
		c := p.src[p.off]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
			p.off++
			sp = true
			continue
		}
		if strings.HasPrefix(p.src[p.off:], "/*") {
			end := strings.Index(p.src[p.off+2:], "*/")
			if end < 0 {
				p.errorf(p.off, "comment not terminated")
				return
			}
			p.off += end + 4
			sp = true
			continue
		}
		if strings.HasPrefix(p.src[p.off:], "//") {
			for p.off < len(p.src) && p.src[p.off] != '\n' {
				p.off++
			}
			sp = true
			continue
		}
		break
	}
	start := p.off
	if p.off >= len(p.src) {
		p.tok = token{kind: tEOF, off: start, sp: sp}
		return
	}
	c := p.src[p.off]
	switch {
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for p.off < len(p.src) && isIdentByte(p.src[p.off]) {
			p.off++
		}
		p.tok = token{kind: tIdent, text: p.src[start:p.off], off: start, sp: sp}
		return
	case c >= '0' && c <= '9':
		for p.off < len(p.src) && isIdentByte(p.src[p.off]) {
			p.off++
		}
		p.tok = token{kind: tNum, text: p.src[start:p.off], off: start, sp: sp}
		return
	case c == '\'':
		// A character constant is a number in Promela.
		if p.off+2 < len(p.src) && p.src[p.off+2] == '\'' && p.src[p.off+1] != '\\' {
			p.off += 3
			p.tok = token{kind: tNum, text: strconv.Itoa(int(p.src[start+1])), off: start, sp: sp}
			return
		}
		p.errorf(start, "expected a character constant such as 'a'")
		return
	}
	for _, s := range puncts {
		if strings.HasPrefix(p.src[p.off:], s) {
			p.off += len(s)
			p.tok = token{kind: tPunct, text: s, off: start, sp: sp}
			return
		}
	}
	p.errorf(start, "unexpected character %q", c)
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *parser) is(text string) bool {
	return p.tok.kind == tPunct && p.tok.text == text
}

func (p *parser) expect(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	p.errorf(p.tok.off, "expected %q, found %s", text, p.tok.describe())
	return false
}

// A pnode is the parse tree before atoms are cut out: LTL operators and
// Promela expression operators side by side.
type pnode struct {
	kind pkind
	op   Op     // pLTL
	eop  string // pExpr, pUnary: the Promela operator
	text string // pLeaf: the expression as text; pNum: digits
	l, r *pnode
	off  int
}

type pkind uint8

const (
	pLTL   pkind = iota // an LTL operator or constant (op)
	pExpr               // a binary Promela expression operator (eop)
	pUnary              // unary minus or ~ (eop)
	pLeaf               // a variable reference or a call, as text
	pNum                // an integer constant
)

// binary operator levels, loosest first. Levels 1-4 are LTL's (-> and <->,
// ||, &&, the until family); the rest are Promela's expression operators,
// which bind tighter than every LTL operator, as in Spin.
var levels = [][]string{
	{"->", "<->", "implies", "equivalent"},
	{"||"},
	{"&&"},
	{"U", "V", "W", "until", "weakuntil", "stronguntil", "release"},
	{"|"},
	{"^"},
	{"&"},
	{"==", "!="},
	{"<", "<=", ">", ">="},
	{"<<", ">>"},
	{"+", "-"},
	{"*", "/", "%"},
}

var ltlBinary = map[string]Op{
	"->": OpImplies, "<->": OpEquiv, "implies": OpImplies, "equivalent": OpEquiv,
	"||": OpOr, "&&": OpAnd,
	"U": OpUntil, "until": OpUntil, "stronguntil": OpUntil,
	"W": OpWeakUntil, "weakuntil": OpWeakUntil,
	"V": OpRelease, "release": OpRelease,
}

const maxDepth = 1000

func (p *parser) formula() *pnode { return p.binary(0) }

func (p *parser) binary(level int) *pnode {
	if level == len(levels) {
		return p.unary()
	}
	l := p.binary(level + 1)
	for p.err == nil {
		op, ok := p.binop(level)
		if !ok {
			return l
		}
		off := p.tok.off
		p.next()
		r := p.binary(level + 1)
		if lop, isLTL := ltlBinary[op]; isLTL {
			l = &pnode{kind: pLTL, op: lop, l: l, r: r, off: off}
		} else {
			l = &pnode{kind: pExpr, eop: op, l: l, r: r, off: off}
		}
	}
	return l
}

func (p *parser) binop(level int) (string, bool) {
	if p.tok.kind != tPunct && p.tok.kind != tIdent {
		return "", false
	}
	for _, s := range levels[level] {
		if p.tok.text == s {
			return s, true
		}
	}
	return "", false
}

var ltlUnary = map[string]Op{
	"!": OpNot, "[]": OpAlways, "<>": OpEventually, "X": OpNext,
	"always": OpAlways, "eventually": OpEventually,
}

func (p *parser) unary() *pnode {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.errorf(p.tok.off, "formula nested too deeply")
		return nil
	}
	off := p.tok.off
	if p.tok.kind == tPunct || p.tok.kind == tIdent {
		if op, ok := ltlUnary[p.tok.text]; ok {
			p.next()
			return &pnode{kind: pLTL, op: op, l: p.unary(), off: off}
		}
		if p.is("-") || p.is("~") {
			eop := p.tok.text
			p.next()
			return &pnode{kind: pUnary, eop: eop, l: p.unary(), off: off}
		}
	}
	return p.primary()
}

// keywords that cannot be variable names in a formula.
var reserved = map[string]bool{
	"U": true, "V": true, "W": true, "X": true, "until": true, "weakuntil": true,
	"stronguntil": true, "release": true, "implies": true, "equivalent": true,
	"always": true, "eventually": true,
}

func (p *parser) primary() *pnode {
	off := p.tok.off
	switch p.tok.kind {
	case tNum:
		text := p.tok.text
		if _, err := strconv.ParseInt(text, 0, 64); err != nil {
			p.errorf(off, "malformed number %s", text)
			return nil
		}
		p.next()
		return &pnode{kind: pNum, text: text, off: off}
	case tIdent:
		switch name := p.tok.text; {
		case name == "true":
			p.next()
			return &pnode{kind: pLTL, op: OpTrue, off: off}
		case name == "false":
			p.next()
			return &pnode{kind: pLTL, op: OpFalse, off: off}
		case reserved[name]:
			p.errorf(off, "expected a proposition, found operator %s", name)
			return nil
		}
		return p.reference()
	case tPunct:
		if p.is("(") {
			p.next()
			n := p.formula()
			if p.err != nil {
				return nil
			}
			// Promela's conditional expression (c -> a : b).
			if p.is(":") && n.kind == pLTL && n.op == OpImplies {
				p.next()
				alt := p.formula()
				if !p.expect(")") {
					return nil
				}
				c, a := p.exprText(n.l, 0), p.exprText(n.r, 0)
				e := p.exprText(alt, 0)
				return &pnode{kind: pLeaf, text: "(" + c + " -> " + a + " : " + e + ")", off: off}
			}
			if !p.expect(")") {
				return nil
			}
			return n
		}
	}
	p.errorf(off, "expected a proposition (a name or a parenthesised expression), found %s", p.tok.describe())
	return nil
}

// reference reads a variable reference or a call: x, a[i], r.f, P[i]@lab,
// P[i]:x, P@lab, len(q), all(Proc:pc == IT), ...
func (p *parser) reference() *pnode {
	off := p.tok.off
	var b strings.Builder
	name := p.tok.text
	b.WriteString(name)
	p.next()
	if p.is("(") && !p.tok.sp {
		// A call: keep its arguments as written, white space collapsed.
		start := p.tok.off
		depth := 0
		for p.err == nil {
			if p.tok.kind == tEOF {
				p.errorf(start, "unbalanced ( in call of %s", name)
				return nil
			}
			if p.is("(") {
				depth++
			} else if p.is(")") {
				depth--
				if depth == 0 {
					end := p.tok.off + 1
					p.next()
					b.WriteString(strings.Join(strings.Fields(p.src[start:end]), " "))
					break
				}
			}
			p.next()
		}
		return &pnode{kind: pLeaf, text: b.String(), off: off}
	}
	for p.err == nil {
		switch {
		case p.is("["):
			p.next()
			idx := p.formula()
			if !p.expect("]") {
				return nil
			}
			b.WriteString("[" + p.exprText(idx, 0) + "]")
		case p.is(".") || p.is("@") || p.is(":") && !p.tok.sp && strings.HasSuffix(b.String(), "]"):
			punct := p.tok.text
			p.next()
			if p.tok.kind != tIdent {
				p.errorf(p.tok.off, "expected %s after '%s', found %s", nameAfter[punct], punct, p.tok.describe())
				return nil
			}
			b.WriteString(punct + p.tok.text)
			p.next()
		default:
			return &pnode{kind: pLeaf, text: b.String(), off: off}
		}
	}
	return nil
}

// nameAfter says what name follows the punctuation in a reference: a
// field (a.f), a label (p@l) or a remote variable (p[0]:v).
var nameAfter = map[string]string{".": "a field name", "@": "a label", ":": "a variable"}

// Promela precedence of expression operators, for printing atoms.
func exprPrec(op string) int {
	switch op {
	case "||":
		return 2
	case "&&":
		return 3
	case "|":
		return 5
	case "^":
		return 6
	case "&":
		return 7
	case "==", "!=":
		return 8
	case "<", "<=", ">", ">=":
		return 9
	case "<<", ">>":
		return 10
	case "+", "-":
		return 11
	case "*", "/", "%":
		return 12
	}
	return 13
}

// exprText prints a pure expression in Promela syntax. It reports an error
// when n holds a temporal operator.
func (p *parser) exprText(n *pnode, parent int) string {
	if n == nil || p.err != nil {
		return ""
	}
	wrap := func(s string, prec int) string {
		if prec < parent {
			return "(" + s + ")"
		}
		return s
	}
	switch n.kind {
	case pLeaf, pNum:
		return n.text
	case pUnary:
		return n.eop + p.exprText(n.l, 14)
	case pExpr:
		pr := exprPrec(n.eop)
		return wrap(p.exprText(n.l, pr)+" "+n.eop+" "+p.exprText(n.r, pr+1), pr)
	}
	switch n.op {
	case OpTrue:
		return "true"
	case OpFalse:
		return "false"
	case OpNot:
		return "!" + p.exprText(n.l, 14)
	case OpAnd, OpOr:
		op := map[Op]string{OpAnd: "&&", OpOr: "||"}[n.op]
		pr := exprPrec(op)
		return wrap(p.exprText(n.l, pr)+" "+op+" "+p.exprText(n.r, pr+1), pr)
	}
	p.errorf(n.off, "temporal operator %s inside an expression: parenthesise the expression", n.op)
	return ""
}

// convert turns the parse tree into a Formula: maximal expressions become
// atoms; LTL operators and the Boolean connectives over them stay operators.
func (p *parser) convert(n *pnode) *Formula {
	if n == nil || p.err != nil {
		return nil
	}
	pos := p.pos(n.off)
	switch n.kind {
	case pNum:
		v, _ := strconv.ParseInt(n.text, 0, 64)
		if v != 0 {
			return &Formula{Op: OpTrue, Pos: pos}
		}
		return &Formula{Op: OpFalse, Pos: pos}
	case pLeaf:
		return &Formula{Op: OpAtom, Atom: n.text, Pos: pos}
	case pExpr, pUnary:
		text := p.exprText(n, 0)
		return &Formula{Op: OpAtom, Atom: text, Pos: p.pos(p.leftmost(n))}
	}
	f := &Formula{Op: n.op, Pos: pos}
	if n.l != nil {
		f.L = p.convert(n.l)
	}
	if n.r != nil {
		f.R = p.convert(n.r)
	}
	if p.err != nil {
		return nil
	}
	if n.op.binary() {
		f.Pos = f.L.Pos
	}
	return f
}

func (p *parser) leftmost(n *pnode) int {
	for n.kind == pExpr || (n.kind == pLTL && n.op.binary()) {
		n = n.l
	}
	return n.off
}
