package ta

import "fmt"

// scope says which kinds of names an expression may use and whether it is
// Boolean, arithmetic, and may be temporal.
type scope struct {
	what     string // "guard", "assumption", ...
	params   bool
	shared   bool
	locals   bool
	unknowns bool
	temporal bool
}

// maxExpansion bounds the size of an expression after macro expansion:
// macros that double each other would otherwise make a small file
// exponentially large.
const maxExpansion = 100000

type checker struct {
	f      *File
	sizes  map[string]int // expanded size of each macro
	macros map[string]Expr
	names  map[string]Ident // kind and index of every declared name
	// quotients are the parameters that stand for divisions, by name
	quotients map[string]int
	err       *Error
}

// Check resolves names (macros are expanded in place), checks types and
// shapes, and fills in rule endpoints. Parse calls it.
func Check(f *File) error {
	c := &checker{f: f, macros: map[string]Expr{}, sizes: map[string]int{}, names: map[string]Ident{}, quotients: map[string]int{}}
	c.check()
	if c.err != nil {
		return c.err
	}
	return nil
}

func (c *checker) errorf(p Pos, format string, args ...any) {
	if c.err == nil {
		c.err = newError(c.f.Path, p, format, args...)
	}
}

func (c *checker) declare(ds []Decl, kind Kind) {
	for i, d := range ds {
		if prev, dup := c.names[d.Name]; dup {
			c.errorf(d.Pos, "%s is declared twice (first as a %s at %s)", d.Name, prev.Kind, prev.Pos)
			return
		}
		c.names[d.Name] = Ident{Pos: d.Pos, Name: d.Name, Kind: kind, Index: i}
	}
}

func (c *checker) check() {
	f := c.f
	c.declare(f.Params, Param)
	c.declare(f.Shared, Shared)
	c.declare(f.Unknowns, Unknown)
	f.locIndex = map[string]int{}
	locDecls := make([]Decl, len(f.Locations))
	for i, l := range f.Locations {
		locDecls[i] = Decl{Pos: l.Pos, Name: l.Name}
		if len(f.Locals) > 0 && len(l.Values) != len(f.Locals) {
			c.errorf(l.Pos, "location %s has %d values, expected %d (one per local variable: %v)", l.Name, len(l.Values), len(f.Locals), Names(f.Locals))
			return
		}
		f.locIndex[l.Name] = i
	}
	c.declare(locDecls, Local)
	for _, l := range f.Locals {
		if prev, dup := c.names[l.Name]; dup {
			c.errorf(l.Pos, "%s is declared twice (first as a %s at %s)", l.Name, prev.Kind, prev.Pos)
			return
		}
	}
	if len(f.Locations) == 0 {
		c.errorf(Pos{1, 1}, "expected a locations section with at least one location")
		return
	}
	for i := range f.Defines {
		d := &f.Defines[i]
		if _, dup := c.names[d.Name]; dup {
			c.errorf(d.Pos, "macro %s has the name of a declared variable", d.Name)
			return
		}
		if _, dup := c.macros[d.Name]; dup {
			c.errorf(d.Pos, "macro %s is defined twice", d.Name)
			return
		}
		if n := c.expandedSize(d.Body); n > maxExpansion {
			c.errorf(d.Pos, "macro %s expands to more than %d nodes", d.Name, maxExpansion)
			return
		} else {
			c.sizes[d.Name] = n
		}
		body := c.resolve(d.Body, scope{what: "macro", params: true, shared: true, locals: true, unknowns: true, temporal: true})
		d.Body = body
		c.macros[d.Name] = body
	}
	for i, e := range f.Assumptions {
		f.Assumptions[i] = c.boolean(e, scope{what: "assumption", params: true, unknowns: true})
	}
	for i, e := range f.Inits {
		f.Inits[i] = c.boolean(e, scope{what: "initial condition", params: true, shared: true, locals: true, unknowns: true})
	}
	// A rule's number is a label, which ByMC lets repeat; the second rule
	// labelled 1 is rule 1_2 in schedules, the third 1_3, and so on.
	labels := map[string]int{}
	ruleIDs := map[string]bool{}
	for _, r := range f.Rules {
		ruleIDs[r.ID] = true
	}
	for _, r := range f.Rules {
		labels[r.ID]++
		if k := labels[r.ID]; k > 1 {
			id := fmt.Sprintf("%s_%d", r.ID, k)
			for ruleIDs[id] {
				k++
				id = fmt.Sprintf("%s_%d", r.ID, k)
			}
			labels[r.ID] = k
			r.ID = id
			ruleIDs[id] = true
		}
		var ok bool
		if r.Src, ok = f.locIndex[r.From]; !ok {
			c.errorf(r.FromPos, "location %s not found (expected one of the locations section)", r.From)
			return
		}
		if r.Dst, ok = f.locIndex[r.To]; !ok {
			c.errorf(r.ToPos, "location %s not found (expected one of the locations section)", r.To)
			return
		}
		if lit, isInt := r.Guard.(*IntLit); isInt && lit.Val == 1 {
			r.Guard = &BoolLit{Pos: lit.Pos, Val: true}
		}
		r.Guard = c.boolean(r.Guard, scope{what: "guard", params: true, shared: true, unknowns: true})
		assigned := map[string]Pos{}
		for i := range r.Updates {
			u := &r.Updates[i]
			v, ok := c.names[u.Var.Name]
			if !ok || v.Kind != Shared {
				c.errorf(u.Pos, "%s' must name a shared variable", u.Var.Name)
				return
			}
			if prev, dup := assigned[u.Var.Name]; dup {
				c.errorf(u.Pos, "%s is updated twice in rule %s (first at %s)", u.Var.Name, r.ID, prev)
				return
			}
			assigned[u.Var.Name] = u.Pos
			u.Var.Kind, u.Var.Index = Shared, v.Index
			u.Expr = c.arith(u.Expr, scope{what: "update", params: true, shared: true, unknowns: true})

		}
		// unchanged(x) of a variable the rule updates, or names again, says
		// nothing more: the update stands, as in TACO (ben-or-nonclean.ta
		// counts a crashed sender's message and lists it as unchanged).
		unchanged := r.Unchanged[:0]
		for _, id := range r.Unchanged {
			v, ok := c.names[id.Name]
			if !ok || v.Kind != Shared {
				c.errorf(id.Pos, "unchanged(%s): expected a shared variable", id.Name)
				return
			}
			if _, dup := assigned[id.Name]; dup {
				continue
			}
			assigned[id.Name] = id.Pos
			id.Kind, id.Index = Shared, v.Index
			unchanged = append(unchanged, id)
		}
		r.Unchanged = unchanged
	}
	specs := map[string]Pos{}
	for i := range f.Specs {
		s := &f.Specs[i]
		if prev, dup := specs[s.Name]; dup {
			c.errorf(s.Pos, "specification %s is defined twice (first at %s)", s.Name, prev)
			return
		}
		specs[s.Name] = s.Pos
		s.Formula = c.boolean(s.Formula, scope{what: "specification", params: true, shared: true, locals: true, unknowns: true, temporal: true})
	}
}

// expandedSize counts the nodes of e with macros expanded.
func (c *checker) expandedSize(e Expr) int {
	switch e := e.(type) {
	case *Ident:
		if n, ok := c.sizes[e.Name]; ok {
			return n
		}
	case *Unary:
		return 1 + c.expandedSize(e.X)
	case *Binary:
		n := 1 + c.expandedSize(e.X) + c.expandedSize(e.Y)
		if n > maxExpansion {
			return maxExpansion + 1
		}
		return n
	}
	return 1
}

func (c *checker) boolean(e Expr, sc scope) Expr {
	if c.expandedSize(e) > maxExpansion {
		c.errorf(e.Position(), "expression expands to more than %d nodes", maxExpansion)
		return e
	}
	r := c.resolve(e, sc)
	if c.err == nil && !isBool(r) {
		c.errorf(e.Position(), "expected a condition in the %s, found the number-valued %s", sc.what, e)
	}
	return r
}

func (c *checker) arith(e Expr, sc scope) Expr {
	if c.expandedSize(e) > maxExpansion {
		c.errorf(e.Position(), "expression expands to more than %d nodes", maxExpansion)
		return e
	}
	r := c.resolve(e, sc)
	if c.err == nil && isBool(r) {
		c.errorf(e.Position(), "expected a number-valued expression in the %s, found the condition %s", sc.what, e)
	}
	return r
}

func isBool(e Expr) bool {
	switch e := e.(type) {
	case *BoolLit:
		return true
	case *Unary:
		return e.Op != "-"
	case *Binary:
		return IsBoolOp(e.Op)
	}
	return false
}

// resolve returns e with macros expanded and names resolved, checking types.
func (c *checker) resolve(e Expr, sc scope) Expr {
	if c.err != nil {
		return e
	}
	switch e := e.(type) {
	case *IntLit, *BoolLit:
		return e
	case *Ident:
		if body, ok := c.macros[e.Name]; ok {
			if e.Primed {
				c.errorf(e.Pos, "macro %s cannot be primed", e.Name)
			}
			return body
		}
		v, ok := c.names[e.Name]
		if !ok {
			c.errorf(e.Pos, "variable %s not found (expected a declared name in the %s)", e.Name, sc.what)
			return e
		}
		allowed := v.Kind == Param && sc.params || v.Kind == Shared && sc.shared || v.Kind == Local && sc.locals || v.Kind == Unknown && sc.unknowns
		if !allowed {
			c.errorf(e.Pos, "%s is a %s, which cannot appear in the %s", e.Name, v.Kind, sc.what)
			return e
		}
		if e.Primed {
			c.errorf(e.Pos, "%s' may appear only on the left of an update", e.Name)
			return e
		}
		return &Ident{Pos: e.Pos, Name: e.Name, Kind: v.Kind, Index: v.Index}
	case *Unary:
		x := c.resolve(e.X, sc)
		switch e.Op {
		case "-":
			if isBool(x) {
				c.errorf(e.Pos, "expected a number after -, found the condition %s", e.X)
			}
		case "!", "<>", "[]":
			if e.Op != "!" && !sc.temporal {
				c.errorf(e.Pos, "temporal operator %s cannot appear in the %s", e.Op, sc.what)
			}
			if !isBool(x) {
				c.errorf(e.X.Position(), "expected a condition after %s, found %s", e.Op, e.X)
			}
		}
		return &Unary{Pos: e.Pos, Op: e.Op, X: x}
	case *Binary:
		x := c.resolve(e.X, sc)
		y := c.resolve(e.Y, sc)
		if c.err != nil {
			return e
		}
		switch e.Op {
		case "+", "-", "*", "/":
			if isBool(x) || isBool(y) {
				c.errorf(e.Pos, "expected numbers on both sides of %s", e.Op)
			}
			if e.Op == "/" && c.err == nil {
				return c.quotient(e, x, y)
			}
		case "<", "<=", ">", ">=", "==", "!=":
			if isBool(x) || isBool(y) {
				c.errorf(e.Pos, "expected numbers on both sides of %s (conditions cannot be compared)", e.Op)
			}

		case "&&", "||", "->":
			if !isBool(x) {
				c.errorf(e.X.Position(), "expected a condition on the left of %s, found %s", e.Op, e.X)
			} else if !isBool(y) {
				c.errorf(e.Y.Position(), "expected a condition on the right of %s, found %s", e.Op, e.Y)
			}
		}
		return &Binary{Pos: e.Pos, Op: e.Op, X: x, Y: y}
	}
	return e
}

// constValue is the value of an integer expression without variables and
// division, and false for any other.
func constValue(e Expr) (int64, bool) {
	switch e := e.(type) {
	case *IntLit:
		return e.Val, true
	case *Unary:
		if v, ok := constValue(e.X); ok && e.Op == "-" {
			return -v, true
		}
	case *Binary:
		x, okx := constValue(e.X)
		y, oky := constValue(e.Y)
		if !okx || !oky || x < -MaxCoef || x > MaxCoef || y < -MaxCoef || y > MaxCoef {
			return 0, false
		}
		switch e.Op {
		case "+":
			return x + y, true
		case "-":
			return x - y, true
		case "*":
			if v, ok := mulInt(x, y); ok {
				return v, true
			}
		}
	}
	return 0, false
}

// quotient is the parameter that stands for x / y, the integer quotient
// rounded down of an expression over parameters by a nonzero constant: a
// new parameter q, declared once for each such quotient, with the
// assumptions k*q <= x and x <= k*q + k-1 (for y = k > 0; x / -k is
// -x / k). Instances compute it from the other parameters. Threshold
// automata that ByMC writes from Parametric Promela, where / is integer
// division, use it in guards such as nsnt >= (N + 1) / 2.
func (c *checker) quotient(e *Binary, x, y Expr) Expr {
	k, ok := constValue(y)
	if !ok || k == 0 {
		c.errorf(e.Y.Position(), "expected a nonzero integer constant after /, found %s", e.Y)
		return e
	}
	if !overParams(x) {
		c.errorf(e.X.Position(), "expected an expression over parameters before / (division applies to parameters only), found %s", e.X)
		return e
	}
	if k < 0 {
		x, k = &Unary{Pos: e.Pos, Op: "-", X: x}, -k
	}
	name := fmt.Sprintf("%s / %d", paren(x), k)
	if q, ok := c.quotients[name]; ok {
		return &Ident{Pos: e.Pos, Name: name, Kind: Param, Index: q}
	}
	f := c.f
	q := &Ident{Pos: e.Pos, Name: name, Kind: Param, Index: len(f.Params)}
	c.quotients[name] = q.Index
	f.Params = append(f.Params, Decl{Pos: e.Pos, Name: name, Quotient: &Quotient{Num: x, Den: k}})
	kq := &Binary{Pos: e.Pos, Op: "*", X: &IntLit{Pos: e.Pos, Val: k}, Y: q}
	f.Assumptions = append(f.Assumptions,
		&Binary{Pos: e.Pos, Op: "<=", X: kq, Y: x},
		&Binary{Pos: e.Pos, Op: "<=", X: x, Y: &Binary{Pos: e.Pos, Op: "+", X: kq, Y: &IntLit{Pos: e.Pos, Val: k - 1}}})
	return &Ident{Pos: e.Pos, Name: name, Kind: Param, Index: q.Index}
}

// overParams reports whether e is an arithmetic expression over
// parameters and numbers.
func overParams(e Expr) bool {
	switch e := e.(type) {
	case *IntLit:
		return true
	case *Ident:
		return e.Kind == Param
	case *Unary:
		return e.Op == "-" && overParams(e.X)
	case *Binary:
		return (e.Op == "+" || e.Op == "-" || e.Op == "*") && overParams(e.X) && overParams(e.Y)
	}
	return false
}
