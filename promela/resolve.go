package promela

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
)

// The resolver binds every name to its Symbol, computes types, folds the
// constants Spin requires (array sizes, channel capacities, active counts,
// bit widths), and reports what Spin would reject.
//
// Scoping follows Spin: globals, mtype constants and typedefs are visible
// after their declaration; proctypes everywhere (run may name one declared
// later); a local is visible from its declaration to the end of its
// process, whatever block it is declared in. Never claims, ltl formulas
// and atomic propositions are resolved last, against all globals.

// expression contexts
type exprFlags uint8

const (
	fProbe exprFlags = 1 << iota // full/empty/nfull/nempty may appear (under && and ||)
	fLTL                         // temporal operators may appear
	fWhole                       // a whole array or structure may appear
	fProp                        // inside a ByMC atomic proposition
)

type procScope struct {
	locals map[string]*Symbol
	labels map[string]*Symbol
}

type resolver struct {
	prog     *Program
	errs     *ErrorList
	global   map[string]*Symbol
	universe map[string]*Symbol

	mtypeSets map[string]*MtypeSet
	scopes    map[*ProcDecl]*procScope

	// bymc is set for a ByMC model (one that declares symbolic
	// parameters), whose dialect differs from Spin's (UnboundedUnsigned).
	bymc bool

	// The process being resolved.
	proc   *ProcDecl
	scope  *procScope
	loops  []Stmt
	quant  *CallExpr // the enclosing all/some/card
	qProc  *Symbol   // the proctype it quantifies over
	remote []remoteUse
}

type remoteUse struct {
	ref   *RemoteRef
	scope *procScope // the scope of the index expression
	proc  *ProcDecl
	flags exprFlags
}

func resolve(prog *Program, errs *ErrorList) {
	r := &resolver{
		prog:      prog,
		errs:      errs,
		global:    make(map[string]*Symbol),
		mtypeSets: make(map[string]*MtypeSet),
		scopes:    make(map[*ProcDecl]*procScope),
		universe:  universe(),
	}
	prog.Scope = r.global
	prog.types = make(map[Expr]*Type)

	for _, d := range prog.Decls {
		if _, ok := d.(*SymbolicDecl); ok {
			r.bymc = true
		}
	}
	// Proctypes are visible everywhere.
	for _, d := range prog.Decls {
		if p, ok := d.(*ProcDecl); ok && p.Kind == KindProctype {
			r.declare(p.Name, SymProc, p, nil)
			prog.Procs = append(prog.Procs, p)
		}
	}
	var late []func()
	anonLTL := 0
	for _, d := range prog.Decls {
		if errs.Full() {
			return
		}
		switch d := d.(type) {
		case *MtypeDecl:
			r.mtypeDecl(d)
		case *DeclGroup:
			for _, v := range d.Vars {
				r.varDecl(v, nil)
				v.Name.Sym.Index = len(prog.Globals)
				prog.Globals = append(prog.Globals, v)
			}
		case *TypedefDecl:
			r.typedef(d)
			prog.Typedefs = append(prog.Typedefs, d)
		case *ProcDecl:
			switch d.Kind {
			case KindProctype:
				r.process(d)
			case KindInit:
				if prog.Init != nil {
					errs.Addf(d.Keyword, "init declared twice (first at %s)", prog.Init.Keyword)
				}
				prog.Init = d
				r.process(d)
			case KindNever:
				d.Index = len(prog.Nevers)
				for _, n := range prog.Nevers {
					if n.ProcName() == d.ProcName() {
						errs.Addf(d.Keyword, "never claim %s declared twice (first at %s)", d.ProcName(), n.Keyword)
					}
				}
				prog.Nevers = append(prog.Nevers, d)
				late = append(late, func() { r.process(d) })
			}
		case *InlineDecl:
			r.declare(d.Name, SymInline, d, nil)
			prog.Inlines = append(prog.Inlines, d)
		case *SymbolicDecl:
			if d.Type.Kind != INT_TYPE {
				errs.Addf(d.Type.TypePos, "symbolic parameters must be int, found %s", typeNameString(d.Type))
			}
			for _, id := range d.Names {
				s := r.declare(id, SymParam, d, typeInt)
				if s != nil {
					s.Index = len(prog.Params)
					prog.Params = append(prog.Params, s)
				}
			}
		case *AssumeDecl:
			r.expr(d.X, 0)
			prog.Assumes = append(prog.Assumes, d)
			Inspect(d.X, func(n Node) bool {
				if id, ok := n.(*Ident); ok && id.Sym != nil && id.Sym.Kind != SymParam && id.Sym.Kind != SymMtype {
					errs.Addf(id.NamePos, "assume(...) at the top level may only use parameters and constants, found %s %s", id.Sym.Kind, id.Name)
				}
				return true
			})
		case *AtomicPropDecl:
			r.declare(d.Name, SymAtomic, d, typeBool)
			prog.Props = append(prog.Props, d)
			late = append(late, func() { r.expr(d.X, fProp|fProbe) })
		case *LTLDecl:
			d.Index = len(prog.LTL)
			if d.Name == nil {
				d.anon = anonLTL
				anonLTL++
			}
			for _, o := range prog.LTL {
				if o.Name != nil && d.Name != nil && o.Name.Name == d.Name.Name {
					errs.Addf(d.Name.NamePos, "ltl formula %s declared twice (first at %s)", d.Name.Name, o.Name.NamePos)
				}
			}
			prog.LTL = append(prog.LTL, d)
			late = append(late, func() { r.expr(d.Formula, fLTL|fProbe) })
		}
	}
	for _, f := range late {
		f()
	}
	r.resolveRemote()
	// Mtype sets in a stable order: the default first, then by name.
	for _, m := range r.mtypeSets {
		prog.Mtypes = append(prog.Mtypes, m)
	}
	sort.Slice(prog.Mtypes, func(i, j int) bool { return prog.Mtypes[i].Name < prog.Mtypes[j].Name })
	r.foldAll()
}

// universe returns the predefined names.
func universe() map[string]*Symbol {
	u := make(map[string]*Symbol)
	add := func(name string, p Predef, t *Type) {
		u[name] = &Symbol{Name: name, Kind: SymPredef, Predef: p, Type: t}
	}
	add("_pid", PredefPid, typePid)
	add("_nr_pr", PredefNrPr, typeByte)
	add("_last", PredefLast, typePid)
	add("_priority", PredefPriority, typeByte)
	add("_", PredefWrite, typeInt)
	add("timeout", PredefTimeout, typeBool)
	add("np_", PredefNP, typeBool)
	return u
}

func (r *resolver) errorf(pos Pos, format string, args ...any) {
	r.errs.Addf(pos, format, args...)
}

// warn adds a warning to the program, once (the folding pass runs again
// for each Instantiate).
func (r *resolver) warn(pos Pos, msg string) {
	w := Warning{pos, msg}
	for _, o := range r.prog.Warnings {
		if o == w {
			return
		}
	}
	r.prog.Warnings = append(r.prog.Warnings, w)
}

// declare adds a global name.
func (r *resolver) declare(id *Ident, kind SymKind, decl Node, t *Type) *Symbol {
	if old := r.global[id.Name]; old != nil {
		if old.Decl == decl {
			return old
		}
		r.errorf(id.NamePos, "%s redeclared (previous declaration as %s at %s)", id.Name, old.Kind, old.Pos)
		return nil
	}
	if r.universe[id.Name] != nil {
		r.errorf(id.NamePos, "%s is a predefined name and cannot be declared", id.Name)
		return nil
	}
	s := &Symbol{Name: id.Name, Kind: kind, Pos: id.NamePos, Type: t, Decl: decl}
	r.global[id.Name] = s
	id.Sym = s
	return s
}

func (r *resolver) lookup(name string) *Symbol {
	if r.scope != nil {
		if s := r.scope.locals[name]; s != nil {
			return s
		}
	}
	if s := r.global[name]; s != nil {
		return s
	}
	return r.universe[name]
}

// ---------------------------------------------------------------------------
// Declarations

func (r *resolver) mtypeDecl(d *MtypeDecl) {
	name := ""
	if d.Sub != nil {
		name = d.Sub.Name
	}
	set := r.mtypeSets[name]
	if set == nil {
		set = &MtypeSet{Name: name}
		r.mtypeSets[name] = set
	}
	t := &Type{Kind: TMtype, Mtype: name}
	// Spin numbers the names of one declaration from the last to the first.
	for i := len(d.Names) - 1; i >= 0; i-- {
		id := d.Names[i]
		s := r.declare(id, SymMtype, d, t)
		if s == nil {
			continue
		}
		s.Value = int64(len(set.Consts) + 1)
		set.Consts = append(set.Consts, s)
	}
	if len(set.Consts) > 255 {
		r.errorf(d.Mtype, "too many mtype constants (%d; at most 255)", len(set.Consts))
	}
}

// typeOf resolves a written type (without array dimension).
func (r *resolver) typeOf(tn *TypeName, bits Expr, name *Ident) *Type {
	if bits != nil && tn.Kind != UNSIGNED {
		r.errorf(bits.Pos(), "only an unsigned variable can have a width (%s is %s)", name.Name, typeNameString(tn))
	}
	switch tn.Kind {
	case BIT:
		return typeBit
	case BOOL:
		return typeBool
	case BYTE:
		return typeByte
	case PID:
		return typePid
	case SHORT:
		return typeShort
	case INT_TYPE:
		return typeInt
	case CHAN:
		return typeChan
	case MTYPE:
		if tn.Sub == nil {
			return typeMtype
		}
		if r.mtypeSets[tn.Sub.Name] == nil {
			r.errorf(tn.Sub.NamePos, "undeclared mtype %s (expected mtype:%s = { ... } before)", tn.Sub.Name, tn.Sub.Name)
		}
		return &Type{Kind: TMtype, Mtype: tn.Sub.Name}
	case UNSIGNED:
		t := &Type{Kind: TUnsigned, Bits: 1}
		if bits == nil && r.bymc {
			// ByMC reads unsigned without a width as a natural number.
			t.Bits = UnboundedUnsigned
			return t
		}
		if bits == nil {
			r.errorf(name.NamePos, "unsigned %s needs a width: unsigned %s : N (only ByMC models, which declare symbolic parameters, may leave it out)", name.Name, name.Name)
			return t
		}
		r.expr(bits, 0)
		v, k := fold(bits, r.errs)
		switch {
		case k != isConst:
			r.errorf(bits.Pos(), "the width of %s must be a constant", name.Name)
		case v < 1 || v > 32:
			r.errorf(bits.Pos(), "the width of %s must be between 1 and 32, found %d", name.Name, v)
		default:
			t.Bits = int(v)
		}
		return t
	case IDENT:
		s := r.global[tn.User.Name]
		if s == nil {
			r.errorf(tn.User.NamePos, "undeclared type %s", tn.User.Name)
			return &Type{Kind: TInvalid}
		}
		tn.User.Sym = s
		if s.Kind != SymTypedef {
			r.errorf(tn.User.NamePos, "%s is a %s, not a type", tn.User.Name, s.Kind)
			return &Type{Kind: TInvalid}
		}
		return s.Type
	}
	return &Type{Kind: TInvalid}
}

// varDecl resolves a variable declaration and declares the name, in proc
// (a local or parameter) or globally (proc nil).
func (r *resolver) varDecl(v *VarDecl, proc *ProcDecl) {
	t := r.typeOf(v.Type, v.Bits, v.Name)
	elem := t
	if v.Len != nil {
		r.expr(v.Len, 0)
		t = &Type{Kind: TArray, Elem: elem, Len: -1}
	}
	if v.Chan != nil {
		if elem.Kind != TChan {
			r.errorf(v.Chan.Lbrack, "only a chan can be initialized with [n] of { ... } (%s is %s)", v.Name.Name, elem)
		}
		r.expr(v.Chan.Cap, 0)
		v.Chan.Types = nil
		for _, f := range v.Chan.Fields {
			ft := r.typeOf(f, nil, v.Name)
			v.Chan.Types = append(v.Chan.Types, ft)
		}
	}
	if v.Init != nil {
		switch {
		case elem.Kind == TStruct:
			r.errorf(v.Init.Pos(), "a structure (%s) cannot be initialized", v.Name.Name)
		}
		it := r.expr(v.Init, 0)
		if elem.Kind == TChan && it != nil && it.Kind != TChan && it.Kind != TInvalid {
			r.errorf(v.Init.Pos(), "cannot initialize chan %s with %s", v.Name.Name, exprString(v.Init))
		} else if elem.Kind != TChan && it != nil && it.Kind == TChan {
			r.errorf(v.Init.Pos(), "cannot initialize %s %s with a channel", elem, v.Name.Name)
		}
		if _, ok := v.Init.(*RunExpr); ok {
			r.errorf(v.Init.Pos(), "run cannot be used in a variable initializer")
		}
	}
	if v.InitList != nil {
		if v.Len == nil {
			r.errorf(v.InitList[0].Pos(), "%s must be an array to be initialized with { ... }", v.Name.Name)
		}
		for _, x := range v.InitList {
			r.expr(x, 0)
			if _, k := fold(x, r.errs); k == notConst {
				r.errorf(x.Pos(), "array initializer must be a constant, found %s", exprString(x))
			}
		}
	}
	s := &Symbol{Name: v.Name.Name, Kind: SymVar, Pos: v.Name.NamePos, Type: t, Decl: v, Proc: proc}
	v.Name.Sym = s
	if proc == nil {
		r.declareSym(v.Name, s)
		return
	}
	if old := r.scope.locals[v.Name.Name]; old != nil {
		// Spin lets inline bodies declare a local again (an inline
		// called twice, two inlines with the same scratch variable):
		// they share one variable.
		if od, ok := old.Decl.(*VarDecl); ok && od.inInline && v.inInline {
			if old.Type.String() != t.String() {
				r.errorf(v.Name.NamePos, "%s is declared again with another type (%s here, %s at %s)", v.Name.Name, t, old.Type, old.Pos)
				return
			}
			v.Name.Sym = old
			return
		}
		r.errorf(v.Name.NamePos, "%s redeclared in %s (previous declaration at %s)", v.Name.Name, proc.ProcName(), old.Pos)
		return
	}
	if g := r.global[v.Name.Name]; g != nil && g.Kind != SymVar && g.Kind != SymParam && g.Kind != SymAtomic {
		r.errorf(v.Name.NamePos, "%s is already declared as a %s (at %s)", v.Name.Name, g.Kind, g.Pos)
		return
	}
	if r.universe[v.Name.Name] != nil {
		r.errorf(v.Name.NamePos, "%s is a predefined name and cannot be declared", v.Name.Name)
		return
	}
	s.Index = len(proc.Locals)
	proc.Locals = append(proc.Locals, v)
	r.scope.locals[v.Name.Name] = s
}

func (r *resolver) declareSym(id *Ident, s *Symbol) bool {
	if old := r.global[id.Name]; old != nil {
		r.errorf(id.NamePos, "%s redeclared (previous declaration as %s at %s)", id.Name, old.Kind, old.Pos)
		return false
	}
	if r.universe[id.Name] != nil {
		r.errorf(id.NamePos, "%s is a predefined name and cannot be declared", id.Name)
		return false
	}
	r.global[id.Name] = s
	return true
}

func (r *resolver) typedef(d *TypedefDecl) {
	t := &Type{Kind: TStruct, Name: d.Name.Name, Decl: d}
	d.Type = t
	seen := map[string]*VarDecl{}
	for _, f := range d.Fields {
		ft := r.typeOf(f.Type, f.Bits, f.Name)
		if f.Len != nil {
			r.expr(f.Len, 0)
			ft = &Type{Kind: TArray, Elem: ft, Len: -1}
		}
		if f.Chan != nil {
			r.errorf(f.Chan.Lbrack, "a channel field of a typedef cannot be initialized")
		}
		if f.Init != nil {
			r.expr(f.Init, 0)
			if _, k := fold(f.Init, r.errs); k == notConst {
				r.errorf(f.Init.Pos(), "a field initializer must be a constant, found %s", exprString(f.Init))
			}
		}
		for _, x := range f.InitList {
			r.expr(x, 0)
		}
		if old := seen[f.Name.Name]; old != nil {
			r.errorf(f.Name.NamePos, "duplicate field %s in typedef %s (previous at %s)", f.Name.Name, d.Name.Name, old.Name.NamePos)
			continue
		}
		seen[f.Name.Name] = f
		s := &Symbol{Name: f.Name.Name, Kind: SymField, Pos: f.Name.NamePos, Type: ft, Decl: f}
		f.Name.Sym = s
		t.Fields = append(t.Fields, &Field{Name: f.Name.Name, Type: ft, Decl: f, Sym: s})
	}
	r.declare(d.Name, SymTypedef, d, t)
}

// ---------------------------------------------------------------------------
// Processes

func (r *resolver) process(d *ProcDecl) {
	sc := &procScope{locals: map[string]*Symbol{}, labels: map[string]*Symbol{}}
	r.scopes[d] = sc
	r.proc, r.scope, r.loops = d, sc, nil
	defer func() { r.proc, r.scope = nil, nil }()

	if d.Count != nil {
		r.expr(d.Count, 0)
	}
	// Labels are visible in the whole body (goto may jump forward).
	Inspect(d.Body, func(n Node) bool {
		if l, ok := n.(*LabeledStmt); ok {
			if old := sc.labels[l.Label.Name]; old != nil {
				r.errorf(l.Label.NamePos, "label %s declared twice in %s (first at %s)", l.Label.Name, d.ProcName(), old.Pos)
				return true
			}
			s := &Symbol{Name: l.Label.Name, Kind: SymLabel, Pos: l.Label.NamePos, Decl: l, Proc: d}
			l.Label.Sym = s
			sc.labels[l.Label.Name] = s
			d.Labels = append(d.Labels, l)
		}
		return true
	})
	for _, v := range d.Params {
		if v.Len != nil {
			r.errorf(v.Name.NamePos, "an array (%s) cannot be a proctype parameter", v.Name.Name)
		}
		r.varDecl(v, d)
		if v.Name.Sym != nil {
			v.Name.Sym.IsParam = true
			if v.Name.Sym.Type.Kind == TStruct {
				r.errorf(v.Name.NamePos, "a structure (%s) cannot be a proctype parameter", v.Name.Name)
			}
		}
	}
	if d.Provided != nil {
		r.expr(d.Provided, fProbe)
	}
	r.stmts(d.Body.Stmts, false)
	// A label cannot share its name with a variable or another global name.
	for _, l := range d.Labels {
		name := l.Label.Name
		if s := sc.locals[name]; s != nil {
			r.errorf(l.Label.NamePos, "label %s has the name of a local variable (declared at %s)", name, s.Pos)
		} else if s := r.global[name]; s != nil {
			r.errorf(l.Label.NamePos, "label %s has the name of a %s (declared at %s)", name, s.Kind, s.Pos)
		}
	}
}

func (r *resolver) stmts(list []Stmt, guard bool) {
	for i, s := range list {
		r.stmt(s, guard && i == 0)
	}
}

// stmt resolves a statement; guard tells whether it is the first of an
// option of if or do (where else may stand).
func (r *resolver) stmt(s Stmt, guard bool) {
	switch s := s.(type) {
	case *ExprStmt:
		r.expr(s.X, fProbe)
	case *AssignStmt:
		lt := r.lvalue(s.LHS, "assign to")
		rt := r.expr(s.RHS, fProbe)
		r.assignable(lt, rt, s.RHS)
	case *IncDecStmt:
		if t := r.lvalue(s.X, "change"); t != nil && t.Kind == TChan {
			r.errorf(s.TokPos, "arithmetic on channel %s", exprString(s.X))
		}
	case *SendStmt:
		r.chanRef(s.Chan)
		for _, a := range s.Args {
			r.expr(a, fWhole)
		}
		r.checkFields(s.Chan, len(s.Args), s.OpPos, "send")
	case *RecvStmt:
		r.chanRef(s.Chan)
		for _, a := range s.Args {
			r.recvArg(a)
		}
		r.checkFields(s.Chan, len(s.Args), s.OpPos, "receive")
	case *IfStmt:
		r.options(s.Options, "if")
	case *DoStmt:
		r.loops = append(r.loops, s)
		r.options(s.Options, "do")
		r.loops = r.loops[:len(r.loops)-1]
	case *ElseStmt:
		if !guard {
			r.errorf(s.Else, "else must be the first statement of an option of if or do")
		}
	case *BreakStmt:
		if len(r.loops) == 0 {
			r.errorf(s.Break, "break outside a do or for loop")
		} else {
			s.Loop = r.loops[len(r.loops)-1]
		}
	case *GotoStmt:
		l := r.scope.labels[s.Label.Name]
		if l == nil {
			r.errorf(s.Label.NamePos, "undefined label %s in %s", s.Label.Name, r.proc.ProcName())
		} else {
			s.Label.Sym = l
		}
	case *LabeledStmt:
		r.stmt(s.Stmt, guard)
	case *BlockStmt:
		r.stmts(s.Body.Stmts, guard)
	case *AtomicStmt:
		r.stmts(s.Body.Stmts, guard)
	case *DStepStmt:
		r.stmts(s.Body.Stmts, guard)
	case *UnlessStmt:
		r.stmt(s.Stmt, guard)
		r.stmt(s.Escape, false)
	case *AssertStmt:
		r.expr(s.X, fProbe)
	case *PrintfStmt:
		for _, a := range s.Args {
			r.expr(a, 0)
		}
		if n := countVerbs(s.Format); n != len(s.Args) {
			// Spin accepts this (and prints garbage); it does not matter
			// for verification.
			r.warn(s.Printf, fmt.Sprintf("printf format has %d %% directives but %d arguments are given", n, len(s.Args)))
		}
	case *PrintmStmt:
		r.expr(s.X, 0)
	case *SelectStmt:
		r.numericLvalue(s.Var, "select into")
		r.numeric(s.Lo)
		r.numeric(s.Hi)
	case *ForStmt:
		if s.In != nil {
			t := r.expr(s.In, fWhole)
			if t != nil && t.Kind == TChan {
				// for (m in c) runs m over the messages of c.
				r.setType(s.Var, r.varRef(s.Var, true, 0))
			} else {
				r.numericLvalue(s.Var, "use as loop variable")
			}
			if t != nil && t.Kind != TArray && t.Kind != TChan && t.Kind != TInvalid {
				r.errorf(s.In.Pos(), "for (... in %s): expected an array or a channel, found %s", exprString(s.In), t)
			}
		} else {
			r.numericLvalue(s.Var, "use as loop variable")
			r.numeric(s.Lo)
			r.numeric(s.Hi)
		}
		r.loops = append(r.loops, s)
		r.stmts(s.Body.Stmts, false)
		r.loops = r.loops[:len(r.loops)-1]
	case *InlineStmt:
		if sym := r.global[s.Name.Name]; sym != nil && sym.Kind == SymInline {
			s.Name.Sym = sym
		}
		// The arguments are text for the body, not necessarily values (an
		// array name, a label): they are checked where the body uses them.
		saved := r.errs
		r.errs = &ErrorList{}
		for _, a := range s.Args {
			r.expr(a, fWhole|fProbe)
		}
		r.errs = saved
		r.stmts(s.Body.Stmts, guard)
	case *DeclStmt:
		for _, v := range s.Vars {
			r.varDecl(v, r.proc)
		}
	case *XStmt:
		for _, c := range s.Chans {
			r.chanRef(c)
		}
	case *AssumeStmt:
		r.expr(s.X, fProbe)
	case *HavocStmt:
		r.numericLvalue(s.X, "havoc")
	}
}

// countVerbs counts the conversions of a printf format (%d, %e, %c, %u,
// %x, ...; %% is none).
func countVerbs(f string) int {
	n := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			i++
			continue
		}
		n++
	}
	return n
}

func (r *resolver) options(opts []*Option, what string) {
	var elseAt *ElseStmt
	for _, o := range opts {
		if e := firstElse(o.Stmts); e != nil {
			if elseAt != nil {
				r.errorf(e.Else, "else used twice in one %s (first at %s)", what, elseAt.Else)
			}
			elseAt = e
		}
		r.stmts(o.Stmts, true)
	}
}

// firstElse returns the else that guards an option, if any.
func firstElse(stmts []Stmt) *ElseStmt {
	if len(stmts) == 0 {
		return nil
	}
	switch s := stmts[0].(type) {
	case *ElseStmt:
		return s
	case *LabeledStmt:
		return firstElse([]Stmt{s.Stmt})
	case *AtomicStmt:
		return firstElse(s.Body.Stmts)
	case *DStepStmt:
		return firstElse(s.Body.Stmts)
	case *BlockStmt:
		return firstElse(s.Body.Stmts)
	case *UnlessStmt:
		return firstElse([]Stmt{s.Stmt})
	case *InlineStmt:
		return firstElse(s.Body.Stmts)
	}
	return nil
}

// checkFields compares the number of fields of a send or receive with the
// channel's declaration, where the channel's initializer is known.
func (r *resolver) checkFields(ch Expr, n int, pos Pos, what string) {
	ci := chanDecl(ch)
	if ci == nil || len(ci.Fields) == n || n < len(ci.Fields) && what != "send" {
		// A receive or poll may leave out trailing fields, as in Spin.
		return
	}
	r.errorf(pos, "%s on %s: the channel carries %d fields (declared at %s), found %d", what, exprString(ch), len(ci.Fields), ci.Lbrack, n)
}

// chanDecl returns the initializer of the channel variable that x refers
// to, or nil if it has none (a parameter, a channel assigned later).
func chanDecl(x Expr) *ChanInit {
	switch x := x.(type) {
	case *Ident:
		if x.Sym != nil {
			if v, ok := x.Sym.Decl.(*VarDecl); ok {
				return v.Chan
			}
		}
	case *IndexExpr:
		return chanDecl(x.X)
	case *SelectorExpr:
		if x.Sel.Sym != nil {
			if v, ok := x.Sel.Sym.Decl.(*VarDecl); ok {
				return v.Chan
			}
		}
	}
	return nil
}

func (r *resolver) chanRef(x Expr) {
	t := r.varRef(x, false, 0)
	if t != nil && t.Kind != TChan && t.Kind != TInvalid {
		r.errorf(x.Pos(), "%s is not a channel (it is %s)", exprString(x), t)
	}
	r.setType(x, t)
}

func (r *resolver) recvArg(a Expr) {
	switch a := a.(type) {
	case *IntLit:
		r.setType(a, typeInt)
		return
	case *CallExpr:
		if a.Fun == BuiltinEval {
			r.setType(a, r.expr(a.Args[0], 0))
			return
		}
	case *Ident:
		if s := r.lookup(a.Name); s != nil && (s.Kind == SymMtype || s.Kind == SymParam) {
			a.Sym = s
			r.setType(a, s.Type)
			return
		}
	}
	// A structure is received field by field.
	t := r.varRef(a, true, 0)
	if t != nil && t.Kind == TArray {
		r.wholeValue(a, t)
	}
	r.setType(a, t)
}

func (r *resolver) numeric(x Expr) *Type {
	t := r.expr(x, 0)
	if t != nil && t.Kind == TChan {
		r.errorf(x.Pos(), "invalid use of channel %s (a number is expected)", exprString(x))
	}
	return t
}

func (r *resolver) numericLvalue(x Expr, what string) {
	t := r.lvalue(x, what)
	if t != nil && t.Kind == TChan {
		r.errorf(x.Pos(), "cannot %s channel %s", what, exprString(x))
	}
}

// lvalue resolves a variable that is written.
func (r *resolver) lvalue(x Expr, what string) *Type {
	t := r.varRef(x, true, 0)
	if t != nil && !t.IsScalar() && t.Kind != TInvalid {
		r.wholeValue(x, t)
	}
	r.setType(x, t)
	return t
}

func (r *resolver) assignable(lt, rt *Type, rhs Expr) {
	if lt == nil || rt == nil || lt.Kind == TInvalid || rt.Kind == TInvalid {
		return
	}
	if (lt.Kind == TChan) != (rt.Kind == TChan) {
		if _, ok := ConstValue(rhs); ok && lt.Kind == TChan {
			return // c = 0 makes c a null channel
		}
		if lt.Kind == TChan {
			r.errorf(rhs.Pos(), "cannot assign %s to a channel", exprString(rhs))
		} else {
			r.errorf(rhs.Pos(), "cannot assign channel %s to a %s variable", exprString(rhs), lt)
		}
	}
}

// wholeValue reports a use of a whole array or structure where a value is
// needed.
func (r *resolver) wholeValue(x Expr, t *Type) {
	if t.Kind == TArray {
		r.errorf(x.Pos(), "missing array index for %s", exprString(x))
	} else {
		r.errorf(x.Pos(), "incomplete structure reference %s (expected %s.field)", exprString(x), exprString(x))
	}
}

// varRef resolves a variable reference (a name with indices and fields)
// and returns its type.
func (r *resolver) varRef(x Expr, write bool, flags exprFlags) *Type {
	switch x := x.(type) {
	case *Ident:
		s := r.lookup(x.Name)
		if s == nil {
			r.errorf(x.NamePos, "undeclared variable %s%s", x.Name, macroHint(x.Name))
			return nil
		}
		x.Sym = s
		switch s.Kind {
		case SymVar:
			return s.Type
		case SymPredef:
			switch {
			case s.Predef == PredefPriority:
				r.errorf(x.NamePos, "_priority is not supported by ftmc")
			case write && s.Predef != PredefWrite:
				r.errorf(x.NamePos, "cannot assign to %s", x.Name)
			case !write && s.Predef == PredefWrite:
				r.errorf(x.NamePos, "attempt to read the write-only variable _")
			}
			return s.Type
		case SymMtype, SymParam:
			if write {
				r.errorf(x.NamePos, "cannot assign to %s %s", s.Kind, x.Name)
			}
			return s.Type
		case SymAtomic:
			if write {
				r.errorf(x.NamePos, "cannot assign to %s %s", s.Kind, x.Name)
			} else if r.proc != nil && r.proc.Kind != KindNever {
				r.errorf(x.NamePos, "atomic proposition %s can only be used in ltl formulas, never claims and other propositions", x.Name)
			}
			return s.Type
		}
		r.errorf(x.NamePos, "%s is a %s, not a variable", x.Name, s.Kind)
		return nil
	case *IndexExpr:
		t := r.varRef(x.X, write, flags)
		r.numeric(x.Index)
		if t == nil {
			return nil
		}
		if t.Kind != TArray {
			if t.Kind != TInvalid {
				r.errorf(x.Lbrack, "%s is not an array", exprString(x.X))
			}
			return nil
		}
		return t.Elem
	case *SelectorExpr:
		t := r.varRef(x.X, write, flags)
		if t == nil {
			return nil
		}
		if t.Kind != TStruct {
			if t.Kind == TArray {
				r.errorf(x.Dot, "missing array index for %s", exprString(x.X))
			} else if t.Kind != TInvalid {
				r.errorf(x.Dot, "%s is not a structure (it is %s)", exprString(x.X), t)
			}
			return nil
		}
		f := t.Field(x.Sel.Name)
		if f == nil {
			r.errorf(x.Sel.NamePos, "%s has no field %s (type %s)", exprString(x.X), x.Sel.Name, t.Name)
			return nil
		}
		x.Sel.Sym = f.Sym
		return f.Type
	}
	r.errorf(x.Pos(), "expected a variable, found %s", exprString(x))
	return nil
}

func (r *resolver) setType(x Expr, t *Type) {
	if t != nil {
		r.prog.types[x] = t
	}
}

// expr resolves and types an expression that is read.
func (r *resolver) expr(x Expr, flags exprFlags) *Type {
	t := r.expr1(x, flags)
	r.setType(x, t)
	return t
}

func isProbe(x Expr) bool {
	c, ok := x.(*CallExpr)
	return ok && (c.Fun == BuiltinFull || c.Fun == BuiltinEmpty || c.Fun == BuiltinNfull || c.Fun == BuiltinNempty)
}

func (r *resolver) expr1(x Expr, flags exprFlags) *Type {
	switch x := x.(type) {
	case *IntLit:
		return typeInt
	case *Ident, *IndexExpr, *SelectorExpr:
		t := r.varRef(x, false, flags)
		if t != nil && !t.IsScalar() && t.Kind != TInvalid && flags&fWhole == 0 {
			r.wholeValue(x, t)
		}
		return t
	case *UnaryExpr:
		if x.Op.IsLTL() {
			if flags&fLTL == 0 {
				r.errorf(x.OpPos, "temporal operator %s inside an expression (use parentheses around the atomic expression)", x.Op)
			}
			r.expr(x.X, flags&(fLTL|fProbe|fProp))
			return typeBool
		}
		if isProbe(x.X) && x.Op == NOT {
			r.errorf(x.OpPos, "%s cannot be negated (use %s)", exprString(x.X), negatedProbe(x.X.(*CallExpr).Fun))
		}
		sub := flags & fProp
		if x.Op == NOT {
			sub |= flags & fLTL
		}
		t := r.expr(x.X, sub)
		r.notChan(x.X, t)
		if x.Op == NOT {
			return typeBool
		}
		return typeInt
	case *BinaryExpr:
		var sub exprFlags
		switch {
		case x.Op.IsLTL():
			if flags&fLTL == 0 {
				r.errorf(x.OpPos, "temporal operator %s inside an expression (use parentheses around the atomic expression)", x.Op)
			}
			sub = flags & (fLTL | fProbe | fProp)
		case x.Op == LAND || x.Op == LOR:
			sub = flags & (fLTL | fProbe | fProp)
		default:
			sub = flags & fProp
		}
		for _, y := range []Expr{x.X, x.Y} {
			if isProbe(y) && sub&fProbe == 0 {
				r.errorf(y.Pos(), "%s can only be combined with && and ||", exprString(y))
			}
		}
		a := r.expr(x.X, sub)
		b := r.expr(x.Y, sub)
		if x.Op == EQL || x.Op == NEQ {
			if a != nil && b != nil && (a.Kind == TChan) != (b.Kind == TChan) && a.Kind != TInvalid && b.Kind != TInvalid {
				r.errorf(x.OpPos, "comparison of a channel with a number: %s", exprString(x))
			}
		} else {
			r.notChan(x.X, a)
			r.notChan(x.Y, b)
		}
		switch x.Op {
		case LAND, LOR, EQL, NEQ, LSS, LEQ, GTR, GEQ:
			return typeBool
		}
		if x.Op.IsLTL() {
			return typeBool
		}
		return typeInt
	case *CondExpr:
		r.numeric(x.Cond)
		a := r.expr(x.Then, flags&fProp)
		b := r.expr(x.Else, flags&fProp)
		if a != nil && b != nil && a.Kind == TChan && b.Kind == TChan {
			return typeChan
		}
		r.notChan(x.Then, a)
		r.notChan(x.Else, b)
		return typeInt
	case *CallExpr:
		return r.call(x, flags)
	case *RunExpr:
		return r.run(x)
	case *PollExpr:
		r.chanRef(x.Chan)
		for _, a := range x.Args {
			r.recvArg(a)
		}
		r.checkFields(x.Chan, len(x.Args), x.OpPos, "poll")
		return typeBool
	case *RemoteRef:
		if s := r.global[x.Proc.Name]; s == nil {
			r.errorf(x.Proc.NamePos, "undeclared proctype %s", x.Proc.Name)
		} else {
			x.Proc.Sym = s
		}
		if x.Index != nil {
			r.numeric(x.Index)
		}
		if r.quant != nil {
			switch {
			case r.qProc == nil:
				r.qProc = x.Proc.Sym
			case x.Proc.Sym != nil && x.Proc.Sym != r.qProc:
				r.errorf(x.Proc.NamePos, "%s(...) refers to processes of %s and of %s", r.quant.Fun, r.qProc.Name, x.Proc.Name)
			}
		}
		r.remote = append(r.remote, remoteUse{ref: x, scope: r.scope, proc: r.proc, flags: flags})
		if x.Label != nil {
			return typeBool
		}
		return typeInt
	}
	r.errorf(x.Pos(), "unexpected expression %s", exprString(x))
	return nil
}

func negatedProbe(f Builtin) string {
	switch f {
	case BuiltinFull:
		return "nfull"
	case BuiltinNfull:
		return "full"
	case BuiltinEmpty:
		return "nempty"
	}
	return "empty"
}

func (r *resolver) notChan(x Expr, t *Type) {
	if t != nil && t.Kind == TChan {
		r.errorf(x.Pos(), "invalid use of channel %s in an expression", exprString(x))
	}
}

func (r *resolver) call(x *CallExpr, flags exprFlags) *Type {
	arg := x.Args[0]
	switch x.Fun {
	case BuiltinLen:
		r.chanRef(arg)
		return typeInt
	case BuiltinEmpty, BuiltinNempty, BuiltinFull, BuiltinNfull:
		if flags&fProbe == 0 {
			r.errorf(x.FunPos, "%s can only be combined with && and ||", exprString(x))
		}
		r.chanRef(arg)
		return typeBool
	case BuiltinEnabled, BuiltinPcValue:
		r.numeric(arg)
		return typeInt
	case BuiltinEval:
		r.errorf(x.FunPos, "eval(...) is only allowed as a receive argument")
		r.expr(arg, 0)
		return typeInt
	case BuiltinAll, BuiltinSome, BuiltinCard:
		if flags&fProp == 0 {
			r.errorf(x.FunPos, "%s(...) is only allowed in atomic proposition declarations", x.Fun)
		}
		if r.quant != nil {
			r.errorf(x.FunPos, "%s(...) inside %s(...)", x.Fun, r.quant.Fun)
			return typeInt
		}
		r.quant, r.qProc = x, nil
		r.expr(arg, fProp|fProbe)
		if r.qProc == nil {
			r.errorf(x.FunPos, "%s(...) must refer to a process (Proc:var or Proc@label)", x.Fun)
		}
		r.quant, r.qProc = nil, nil
		if x.Fun == BuiltinCard {
			return typeInt
		}
		return typeBool
	}
	return typeInt
}

func (r *resolver) run(x *RunExpr) *Type {
	s := r.global[x.Proc.Name]
	var d *ProcDecl
	switch {
	case s == nil:
		r.errorf(x.Proc.NamePos, "run of undeclared proctype %s", x.Proc.Name)
	case s.Kind != SymProc:
		r.errorf(x.Proc.NamePos, "run %s: %s is a %s, not a proctype", x.Proc.Name, x.Proc.Name, s.Kind)
	default:
		x.Proc.Sym = s
		d = s.Decl.(*ProcDecl)
	}
	if r.proc == nil {
		r.errorf(x.Run, "run outside a process")
	}
	for i, a := range x.Args {
		t := r.expr(a, 0)
		if d != nil && i < len(d.Params) {
			pt := r.typeOfParam(d.Params[i])
			_, isConst := ConstValue(a) // 0 passes a null channel
			if pt != nil && t != nil && (pt.Kind == TChan) != (t.Kind == TChan) && t.Kind != TInvalid && !(isConst && pt.Kind == TChan) {
				r.errorf(a.Pos(), "argument %d of run %s: parameter %s is %s, found %s", i+1, x.Proc.Name, d.Params[i].Name.Name, pt, exprString(a))
			}
		}
	}
	if d != nil && len(x.Args) != len(d.Params) {
		r.errorf(x.Proc.NamePos, "proctype %s expects %d arguments, found %d", x.Proc.Name, len(d.Params), len(x.Args))
	}
	return typePid
}

// typeOfParam returns the declared type of a parameter without resolving
// it again (the proctype may be resolved later).
func (r *resolver) typeOfParam(v *VarDecl) *Type {
	switch v.Type.Kind {
	case CHAN:
		return typeChan
	case IDENT:
		return nil
	}
	return typeInt
}

// resolveRemote resolves the variables and labels of remote references,
// once all processes are resolved.
func (r *resolver) resolveRemote() {
	for _, u := range r.remote {
		x := u.ref
		if x.Proc.Sym == nil {
			continue
		}
		if x.Proc.Sym.Kind != SymProc {
			r.errorf(x.Proc.NamePos, "%s is a %s, not a proctype", x.Proc.Name, x.Proc.Sym.Kind)
			continue
		}
		d := x.Proc.Sym.Decl.(*ProcDecl)
		sc := r.scopes[d]
		if sc == nil {
			continue
		}
		if x.Label != nil {
			l := sc.labels[x.Label.Name]
			if l == nil {
				r.errorf(x.Label.NamePos, "proctype %s has no label %s", d.Name.Name, x.Label.Name)
				continue
			}
			x.Label.Sym = l
			continue
		}
		id, _ := x.Var.(*Ident)
		idx, _ := x.Var.(*IndexExpr)
		if idx != nil {
			id, _ = idx.X.(*Ident)
		}
		if id == nil {
			continue // the parser makes only these two shapes
		}
		s := sc.locals[id.Name]
		if s == nil {
			r.errorf(id.NamePos, "proctype %s has no local variable %s", d.Name.Name, id.Name)
			continue
		}
		id.Sym = s
		t := s.Type
		if idx != nil {
			saved := r.scope
			r.scope, r.proc = u.scope, u.proc
			r.numeric(idx.Index)
			r.scope, r.proc = saved, nil
			if t.Kind != TArray {
				r.errorf(idx.Lbrack, "%s is not an array", id.Name)
				continue
			}
			t = t.Elem
		} else if t.Kind == TArray {
			r.errorf(id.NamePos, "missing array index for %s", id.Name)
		}
		if !t.IsScalar() && t.Kind != TArray {
			r.wholeValue(id, t)
		}
		r.setType(id, s.Type)
		r.setType(x.Var, t)
		r.setType(x, t)
	}
}

// ---------------------------------------------------------------------------
// Constants that Spin requires

// foldAll computes the folded sizes: array lengths, channel capacities,
// active counts. Sizes that depend on parameters without values stay -1;
// Instantiate computes them again.
func (r *resolver) foldAll() {
	prog := r.prog
	for _, td := range prog.Typedefs {
		for _, f := range td.Fields {
			r.foldVar(f, "field")
		}
	}
	for _, v := range prog.Globals {
		r.foldVar(v, "variable")
	}
	procs := append([]*ProcDecl{}, prog.Procs...)
	if prog.Init != nil {
		procs = append(procs, prog.Init)
	}
	procs = append(procs, prog.Nevers...)
	for _, d := range procs {
		for _, v := range d.Locals {
			r.foldVar(v, "variable")
		}
		d.Instances = 0
		if d.Active {
			d.Instances = 1
			if d.Count != nil {
				v, ok := r.foldSize(d.Count, "the number of active instances of "+d.ProcName(), 0)
				switch {
				case !ok:
					d.Instances = -1
				case v > 255:
					r.errorf(d.Count.Pos(), "at most 255 processes can be active, found %d", v)
					d.Instances = -1
				default:
					d.Instances = v
				}
			}
		}
	}
}

func (r *resolver) foldVar(v *VarDecl, what string) {
	if v.Len != nil {
		n, ok := r.foldSize(v.Len, "the length of array "+v.Name.Name, 1)
		if !ok {
			n = -1
		}
		var t *Type
		if v.Name.Sym != nil {
			t = v.Name.Sym.Type
		}
		if t != nil && t.Kind == TArray {
			t.Len = n
		}
	}
	if v.Chan != nil {
		n, ok := r.foldSize(v.Chan.Cap, "the capacity of channel "+v.Name.Name, 0)
		if !ok {
			n = -1
		}
		v.Chan.Size = n
	}
}

// foldSize folds a size expression that must be a constant at least min.
// It reports false for an invalid size and for one that depends on an
// unbound parameter (which is not an error).
func (r *resolver) foldSize(x Expr, what string, min int64) (int64, bool) {
	v, k := fold(x, r.errs)
	if k == notConst {
		v, k = r.foldVarSize(x, what, min)
	}
	switch k {
	case pending:
		return 0, false
	case notConst:
		if !unresolvedIn(x) { // else its names are reported already
			r.errorf(x.Pos(), "%s must be a constant, found %s", what, exprString(x))
		}
		return 0, false
	}
	if _, exact := exactValue(x); !exact {
		// Folded in 64 bits, the value wrapped around: N*2+3 with N =
		// 2^63-1 is 1.
		r.errorf(x.Pos(), "%s is too large (%s does not fit in 64 bits)", what, exprString(x))
		return 0, false
	}
	if v < min {
		r.errorf(x.Pos(), "%s must be at least %d, found %d", what, min, v)
		return 0, false
	}
	if v > 1<<24 {
		r.errorf(x.Pos(), "%s is too large (%d)", what, v)
		return 0, false
	}
	return v, true
}

// exactValue folds the constant x as fold does (call it on an x that fold
// folds), with exact false when a sum, difference, product or left shift
// in it does not fit in an int64: fold wraps around there, as the C
// arithmetic of Spin's constant expressions does.
func exactValue(x Expr) (v int64, exact bool) {
	switch x := x.(type) {
	case *UnaryExpr:
		a, ok := exactValue(x.X)
		switch x.Op {
		case SUB:
			return -a, ok && a != math.MinInt64
		case TILDE:
			return ^a, ok
		case NOT:
			return b2i(a == 0), ok
		}
	case *CondExpr:
		c, ok1 := exactValue(x.Cond)
		a, ok2 := exactValue(x.Then)
		b, ok3 := exactValue(x.Else)
		if c != 0 {
			return a, ok1 && ok2 && ok3
		}
		return b, ok1 && ok2 && ok3
	case *BinaryExpr:
		a, ok1 := exactValue(x.X)
		b, ok2 := exactValue(x.Y)
		ok := ok1 && ok2
		if (x.Op == QUO || x.Op == REM) && b == 0 {
			return 0, ok // fold reports it
		}
		var z big.Int
		switch x.Op {
		case ADD:
			ok = ok && z.Add(big.NewInt(a), big.NewInt(b)).IsInt64()
		case SUB:
			ok = ok && z.Sub(big.NewInt(a), big.NewInt(b)).IsInt64()
		case MUL:
			ok = ok && z.Mul(big.NewInt(a), big.NewInt(b)).IsInt64()
		case SHL:
			ok = ok && z.Lsh(big.NewInt(a), uint(b&63)).IsInt64()
		}
		return evalBinary(x.Op, a, b), ok
	}
	v, _ = fold(x, nil)
	return v, true
}

// macroHint suggests -D for an undeclared name that looks like a macro
// (all capitals), since models often leave such values to the command
// line.
func macroHint(name string) string {
	hasUpper := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'A' <= c && c <= 'Z':
			hasUpper = true
		case c == '_' || '0' <= c && c <= '9':
		default:
			return ""
		}
	}
	if !hasUpper || len(name) < 2 {
		return ""
	}
	return " (if it is a macro, define it: -D " + name + "=...)"
}

// unresolvedIn reports whether x has a name that did not resolve.
func unresolvedIn(x Expr) bool {
	bad := false
	Inspect(x, func(n Node) bool {
		if id, ok := n.(*Ident); ok && id.Sym == nil {
			bad = true
		}
		return !bad
	})
	return bad
}

// foldVarSize folds a size given by a variable, which Spin accepts for
// an active count (active [N]) and an array length (byte a[N]): the value
// of its constant initializer (0 without one, for an active count).
func (r *resolver) foldVarSize(x Expr, what string, min int64) (int64, constKind) {
	id, ok := x.(*Ident)
	if !ok || id.Sym == nil || id.Sym.Kind != SymVar {
		return 0, notConst
	}
	d, ok := id.Sym.Decl.(*VarDecl)
	if !ok || d.Len != nil {
		return 0, notConst
	}
	if d.Init == nil {
		if min > 0 {
			return 0, notConst // Spin makes it 8; ftmc asks for a constant
		}
		return 0, isConst
	}
	v, k := fold(d.Init, nil)
	if k == isConst && min > 0 {
		// Spin warns here too.
		r.warn(x.Pos(), fmt.Sprintf("%s: %s is evaluated as %d, its initial value", what, id.Name, v))
	}
	return v, k
}

// ---------------------------------------------------------------------------
// Parameters

// Instantiate gives values to the symbolic parameters of a parametric
// (ByMC) model, so that it becomes an ordinary concrete model: the
// parameters act as named constants, and the sizes and active counts that
// depend on them are folded. Every parameter needs a value; values that
// violate an assume(...) are accepted with a warning that names the
// assumption. Instantiate may be called again with other values.
func Instantiate(prog *Program, params map[string]int64) ([]Warning, error) {
	var missing, unknown []string
	for _, s := range prog.Params {
		if _, ok := params[s.Name]; !ok {
			missing = append(missing, s.Name)
		}
	}
	for name := range params {
		if s := prog.Scope[name]; s == nil || s.Kind != SymParam {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	var names []string
	for _, s := range prog.Params {
		names = append(names, s.Name)
	}
	switch {
	case len(missing) > 0:
		return nil, fmt.Errorf("%s: no value for parameter %s (give --param %s)", prog.Filename, strings.Join(missing, ", "), paramHint(names))
	case len(unknown) > 0 && len(names) == 0:
		return nil, fmt.Errorf("%s: the model has no parameters, but values are given for %s", prog.Filename, strings.Join(unknown, ", "))
	case len(unknown) > 0:
		return nil, fmt.Errorf("%s: unknown parameter %s (the model's parameters are %s)", prog.Filename, strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	// A parameter is an int: a value beyond 32 bits would be one value in
	// sizes (computed in 64 bits) and another in the variables it is
	// stored in.
	for _, s := range prog.Params {
		if v := params[s.Name]; v < math.MinInt32 || v > math.MaxInt32 {
			return nil, fmt.Errorf("%s: parameter %s=%d does not fit in an int (%d..%d)", prog.Filename, s.Name, v, math.MinInt32, math.MaxInt32)
		}
	}
	for _, s := range prog.Params {
		s.Value, s.Bound = params[s.Name], true
	}
	errs := &ErrorList{}
	r := &resolver{prog: prog, errs: errs}
	r.foldAll()
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var warnings []Warning
	var vals []string
	for _, s := range prog.Params {
		vals = append(vals, fmt.Sprintf("%s=%d", s.Name, s.Value))
	}
	for _, a := range prog.Assumes {
		v, k := fold(a.X, nil)
		if k == isConst && v == 0 {
			warnings = append(warnings, Warning{a.Assume, fmt.Sprintf("%s violates assume(%s)", strings.Join(vals, ", "), a.Text)})
		}
	}
	return warnings, nil
}

func paramHint(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(n)
		b.WriteString("=...")
	}
	return b.String()
}

// ParametricError is the error for a parametric model that is checked
// without parameter values.
type ParametricError struct {
	Filename string
	Params   []string
}

func (e *ParametricError) Error() string {
	return fmt.Sprintf("%s is parametric in %s: give values with --param %s, or prove it for all values with ftmc verify",
		e.Filename, strings.Join(e.Params, ", "), paramHint(e.Params))
}

// RequireConcrete returns a *ParametricError if the program has symbolic
// parameters without values, and nil otherwise. Explicit-state engines
// call it before compiling.
func (p *Program) RequireConcrete() error {
	var names []string
	for _, s := range p.Params {
		if !s.Bound {
			names = append(names, s.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return &ParametricError{Filename: p.Filename, Params: names}
}
