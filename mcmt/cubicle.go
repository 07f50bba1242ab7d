package mcmt

import (
	"fmt"

	"ftmc/mcmt/system"
)

// Cubicle's language: nested (* *) comments; type, var, const and array
// declarations; init, invariant, unsafe; transition NAME (params) requires
// { guard && forall_other k. uguard } { updates }. Names of processes start
// with a lower-case letter, the others with a capital, as Cubicle demands.

func (p *parser) parseCubicle() {
	p.consts["True"] = system.C(1, sortBool)
	p.consts["False"] = system.C(0, sortBool)
	if p.is("number_procs") {
		t := p.next()
		n := p.number("the number of processes")
		p.sys.Options = append(p.sys.Options, system.Option{Name: "number_procs", Value: fmt.Sprint(n), Pos: t.pos})
	}
	for p.peek().kind != tEOF {
		t := p.peek()
		switch {
		case p.is("type"):
			p.cubType()
		case p.is("var") || p.is("const"):
			p.next()
			name := p.cubMident("a variable name")
			p.expect(":", "after the variable's name")
			s := p.cubSort()
			v := p.declare(name, name.text, false, s)
			v.Const = t.text == "const"
		case p.is("array"):
			p.next()
			name := p.cubMident("an array name")
			p.expect("[", "after the array's name")
			if idx := p.ident("proc"); idx.text != "proc" {
				p.failAt(idx, "arrays are indexed by proc, found %s", idx)
			}
			if p.is(",") {
				p.failAt(p.peek(), "multi-dimensional arrays are not supported")
			}
			p.expect("]", "after proc")
			p.expect(":", "after the array's index")
			p.declare(name, name.text, true, p.cubSort())
		case p.is("init"):
			p.next()
			if p.sys.Init != nil {
				p.failAt(t, "a second init (the first is at %s)", p.sys.Init.Pos)
			}
			p.sys.Init = p.cubQuant(t)
		case p.is("invariant"):
			p.next()
			p.sys.Candidates = append(p.sys.Candidates, p.cubQuant(t))
		case p.is("unsafe"):
			p.next()
			p.sys.Unsafe = append(p.sys.Unsafe, p.cubQuant(t))
		case p.is("transition"):
			p.cubTransition()
		case p.is("predicate") || p.is("number_procs"):
			p.failAt(t, "%s is not supported", t.text)
		default:
			p.failAt(t, "expected type, var, const, array, init, invariant, unsafe or transition, found %s", t)
		}
	}
}

func isUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }
func isLower(s string) bool { return s != "" && s[0] >= 'a' && s[0] <= 'z' }

func (p *parser) cubMident(what string) token {
	t := p.ident(what)
	if !isUpper(t.text) {
		p.failAt(t, "expected %s starting with a capital letter, found %s", what, t)
	}
	return t
}

func (p *parser) cubType() {
	p.next()
	name := p.ident("a type name")
	if !isLower(name.text) {
		p.failAt(name, "a type name starts with a lower-case letter, found %s", name)
	}
	if !p.accept("=") {
		p.failAt(name, "abstract types without constructors are not supported")
	}
	p.accept("|")
	e := &system.EnumType{Name: name.text}
	for {
		c := p.cubMident("a constructor")
		if _, dup := p.consts[c.text]; dup {
			p.failAt(c, "constructor %s is declared twice", c.text)
		}
		e.Values = append(e.Values, c.text)
		p.consts[c.text] = system.C(int64(len(e.Values)-1), system.Sort{Kind: system.Enum, Enum: e})
		if !p.accept("|") {
			break
		}
	}
	for _, o := range p.sys.Enums {
		if o.Name == e.Name {
			p.failAt(name, "type %s is declared twice", e.Name)
		}
	}
	p.sys.Enums = append(p.sys.Enums, e)
}

func (p *parser) cubSort() system.Sort {
	t := p.ident("a type (bool, int, proc or a declared type)")
	if s, ok := p.builtinSort(t, "variables", "bool", "int", "proc"); ok {
		return s
	}
	for _, e := range p.sys.Enums {
		if e.Name == t.text {
			return system.Sort{Kind: system.Enum, Enum: e}
		}
	}
	p.failAt(t, "unknown type %s", t.text)
	return system.Sort{}
}

// cubParams reads "(i j ...)" (the parentheses are optional when there are
// no parameters).
func (p *parser) cubParams() []string {
	var vars []string
	if !p.accept("(") {
		return nil
	}
	for !p.accept(")") {
		v := p.ident("a process variable or )")
		if !isLower(v.text) {
			p.failAt(v, "a process variable starts with a lower-case letter, found %s", v)
		}
		for _, w := range vars {
			if w == v.text {
				p.failAt(v, "process variable %s is declared twice", v.text)
			}
		}
		vars = append(vars, v.text)
	}
	return vars
}

func (p *parser) cubQuant(kw token) *system.Quant {
	return p.quant(kw, p.cubParams(), p.cubExpr)
}

func (p *parser) cubTransition() {
	kw := p.next()
	name := p.ident("the transition's name")
	params := p.cubParams()
	t := &system.Transition{Name: name.text, Doc: kw.doc, Pos: name.pos, Params: params, Guard: &system.Formula{Kind: system.True}}
	if p.accept("requires") {
		p.expect("{", "after requires")
		if !p.is("}") {
			p.cubRequires(t, p.cubExpr())
		}
		p.expect("}", "after the guard")
	}
	p.expect("{", "before the transition's updates")
	us := newUpdates(p)
	for !p.accept("}") {
		p.cubUpdate(us, params)
		if !p.accept(";") && !p.is("}") {
			p.failAt(p.peek(), "expected ; or } after an update, found %s", p.peek())
		}
	}
	t.Updates = us.finish()
	p.sys.Trans = append(p.sys.Trans, t)
}

// cubRequires splits a guard into its quantifier-free part and the
// forall_other conjuncts, which form the universal guard.
func (p *parser) cubRequires(t *system.Transition, e *pexpr) {
	var conj []*pexpr
	var flatten func(e *pexpr)
	flatten = func(e *pexpr) {
		if e.op == "and" {
			for _, a := range e.args {
				flatten(a)
			}
			return
		}
		conj = append(conj, e)
	}
	flatten(e)
	var guard, ug []*system.Formula
	for _, c := range conj {
		if c.op != "forall_other" {
			guard = append(guard, p.form(c, t.Params))
			continue
		}
		if t.Univ == "" {
			t.Univ = c.name
			if scope(t.Params).has(c.name) {
				p.failExpr(c, "forall_other %s: %s is a parameter of the transition", c.name, c.name)
			}
		}
		body := p.form(c.args[0], append(append(scope(nil), t.Params...), c.name))
		ug = append(ug, renameForm(body, c.name, t.Univ))
	}
	t.Guard = system.Conj(guard...)
	if len(ug) > 0 {
		t.UGuard = system.Conj(ug...)
	}
}

func (p *parser) cubUpdate(us *updates, params []string) {
	name := p.cubMident("an assignment")
	v := p.arrayVar(name)
	at := &pexpr{pos: name.pos, off: name.off}
	if v.Local {
		p.expect("[", "after the array (a local array is assigned A[i] := ...)")
		idx := p.ident("a process variable")
		p.expect("]", "after the index")
		p.expect(":=", "in an update")
		if p.is("case") {
			if scope(params).has(idx.text) {
				p.failAt(idx, "the case variable %s is a parameter of the transition: use another name", idx.text)
			}
			cases := p.cubSwitches(append(append(scope(nil), params...), idx.text), v, at)
			us.lambda(v, idx.text, nil, cases, at)
			return
		}
		if !scope(params).has(idx.text) {
			p.failAt(idx, "%s is not a parameter of this transition", idx.text)
		}
		val := p.term(p.cubExpr(), params)
		p.checkAssign(v, val, at)
		us.point(v, idx.text, val, at)
		return
	}
	if p.is("[") {
		p.failAt(p.peek(), "%s is a global: assign it with %s := value", v.Name, v.Name)
	}
	p.expect(":=", "in an update")
	if v.Const {
		p.failAt(name, "%s is a constant", v.Name)
	}
	switch {
	case p.is(".") || p.is("?"):
		t := p.next()
		us.point(v, "", system.Term{Kind: system.Any, Pos: t.pos}, at)
	case p.is("case"):
		cases := p.cubSwitches(params, v, at)
		pu := us.get(v, "", at.pos)
		if len(pu.u.Cases) > 0 {
			p.failExpr(at, "%s is assigned twice in this transition", v.Name)
		}
		pu.u.Cases, pu.otherwise = cases, cases[len(cases)-1].Cond == nil
	default:
		val := p.term(p.cubExpr(), params)
		p.checkAssign(v, val, at)
		us.point(v, "", val, at)
	}
}

// cubSwitches reads "case | cond : value | ... | _ : value".
func (p *parser) cubSwitches(sc scope, v *system.Var, at *pexpr) []system.Case {
	p.expect("case", "")
	var cases []system.Case
	for p.accept("|") {
		var c system.Case
		if !p.accept("_") {
			c.Cond = p.form(p.cubExpr(), sc)
		}
		p.expect(":", "after the case's condition")
		c.Val = p.term(p.cubExpr(), sc)
		p.checkAssign(v, c.Val, at)
		cases = append(cases, c)
		if c.Cond == nil {
			break
		}
	}
	if len(cases) == 0 {
		p.failAt(p.peek(), "expected | after case, found %s", p.peek())
	}
	return cases
}

// cubExpr reads a formula or term: =>, <=> (lowest, right associative),
// ||, &&, not, forall_other, comparisons, + and -.
func (p *parser) cubExpr() *pexpr {
	p.nest(p.peek())
	defer p.unnest()
	e := p.cubOr()
	if p.is("=>") || p.is("<=>") {
		t := p.next()
		op := "imp"
		if t.text == "<=>" {
			op = "iff"
		}
		return p.mk(t, op, e, p.cubExpr())
	}
	return e
}

// cubOr and cubAnd read a chain of || or && as one n-ary node.
func (p *parser) cubOr() *pexpr { return p.chain("||", "or", p.cubAnd) }

func (p *parser) cubAnd() *pexpr { return p.chain("&&", "and", p.cubUnary) }

func (p *parser) cubUnary() *pexpr {
	t := p.peek()
	switch {
	case p.is("not"):
		return p.prefix(p.next(), "not", p.cubUnary)
	case p.is("forall_other"):
		p.next()
		v := p.ident("a process variable after forall_other")
		p.expect(".", "after the variable of forall_other")
		e := p.mk(t, "forall_other", p.cubExpr())
		e.name = v.text
		return e
	case p.is("exists_other") || p.is("forall") || p.is("exists") || p.is("if") || p.is("let"):
		p.failAt(t, "%s is not supported", t.text)
	}
	// Cubicle writes <> for "not equal": != is not one of its operators.
	return p.comparison(p.cubPrimary, "!=")
}

func (p *parser) cubPrimary() *pexpr { return p.primary(p.cubExpr, isCubKeyword, true) }

func isCubKeyword(s string) bool {
	switch s {
	case "type", "init", "transition", "invariant", "requires", "array", "var", "const", "unsafe", "case",
		"forall", "exists", "forall_other", "exists_other", "predicate", "if", "then", "else", "not",
		"true", "false", "number_procs", "let", "in":
		return true
	}
	return false
}
