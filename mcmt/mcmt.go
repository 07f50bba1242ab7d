package mcmt

import (
	"fmt"
	"strings"
	"unicode"

	"ftmc/mcmt/system"
)

// MCMT 2's user syntax (the seed file's): /* */ comments, global and local
// arrays indexed by nat, key_search, (:mcmt ... :) options, system_axiom,
// suggested_negated_invariant, initial, unsafe, and transition with guard:,
// uguard: and update: sections.

func (p *parser) parseMCMT() {
	for p.peek().kind != tEOF {
		t := p.peek()
		switch {
		case p.is("global") || p.is("local"):
			p.mcmtDecl()
		case p.is("key_search"):
			p.next()
			if n := p.peek(); n.kind != tIdent {
				p.failAt(n, "expected the name of an array after key_search, found %s", n)
			}
			p.mcmtOption(t, "key_search")
			p.accept(";")
		case p.is("(") && p.peekAt(1).text == ":":
			p.mcmtOptions()
		case p.is("system_axiom"):
			p.next()
			q := p.mcmtQuant(t, "universal")
			p.sys.Axioms = append(p.sys.Axioms, q)
		case p.is("suggested_negated_invariant"):
			p.next()
			q := p.mcmtQuant(t, "existential")
			p.sys.Candidates = append(p.sys.Candidates, q)
		case p.is("initial"):
			p.next()
			if p.sys.Init != nil {
				p.failAt(t, "a second initial formula (the first is at %s)", p.sys.Init.Pos)
			}
			p.sys.Init = p.mcmtQuant(t, "universal")
		case p.is("unsafe"):
			p.next()
			q := p.mcmtQuant(t, "existential")
			if len(p.sys.Unsafe) == 0 {
				p.sys.Property = propertyName(t.doc)
			}
			p.sys.Unsafe = append(p.sys.Unsafe, q)
		case p.is("transition"):
			p.mcmtTransition()
		default:
			p.failAt(t, "expected global, local, key_search, (:mcmt, system_axiom, suggested_negated_invariant, initial, unsafe or transition, found %s", t)
		}
	}
	p.checkArrays(nil)
}

// propertyName takes the name of the property from the comment before the
// unsafe formula when it starts with a word in capitals ("AGREEMENT -
// complete"), as MCMT's examples do.
func propertyName(doc string) string {
	word := strings.FieldsFunc(doc, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') })
	if len(word) > 0 && len(word[0]) >= 2 && strings.ToUpper(word[0]) == word[0] && unicode.IsLetter(rune(word[0][0])) {
		return word[0]
	}
	return "unsafe"
}

func (p *parser) mcmtSort() system.Sort {
	t := p.ident("a type (bool, int, nat)")
	if s, ok := p.builtinSort(t, "arrays", "bool", "int", "nat"); ok {
		return s
	}
	p.failAt(t, "expected a type (bool, int, nat), found %s", t)
	return system.Sort{}
}

func (p *parser) declare(t token, name string, local bool, s system.Sort) *system.Var {
	if v := p.sys.Var(name); v != nil {
		p.failAt(t, "%s is declared twice (first at %s)", name, v.Pos)
	}
	if _, ok := p.consts[name]; ok {
		p.failAt(t, "%s is already a constant", name)
	}
	v := &system.Var{Name: name, Local: local, Sort: s, Pos: t.pos, ID: len(p.sys.Vars)}
	p.sys.Vars = append(p.sys.Vars, v)
	return v
}

func (p *parser) mcmtDecl() {
	kw := p.next()
	s := p.mcmtSort()
	name := p.ident("the name of the array")
	p.expect("[", "after the array's name")
	idx := p.ident("the index type nat")
	if idx.text != "nat" {
		p.failAt(idx, "expected the index type nat, found %s", idx)
	}
	p.expect("]", "after the index type")
	p.declare(name, name.text, kw.text == "local", s)
}

func (p *parser) mcmtOptions() {
	open := p.next()
	p.expect(":", "")
	if t := p.ident("mcmt"); t.text != "mcmt" {
		p.failAt(t, "expected (:mcmt, found %s", t)
	}
	for {
		if p.peek().kind == tEOF {
			p.failAt(open, "unterminated (:mcmt ... :) options")
		}
		p.expect(":", "before an option name or :) at the end of the options")
		if p.accept(")") {
			return
		}
		name := p.ident("an option name")
		if _, ok := optionValue(name.text); !ok {
			// An option block holds only options: one ftmc does not
			// know is reported and skipped, not fatal (MCMT versions
			// differ in their options).
			o := system.Option{Name: name.text, Pos: name.pos, Unknown: true,
				Hint: hint(":"+name.text, optionNames(":"), "MCMT's options are")}
			if t := p.peek(); t.kind == tNum || t.kind == tIdent {
				p.next()
				o.Value = t.text
			}
			p.sys.Options = append(p.sys.Options, o)
			continue
		}
		p.mcmtOption(name, name.text)
	}
}

// mcmtVars reads "(kind x:nat, kind y:nat, ...)" and returns the variables
// of each kind.
func (p *parser) mcmtVars(allowed ...string) (exist, univ []string) {
	p.expect("(", "before the quantified variables")
	seen := map[string]bool{}
	for {
		kind := p.ident("universal or existential")
		ok := false
		for _, a := range allowed {
			ok = ok || a == kind.text
		}
		if !ok {
			p.failAt(kind, "expected %s, found %s", strings.Join(allowed, " or "), kind)
		}
		name := p.ident("a process variable")
		if seen[name.text] {
			p.failAt(name, "process variable %s is declared twice", name.text)
		}
		if p.sys.Var(name.text) != nil {
			p.failAt(name, "process variable %s has the name of an array", name.text)
		}
		seen[name.text] = true
		p.expect(":", "after the process variable")
		if s := p.ident("the index type nat"); s.text != "nat" {
			p.failAt(s, "expected the index type nat, found %s", s)
		}
		if kind.text == "universal" {
			univ = append(univ, name.text)
		} else {
			exist = append(exist, name.text)
		}
		if p.accept(")") {
			return
		}
		p.expect(",", "between quantified variables")
	}
}

func (p *parser) mcmtQuant(kw token, kind string) *system.Quant {
	exist, univ := p.mcmtVars(kind)
	return p.quant(kw, append(exist, univ...), p.mcmtExpr)
}

func (p *parser) mcmtTransition() {
	kw := p.next()
	params, univ := p.mcmtVars("existential", "universal")
	if len(univ) > 1 {
		p.failAt(kw, "a transition has at most one universal variable, found %s", strings.Join(univ, ", "))
	}
	t := &system.Transition{Name: fmt.Sprintf("t%d", len(p.sys.Trans)+1), Doc: kw.doc, Pos: kw.pos, Params: params}
	if len(univ) == 1 {
		t.Univ = univ[0]
	}
	p.expect("{", "before the transition's guard")
	t.Guard = &system.Formula{Kind: system.True}
	if p.accept("guard") {
		p.expect(":", "after guard")
		t.Guard = p.form(p.mcmtExpr(), params)
	}
	var ug []*system.Formula
	for p.is("uguard") {
		u := p.next()
		if t.Univ == "" {
			p.failAt(u, "uguard needs a universal variable in the transition's header, as in (existential x:nat, universal y:nat)")
		}
		p.expect(":", "after uguard")
		ug = append(ug, p.form(p.mcmtExpr(), append(append(scope(nil), params...), t.Univ)))
	}
	if t.Univ != "" {
		if len(ug) == 0 {
			t.Univ = ""
		} else {
			t.UGuard = system.Disj(ug...)
		}
	}
	us := newUpdates(p)
	if p.accept("update") {
		p.expect(":", "after update")
		for !p.is("}") {
			if t := p.peek(); t.kind == tEOF {
				p.failAt(t, "expected an update (a[x] := value, g := value or a lambda) or } at the end of the transition, found end of file")
			}
			p.mcmtUpdate(us, params)
		}
	} else if t := p.peek(); !p.is("}") {
		p.failAt(t, "expected uguard:, update: or } at the end of the transition, found %s", t)
	}
	p.expect("}", "at the end of the transition")
	t.Updates = us.finish()
	p.sys.Trans = append(p.sys.Trans, t)
}

func (p *parser) arrayVar(t token) *system.Var {
	v := p.sys.Var(t.text)
	if v == nil {
		p.failAt(t, "unknown array %s", t.text)
	}
	return v
}

// lambdaHead reads "(j:nat)" or "(j:nat; j != x; ...)" and returns j and
// the restriction.
func (p *parser) lambdaHead(params []string) (string, *system.Formula) {
	p.expect("(", "after lambda")
	j := p.ident("the lambda's process variable")
	p.expect(":", "after the lambda's variable")
	if s := p.ident("the index type nat"); s.text != "nat" {
		p.failAt(s, "expected the index type nat, found %s", s)
	}
	sc := append(append(scope(nil), params...), j.text)
	var restrict []*system.Formula
	for p.accept(";") || p.accept(",") {
		restrict = append(restrict, p.form(p.mcmtExpr(), sc))
	}
	p.expect(")", "after the lambda's variable")
	if len(restrict) == 0 {
		return j.text, nil
	}
	return j.text, system.Conj(restrict...)
}

func (p *parser) mcmtUpdate(us *updates, params []string) {
	if p.is("lambda") {
		p.mcmtCaseLambda(us, params)
		return
	}
	name := p.ident("an assignment or lambda")
	v := p.arrayVar(name)
	at := &pexpr{pos: name.pos, off: name.off}
	x := ""
	if p.accept("[") {
		idx := p.ident("a process variable")
		if !scope(params).has(idx.text) {
			p.failAt(idx, "%s is not a parameter of this transition", idx.text)
		}
		x = idx.text
		p.expect("]", "after the index")
	} else if v.Local && !p.is(":=") {
		p.failAt(p.peek(), "expected [ or := after %s", v.Name)
	}
	p.expect(":=", "in an update")
	if p.is("lambda") {
		if x != "" || !v.Local {
			p.failAt(p.peek(), "a lambda assigns a whole local array: write %s := lambda (j:nat) { value }", v.Name)
		}
		p.next()
		j, restrict := p.lambdaHead(params)
		p.expect("{", "before the lambda's value")
		val := p.term(p.mcmtExpr(), append(append(scope(nil), params...), j))
		p.checkAssign(v, val, at)
		p.expect("}", "after the lambda's value")
		p.accept(";")
		us.lambda(v, j, restrict, []system.Case{{Val: val}}, at)
		return
	}
	if v.Local && x == "" {
		p.failAt(name, "%s is a local array: assign %s[x] := value or %s := lambda (j:nat) { value }", v.Name, v.Name, v.Name)
	}
	val := p.term(p.mcmtExpr(), params)
	p.checkAssign(v, val, at)
	p.accept(";")
	us.point(v, x, val, at)
}

func (p *parser) checkAssign(v *system.Var, val system.Term, at *pexpr) {
	if !assignable(v.Sort, val) {
		p.failExpr(at, "cannot assign %s (%s) to %s (%s)", val, val.Sort, v.Name, v.Sort)
	}
}

// mcmtCaseLambda reads
//
//	lambda (j:nat; j != x) { case (cond): a[j] := t; ... otherwise: a[j] := t; }
func (p *parser) mcmtCaseLambda(us *updates, params []string) {
	kw := p.next()
	at := &pexpr{pos: kw.pos, off: kw.off}
	j, restrict := p.lambdaHead(params)
	sc := append(append(scope(nil), params...), j)
	p.expect("{", "before the lambda's cases")
	type branch struct {
		cond *system.Formula
		vals map[*system.Var]system.Term
	}
	var branches []branch
	var order []*system.Var
	seenOtherwise := false
	for !p.accept("}") {
		var b branch
		switch {
		case p.is("case"):
			if seenOtherwise {
				p.failAt(p.peek(), "a case after otherwise")
			}
			p.next()
			p.expect("(", "before the case's condition")
			b.cond = p.form(p.mcmtExpr(), sc)
			p.expect(")", "after the case's condition")
		case p.is("otherwise"):
			if seenOtherwise {
				p.failAt(p.peek(), "a second otherwise")
			}
			seenOtherwise = true
			p.next()
		default:
			p.failAt(p.peek(), "expected case, otherwise or } in the lambda, found %s", p.peek())
		}
		p.expect(":", "after the case")
		b.vals = map[*system.Var]system.Term{}
		for p.peek().kind == tIdent && !p.is("case") && !p.is("otherwise") {
			name := p.next()
			v := p.arrayVar(name)
			if !v.Local {
				p.failAt(name, "%s is a global: it cannot be assigned in a lambda", v.Name)
			}
			p.expect("[", "after the array")
			if idx := p.ident("the lambda's variable"); idx.text != j {
				p.failAt(idx, "expected %s[%s] in the lambda over %s, found index %s", v.Name, j, j, idx.text)
			}
			p.expect("]", "after the index")
			p.expect(":=", "in a case")
			val := p.term(p.mcmtExpr(), sc)
			p.checkAssign(v, val, &pexpr{pos: name.pos, off: name.off})
			p.accept(";")
			if _, dup := b.vals[v]; dup {
				p.failAt(name, "%s is assigned twice in one case", v.Name)
			}
			if !containsVar(order, v) {
				order = append(order, v)
			}
			b.vals[v] = val
		}
		branches = append(branches, b)
	}
	p.accept(";")
	for _, v := range order {
		var cases []system.Case
		for _, b := range branches {
			val, ok := b.vals[v]
			if !ok {
				val = system.Term{Kind: system.Read, Var: v, Index: j, Sort: v.Sort}
			}
			cases = append(cases, system.Case{Cond: b.cond, Val: val})
		}
		if !seenOtherwise {
			cases = append(cases, system.Case{Val: system.Term{Kind: system.Read, Var: v, Index: j, Sort: v.Sort}})
		}
		us.lambda(v, j, restrict, cases, at)
	}
}

func containsVar(vs []*system.Var, v *system.Var) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}

// mcmtExpr reads a formula or term with MCMT's operators: OR, AND, NOT,
// comparisons, + and -.
func (p *parser) mcmtExpr() *pexpr {
	p.nest(p.peek())
	defer p.unnest()
	return p.chain("OR", "or", p.mcmtAnd)
}

func (p *parser) mcmtAnd() *pexpr { return p.chain("AND", "and", p.mcmtNot) }

func (p *parser) mcmtNot() *pexpr {
	if p.is("NOT") {
		return p.prefix(p.next(), "not", p.mcmtNot)
	}
	return p.comparison(p.mcmtPrimary, "")
}

func (p *parser) mcmtPrimary() *pexpr { return p.primary(p.mcmtExpr, isMCMTKeyword, false) }

func isMCMTKeyword(s string) bool {
	switch s {
	case "AND", "OR", "NOT", "guard", "uguard", "update", "lambda", "case", "otherwise",
		"transition", "initial", "unsafe", "system_axiom", "suggested_negated_invariant", "global", "local":
		return true
	}
	return false
}
