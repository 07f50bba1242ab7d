package ta

import (
	"context"
	"slices"
	"strconv"

	"ftmc/internal/readfile"
)

// maxDepth bounds expression nesting so that hostile input cannot exhaust
// the stack.
const maxDepth = 1000

type parser struct {
	sc    *scanner
	tok   token
	ahead []token
	err   *Error
	depth int
}

// ParseFile reads and parses a .ta file and checks it (see Check).
func ParseFile(path string) (*File, error) {
	return ParseFileContext(context.Background(), path)
}

// ParseFileContext is ParseFile with the reading of the file bounded by
// ctx: when ctx is done first (a FIFO that no process writes), the error
// is a *readfile.StoppedError. The parsing itself is bounded by the size.
func ParseFileContext(ctx context.Context, path string) (*File, error) {
	src, err := readfile.ReadContext(ctx, path, readfile.ModelLimit, "model file")
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses and checks a threshold automaton. Errors are *Error values
// that name file:line:col and what was expected.
func Parse(path string, src []byte) (*File, error) {
	f, err := parseOnly(path, src)
	if err != nil {
		return nil, err
	}
	if err := Check(f); err != nil {
		return nil, err
	}
	return f, nil
}

func parseOnly(path string, src []byte) (f *File, err error) {
	p := &parser{sc: newScanner(path, src)}
	p.next()
	f = p.file()
	f.Path = path
	if p.sc.err != nil {
		return nil, p.sc.err
	}
	if p.err != nil {
		return nil, p.err
	}
	return f, nil
}

func (p *parser) next() {
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	p.tok = p.sc.next()
}

func (p *parser) peek() token {
	if len(p.ahead) == 0 {
		p.ahead = append(p.ahead, p.sc.next())
	}
	return p.ahead[0]
}

func (p *parser) failed() bool { return p.err != nil || p.sc.err != nil }

func (p *parser) errorf(pos Pos, format string, args ...any) {
	if p.err == nil && p.sc.err == nil {
		p.err = newError(p.sc.file, pos, format, args...)
	}
}

func (p *parser) expected(what string) {
	p.errorf(p.tok.pos, "expected %s, found %s", what, p.tok)
}

func (p *parser) isOp(op string) bool { return p.tok.kind == tOp && p.tok.text == op }

func (p *parser) isKw(kw string) bool { return p.tok.kind == tIdent && p.tok.text == kw }

func (p *parser) want(op string) Pos {
	pos := p.tok.pos
	if !p.isOp(op) {
		p.expected(strconv.Quote(op))
		return pos
	}
	p.next()
	return pos
}

func (p *parser) ident(what string) (string, Pos) {
	if p.tok.kind != tIdent {
		p.expected(what)
		return "", p.tok.pos
	}
	name, pos := p.tok.text, p.tok.pos
	p.next()
	return name, pos
}

func (p *parser) integer() int64 {
	if p.tok.kind != tInt {
		p.expected("a number")
		return 0
	}
	v, err := strconv.ParseInt(p.tok.text, 10, 64)
	if err != nil || v > 1<<40 {
		p.errorf(p.tok.pos, "number %s is too large", p.tok.text)
	}
	p.next()
	return v
}

var headers = map[string]bool{"skel": true, "thresholdAutomaton": true, "threshAuto": true, "ta": true}

func (p *parser) file() *File {
	f := &File{}
	if p.tok.kind == tIdent && headers[p.tok.text] && p.peek().kind == tIdent {
		f.Header = p.tok.text
		p.next()
	}
	f.Name, _ = p.ident("skel, thresholdAutomaton, threshAuto, ta or the automaton's name")
	p.want("{")
	seen := map[string]Pos{}
	for !p.failed() && !p.isOp("}") {
		if p.tok.kind != tIdent {
			p.expected("a declaration or section (local, shared, parameters, define, assumptions, locations, inits, rules, specifications) or \"}\"")
			break
		}
		kw, pos := p.tok.text, p.tok.pos
		switch kw {
		case "assumptions", "locations", "inits", "rules", "specifications":
			if prev, dup := seen[kw]; dup {
				p.errorf(pos, "second %s section (the first is at %s)", kw, prev)
				return f
			}
			seen[kw] = pos
		}
		switch kw {
		case "local", "shared", "parameters", "unknowns":
			p.next()
			list := map[string]*[]Decl{"local": &f.Locals, "shared": &f.Shared, "parameters": &f.Params, "unknowns": &f.Unknowns}[kw]
			*list = append(*list, p.declList()...)
		case "define":
			p.next()
			name, npos := p.ident("a macro name")
			p.want("==")
			body := p.expr()
			p.want(";")
			f.Defines = append(f.Defines, Define{Pos: npos, Name: name, Body: body})
		case "assumptions":
			p.sectionHead()
			f.Assumptions = p.exprList()
		case "inits":
			p.sectionHead()
			f.Inits = p.exprList()
		case "locations":
			p.sectionHead()
			for !p.failed() && !p.isOp("}") {
				name, lpos := p.ident("a location name or \"}\"")
				p.want(":")
				p.want("[")
				var vals []int64
				for !p.failed() {
					neg := false
					if p.isOp("-") {
						neg = true
						p.next()
					}
					v := p.integer()
					if neg {
						v = -v
					}
					vals = append(vals, v)
					if p.isOp(";") {
						p.next()
						if p.isOp("]") {
							break
						}
						continue
					}
					break
				}
				p.want("]")
				p.want(";")
				f.Locations = append(f.Locations, Location{Pos: lpos, Name: name, Values: vals})
			}
			p.want("}")
		case "rules":
			p.sectionHead()
			for !p.failed() && !p.isOp("}") {
				f.Rules = append(f.Rules, p.rule())
			}
			p.want("}")
		case "specifications":
			p.sectionHead()
			for !p.failed() && !p.isOp("}") {
				name, spos := p.ident("a specification name or \"}\"")
				p.want(":")
				e := p.expr()
				p.want(";")
				f.Specs = append(f.Specs, Spec{Pos: spos, Name: name, Formula: e})
			}
			p.want("}")
		default:
			p.expected("a declaration or section (local, shared, parameters, define, assumptions, locations, inits, rules, specifications) or \"}\"")
		}
	}
	p.want("}")
	if !p.failed() && p.tok.kind != tEOF {
		p.expected("end of file")
	}
	return f
}

// sectionHead reads "keyword (INT) {"; the count is ignored, as by ByMC.
func (p *parser) sectionHead() {
	p.next()
	if p.isOp("(") {
		p.next()
		p.integer()
		p.want(")")
	}
	p.want("{")
}

func (p *parser) declList() []Decl {
	var ds []Decl
	for !p.failed() {
		name, pos := p.ident("a name")
		ds = append(ds, Decl{Pos: pos, Name: name})
		if p.isOp(",") {
			p.next()
			continue
		}
		break
	}
	p.want(";")
	return ds
}

func (p *parser) exprList() []Expr {
	var es []Expr
	for !p.failed() && !p.isOp("}") {
		es = append(es, p.expr())
		p.want(";")
	}
	p.want("}")
	return es
}

func (p *parser) rule() *Rule {
	r := &Rule{Pos: p.tok.pos}
	if p.tok.kind != tInt && p.tok.kind != tIdent {
		p.expected("a rule number or \"}\"")
		return r
	}
	r.ID = p.tok.text
	p.next()
	p.want(":")
	r.From, r.FromPos = p.ident("the rule's source location")
	p.want("->")
	r.To, r.ToPos = p.ident("the rule's target location")
	if !p.isKw("when") {
		p.expected("\"when\"")
		return r
	}
	p.next()
	p.want("(")
	r.Guard = p.expr()
	p.want(")")
	if !p.isKw("do") {
		p.expected("\"do\"")
		return r
	}
	p.next()
	p.want("{")
	for !p.failed() && !p.isOp("}") {
		if p.isKw("unchanged") {
			p.next()
			p.want("(")
			for !p.failed() {
				name, pos := p.ident("a shared variable")
				r.Unchanged = append(r.Unchanged, &Ident{Pos: pos, Name: name})
				if p.isOp(",") {
					p.next()
					continue
				}
				break
			}
			p.want(")")
			p.endUpdate()
			continue
		}
		name, pos := p.ident("an update x' == e, unchanged(...) or \"}\"")
		p.want("'")
		if p.isOp(":=") { // TACO's form
			p.next()
		} else {
			p.want("==")
		}
		e := p.expr()
		p.endUpdate()
		r.Updates = append(r.Updates, Update{Pos: pos, Var: &Ident{Pos: pos, Name: name, Primed: true}, Expr: e})
	}
	p.want("}")
	p.want(";")
	return r
}

// endUpdate reads the ";" after an update, which the last one before
// "}" may leave out (as TACO's files do).
func (p *parser) endUpdate() {
	if !p.isOp("}") {
		p.want(";")
	}
}

// Expression grammar, loosest first: -> (left-associative, as in ByMC), ||,
// &&, prefix ! <> [], comparisons, + -, * /, unary -, primaries.
func (p *parser) expr() Expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.tooDeep(p.tok.pos) {
		return &IntLit{Pos: p.tok.pos}
	}
	return p.chain(p.or, "->")
}

func (p *parser) or() Expr { return p.chain(p.and, "||") }

func (p *parser) and() Expr { return p.chain(p.prefix, "&&") }

func (p *parser) prefix() Expr {
	if p.isOp("!") || p.isOp("<>") || p.isOp("[]") {
		return p.unaryOp(p.prefix)
	}
	return p.cmp()
}

// chain reads operands separated by the operators ops, left-associative.
func (p *parser) chain(operand func() Expr, ops ...string) Expr {
	x := operand()
	for !p.failed() && p.tok.kind == tOp && slices.Contains(ops, p.tok.text) {
		op, pos := p.tok.text, p.tok.pos
		p.next()
		x = &Binary{Pos: pos, Op: op, X: x, Y: operand()}
	}
	return x
}

// unaryOp reads the prefix operator at hand and its operand, one level of
// nesting deeper.
func (p *parser) unaryOp(operand func() Expr) Expr {
	op, pos := p.tok.text, p.tok.pos
	p.next()
	p.depth++
	defer func() { p.depth-- }()
	if p.tooDeep(pos) {
		return &IntLit{Pos: pos}
	}
	return &Unary{Pos: pos, Op: op, X: operand()}
}

// tooDeep reports, at pos, an expression nested more than maxDepth levels
// (the depth the caller has just counted).
func (p *parser) tooDeep(pos Pos) bool {
	if p.depth > maxDepth {
		p.errorf(pos, "expression nested too deeply")
		return true
	}
	return false
}

func (p *parser) cmp() Expr {
	x := p.sum()
	if p.tok.kind == tOp {
		switch p.tok.text {
		case "<", "<=", ">", ">=", "==", "!=":
			op, pos := p.tok.text, p.tok.pos
			p.next()
			return &Binary{Pos: pos, Op: op, X: x, Y: p.sum()}
		}
	}
	return x
}

func (p *parser) sum() Expr { return p.chain(p.product, "+", "-") }

func (p *parser) product() Expr { return p.chain(p.unary, "*", "/") }

func (p *parser) unary() Expr {
	if p.isOp("-") {
		return p.unaryOp(p.unary)
	}
	return p.primary()
}

func (p *parser) primary() Expr {
	pos := p.tok.pos
	switch p.tok.kind {
	case tInt:
		return &IntLit{Pos: pos, Val: p.integer()}
	case tIdent:
		name := p.tok.text
		p.next()
		switch name {
		case "true":
			return &BoolLit{Pos: pos, Val: true}
		case "false":
			return &BoolLit{Pos: pos, Val: false}
		}
		id := &Ident{Pos: pos, Name: name}
		if p.isOp("'") {
			p.next()
			id.Primed = true
		}
		return id
	case tOp:
		if p.tok.text == "(" {
			p.next()
			x := p.expr()
			p.want(")")
			return x
		}
	}
	p.expected("an expression")
	return &IntLit{Pos: pos}
}
