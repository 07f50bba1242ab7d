package mcmt

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"ftmc/mcmt/system"
)

// MCMT's low-level :keyword syntax (the .in files, and what MCMT 2
// compiles its user syntax into): :local/:global declarations, :initial,
// :unsafe / :u_cnj, :system_axiom, :suggested_negated_invariants, and
// :transition with :var, :guard, :uguard, :numcases and :case/:val, with
// literals as s-expressions such as (= a[x] 1).

func (p *parser) parseMCMT1() {
	// A misspelt keyword ends the section before it, and the error would
	// land on the section (a :case short of :val lines) or on what
	// follows: sections that stop at a keyword check it (endSection), and
	// the first unknown keyword replaces any error at or after it.
	defer func() {
		r := recover()
		b, ok := r.(bailout)
		if r != nil && (!ok || b.err.stopped) {
			panic(r)
		}
		// The tokens up to the error (all, without one) have been scanned.
		for _, t := range p.toks {
			if r != nil && (t.pos.Line > b.err.Pos.Line || t.pos.Line == b.err.Pos.Line && t.pos.Col > b.err.Pos.Col) {
				break
			}
			if t.kind == tKey && !isMCMT1Keyword(t.text) {
				p.unknownKeyword(t)
			}
		}
		if r != nil {
			panic(r)
		}
	}()
	aliases := map[string]string{} // declared name -> display name (:map_back)
	pendingName := ""
	for p.peek().kind != tEOF {
		t := p.next()
		if t.kind != tKey {
			p.failAt(t, "expected a :keyword, found %s", t)
		}
		switch t.text {
		case ":index":
			if s := p.ident("the index type nat"); s.text != "nat" {
				p.failAt(s, "expected the index type nat, found %s", s)
			}
		case ":smt":
			p.mcmt1Smt()
		case ":map_back":
			pendingName = p.ident("a name after :map_back").text
		case ":local", ":global":
			name := p.ident("the name of the array")
			s := p.mcmt1Sort()
			display := name.text
			if pendingName != "" {
				display, pendingName = pendingName, ""
			}
			if display != name.text {
				if _, dup := aliases[name.text]; dup {
					p.failAt(name, "%s is declared twice", name.text)
				}
				aliases[name.text] = display
			}
			p.declare(name, display, t.text == ":local", s)
		case ":eevar":
			p.failAt(t, ":eevar (existentially quantified data variables) is not supported")
		case ":initial":
			vars := p.mcmt1Vars()
			body := p.mcmt1Cnj(vars, ":cnj", aliases)
			if p.sys.Init != nil {
				p.failAt(t, "a second :initial (the first is at %s)", p.sys.Init.Pos)
			}
			p.sys.Init = &system.Quant{Vars: vars, Body: body, Pos: t.pos, Name: t.doc}
		case ":unsafe":
			vars := p.mcmt1Vars()
			body := p.mcmt1Cnj(vars, ":cnj", aliases)
			p.sys.Unsafe = append(p.sys.Unsafe, &system.Quant{Vars: vars, Body: body, Pos: t.pos})
		case ":u_cnj":
			p.i--
			vars := p.zVars()
			body := p.mcmt1Cnj(vars, ":u_cnj", aliases)
			p.sys.Unsafe = append(p.sys.Unsafe, &system.Quant{Vars: vars, Body: body, Pos: t.pos})
		case ":system_axiom":
			vars := p.mcmt1Vars()
			body := p.mcmt1Cnj(vars, ":cnj", aliases)
			p.sys.Axioms = append(p.sys.Axioms, &system.Quant{Vars: vars, Body: body, Pos: t.pos})
		case ":suggested_negated_invariants":
			for !p.is(":end_of_suggested_negated_invariants") {
				if p.peek().kind == tEOF {
					p.failAt(t, "missing :end_of_suggested_negated_invariants")
				}
				vars := p.mcmt1Vars()
				if !p.is(":cnj") {
					p.failAt(p.peek(), "expected :cnj or :end_of_suggested_negated_invariants, found %s", p.peek())
				}
				for p.is(":cnj") {
					pos := p.peek().pos
					body := p.mcmt1Cnj(vars, ":cnj", aliases)
					p.sys.Candidates = append(p.sys.Candidates, &system.Quant{Vars: vars, Body: body, Pos: pos})
				}
			}
			p.next()
		case ":transition":
			p.mcmt1Transition(t, aliases)
		default:
			// An option of MCMT's search (:key_search round,
			// :max_transitions_number 100, :inv_search_start, ...).
			if _, ok := optionValue(t.text[1:]); ok {
				p.mcmtOption(t, t.text[1:])
				continue
			}
			if isMCMT1Keyword(t.text) {
				p.failAt(t, "%s is out of place: expected a declaration (:local, :global), :initial, :unsafe, :u_cnj, :system_axiom, :suggested_negated_invariants, :transition or an option", t.text)
			}
			p.unknownKeyword(t)
		}
	}
	p.checkArrays(aliases)
}

func isMCMT1Keyword(k string) bool {
	if slices.Contains(mcmt1Keywords, k) {
		return true
	}
	_, ok := optionValue(strings.TrimPrefix(k, ":"))
	return ok
}

// endSection is called where a section ends at the next keyword: when
// that keyword is unknown, it is the error (a misspelt :val or :case).
func (p *parser) endSection() {
	if t := p.peek(); t.kind == tKey && !isMCMT1Keyword(t.text) {
		p.unknownKeyword(t)
	}
}

// unknownKeyword fails at the unknown keyword t.
func (p *parser) unknownKeyword(t token) {
	p.failAt(t, "unknown keyword %s (%s)", t.text, hint(t.text, append(slices.Clip(mcmt1Keywords), optionNames(":")...), "the keywords are"))
}

func (p *parser) mcmt1Sort() system.Sort {
	t := p.ident("a type (bool, int, nat or a :smt type)")
	if s, ok := p.builtinSort(t, "arrays", "bool", "int", "nat"); ok {
		return s
	}
	if c, ok := p.consts["type "+t.text]; ok {
		return c.Sort
	}
	p.failAt(t, "unknown type %s (expected bool, int, nat or a type defined with :smt)", t.text)
	return system.Sort{}
}

// mcmt1Smt reads (define-type NAME (subrange LO HI)).
func (p *parser) mcmt1Smt() {
	open := p.expect("(", "after :smt")
	if kw := p.ident("define-type"); kw.text != "define-type" {
		p.failAt(kw, ":smt declarations other than (define-type T (subrange lo hi)) are not supported")
	}
	name := p.ident("a type name")
	p.expect("(", "before subrange")
	if kw := p.ident("subrange"); kw.text != "subrange" {
		p.failAt(kw, "expected subrange, found %s", kw)
	}
	lo := p.number("the lower bound")
	hi := p.number("the upper bound")
	if lo > hi {
		p.failAt(open, "empty subrange %d..%d", lo, hi)
	}
	p.expect(")", "after the bounds")
	p.expect(")", "to close :smt")
	p.consts["type "+name.text] = system.Term{Sort: system.Sort{Kind: system.Int, HasLo: true, HasHi: true, Lo: lo, Hi: hi}}
}

func (p *parser) mcmt1Vars() []string {
	var vars []string
	for p.is(":var") {
		p.next()
		v := p.ident("a process variable")
		for _, w := range vars {
			if w == v.text {
				p.failAt(v, "process variable %s is declared twice", v.text)
			}
		}
		vars = append(vars, v.text)
	}
	p.endSection()
	return vars
}

var zVar = regexp.MustCompile(`^z[0-9]+$`)

// zVars finds the variables z1, z2, ... that a :u_cnj uses without
// declaring them.
func (p *parser) zVars() []string {
	seen := map[string]bool{}
	for k := 1; p.peekAt(k).kind != tKey && p.peekAt(k).kind != tEOF; k++ {
		if t := p.peekAt(k); t.kind == tIdent && zVar.MatchString(t.text) {
			seen[t.text] = true
		}
	}
	var vars []string
	for v := range seen {
		vars = append(vars, v)
	}
	sort.Slice(vars, func(a, b int) bool {
		x, _ := strconv.Atoi(vars[a][1:])
		y, _ := strconv.Atoi(vars[b][1:])
		return x < y
	})
	return vars
}

// mcmt1Cnj reads kw followed by literals, up to the next :keyword.
func (p *parser) mcmt1Cnj(vars []string, kw string, aliases map[string]string) *system.Formula {
	p.expect(kw, "")
	return p.mcmt1Lits(vars, aliases)
}

func (p *parser) mcmt1Lits(vars []string, aliases map[string]string) *system.Formula {
	var fs []*system.Formula
	for p.peek().kind != tKey && p.peek().kind != tEOF {
		fs = append(fs, p.form(p.sexpr(aliases), vars))
	}
	p.endSection()
	return system.Conj(fs...)
}

// sexpr reads a literal or term in prefix notation.
func (p *parser) sexpr(aliases map[string]string) *pexpr {
	t := p.peek()
	p.nest(t)
	defer p.unnest()
	switch {
	case t.kind == tNum:
		return p.constant(p.next())
	case t.kind == tIdent:
		p.next()
		if t.text == "true" || t.text == "false" {
			return p.constant(t)
		}
		name := t.text
		if a, ok := aliases[name]; ok {
			name = a
		}
		return p.variable(t, name, false)
	case p.is("("):
		p.next()
		op := p.next()
		var e *pexpr
		switch {
		case op.kind == tPunct && (op.text == "=" || op.text == "<" || op.text == "<=" || op.text == ">" || op.text == ">="):
			e = p.mk(op, op.text, p.sexpr(aliases), p.sexpr(aliases))
		case op.kind == tPunct && (op.text == "+" || op.text == "-"):
			a := p.sexpr(aliases)
			if p.is(")") && op.text == "-" {
				e = p.mk(op, "neg", a)
			} else {
				e = p.mk(op, op.text, a, p.sexpr(aliases))
			}
		case op.kind == tIdent && op.text == "not":
			e = p.mk(op, "not", p.sexpr(aliases))
		case op.kind == tIdent && (op.text == "and" || op.text == "or"):
			e = p.mk(op, op.text)
			for !p.is(")") && p.peek().kind != tEOF && p.peek().kind != tKey {
				e.args = append(e.args, p.sexpr(aliases))
			}
		default:
			p.failAt(op, "expected =, <, <=, >, >=, +, -, not, and or or after (, found %s", op)
		}
		p.expect(")", "to close the expression")
		return e
	}
	p.failAt(t, "expected a literal such as (= a[x] 1), found %s", t)
	return nil
}

func (p *parser) mcmt1Transition(kw token, aliases map[string]string) {
	vars := p.mcmt1Vars()
	if len(vars) == 0 {
		p.failAt(p.peek(), "a :transition needs :var declarations (its parameters and the case variable j)")
	}
	j := vars[len(vars)-1]
	var params []string
	for _, v := range vars {
		if v == "j" {
			j = v
		}
	}
	for _, v := range vars {
		if v != j {
			params = append(params, v)
		}
	}
	t := &system.Transition{Name: fmt.Sprintf("t%d", len(p.sys.Trans)+1), Doc: kw.doc, Pos: kw.pos, Params: params}
	t.Guard = &system.Formula{Kind: system.True}
	if p.is(":guard") {
		t.Guard = p.mcmt1Cnj(params, ":guard", aliases)
	}
	var ug []*system.Formula
	for p.is(":uguard") {
		ug = append(ug, p.mcmt1Cnj(append(append(scope(nil), params...), j), ":uguard", aliases))
	}
	if len(ug) > 0 {
		t.Univ, t.UGuard = j, system.Disj(ug...)
	}
	p.endSection()
	nt := p.expect(":numcases", "after the guards")
	n := p.number("the number of cases")
	sc := append(append(scope(nil), params...), j)
	type kase struct {
		cond *system.Formula
		vals []system.Term
		pos  token
	}
	var cases []kase
	for p.is(":case") {
		ct := p.next()
		var k kase
		k.pos = ct
		if f := p.mcmt1Lits(sc, aliases); f.Kind != system.True {
			k.cond = f
		}
		for p.is(":val") {
			vt := p.next()
			if len(k.vals) == len(p.sys.Vars) {
				p.failAt(vt, "more :val lines than the %d declared arrays", len(p.sys.Vars))
			}
			v := p.sys.Vars[len(k.vals)]
			val := p.term(p.sexpr(aliases), sc)
			p.checkAssign(v, val, &pexpr{pos: vt.pos, off: vt.off})
			k.vals = append(k.vals, val)
		}
		p.endSection()
		if len(k.vals) != len(p.sys.Vars) {
			p.failAt(ct, "a :case gives %d :val lines, want one per declared array (%d)", len(k.vals), len(p.sys.Vars))
		}
		cases = append(cases, k)
	}
	p.endSection()
	if int64(len(cases)) != n {
		p.failAt(nt, ":numcases %d, but %d :case sections follow", n, len(cases))
	}
	for vi, v := range p.sys.Vars {
		keep := func(val system.Term) bool {
			return val.Kind == system.Read && val.Var == v && val.Off == 0 && (!v.Local || val.Index == j)
		}
		changed := false
		for _, k := range cases {
			changed = changed || !keep(k.vals[vi])
		}
		if !changed {
			continue
		}
		u := &system.Update{Var: v, Pos: kw.pos}
		if !v.Local {
			// A global is a constant array: every case must agree.
			val := cases[0].vals[vi]
			for _, k := range cases[1:] {
				if k.vals[vi].String() != val.String() {
					p.failAt(k.pos, "global %s gets %s in one case and %s in another", v.Name, val, k.vals[vi])
				}
			}
			if val.Kind == system.Read && val.Var != nil && val.Var.Local && val.Index == j {
				p.failAt(cases[0].pos, "global %s cannot take the value of %s, which depends on the case variable %s", v.Name, val, j)
			}
			u.Cases = []system.Case{{Val: val}}
			t.Updates = append(t.Updates, u)
			continue
		}
		u.J = j
		for _, k := range cases {
			u.Cases = append(u.Cases, system.Case{Cond: k.cond, Val: k.vals[vi]})
		}
		if u.Cases[len(u.Cases)-1].Cond != nil {
			u.Cases = append(u.Cases, system.Case{Val: system.Term{Kind: system.Read, Var: v, Index: j, Sort: v.Sort}})
		}
		t.Updates = append(t.Updates, u)
	}
	p.sys.Trans = append(p.sys.Trans, t)
}
