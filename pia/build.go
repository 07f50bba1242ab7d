package pia

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"ftmc/promela"
	"ftmc/smt"
	"ftmc/ta"
)

// build writes the automaton of a case and its specifications.
func (b *caseBuilder) build(inits []int) (*Case, error) {
	x := b.x
	b.merge()
	// The locals that differ between abstract local states name them.
	var kept []int
	for i := range x.locals {
		for _, l := range b.locs[1:] {
			if l[i] != b.locs[0][i] {
				kept = append(kept, i)
				break
			}
		}
	}
	if len(kept) == 0 {
		kept = []int{0}
	}
	names := make([]string, len(b.groups))
	used := map[string]bool{}
	for g, members := range b.groups {
		l := b.locs[members[0]]
		var parts []string
		for _, k := range kept {
			parts = append(parts, fmt.Sprint(l[k]))
		}
		n := "loc" + strings.Join(parts, "_")
		if len(members) > 1 {
			n += "_m"
		}
		for used[n] {
			n += "x"
		}
		used[n] = true
		names[g] = n
	}
	var w strings.Builder
	fmt.Fprintf(&w, "/* The threshold automaton of %s, extracted by the PIA data abstraction.\n", x.prog.Filename)
	fmt.Fprintf(&w, "   Thresholds: %s.\n", b.ord.text)
	fmt.Fprintf(&w, "   A location is an abstract local state of %s at its main loop:", x.proc.ProcName())
	for _, k := range kept {
		v := x.locals[k]
		if x.bounded[v] {
			fmt.Fprintf(&w, " %s (its value)", v.Name)
		} else {
			fmt.Fprintf(&w, " %s (the index of its interval)", v.Name)
		}
	}
	fmt.Fprintf(&w, ".")
	for g, members := range b.groups {
		if len(members) > 1 {
			var ms []string
			for _, m := range members {
				ms = append(ms, "["+b.locs[m].key()+"]")
			}
			fmt.Fprintf(&w, "\n   %s stands for the abstract local states %s, between which a process moves back and forth.", names[g], strings.Join(ms, ", "))
		}
	}
	fmt.Fprintf(&w, " */\n")
	fmt.Fprintf(&w, "skel %s {\n", x.proc.ProcName())
	var lnames []string
	for _, k := range kept {
		lnames = append(lnames, x.locals[k].Name)
	}
	fmt.Fprintf(&w, "  local %s;\n", strings.Join(lnames, ", "))
	if len(x.shared) > 0 {
		var sn []string
		for _, s := range x.shared {
			sn = append(sn, s.Name)
		}
		fmt.Fprintf(&w, "  shared %s;\n", strings.Join(sn, ", "))
	}
	var pn []string
	for _, p := range x.params {
		pn = append(pn, p.Name)
	}
	fmt.Fprintf(&w, "  parameters %s;\n\n", strings.Join(pn, ", "))
	var assum []string
	for _, a := range x.prog.Assumes {
		t, err := x.taCond(a.X)
		if err != nil {
			return nil, err
		}
		assum = append(assum, t)
	}
	for _, c := range b.ord.extra {
		assum = append(assum, x.consText(c))
	}
	fmt.Fprintf(&w, "  assumptions (%d) {\n", len(assum))
	for _, a := range assum {
		fmt.Fprintf(&w, "    %s;\n", a)
	}
	fmt.Fprintf(&w, "  }\n\n  locations (%d) {\n", len(b.groups))
	for i, members := range b.groups {
		l := b.locs[members[0]]
		var vs []string
		for _, k := range kept {
			vs = append(vs, fmt.Sprint(l[k]))
		}
		fmt.Fprintf(&w, "    %s: [%s];\n", names[i], strings.Join(vs, "; "))
	}
	count := promela.Expr(nil)
	if x.proc.Count != nil {
		count = x.proc.Count
	}
	countText := "1"
	if count != nil {
		l, err := x.rawArith(count)
		if err != nil {
			return nil, err
		}
		countText = x.linText(l)
	}
	isInit := map[int]bool{}
	var in []string
	for _, i := range inits {
		if g := b.group[i]; !isInit[g] {
			isInit[g] = true
			in = append(in, names[g])
		}
	}
	fmt.Fprintf(&w, "  }\n\n  inits (%d) {\n", 1+len(b.groups)-len(in)+len(x.shared))
	fmt.Fprintf(&w, "    (%s) == %s;\n", strings.Join(in, " + "), countText)
	for i := range b.groups {
		if !isInit[i] {
			fmt.Fprintf(&w, "    %s == 0;\n", names[i])
		}
	}
	for _, s := range x.shared {
		fmt.Fprintf(&w, "    %s == %d;\n", s.Name, x.sharedInit[s])
	}
	fmt.Fprintf(&w, "  }\n\n  rules (%d) {\n", len(b.grules))
	for n, r := range b.grules {
		guard := r.guards[0]
		if len(r.guards) > 1 {
			guard = "(" + strings.Join(r.guards, ") || (") + ")"
		}
		fmt.Fprintf(&w, "    %d: %s -> %s\n        when (%s)\n        do {", n, names[r.src], names[r.dst], guard)
		for i, s := range x.shared {
			switch {
			case r.inc[i] == 0:
				fmt.Fprintf(&w, " %s' == %s;", s.Name, s.Name)
			case r.inc[i] < 0:
				fmt.Fprintf(&w, " %s' == %s - %d;", s.Name, s.Name, -r.inc[i])
			default:
				fmt.Fprintf(&w, " %s' == %s + %d;", s.Name, s.Name, r.inc[i])
			}
		}
		fmt.Fprintf(&w, " };\n")
	}
	sp := &specs{b: b, names: names}
	var justice []string
	var fair []string
	for _, d := range x.prog.LTL {
		if isJustice(d) {
			t, err := sp.ltl(d.Formula, false)
			if err != nil {
				return nil, err
			}
			fair = append(fair, "("+t+")")
			justice = append(justice, d.FormulaName())
		}
	}
	// The justice of processes: in the repeated configuration of a lasso,
	// a process that can step takes steps, so it is in a location with
	// a self-loop enabled (ByMC's weakly fair processes). In an automaton
	// with cycles (Options.Cycles) a fair run need not come to rest: a
	// location on a cycle may never be empty, and locations may be empty
	// or enabled at different times. There each location off the cycles
	// gets a justice condition of its own, which every fair run meets: a
	// process that stays in it for ever takes its self-loops.
	var just []string
	for g, members := range b.groups {
		if len(members) != 1 || b.mayStop[members[0]] || b.onCycle != nil && b.onCycle[members[0]] {
			continue
		}
		var self []string
		for _, r := range b.grules {
			if r.src == g && r.dst == g {
				self = append(self, "("+strings.Join(r.guards, ") || (")+")")
			}
		}
		switch {
		case len(self) == 0:
			just = append(just, names[g]+" == 0")
		case slices.Contains(self, "(true)"):
		default:
			just = append(just, "("+names[g]+" == 0 || "+strings.Join(self, " || ")+")")
		}
	}
	switch {
	case len(just) == 0:
	case b.onCycle != nil:
		for _, j := range just {
			fair = append(fair, "([](<>("+j+")))")
		}
	default:
		fair = append(fair, "([](<>("+strings.Join(just, " && ")+")))")
	}
	var specLines []string
	for _, d := range x.prog.LTL {
		if isJustice(d) {
			continue
		}
		t, err := sp.ltl(d.Formula, true)
		if err != nil {
			return nil, err
		}
		// Fairness matters only to counterexamples that are lassos: a
		// safety property (its negation has no []) is checked without it,
		// as ByMC does.
		if len(fair) > 0 && needsLoop(d.Formula, true) {
			t = "(" + strings.Join(fair, " && ") + ") -> (" + t + ")"
		}
		specLines = append(specLines, fmt.Sprintf("    %s: %s;\n", d.FormulaName(), t))
	}
	fmt.Fprintf(&w, "  }\n\n  specifications (%d) {\n", len(specLines))
	for _, s := range specLines {
		w.WriteString(s)
	}
	fmt.Fprintf(&w, "  }\n}\n")
	text := []byte(w.String())
	f, err := ta.Parse(x.prog.Filename+".ta", text)
	if err != nil {
		return nil, fmt.Errorf("the extracted automaton does not read back (a defect): %v", err)
	}
	dec := false
	for _, r := range b.grules {
		dec = dec || slices.ContainsFunc(r.inc, func(d int64) bool { return d < 0 })
	}
	return &Case{Order: b.ord.text, Text: text, TA: f, Justice: justice, Decreases: dec, Locations: len(b.groups), Rules: len(b.grules), Paths: b.paths, Queries: x.queries, locate: b.locator(names)}, nil
}

// locator maps a concrete local state to the locations of the automaton
// that stand for it, for Case.Locate.
func (b *caseBuilder) locator(names []string) func(map[string]int64, map[string]int64) ([]string, error) {
	x := b.x
	of := make([][]int, len(b.locs))
	for g, members := range b.groups {
		for _, m := range members {
			of[m] = append(of[m], g)
		}
	}
	locals := x.locals
	bounded := x.bounded
	thr := b.ord.thr
	index := b.index
	return func(params, vals map[string]int64) ([]string, error) {
		bounds := make([]int64, len(thr))
		for j, t := range thr {
			v := t.k
			for name, c := range t.c {
				p, ok := params[name]
				if !ok {
					return nil, fmt.Errorf("no value for the parameter %s", name)
				}
				v += c * p
			}
			bounds[j] = v
		}
		l := make(locState, len(locals))
		for i, v := range locals {
			val, ok := vals[v.Name]
			if !ok {
				return nil, fmt.Errorf("no value for the local %s", v.Name)
			}
			if bounded[v] {
				l[i] = val
				continue
			}
			l[i] = -1
			for j := range bounds {
				if val >= bounds[j] && (j+1 == len(bounds) || val < bounds[j+1]) {
					l[i] = int64(j)
				}
			}
			if l[i] < 0 {
				return nil, fmt.Errorf("%s = %d is below every threshold", v.Name, val)
			}
		}
		k, ok := index[l.key()]
		if !ok {
			return nil, nil
		}
		var out []string
		for _, g := range of[k] {
			out = append(out, names[g])
		}
		return out, nil
	}
}

// taCond renders an assumption over the parameters in .ta syntax.
func (x *extractor) taCond(e promela.Expr) (string, error) { return x.paramCond(e, x.bfText) }

func (x *extractor) bfText(b *bf) string {
	join := func(op string) func(...string) string {
		return func(ts ...string) string { return "(" + strings.Join(ts, ") "+op+" (") + ")" }
	}
	return b.render(x.consText, join("&&"), join("||"))
}

// specs translates ltl formulas over ByMC's atomic propositions into
// formulas over the automaton's counters. An atomic proposition that the
// abstraction does not decide exactly is replaced by an under-approximation
// where it occurs positively in the specification and by an
// over-approximation where it occurs negatively, so that every concrete
// run that violates the specification maps to an abstract run that
// violates the translation.
type specs struct {
	b     *caseBuilder
	names []string
}

func (sp *specs) ltl(e promela.Expr, pos bool) (string, error) {
	switch e := e.(type) {
	case *promela.UnaryExpr:
		switch e.Op {
		case promela.ALWAYS, promela.EVENTUALLY, promela.NOT:
			t, err := sp.ltl(e.X, pos != (e.Op == promela.NOT))
			if err != nil {
				return "", err
			}
			return e.Op.String() + "(" + t + ")", nil
		case promela.NEXT:
			return "", errorf(e.OpPos, "the next-time operator X is outside the supported LTL fragment (LTL without X, F and G over propositions)")
		}
	case *promela.BinaryExpr:
		switch e.Op {
		case promela.LAND, promela.LOR, promela.IMPLIES:
			a, err := sp.ltl(e.X, pos != (e.Op == promela.IMPLIES))
			if err != nil {
				return "", err
			}
			c, err := sp.ltl(e.Y, pos)
			if err != nil {
				return "", err
			}
			return binaryText(a, e.Op, c), nil
		case promela.EQUIV:
			a, aExact, err := sp.exact(e.X)
			if err != nil {
				return "", err
			}
			c, cExact, err := sp.exact(e.Y)
			if err != nil {
				return "", err
			}
			if !aExact || !cExact {
				return "", errorf(e.OpPos, "<-> over propositions that the abstraction does not decide exactly")
			}
			return "((" + a + ") -> (" + c + ")) && ((" + c + ") -> (" + a + "))", nil
		case promela.UNTIL, promela.WEAKUNTIL, promela.RELEASE:
			return "", errorf(e.OpPos, "%s is outside the supported LTL fragment (F and G over propositions)", e.Op)
		}
	}
	if hasTemporal(e) {
		return "", errorf(e.Pos(), "a temporal operator inside an expression")
	}
	return sp.atom(e, pos)
}

// exact translates e at both polarities, and tells whether they are the
// same translation (the abstraction decides its propositions exactly).
func (sp *specs) exact(e promela.Expr) (string, bool, error) {
	pos, err := sp.ltl(e, true)
	if err != nil {
		return "", false, err
	}
	neg, err := sp.ltl(e, false)
	if err != nil {
		return "", false, err
	}
	return pos, pos == neg, nil
}

// needsLoop tells whether the negation of a formula (at polarity pos) has
// an always operator: only then is a counterexample a lasso.
func needsLoop(e promela.Expr, pos bool) bool {
	switch e := e.(type) {
	case *promela.UnaryExpr:
		switch e.Op {
		case promela.EVENTUALLY:
			return pos || needsLoop(e.X, pos)
		case promela.ALWAYS:
			return !pos || needsLoop(e.X, pos)
		case promela.NOT:
			return needsLoop(e.X, !pos)
		}
	case *promela.BinaryExpr:
		switch e.Op {
		case promela.LAND, promela.LOR:
			return needsLoop(e.X, pos) || needsLoop(e.Y, pos)
		case promela.IMPLIES:
			return needsLoop(e.X, !pos) || needsLoop(e.Y, pos)
		case promela.EQUIV:
			return hasTemporal(e)
		}
	}
	return false
}

func hasTemporal(e promela.Expr) bool {
	t := false
	promela.Inspect(e, func(n promela.Node) bool {
		switch n := n.(type) {
		case *promela.UnaryExpr:
			if n.Op == promela.ALWAYS || n.Op == promela.EVENTUALLY || n.Op == promela.NEXT {
				t = true
			}
		case *promela.BinaryExpr:
			if n.Op == promela.UNTIL || n.Op == promela.WEAKUNTIL || n.Op == promela.RELEASE {
				t = true
			}
		}
		return !t
	})
	return t
}

// atom translates a state condition; under asks for an
// under-approximation, else an over-approximation.
func (sp *specs) atom(e promela.Expr, under bool) (string, error) {
	x := sp.b.x
	switch e := e.(type) {
	case *promela.IntLit:
		if e.Value != 0 {
			return "true", nil
		}
		return "false", nil
	case *promela.Ident:
		if e.Sym != nil && e.Sym.Kind == promela.SymAtomic {
			d, ok := e.Sym.Decl.(*promela.AtomicPropDecl)
			if !ok {
				return "", errorf(e.Pos(), "atomic proposition %s has no definition", e.Name)
			}
			return sp.atom(d.X, under)
		}
	case *promela.UnaryExpr:
		if e.Op == promela.NOT {
			t, err := sp.atom(e.X, !under)
			if err != nil {
				return "", err
			}
			return "!(" + t + ")", nil
		}
	case *promela.BinaryExpr:
		switch e.Op {
		case promela.LAND, promela.LOR:
			a, c, err := both(e, func(x promela.Expr) (string, error) { return sp.atom(x, under) })
			if err != nil {
				return "", err
			}
			return binaryText(a, e.Op, c), nil
		case promela.EQL, promela.NEQ, promela.LSS, promela.LEQ, promela.GTR, promela.GEQ:
			a, c, err := both(e, sp.garith)
			if err != nil {
				return "", err
			}
			b, err := cmp(e.Op, a, c, false)
			if err != nil {
				return "", err
			}
			return x.bfText(b), nil
		}
	case *promela.CallExpr:
		switch e.Fun {
		case promela.BuiltinAll, promela.BuiltinSome:
			return sp.quantified(e, under)
		}
	case *promela.RemoteRef:
		return "", errorf(e.Pos(), "a remote reference outside all(...), some(...) or card(...): processes are anonymous")
	}
	v, err := sp.garith(e)
	if err != nil {
		return "", err
	}
	b, err := cmp(promela.NEQ, v, constLin(0), false)
	if err != nil {
		return "", err
	}
	return x.bfText(b), nil
}

// garith evaluates an arithmetic expression over shared variables,
// parameters and card(...) (counters, "k:" symbols).
func (sp *specs) garith(e promela.Expr) (lin, error) {
	x := sp.b.x
	switch e := e.(type) {
	case *promela.CallExpr:
		if e.Fun == promela.BuiltinCard {
			out := lin{c: map[string]int64{}}
			for i := range sp.b.groups {
				ex, err := sp.exists(e.Args[0], i, false)
				if err != nil {
					return lin{}, err
				}
				nex, err := sp.exists(e.Args[0], i, true)
				if err != nil {
					return lin{}, err
				}
				switch {
				case ex == "false":
				case ex == "true" && nex == "false":
					out.c["k:"+sp.names[i]] = 1
				default:
					return lin{}, errorf(e.Pos(), "card(...) over a condition that the abstract local state %s does not decide (%s): outside the class", sp.names[i], ex)
				}
			}
			return out, nil
		}
	case *promela.BinaryExpr:
		switch e.Op {
		case promela.ADD, promela.SUB:
			a, b, err := both(e, sp.garith)
			if err != nil {
				return lin{}, err
			}
			if e.Op == promela.ADD {
				return a.add(b)
			}
			return a.sub(b)
		case promela.MUL:
			a, b, err := both(e, sp.garith)
			if err != nil {
				return lin{}, err
			}
			if a.isConst() {
				return b.scale(a.k)
			}
			if b.isConst() {
				return a.scale(b.k)
			}
			return lin{}, errorf(e.OpPos, "the product of two variables is outside the class")
		}
	}
	return x.arith(e, nil, nil)
}

// quantified translates all(P:φ) and some(P:φ).
func (sp *specs) quantified(e *promela.CallExpr, under bool) (string, error) {
	// all is the conjunction over the locations k of k == 0 || φ, some the
	// disjunction of k != 0 && φ: a location whose φ is the unit of the
	// outer connective (true for all, false for some) drops out, one whose
	// φ is the other constant leaves its test of k alone.
	unit, zero, test, inner, outer := "true", "false", " == 0", " || ", " && "
	if e.Fun != promela.BuiltinAll {
		unit, zero, test, inner, outer = "false", "true", " != 0", " && ", " || "
	}
	var parts []string
	for i := range sp.b.groups {
		// all: every occupied location satisfies φ; some: one occupied
		// location satisfies φ. Under-approximations need φ for every
		// process in the location, over-approximations for one.
		var t string
		var err error
		if under {
			var n string
			n, err = sp.exists(e.Args[0], i, true)
			t = notText(n)
		} else {
			t, err = sp.exists(e.Args[0], i, false)
		}
		if err != nil {
			return "", err
		}
		k := sp.names[i]
		switch t {
		case unit:
		case zero:
			parts = append(parts, k+test)
		default:
			parts = append(parts, "("+k+test+inner+"("+t+"))")
		}
	}
	if len(parts) == 0 {
		return unit, nil
	}
	return strings.Join(parts, outer), nil
}

// both translates the operands of e with f, the left one first, and stops
// at the first error.
func both[T any](e *promela.BinaryExpr, f func(promela.Expr) (T, error)) (x, y T, err error) {
	if x, err = f(e.X); err != nil {
		return x, y, err
	}
	y, err = f(e.Y)
	return x, y, err
}

// binaryText writes the binary operator op (&&, ||, ->) between a and c.
func binaryText(a string, op promela.Token, c string) string {
	return "(" + a + ") " + op.String() + " (" + c + ")"
}

func notText(t string) string {
	switch t {
	case "true":
		return "false"
	case "false":
		return "true"
	}
	return "!(" + t + ")"
}

// exists is the condition on shared variables and parameters under which
// some value of the location's data variables satisfies φ (¬φ when neg),
// "true" or "false" when the assumptions decide it.
func (sp *specs) exists(phi promela.Expr, g int, neg bool) (string, error) {
	b := sp.b
	x := b.x
	var terms, texts []string
	for _, li := range b.groups[g] {
		env, ic, err := b.env(b.locs[li])
		if err != nil {
			return "", err
		}
		c, err := x.cond(phi, nil, &quant{env: env}, neg)
		if err != nil {
			return "", err
		}
		ds, ok := dnf(c, maxDNF)
		if !ok {
			return "", errorf(phi.Pos(), "the condition has more than %d disjuncts", maxDNF)
		}
		t, tx, all, err := sp.disjuncts(ds, ic)
		if err != nil {
			return "", err
		}
		if all {
			return "true", nil
		}
		terms = append(terms, t...)
		texts = append(texts, tx...)
	}
	return sp.decide(terms, texts)
}

// disjuncts projects the disjuncts of a condition at one abstract local
// state onto the shared variables and parameters; all is true when one
// of them holds whenever the assumptions do.
func (sp *specs) disjuncts(ds [][]cons, ic []cons) (terms, texts []string, all bool, err error) {
	b := sp.b
	x := b.x
	for _, d := range ds {
		cs := append(append(append([]cons(nil), b.base...), ic...), d...)
		g, ok, err := project(cs, isLocalOrFresh)
		if err != nil {
			return nil, nil, false, err
		}
		if !ok {
			continue
		}
		terms = append(terms, x.conjSMT(g))
		parts, err := b.residual(g)
		if err != nil {
			return nil, nil, false, err
		}
		if len(parts) == 0 {
			return nil, nil, true, nil
		}
		texts = append(texts, strings.Join(parts, " && "))
	}
	return terms, texts, false, nil
}

// decide simplifies a disjunction with the solver.
func (sp *specs) decide(terms, texts []string) (string, error) {
	x := sp.b.x
	b := sp.b
	if len(terms) == 0 {
		return "false", nil
	}
	or := smt.Or(terms...)
	st, err := b.sat(or)
	if err != nil {
		return "", err
	}
	if st == smt.Unsat {
		return "false", nil
	}
	if v, err := x.valid(b.extra, or); err != nil {
		return "", err
	} else if v {
		return "true", nil
	}
	if len(texts) == 1 {
		return texts[0], nil
	}
	return "(" + strings.Join(texts, ") || (") + ")", nil
}

// parseLin reads a threshold given on the command line: a linear
// expression over the parameters and integers with + - * and parentheses.
func (x *extractor) parseLin(s string) (lin, error) {
	p := &linParser{src: s, x: x}
	l, err := p.sum()
	if err != nil {
		return lin{}, err
	}
	p.skip()
	if p.i < len(p.src) {
		return lin{}, fmt.Errorf("unexpected %q at column %d", p.src[p.i:], p.i+1)
	}
	return l, nil
}

type linParser struct {
	src string
	i   int
	x   *extractor
}

func (p *linParser) skip() {
	for p.i < len(p.src) && p.src[p.i] == ' ' {
		p.i++
	}
}

func (p *linParser) sum() (lin, error) {
	return p.chain("+-", p.product, func(op byte, l, r lin) (lin, error) {
		if op == '+' {
			return l.add(r)
		}
		return l.sub(r)
	})
}

func (p *linParser) product() (lin, error) {
	return p.chain("*", p.unary, func(_ byte, l, r lin) (lin, error) {
		switch {
		case l.isConst():
			return r.scale(l.k)
		case r.isConst():
			return l.scale(r.k)
		}
		return lin{}, fmt.Errorf("the product of two parameters is not linear")
	})
}

// chain reads operands with next, joined left to right by the operators
// in ops, and combines them with join.
func (p *linParser) chain(ops string, next func() (lin, error), join func(op byte, l, r lin) (lin, error)) (lin, error) {
	l, err := next()
	if err != nil {
		return lin{}, err
	}
	for {
		p.skip()
		if p.i >= len(p.src) || strings.IndexByte(ops, p.src[p.i]) < 0 {
			return l, nil
		}
		op := p.src[p.i]
		p.i++
		r, err := next()
		if err != nil {
			return lin{}, err
		}
		if l, err = join(op, l, r); err != nil {
			return lin{}, err
		}
	}
}

func (p *linParser) unary() (lin, error) {
	p.skip()
	if p.i >= len(p.src) {
		return lin{}, fmt.Errorf("expected a number, a parameter or ( at the end")
	}
	c := p.src[p.i]
	switch {
	case c == '-':
		p.i++
		l, err := p.unary()
		if err != nil {
			return lin{}, err
		}
		return l.scale(-1)
	case c == '(':
		p.i++
		l, err := p.sum()
		if err != nil {
			return lin{}, err
		}
		p.skip()
		if p.i >= len(p.src) || p.src[p.i] != ')' {
			return lin{}, fmt.Errorf("expected ) at column %d", p.i+1)
		}
		p.i++
		return l, nil
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			j++
		}
		n, err := strconv.ParseInt(p.src[p.i:j], 10, 64)
		if err != nil {
			return lin{}, fmt.Errorf("%q: %v", p.src[p.i:j], err)
		}
		p.i = j
		return constLin(n), nil
	case c == '_' || unicode.IsLetter(rune(c)):
		j := p.i
		for j < len(p.src) && (p.src[j] == '_' || unicode.IsLetter(rune(p.src[j])) || p.src[j] >= '0' && p.src[j] <= '9') {
			j++
		}
		name := p.src[p.i:j]
		p.i = j
		for _, s := range p.x.params {
			if s.Name == name {
				return symLin(name), nil
			}
		}
		return lin{}, fmt.Errorf("%s is not a parameter of the model", name)
	}
	return lin{}, fmt.Errorf("unexpected %q at column %d", string(c), p.i+1)
}
