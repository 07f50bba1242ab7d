package promela

import (
	"context"
	"slices"
	"strings"
)

// The parser follows Spin 6's grammar (spin.y) and its lexer's repairs:
// statements are separated by ';' or '->' (several in a row count as one),
// a separator may end a sequence, and none is needed after a '}' or after
// else. It stops at the first syntax error.

// bailout is raised (and recovered in parse) to stop at a syntax error.
type bailout struct{}

const (
	maxInlineDepth  = 16
	maxInlineTokens = 1 << 20 // tokens made by inline expansion, in all
	maxNesting      = 1000    // nested expressions and statements
)

type parser struct {
	toks    []token
	i       int
	tok     token // toks[i]
	prevTok Token // the kind of the token before tok
	errs    *ErrorList

	// The tokens come from pp as the parser asks for them (pp is nil once
	// toks ends with EOF): an error near the start of a large file is
	// found without preprocessing the rest. Tokens of declarations parsed
	// are dropped (compact).
	pp         *preprocessor
	ctx        context.Context
	pulled     int     // tokens taken from pp
	lastPulled Token   // the kind of the last of them
	rest       []token // tokens taken from pp ahead of toks (isProc); rest[restI] is the next
	restI      int
	sub        int // inside subParse: toks are the sub-parse's own

	procNames map[string]bool        // the proctype names of the tokens taken so far (all, once pp is nil)
	inlines   map[string]*InlineDecl // inlines declared so far
	typedefs  map[string]bool        // typedefs declared so far
	seen      map[string]bool        // names read so far (of the stream)

	synth    bool // tok is a ';' that Spin's lexer inserts at a line break; toks[i] comes next
	inSeq    bool // inside a process or typedef body, where line breaks may end statements
	parDepth int  // open parentheses

	ltl         bool // inside an ltl formula: temporal operators
	props       bool // inside a ByMC atomic proposition: all/some/card, and/or
	inProc      bool // inside a process body
	stmtDone    bool // a statement of the current body has been parsed (see VarDecl.Late)
	seqLevel    int  // nesting of sequences: 1 in a process body, more in nested ones
	inlineDepth int
	inlineToks  int
	inlineCall  *Ident // the outermost inline call being expanded
	depth       int    // nesting of expressions and statements
}

// nest counts one more level of nesting; the caller defers unnest. Deeply
// nested input is rejected rather than risking the stack.
func (p *parser) nest() {
	p.depth++
	if p.depth > maxNesting {
		p.fail(p.tok.pos, "expressions or statements nested too deeply (more than %d levels)", maxNesting)
	}
}

func (p *parser) unnest() { p.depth-- }

// newParser returns a parser of the tokens toks, which end with EOF.
func newParser(toks []token, errs *ErrorList) *parser {
	p := &parser{toks: toks, errs: errs, procNames: map[string]bool{}, inlines: map[string]*InlineDecl{},
		typedefs: map[string]bool{}, seen: map[string]bool{}}
	for i := 0; i+1 < len(toks); i++ {
		if (toks[i].tok == PROCTYPE || toks[i].tok == D_PROCTYPE) && toks[i+1].tok == IDENT {
			p.procNames[toks[i+1].lit] = true
		}
	}
	p.tok = toks[0]
	return p
}

// newStreamParser returns a parser of the tokens of pp, taken as needed;
// it stops when ctx (if not nil) is done.
func newStreamParser(ctx context.Context, pp *preprocessor, errs *ErrorList) *parser {
	p := &parser{pp: pp, ctx: ctx, errs: errs, procNames: map[string]bool{}, inlines: map[string]*InlineDecl{},
		typedefs: map[string]bool{}, seen: map[string]bool{}}
	return p
}

// checkEvery is how many tokens the parser takes between two looks at its
// context.
const checkEvery = 1 << 12

// fill takes tokens from the stream until toks[n] exists or the stream
// has ended (not while a sub-parse has its own tokens).
func (p *parser) fill(n int) {
	for len(p.toks) <= n && p.sub == 0 {
		switch {
		case p.restI < len(p.rest):
			p.toks = append(p.toks, p.rest[p.restI])
			if p.restI++; p.restI == len(p.rest) {
				p.rest, p.restI = nil, 0
			}
		case p.pp != nil:
			p.toks = append(p.toks, p.pull())
		default:
			return
		}
	}
}

// pull takes the next token from the preprocessor. An error of the
// preprocessor (or the scanner) ends the parse: the preprocessor runs to
// the end of the stream, without keeping its tokens, to report its other
// errors, and the parser reports none.
func (p *parser) pull() token {
	before := p.errs.Len()
	t := p.pp.nextOut()
	if p.errs.Len() > before || p.pp.stopped {
		for t.tok != EOF && !p.stopped() {
			t = p.pp.nextOut()
		}
		p.pp = nil
		panic(bailout{})
	}
	if p.pulled++; p.pulled%checkEvery == 0 && p.stopped() {
		p.errs.Addf(t.pos, "stopped reading the model: %v", context.Cause(p.ctx))
		p.pp = nil
		panic(bailout{})
	}
	if t.tok == IDENT && (p.lastPulled == PROCTYPE || p.lastPulled == D_PROCTYPE) {
		p.procNames[t.lit] = true
	}
	p.lastPulled = t.tok
	if t.tok == EOF {
		p.pp = nil
	}
	return t
}

func (p *parser) stopped() bool { return p.ctx != nil && p.ctx.Err() != nil }

// isProc reports whether name is a proctype of the file, declared before
// or after: if it is not one of those seen so far, the rest of the stream
// is read ahead.
func (p *parser) isProc(name string) bool {
	for !p.procNames[name] && p.pp != nil {
		p.rest = append(p.rest, p.pull())
	}
	return p.procNames[name]
}

// compact drops the tokens before the current one; the parser calls it
// between top-level declarations, which keep no slices of toks.
func (p *parser) compact() {
	if p.synth || p.i < 1<<14 {
		return
	}
	n := copy(p.toks, p.toks[p.i:])
	clear(p.toks[n:])
	p.toks, p.i = p.toks[:n], 0
}

// parseFile parses a whole model. On a syntax error it returns the
// declarations parsed so far and records the error.
func (p *parser) parseFile() (decls []Decl) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
	}()
	if len(p.toks) == 0 {
		p.fill(0)
		p.tok = p.toks[0]
	}
	for p.tok.tok != EOF {
		p.compact()
		if d := p.parseDecl(); d != nil {
			decls = append(decls, d)
		}
	}
	return decls
}

// ---------------------------------------------------------------------------
// Token handling

func (p *parser) next() {
	prev := p.tok.tok
	p.prevTok = prev
	if p.synth {
		p.synth = false
		p.tok = p.toks[p.i]
		return
	}
	switch prev {
	case LPAREN:
		p.parDepth++
	case RPAREN:
		if p.parDepth > 0 {
			p.parDepth--
		}
	}
	if prev == IDENT {
		p.seen[p.tok.lit] = true
	}
	p.fill(p.i + 1)
	if p.i < len(p.toks)-1 {
		p.i++
	}
	p.tok = p.toks[p.i]
	// Spin's lexer ends a statement at a line break after a token that
	// can end one, outside parentheses, inside a body; and drops a ';'
	// before '}', '->' and ';', and a '}' before unless. We also leave it
	// out before a token that cannot start a statement (where Spin would
	// report a syntax error), because ByMC's models continue conditions on
	// the next line: ":: (a || b)\n && c -> ...".
	if p.inSeq && p.parDepth == 0 && p.tok.nl && endsStmt(prev) {
		switch t := p.tok.tok; {
		case t == RBRACE || t == ARROW || t == SEMI || t == EOF:
		case prev == RBRACE && t == UNLESS:
		case continuesExpr(t):
		default:
			p.synth = true
			p.tok = token{tok: SEMI, pos: p.tok.pos, lit: "newline"}
		}
	}
}

// endsStmt reports whether a line break after t ends a statement (the
// tokens of Spin's lexer's "follows_token").
func endsStmt(t Token) bool {
	switch t {
	case RBRACE, RPAREN, RBRACK, OD, FI, ELSE, BREAK, IDENT, INT, TRUE, FALSE, SKIP, INC, DEC:
		return true
	}
	return false
}

// continuesExpr reports whether t can only continue an expression or
// statement, never start one.
func continuesExpr(t Token) bool {
	switch t {
	case LAND, LOR, OR, XOR, AND, EQL, NEQ, LSS, LEQ, GTR, GEQ, SHL, SHR, ADD, MUL, QUO, REM,
		ASSIGN, QUEST, QUEST2, SEND2, DOT, COMMA, RPAREN, RBRACK, COLON, DOTDOT, INC, DEC, AT:
		return true
	}
	return false
}

func (p *parser) peek(n int) token {
	if p.synth {
		if n == 0 {
			return p.tok
		}
		n--
	}
	p.fill(p.i + n)
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

// fail records an error and stops the parse.
func (p *parser) fail(pos Pos, format string, args ...any) {
	p.errs.Addf(pos, format, args...)
	panic(bailout{})
}

// errorExpected reports that what was expected where the current token is.
func (p *parser) errorExpected(what string) {
	if p.tok.tok == ILLEGAL && p.errs.Len() > 0 {
		panic(bailout{}) // the scanner has reported it
	}
	p.fail(p.tok.pos, "expected %s, found %s", what, describe(p.tok))
}

func (p *parser) expect(t Token, what string) Pos {
	pos := p.tok.pos
	if p.tok.tok != t {
		if what == "" {
			what = "'" + t.String() + "'"
		}
		p.errorExpected(what)
	}
	p.next()
	return pos
}

func (p *parser) ident(what string) *Ident {
	if p.tok.tok != IDENT {
		p.errorExpected(what)
	}
	id := &Ident{NamePos: p.tok.pos, Name: p.tok.lit}
	p.next()
	return id
}

func (p *parser) unsupported(pos Pos, what string) {
	p.fail(pos, "%s is not supported by ftmc", what)
}

// adjacent reports whether the token after the current one follows it
// without white space (for the LTL operators [] and <>, which are two
// tokens to the scanner).
func (p *parser) adjacent() bool { return !p.peek(1).space }

// ---------------------------------------------------------------------------
// Top level

func (p *parser) parseDecl() Decl {
	switch t := p.tok.tok; t {
	case SEMI, ARROW:
		p.next()
		return nil
	case ACTIVE, PROCTYPE, D_PROCTYPE:
		return p.parseProctype()
	case INIT:
		pos := p.tok.pos
		p.next()
		d := &ProcDecl{Kind: KindInit, Keyword: pos}
		if p.tok.tok == PRIORITY {
			p.unsupported(p.tok.pos, "priority")
		}
		d.Body = p.parseProcBody()
		return d
	case NEVER:
		pos := p.tok.pos
		p.next()
		d := &ProcDecl{Kind: KindNever, Keyword: pos}
		if p.tok.tok == IDENT {
			d.Name = p.ident("")
		}
		d.Body = p.parseProcBody()
		return d
	case TRACE, NOTRACE:
		p.unsupported(p.tok.pos, "a "+t.String()+" declaration (event trace)")
	case C_CODE, C_DECL, C_STATE, C_TRACK, C_EXPR:
		p.unsupported(p.tok.pos, t.String())
	case LTL:
		return p.parseLTL()
	case TYPEDEF:
		return p.parseTypedef()
	case INLINE:
		return p.parseInlineDecl()
	case HIDDEN, SHOW, LOCAL, BIT, BOOL, BYTE, SHORT, INT_TYPE, UNSIGNED, CHAN, MTYPE, PID:
		if p.isMtypeDecl() {
			return p.parseMtypeDecl()
		}
		return &DeclGroup{Vars: p.parseVarDecls()}
	case ATOMIC:
		if p.peek(1).tok == IDENT && p.peek(2).tok == ASSIGN {
			return p.parseAtomicProp()
		}
		p.fail(p.tok.pos, "atomic sequence outside a process (expected a declaration, proctype, init, never, ltl, typedef or inline)")
	case IDENT:
		switch next := p.peek(1).tok; {
		case p.tok.lit == "symbolic" && next.isTypeKeyword():
			return p.parseSymbolic()
		case p.tok.lit == "assume" && next == LPAREN:
			pos := p.tok.pos
			p.next()
			start := p.i
			x := p.parseParenExpr()
			d := &AssumeDecl{Assume: pos, X: x, Text: renderTokens(p.toks[start+1 : p.i-1])}
			return d
		case next == IDENT:
			return &DeclGroup{Vars: p.parseVarDecls()}
		}
	}
	p.errorExpected("a declaration, proctype, init, never, ltl, typedef or inline")
	return nil
}

// isMtypeDecl reports whether the tokens at hand declare mtype constants
// (mtype = {...}, mtype {...}, mtype:name = {...}) rather than variables.
func (p *parser) isMtypeDecl() bool {
	i := 0
	for p.peek(i).tok == HIDDEN || p.peek(i).tok == SHOW || p.peek(i).tok == LOCAL {
		i++
	}
	if p.peek(i).tok != MTYPE {
		return false
	}
	i++
	if p.peek(i).tok == COLON && p.peek(i+1).tok == IDENT {
		i += 2
		return p.peek(i).tok == ASSIGN || p.peek(i).tok == LBRACE
	}
	return p.peek(i).tok == ASSIGN || p.peek(i).tok == LBRACE
}

func (p *parser) parseMtypeDecl() *MtypeDecl {
	if p.tok.tok != MTYPE {
		p.fail(p.tok.pos, "mtype declarations cannot be %s", p.tok.tok)
	}
	d := &MtypeDecl{Mtype: p.tok.pos}
	if p.inProc {
		p.fail(d.Mtype, "mtype declaration must be global")
	}
	p.next()
	if p.tok.tok == COLON {
		p.next()
		d.Sub = p.ident("an mtype name")
	}
	if p.tok.tok == ASSIGN {
		p.next()
	}
	p.expect(LBRACE, "")
	for p.tok.tok != RBRACE {
		d.Names = append(d.Names, p.ident("an mtype constant name"))
		if p.tok.tok == COMMA { // commas are optional
			p.next()
		}
	}
	if len(d.Names) == 0 {
		p.errorExpected("an mtype constant name")
	}
	p.next()
	return d
}

func (p *parser) parseProctype() *ProcDecl {
	d := &ProcDecl{Kind: KindProctype, Keyword: p.tok.pos}
	if p.tok.tok == ACTIVE {
		d.Active = true
		p.next()
		if p.tok.tok == LBRACK {
			p.next()
			d.Count = p.parseExpr()
			p.expect(RBRACK, "")
		}
	}
	switch p.tok.tok {
	case PROCTYPE:
	case D_PROCTYPE:
		d.D = true
	default:
		p.errorExpected("proctype")
	}
	p.next()
	d.Name = p.ident("a proctype name")
	p.expect(LPAREN, "")
	for p.tok.tok != RPAREN {
		if !p.tok.tok.isTypeKeyword() && p.tok.tok != IDENT && p.tok.tok != HIDDEN && p.tok.tok != SHOW && p.tok.tok != LOCAL {
			p.errorExpected("a parameter declaration or ')'")
		}
		vars := p.parseVarDecls()
		for _, v := range vars {
			if v.Init != nil || v.InitList != nil || v.Chan != nil {
				p.fail(v.Name.NamePos, "initializer in parameter list")
			}
		}
		d.Params = append(d.Params, vars...)
		if p.tok.tok != SEMI {
			break
		}
		p.next()
	}
	p.expect(RPAREN, "")
	if p.tok.tok == PRIORITY {
		p.unsupported(p.tok.pos, "priority")
	}
	if p.tok.tok == PROVIDED {
		p.next()
		d.Provided = p.parseParenExpr()
	}
	d.Body = p.parseProcBody()
	return d
}

func (p *parser) parseProcBody() *Block {
	if p.tok.tok != LBRACE {
		p.errorExpected("'{'")
	}
	p.inProc, p.stmtDone, p.inSeq, p.seqLevel = true, false, true, 0
	b := p.parseBlock()
	p.inProc, p.inSeq = false, false
	return b
}

func (p *parser) parseLTL() *LTLDecl {
	d := &LTLDecl{LTL: p.tok.pos}
	p.next()
	if p.tok.tok == IDENT {
		d.Name = p.ident("")
	}
	d.Lbrace = p.expect(LBRACE, "")
	start := p.i
	p.ltl = true
	d.Formula = p.parseExpr()
	p.ltl = false
	d.Text = renderTokens(p.toks[start:p.i])
	if p.tok.tok == SEMI {
		p.next()
	}
	d.Rbrace = p.expect(RBRACE, "'}' at the end of the ltl formula")
	return d
}

func (p *parser) parseTypedef() *TypedefDecl {
	d := &TypedefDecl{Typedef: p.tok.pos}
	if p.inProc {
		p.fail(d.Typedef, "typedef must be global")
	}
	p.next()
	d.Name = p.ident("a type name")
	p.typedefs[d.Name.Name] = true
	if p.tok.tok != LBRACE {
		p.errorExpected("'{'")
	}
	p.inSeq = true
	p.next()
	for {
		if !p.tok.tok.isTypeKeyword() && p.tok.tok != IDENT && p.tok.tok != HIDDEN && p.tok.tok != SHOW && p.tok.tok != LOCAL {
			p.errorExpected("a field declaration")
		}
		if p.isMtypeDecl() {
			p.fail(p.tok.pos, "mtype declaration must be global")
		}
		d.Fields = append(d.Fields, p.parseVarDecls()...)
		for p.tok.tok == SEMI {
			p.next()
		}
		if p.tok.tok == RBRACE {
			break
		}
	}
	p.inSeq = false
	p.next()
	return d
}

func (p *parser) parseInlineDecl() *InlineDecl {
	d := &InlineDecl{Inline: p.tok.pos}
	p.next()
	d.Name = p.ident("an inline name")
	p.expect(LPAREN, "")
	for p.tok.tok != RPAREN {
		d.Params = append(d.Params, p.ident("a parameter name"))
		if p.tok.tok != COMMA {
			break
		}
		p.next()
	}
	p.expect(RPAREN, "")
	if p.tok.tok != LBRACE {
		p.errorExpected("'{'")
	}
	d.Lbrace = p.tok.pos
	start := p.i
	depth := 0
	for {
		switch p.tok.tok {
		case LBRACE:
			depth++
		case RBRACE:
			depth--
		case EOF:
			p.fail(d.Lbrace, "inline %s: body not terminated (expected '}')", d.Name.Name)
		}
		p.next()
		if depth == 0 {
			break
		}
	}
	d.body = slices.Clone(p.toks[start:p.i])
	if old := p.inlines[d.Name.Name]; old != nil {
		p.fail(d.Name.NamePos, "inline %s redeclared (previous declaration at %s)", d.Name.Name, old.Name.NamePos)
	}
	p.inlines[d.Name.Name] = d
	return d
}

func (p *parser) parseSymbolic() *SymbolicDecl {
	d := &SymbolicDecl{Symbolic: p.tok.pos}
	p.next()
	d.Type = p.parseTypeName()
	for {
		d.Names = append(d.Names, p.ident("a parameter name"))
		if p.tok.tok != COMMA {
			break
		}
		p.next()
	}
	return d
}

func (p *parser) parseAtomicProp() *AtomicPropDecl {
	d := &AtomicPropDecl{Atomic: p.tok.pos}
	p.next()
	d.Name = p.ident("")
	p.expect(ASSIGN, "")
	p.props = true
	d.X = p.parseExpr()
	p.props = false
	return d
}

// ---------------------------------------------------------------------------
// Declarations

// parseVarDecls parses one declaration: [vis] type ivar {, ivar}.
func (p *parser) parseVarDecls() []*VarDecl {
	var vis Token
	if t := p.tok.tok; t == HIDDEN || t == SHOW || t == LOCAL {
		vis = t
		p.next()
	}
	typ := p.parseTypeName()
	var vars []*VarDecl
	for {
		// As in Spin, only declarations at the start of a process body,
		// before any statement, are initialized when the process starts.
		v := &VarDecl{Vis: vis, Type: typ, Late: p.inProc && (p.stmtDone || p.seqLevel > 1), inInline: p.inlineDepth > 0}
		v.Name = p.ident("a variable name")
		if p.tok.tok == COLON {
			p.next()
			v.Bits = p.parseUnary()
		}
		if p.tok.tok == LBRACK {
			p.next()
			v.Len = p.parseExpr()
			p.expect(RBRACK, "")
		}
		if p.tok.tok == ASSIGN {
			p.next()
			switch p.tok.tok {
			case LBRACK:
				v.Chan = p.parseChanInit()
			case LBRACE:
				p.next()
				for {
					v.InitList = append(v.InitList, p.parseExpr())
					if p.tok.tok != COMMA {
						break
					}
					p.next()
				}
				p.expect(RBRACE, "',' or '}'")
			default:
				v.Init = p.parseExpr()
			}
		}
		vars = append(vars, v)
		if p.tok.tok != COMMA {
			return vars
		}
		p.next()
	}
}

func (p *parser) parseTypeName() *TypeName {
	t := &TypeName{TypePos: p.tok.pos, Kind: p.tok.tok}
	switch {
	case p.tok.tok.isTypeKeyword():
		p.next()
		if t.Kind == MTYPE && p.tok.tok == COLON && p.peek(1).tok == IDENT {
			p.next()
			t.Sub = p.ident("")
		}
	case p.tok.tok == IDENT:
		// A type must be declared before its use (the resolver says what
		// a name declared before is, if not a type): a file of names is
		// refused at its first, not after parsing it all.
		if name := p.tok.lit; !p.typedefs[name] && !p.seen[name] {
			p.fail(p.tok.pos, "undeclared type %s", name)
		}
		t.Kind = IDENT
		t.User = p.ident("")
	default:
		p.errorExpected("a type")
	}
	return t
}

func (p *parser) parseChanInit() *ChanInit {
	c := &ChanInit{Lbrack: p.tok.pos, Size: -1}
	p.next()
	c.Cap = p.parseExpr()
	p.expect(RBRACK, "")
	p.expect(OF, "'of'")
	p.expect(LBRACE, "")
	for {
		if p.tok.tok == UNSIGNED {
			p.fail(p.tok.pos, "unsigned cannot be used as a message field type")
		}
		c.Fields = append(c.Fields, p.parseTypeName())
		if p.tok.tok != COMMA {
			break
		}
		p.next()
	}
	p.expect(RBRACE, "',' or '}'")
	return c
}

// ---------------------------------------------------------------------------
// Statements

func (p *parser) parseBlock() *Block {
	b := &Block{Lbrace: p.expect(LBRACE, "")}
	b.Stmts = p.parseSequence(func(t Token) bool { return t == RBRACE }, "';' or '}'")
	b.Rbrace = p.expect(RBRACE, "';' or '}'")
	return b
}

func isOptionEnd(t Token) bool { return t == SEP || t == FI || t == OD }

// parseSequence parses steps separated by ';' or '->' up to a token for
// which end reports true; expected describes what may follow a step.
func (p *parser) parseSequence(end func(Token) bool, expected string) []Stmt {
	if end(p.tok.tok) || p.tok.tok == EOF {
		p.errorExpected("a statement")
	}
	p.seqLevel++
	defer func() { p.seqLevel-- }()
	var list []Stmt
	for {
		list = append(list, p.parseStep())
		switch {
		case p.tok.tok == SEMI || p.tok.tok == ARROW:
			for p.tok.tok == SEMI || p.tok.tok == ARROW {
				p.next()
			}
		case p.prevTok == RBRACE || p.prevTok == ELSE:
			// Spin supplies the missing ';'.
		default:
			if !end(p.tok.tok) {
				p.errorExpected(expected)
			}
		}
		if end(p.tok.tok) {
			return list
		}
		if p.tok.tok == EOF || p.tok.tok == RBRACE || isOptionEnd(p.tok.tok) {
			p.errorExpected("a statement")
		}
	}
}

// parseStep parses a statement, a local declaration, an xr/xs assertion,
// or stmt unless stmt.
func (p *parser) parseStep() Stmt {
	switch t := p.tok.tok; {
	case t == HIDDEN || t == SHOW || t == LOCAL || t.isTypeKeyword():
		if p.isMtypeDecl() {
			p.fail(p.tok.pos, "mtype declaration must be global")
		}
		return &DeclStmt{Vars: p.parseVarDecls()}
	case t == IDENT && p.peek(1).tok == IDENT:
		return &DeclStmt{Vars: p.parseVarDecls()}
	case t == TYPEDEF:
		p.fail(p.tok.pos, "typedef must be global")
	case t == XR || t == XS:
		s := &XStmt{XPos: p.tok.pos, Tok: t}
		p.next()
		for {
			s.Chans = append(s.Chans, p.parseVarRef("a channel"))
			if p.tok.tok != COMMA {
				break
			}
			p.next()
		}
		return s
	}
	s := p.parseStmt()
	if p.tok.tok == UNLESS {
		u := &UnlessStmt{Stmt: s, Unless: p.tok.pos}
		p.next()
		u.Escape = p.parseStmt()
		return u
	}
	return s
}

func (p *parser) parseStmt() Stmt {
	p.nest()
	defer p.unnest()
	s := p.parseStmt1()
	p.stmtDone = true
	return s
}

func (p *parser) parseStmt1() Stmt {
	pos := p.tok.pos
	switch p.tok.tok {
	case IF:
		p.next()
		s := &IfStmt{If: pos, Options: p.parseOptions(FI)}
		s.Fi = p.expect(FI, "'::' or 'fi'")
		return s
	case DO:
		p.next()
		s := &DoStmt{Do: pos, Options: p.parseOptions(OD)}
		s.Od = p.expect(OD, "'::' or 'od'")
		return s
	case ELSE:
		p.next()
		return &ElseStmt{Else: pos}
	case BREAK:
		p.next()
		return &BreakStmt{Break: pos}
	case GOTO:
		p.next()
		return &GotoStmt{Goto: pos, Label: p.ident("a label name")}
	case ATOMIC:
		p.next()
		return &AtomicStmt{Atomic: pos, Body: p.parseBlock()}
	case D_STEP:
		p.next()
		return &DStepStmt{DStep: pos, Body: p.parseBlock()}
	case LBRACE:
		return &BlockStmt{Body: p.parseBlock()}
	case ASSERT:
		p.next()
		return &AssertStmt{Assert: pos, X: p.parseExpr()}
	case PRINTF:
		p.next()
		p.expect(LPAREN, "")
		if p.tok.tok != STRING {
			p.errorExpected("a format string")
		}
		s := &PrintfStmt{Printf: pos, Format: unquote(p.tok.lit)}
		p.next()
		for p.tok.tok == COMMA {
			p.next()
			s.Args = append(s.Args, p.parseExpr())
		}
		p.expect(RPAREN, "',' or ')'")
		return s
	case PRINTM:
		p.next()
		return &PrintmStmt{Printm: pos, X: p.parseParenExpr()}
	case SELECT:
		p.next()
		p.expect(LPAREN, "")
		s := &SelectStmt{Select: pos, Var: p.parseVarRef("a variable")}
		p.expect(COLON, "")
		s.Lo = p.parseExpr()
		p.expect(DOTDOT, "'..'")
		s.Hi = p.parseExpr()
		p.expect(RPAREN, "")
		return s
	case FOR:
		return p.parseFor()
	case C_CODE, C_EXPR, C_DECL, C_STATE, C_TRACK:
		p.unsupported(pos, p.tok.tok.String())
	case SET_PRIORITY, GET_PRIORITY, PRIORITY:
		p.unsupported(pos, p.tok.tok.String())
	case RETURN:
		p.unsupported(pos, "return (inlines with a return value)")
	case IDENT:
		name := p.tok.lit
		switch p.peek(1).tok {
		case COLON:
			if !(p.peek(2).tok == IDENT && p.isProc(name)) {
				return p.parseLabeled()
			}
		case LPAREN:
			if d := p.inlines[name]; d != nil {
				return p.parseInlineCall(d)
			}
			switch name {
			case "assume":
				p.next()
				return &AssumeStmt{Assume: pos, X: p.parseParenExpr()}
			case "havoc":
				p.next()
				return &HavocStmt{Havoc: pos, X: p.parseParenExpr()}
			}
			p.fail(pos, "%s is not an inline declared before this call", name)
		case IDENT:
			p.fail(pos, "a declaration cannot follow a label or be the body of unless")
		}
	case HIDDEN, SHOW, LOCAL, BIT, BOOL, BYTE, SHORT, INT_TYPE, UNSIGNED, CHAN, MTYPE, PID:
		p.fail(pos, "a declaration cannot follow a label or be the body of unless")
	}
	return p.parseSimpleStmt()
}

func (p *parser) parseLabeled() Stmt {
	s := &LabeledStmt{Label: p.ident("")}
	s.Colon = p.expect(COLON, "")
	switch p.tok.tok {
	case RBRACE, SEP, FI, OD, SEMI, ARROW, EOF:
		// A label at the end of a sequence labels a skip.
		s.Stmt = &ExprStmt{X: &IntLit{ValuePos: s.Colon, Value: 1, Lit: "skip"}}
	default:
		s.Stmt = p.parseStmt()
	}
	return s
}

func (p *parser) parseOptions(closer Token) []*Option {
	if p.tok.tok != SEP {
		p.errorExpected("'::'")
	}
	var opts []*Option
	expected := "';', '::' or '" + closer.String() + "'"
	for p.tok.tok == SEP {
		o := &Option{Sep: p.tok.pos}
		p.next()
		o.Stmts = p.parseSequence(isOptionEnd, expected)
		opts = append(opts, o)
	}
	return opts
}

func (p *parser) parseFor() Stmt {
	s := &ForStmt{For: p.tok.pos}
	p.next()
	p.expect(LPAREN, "")
	s.Var = p.parseVarRef("a variable")
	switch {
	case p.tok.tok == COLON:
		p.next()
		s.Lo = p.parseExpr()
		p.expect(DOTDOT, "'..'")
		s.Hi = p.parseExpr()
	case p.tok.tok == IDENT && p.tok.lit == "in":
		p.next()
		s.In = p.parseVarRef("an array")
	default:
		p.errorExpected("':' or 'in'")
	}
	p.expect(RPAREN, "")
	if p.tok.tok == SEMI {
		p.next()
	}
	s.Body = p.parseBlock()
	return s
}

// parseSimpleStmt parses the statements that start with an expression:
// conditions, assignments, ++ and --, sends and receives.
func (p *parser) parseSimpleStmt() Stmt {
	if !startsExpr(p.tok.tok) {
		p.errorExpected("a statement")
	}
	x := p.parseExpr()
	pos := p.tok.pos
	switch p.tok.tok {
	case ASSIGN:
		p.checkVarRef(x, "assign to")
		p.next()
		if p.tok.tok == IDENT && p.peek(1).tok == LPAREN && p.inlines[p.tok.lit] != nil {
			p.unsupported(p.tok.pos, "an inline with a return value")
		}
		return &AssignStmt{LHS: x, EqPos: pos, RHS: p.parseExpr()}
	case INC, DEC:
		p.checkVarRef(x, "increment or decrement")
		t := p.tok.tok
		p.next()
		return &IncDecStmt{X: x, TokPos: pos, Tok: t}
	case NOT, SEND2:
		p.checkVarRef(x, "send to")
		s := &SendStmt{Chan: x, OpPos: pos, Sorted: p.tok.tok == SEND2}
		p.next()
		s.Args = p.parseSendArgs()
		return s
	case QUEST, QUEST2:
		p.checkVarRef(x, "receive from")
		s := &RecvStmt{Chan: x, OpPos: pos, Random: p.tok.tok == QUEST2}
		p.next()
		if p.tok.tok == LSS {
			s.Copy = true
			p.next()
			s.Args = p.parseRecvArgs()
			p.expect(GTR, "'>'")
		} else {
			s.Args = p.parseRecvArgs()
		}
		return s
	}
	return &ExprStmt{X: x}
}

// startsExpr reports whether an expression can begin with t.
func startsExpr(t Token) bool {
	switch t {
	case INT, IDENT, TRUE, FALSE, SKIP, LPAREN, SUB, TILDE, NOT, LEN, EMPTY, NEMPTY, FULL, NFULL,
		ENABLED, PC_VALUE, RUN, TIMEOUT, NP, EVAL, C_EXPR, GET_PRIORITY, SET_PRIORITY:
		return true
	}
	return false
}

// checkVarRef requires x to be a variable reference (what Spin calls a
// varref: a name with indices and fields).
func (p *parser) checkVarRef(x Expr, what string) {
	if !isVarRef(x) {
		p.fail(x.Pos(), "cannot %s %s: expected a variable", what, exprString(x))
	}
}

func isVarRef(x Expr) bool {
	switch x := x.(type) {
	case *Ident:
		return true
	case *IndexExpr:
		return isVarRef(x.X)
	case *SelectorExpr:
		return isVarRef(x.X)
	}
	return false
}

func (p *parser) parseSendArgs() []Expr {
	args := []Expr{p.parseExpr()}
	for p.tok.tok == COMMA {
		p.next()
		args = append(args, p.parseExpr())
	}
	if p.tok.tok == LPAREN && len(args) == 1 {
		// c!e0(e1, e2) is c!e0,e1,e2.
		p.next()
		for {
			args = append(args, p.parseExpr())
			if p.tok.tok != COMMA {
				break
			}
			p.next()
		}
		p.expect(RPAREN, "',' or ')'")
	}
	return args
}

func (p *parser) parseRecvArgs() []Expr {
	var args []Expr
	for {
		if p.tok.tok == LPAREN {
			p.next()
			args = append(args, p.parseRecvArgs()...)
			p.expect(RPAREN, "',' or ')'")
		} else {
			args = append(args, p.parseRecvArg())
		}
		switch p.tok.tok {
		case COMMA:
			p.next()
			continue
		case LPAREN:
			// c?a(b, c) is c?a,b,c.
			p.next()
			args = append(args, p.parseRecvArgs()...)
			p.expect(RPAREN, "',' or ')'")
		}
		return args
	}
}

func (p *parser) parseRecvArg() Expr {
	pos := p.tok.pos
	switch p.tok.tok {
	case EVAL:
		p.next()
		x := p.parseParenExpr()
		return &CallExpr{Fun: BuiltinEval, FunPos: pos, Args: []Expr{x}, Rparen: p.toks[p.i-1].pos}
	case SUB:
		if p.peek(1).tok == INT {
			p.next()
			lit := &IntLit{ValuePos: pos, Value: -p.tok.val, Lit: "-" + p.tok.lit}
			p.next()
			return lit
		}
	case INT, TRUE, FALSE, SKIP:
		return p.parsePrimary()
	case IDENT:
		return p.parseVarRef("")
	}
	p.errorExpected("a variable, a constant or eval(...) as a receive argument")
	return nil
}

func (p *parser) parseInlineCall(d *InlineDecl) Stmt {
	s := &InlineStmt{Name: p.ident("")}
	p.expect(LPAREN, "")
	// Split the arguments at top-level commas.
	var args [][]token
	if p.tok.tok != RPAREN {
		args = [][]token{nil}
		depth := 0
	loop:
		for {
			switch p.tok.tok {
			case EOF:
				p.errorExpected("')'")
			case LPAREN, LBRACK, LBRACE:
				depth++
			case RPAREN, RBRACK, RBRACE:
				if depth == 0 {
					if p.tok.tok != RPAREN {
						p.errorExpected("')'")
					}
					break loop
				}
				depth--
			case COMMA:
				if depth == 0 {
					p.next()
					args = append(args, nil)
					continue
				}
			}
			args[len(args)-1] = append(args[len(args)-1], p.tok)
			p.next()
		}
	}
	s.Rparen = p.expect(RPAREN, "")
	for i, a := range args {
		if len(a) == 0 {
			at := s.Rparen
			if i+1 < len(args) && len(args[i+1]) > 0 {
				at = args[i+1][0].pos
			}
			p.fail(at, "empty argument %d in call of inline %s", i+1, d.Name.Name)
		}
		s.Args = append(s.Args, p.subParse(a, s.Rparen, false, func() any { return p.parseExpr() }).(Expr))
	}
	if len(args) != len(d.Params) {
		p.fail(s.Name.NamePos, "inline %s expects %d arguments, found %d", d.Name.Name, len(d.Params), len(args))
	}
	if p.inlineDepth >= maxInlineDepth {
		p.fail(s.Name.NamePos, "inline calls nested too deeply (does inline %s call itself?)", d.Name.Name)
	}
	if p.inlineDepth == 0 {
		p.inlineCall = s.Name
	}
	// The size of the body with the arguments in is known before it is
	// made: refuse it before it is made.
	size := 0
	for _, t := range d.body {
		if k := inlineParam(d, t); k >= 0 {
			size += len(args[k])
		} else {
			size++
		}
	}
	if p.inlineToks += size; p.inlineToks > maxInlineTokens {
		p.fail(p.inlineCall.NamePos, "inline expansion too large (more than %d tokens made by inlines)", maxInlineTokens)
	}
	body := make([]token, 0, size)
	for _, t := range d.body {
		if k := inlineParam(d, t); k >= 0 {
			for j, a := range args[k] {
				a.space, a.nl = t.space, t.nl
				if j > 0 {
					a.space, a.nl = true, false
				}
				body = append(body, a)
			}
			continue
		}
		body = append(body, t)
	}
	p.inlineDepth++
	s.Body = p.subParse(body, s.Rparen, true, func() any { return p.parseBlock() }).(*Block)
	p.inlineDepth--
	return s
}

// inlineParam returns the index of the parameter of d that t names, or -1.
func inlineParam(d *InlineDecl, t token) int {
	if t.tok != IDENT {
		return -1
	}
	return paramIndex(d.Params, t.lit)
}

func paramIndex(params []*Ident, name string) int {
	for i, q := range params {
		if q.Name == name {
			return i
		}
	}
	return -1
}

// subParse runs f over the tokens ts (followed by an end of file at end)
// and requires it to consume them all.
func (p *parser) subParse(ts []token, end Pos, inSeq bool, f func() any) any {
	save := *p
	p.sub++
	defer func() { p.sub-- }()
	p.toks = append(append(make([]token, 0, len(ts)+1), ts...), token{tok: EOF, pos: end})
	p.i, p.tok, p.synth, p.parDepth, p.inSeq = 0, p.toks[0], false, 0, inSeq
	r := f()
	if p.tok.tok != EOF {
		p.errorExpected("',' or ')'")
	}
	p.toks, p.i, p.tok, p.prevTok, p.synth, p.parDepth, p.inSeq = save.toks, save.i, save.tok, save.prevTok, save.synth, save.parDepth, save.inSeq
	return r
}

// ---------------------------------------------------------------------------
// Expressions

func (p *parser) parseParenExpr() Expr {
	p.expect(LPAREN, "")
	x := p.parseExpr()
	p.expect(RPAREN, "")
	return x
}

// parseExpr parses an expression with Spin's operator precedence.
func (p *parser) parseExpr() Expr { return p.parseBinary(1) }

// binaryOp returns the binary operator at the current token, its
// precedence (0 if there is none) and the number of tokens it takes.
//
// Spin's precedence, from low to high: -> <-> (ltl) || && U W V (ltl) | ^
// & == != < <= > >= << >> + - * / %. All are left-associative.
func (p *parser) binaryOp() (op Token, prec, n int) {
	t := p.tok.tok
	if p.ltl {
		switch {
		case t == ARROW:
			return IMPLIES, 1, 1
		case t == LSS && p.peek(1).tok == ARROW && p.adjacent():
			return EQUIV, 1, 2
		case t == QUO && p.peek(1).tok == BACKSLASH && p.adjacent():
			return LAND, 3, 2
		case t == BACKSLASH && p.peek(1).tok == QUO && p.adjacent():
			return LOR, 2, 2
		case t == IDENT:
			switch k := ltlKeywords[p.tok.lit]; k {
			case IMPLIES, EQUIV:
				return k, 1, 1
			case UNTIL, WEAKUNTIL, RELEASE:
				return k, 4, 1
			}
		}
	}
	if p.props && t == IDENT {
		switch p.tok.lit {
		case "or":
			return LOR, 2, 1
		case "and":
			return LAND, 3, 1
		}
	}
	switch t {
	case LOR:
		return t, 2, 1
	case LAND:
		return t, 3, 1
	case OR:
		return t, 5, 1
	case XOR:
		return t, 6, 1
	case AND:
		return t, 7, 1
	case EQL, NEQ:
		return t, 8, 1
	case LSS, LEQ, GTR, GEQ:
		return t, 9, 1
	case SHL, SHR:
		return t, 10, 1
	case ADD, SUB:
		return t, 11, 1
	case MUL, QUO, REM:
		return t, 12, 1
	}
	return 0, 0, 0
}

func (p *parser) parseBinary(prec int) Expr {
	x := p.parseUnary()
	for {
		op, q, n := p.binaryOp()
		if q < prec {
			return x
		}
		pos := p.tok.pos
		for ; n > 0; n-- {
			p.next()
		}
		y := p.parseBinary(q + 1)
		x = &BinaryExpr{X: x, OpPos: pos, Op: op, Y: y}
	}
}

// unaryOp returns the prefix operator at the current token, if any, and
// the number of tokens it takes.
func (p *parser) unaryOp() (Token, int) {
	switch t := p.tok.tok; t {
	case SUB, TILDE, NOT:
		return t, 1
	case LBRACK:
		if p.ltl && p.peek(1).tok == RBRACK && p.adjacent() {
			return ALWAYS, 2
		}
	case LSS:
		if p.ltl && p.peek(1).tok == GTR && p.adjacent() {
			return EVENTUALLY, 2
		}
	case IDENT:
		if p.ltl {
			switch k := ltlKeywords[p.tok.lit]; k {
			case ALWAYS, EVENTUALLY, NEXT:
				return k, 1
			}
		}
	}
	return 0, 0
}

func (p *parser) parseUnary() Expr {
	p.nest()
	defer p.unnest()
	if op, n := p.unaryOp(); n > 0 {
		pos := p.tok.pos
		for ; n > 0; n-- {
			p.next()
		}
		return &UnaryExpr{OpPos: pos, Op: op, X: p.parseUnary()}
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() Expr {
	pos := p.tok.pos
	switch t := p.tok.tok; t {
	case INT:
		x := &IntLit{ValuePos: pos, Value: p.tok.val, Lit: p.tok.lit}
		p.next()
		return x
	case TRUE, SKIP:
		p.next()
		return &IntLit{ValuePos: pos, Value: 1, Lit: t.String()}
	case FALSE:
		p.next()
		return &IntLit{ValuePos: pos, Value: 0, Lit: "false"}
	case IDENT:
		name := p.tok.lit
		next := p.peek(1).tok
		if p.props && next == LPAREN {
			switch name {
			case "all", "some", "card":
				fun := map[string]Builtin{"all": BuiltinAll, "some": BuiltinSome, "card": BuiltinCard}[name]
				p.next()
				p.next()
				x := &CallExpr{Fun: fun, FunPos: pos, Args: []Expr{p.parseExpr()}}
				x.Rparen = p.expect(RPAREN, "")
				return x
			}
		}
		if (next == AT || next == LBRACK || next == COLON && p.peek(2).tok == IDENT) && p.isProc(name) {
			return p.parseRemoteRef()
		}
		x := p.parseVarRef("")
		if (p.tok.tok == QUEST || p.tok.tok == QUEST2) && p.peek(1).tok == LBRACK {
			poll := &PollExpr{Chan: x, OpPos: p.tok.pos, Random: p.tok.tok == QUEST2}
			p.next()
			p.next()
			poll.Args = p.parseRecvArgs()
			p.expect(RBRACK, "',' or ']'")
			return poll
		}
		return x
	case LPAREN:
		p.next()
		x := p.parseExpr()
		if p.tok.tok == ARROW && !p.ltl {
			c := &CondExpr{Lparen: pos, Cond: x}
			p.next()
			c.Then = p.parseExpr()
			p.expect(COLON, "':' in the conditional expression (c -> a : b)")
			c.Else = p.parseExpr()
			p.expect(RPAREN, "")
			return c
		}
		p.expect(RPAREN, "")
		return x
	case LEN, EMPTY, NEMPTY, FULL, NFULL:
		fun := map[Token]Builtin{LEN: BuiltinLen, EMPTY: BuiltinEmpty, NEMPTY: BuiltinNempty, FULL: BuiltinFull, NFULL: BuiltinNfull}[t]
		p.next()
		p.expect(LPAREN, "")
		x := &CallExpr{Fun: fun, FunPos: pos, Args: []Expr{p.parseVarRef("a channel")}}
		x.Rparen = p.expect(RPAREN, "")
		return x
	case ENABLED, PC_VALUE:
		fun := BuiltinEnabled
		if t == PC_VALUE {
			fun = BuiltinPcValue
		}
		p.next()
		p.expect(LPAREN, "")
		x := &CallExpr{Fun: fun, FunPos: pos, Args: []Expr{p.parseExpr()}}
		x.Rparen = p.expect(RPAREN, "")
		return x
	case RUN:
		p.next()
		r := &RunExpr{Run: pos, Proc: p.ident("a proctype name")}
		p.expect(LPAREN, "")
		for p.tok.tok != RPAREN {
			r.Args = append(r.Args, p.parseExpr())
			if p.tok.tok != COMMA {
				break
			}
			p.next()
		}
		p.expect(RPAREN, "',' or ')'")
		if p.tok.tok == PRIORITY {
			p.unsupported(p.tok.pos, "priority")
		}
		return r
	case TIMEOUT, NP:
		p.next()
		return &Ident{NamePos: pos, Name: t.String()}
	case EVAL:
		p.fail(pos, "eval(...) is only allowed as a receive argument")
	case C_EXPR, C_CODE:
		p.unsupported(pos, t.String())
	case GET_PRIORITY, SET_PRIORITY:
		p.unsupported(pos, t.String())
	}
	p.errorExpected("an expression")
	return nil
}

// parseVarRef parses a variable reference: name, name[i], name.f, ...
func (p *parser) parseVarRef(what string) Expr {
	if what == "" {
		what = "a variable"
	}
	var x Expr = p.ident(what)
	for {
		switch p.tok.tok {
		case LBRACK:
			lb := p.tok.pos
			p.next()
			idx := p.parseExpr()
			p.expect(RBRACK, "")
			x = &IndexExpr{X: x, Lbrack: lb, Index: idx}
		case DOT:
			dot := p.tok.pos
			p.next()
			x = &SelectorExpr{X: x, Dot: dot, Sel: p.ident("a field name")}
		default:
			return x
		}
	}
}

func (p *parser) parseRemoteRef() Expr {
	r := &RemoteRef{Proc: p.ident("")}
	if p.tok.tok == LBRACK {
		p.next()
		r.Index = p.parseExpr()
		p.expect(RBRACK, "")
	}
	switch p.tok.tok {
	case AT:
		p.next()
		r.Label = p.ident("a label name")
	case COLON:
		p.next()
		var v Expr = p.ident("a variable name")
		if p.tok.tok == LBRACK {
			lb := p.tok.pos
			p.next()
			idx := p.parseExpr()
			p.expect(RBRACK, "")
			v = &IndexExpr{X: v, Lbrack: lb, Index: idx}
		}
		r.Var = v
	default:
		p.errorExpected("'@' or ':' after the proctype name " + r.Proc.Name)
	}
	return r
}

// renderTokens renders tokens as text, separated by single spaces where
// the source had white space.
func renderTokens(ts []token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 && t.space {
			b.WriteByte(' ')
		}
		if t.tok.IsKeyword() {
			b.WriteString(t.tok.String())
		} else {
			b.WriteString(t.String())
		}
	}
	return b.String()
}
