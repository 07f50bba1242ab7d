package promela

import (
	"errors"
	"strings"
	"testing"
)

func mustParse(t *testing.T, src string, opts Options) *Program {
	t.Helper()
	prog, err := Parse("t.pml", []byte(src), opts)
	if err != nil {
		t.Fatalf("%v\nsource:\n%s", err, src)
	}
	return prog
}

// unresolved returns the identifiers of prog that should denote something
// but have no symbol. Names that declare nothing resolvable (ltl names,
// inline parameters, mtype names in types, never names) and inline call
// arguments (text for the body) are left out.
func unresolved(prog *Program) []*Ident {
	exempt := map[*Ident]bool{}
	Inspect(prog, func(n Node) bool {
		switch n := n.(type) {
		case *LTLDecl:
			exempt[n.Name] = true
		case *InlineDecl:
			for _, p := range n.Params {
				exempt[p] = true
			}
		case *TypeName:
			exempt[n.Sub] = true
		case *ProcDecl:
			if n.Kind == KindNever {
				exempt[n.Name] = true
			}
		case *MtypeDecl:
			exempt[n.Sub] = true
		case *InlineStmt:
			for _, a := range n.Args {
				Inspect(a, func(m Node) bool {
					if id, ok := m.(*Ident); ok {
						exempt[id] = true
					}
					return true
				})
			}
		}
		return true
	})
	var out []*Ident
	Inspect(prog, func(n Node) bool {
		if id, ok := n.(*Ident); ok && id != nil && id.Sym == nil && !exempt[id] {
			out = append(out, id)
		}
		return true
	})
	return out
}

func TestMtypeNumbering(t *testing.T) {
	// The numbering Spin prints for the same declarations (spin 6.5.2):
	// a=2 b=1 c=4 d=3 x=2 y=1 z=3 w=1.
	prog := mustParse(t, `mtype = {a, b}; mtype = {c, d};
mtype:foo = {x, y}; mtype:foo = {z}; mtype:bar = {w};
mtype m = c; mtype:foo f = z;
init { m = d }`, Options{})
	want := map[string]int64{"a": 2, "b": 1, "c": 4, "d": 3, "x": 2, "y": 1, "z": 3, "w": 1}
	for name, v := range want {
		s := prog.Scope[name]
		if s == nil || s.Kind != SymMtype || s.Value != v {
			t.Errorf("%s = %+v, want mtype constant %d", name, s, v)
		}
	}
	if len(prog.Mtypes) != 3 || prog.Mtypes[0].Name != "" || prog.Mtypes[1].Name != "bar" || prog.Mtypes[2].Name != "foo" {
		t.Fatalf("mtype sets %+v", prog.Mtypes)
	}
	if got := prog.Mtype("foo").ConstName(3); got != "z" {
		t.Errorf("foo value 3 is %q, want z", got)
	}
	if got := prog.Mtype("").ConstName(5); got != "" {
		t.Errorf("default value 5 is %q, want none", got)
	}
	if typ := prog.Scope["f"].Type; typ.Kind != TMtype || typ.Mtype != "foo" || typ.String() != "mtype:foo" {
		t.Errorf("f has type %v", typ)
	}
}

func TestResolveSymbols(t *testing.T) {
	prog := mustParse(t, `
typedef Msg { byte kind; short data[2] };
chan q = [2] of { mtype, Msg };
mtype = { req, ack };
Msg last;
unsigned u : 3 = 5;
byte g;

proctype Worker(chan in; byte id) provided (g < 10) {
	byte x = id;
	Msg m;
end:	do
	:: in?req, m -> x++; byte late = 3; late++
	:: in?ack, m -> break
	od;
	m.data[1] = x;
progress: goto end
}

init {
	run Worker(q, 1);
	q!req, last
}`, Options{})
	if ids := unresolved(prog); len(ids) > 0 {
		t.Fatalf("unresolved: %v at %s", ids[0].Name, ids[0].NamePos)
	}
	// Globals in order, with their index.
	var names []string
	for i, v := range prog.Globals {
		names = append(names, v.Name.Name)
		if v.Name.Sym.Index != i || !v.Name.Sym.IsGlobal() {
			t.Errorf("global %s: index %d", v.Name.Name, v.Name.Sym.Index)
		}
	}
	if strings.Join(names, " ") != "q last u g" {
		t.Errorf("globals %v", names)
	}
	w := prog.Proc("Worker")
	var locals []string
	for i, v := range w.Locals {
		s := v.Name.Sym
		locals = append(locals, v.Name.Name)
		if s.Index != i || s.Proc != w || s.IsParam != (i < 2) {
			t.Errorf("local %s: %+v", v.Name.Name, s)
		}
	}
	if strings.Join(locals, " ") != "in id x m late" {
		t.Errorf("locals %v", locals)
	}
	for _, v := range w.Locals {
		if want := v.Name.Name == "late"; v.Late != want {
			t.Errorf("%s.Late = %v", v.Name.Name, v.Late)
		}
	}
	if len(w.Labels) != 2 || KindOfLabel(w.Labels[0].Label.Name) != LabelEnd || KindOfLabel(w.Labels[1].Label.Name) != LabelProgress {
		t.Errorf("labels %v", w.Labels)
	}
	if w.Instances != 0 || prog.Init.Instances != 0 || w.Provided == nil {
		t.Errorf("instances %d, %d", w.Instances, prog.Init.Instances)
	}
	// Types.
	q := prog.Globals[0]
	if q.Chan.Size != 2 || len(q.Chan.Types) != 2 || q.Chan.Types[0].Kind != TMtype || q.Chan.Types[1].Kind != TStruct {
		t.Errorf("chan q: size %d types %v", q.Chan.Size, q.Chan.Types)
	}
	msg := prog.Scope["Msg"].Type
	if msg.Kind != TStruct || len(msg.Fields) != 2 || msg.Field("data").Type.String() != "short[2]" {
		t.Errorf("Msg = %+v", msg)
	}
	if u := prog.Scope["u"].Type; u.Kind != TUnsigned || u.Bits != 3 || u.Width() != 3 {
		t.Errorf("u: %v", u)
	}
	// The break leaves the do, the goto reaches the end label.
	var sawBreak, sawGoto bool
	Inspect(w.Body, func(n Node) bool {
		switch n := n.(type) {
		case *BreakStmt:
			_, sawBreak = n.Loop.(*DoStmt)
		case *GotoStmt:
			sawGoto = n.Label.Sym.Decl == Node(w.Labels[0])
		case *AssignStmt:
			if ExprString(n.LHS) == "m.data[1]" {
				if typ := prog.TypeOf(n.LHS); typ == nil || typ.Kind != TShort {
					t.Errorf("type of m.data[1] = %v", typ)
				}
			}
		}
		return true
	})
	if !sawBreak || !sawGoto {
		t.Errorf("break resolved %v, goto resolved %v", sawBreak, sawGoto)
	}
}

func TestTypeRanges(t *testing.T) {
	tests := []struct {
		typ        *Type
		width      int
		min, max   int64
		signed     bool
		asDeclared string
	}{
		{typeBit, 1, 0, 1, false, "bit"},
		{typeBool, 1, 0, 1, false, "bool"},
		{typeByte, 8, 0, 255, false, "byte"},
		{typePid, 8, 0, 255, false, "pid"},
		{typeShort, 16, -32768, 32767, true, "short"},
		{typeInt, 32, -1 << 31, 1<<31 - 1, true, "int"},
		{&Type{Kind: TUnsigned, Bits: 5}, 5, 0, 31, false, "unsigned:5"},
		{typeMtype, 8, 0, 255, false, "mtype"},
		{typeChan, 8, 0, 255, false, "chan"},
	}
	for _, tt := range tests {
		lo, hi := tt.typ.Range()
		if tt.typ.Width() != tt.width || lo != tt.min || hi != tt.max || tt.typ.Signed() != tt.signed || tt.typ.String() != tt.asDeclared {
			t.Errorf("%s: width %d range %d..%d signed %v", tt.typ, tt.typ.Width(), lo, hi, tt.typ.Signed())
		}
	}
}

func TestInlineExpansion(t *testing.T) {
	prog := mustParse(t, `
byte a[3], n;
inline set(arr, i, v) {
	byte tmp = v;
	arr[i] = tmp
}
active [2] proctype P() {
	set(a, _pid, n + 1);
	n = a[0]
}`, Options{})
	p := prog.Procs[0]
	if p.Instances != 2 {
		t.Errorf("instances %d", p.Instances)
	}
	call, ok := p.Body.Stmts[0].(*InlineStmt)
	if !ok {
		t.Fatalf("first statement is %T", p.Body.Stmts[0])
	}
	if call.Name.Sym == nil || call.Name.Sym.Kind != SymInline || len(call.Args) != 3 {
		t.Fatalf("call %+v", call)
	}
	body := call.Body.Stmts
	if len(body) != 2 || StmtString(body[1]) != "a[_pid] = tmp" || StmtString(body[0]) != "byte tmp = n + 1" {
		t.Fatalf("body %q, %q", StmtString(body[0]), StmtString(body[1]))
	}
	// The body keeps the inline's positions, the arguments the call's.
	asg := body[1].(*AssignStmt)
	if asg.EqPos.Line != 5 || asg.LHS.(*IndexExpr).X.Pos().Line != 8 {
		t.Errorf("positions %s %s", asg.EqPos, asg.LHS.Pos())
	}
	// The inline's local belongs to the process.
	if len(p.Locals) != 1 || p.Locals[0].Name.Name != "tmp" {
		t.Errorf("locals %v", p.Locals)
	}
}

func TestLTL(t *testing.T) {
	prog := mustParse(t, `
byte x;
#define ready (x > 0)
active proctype P() { x = 1 }
ltl { [] (ready -> <> (x == 2)) }
ltl safe { []!(x == 3) && X x U x V (x == 1) W true }
ltl words { always (ready implies eventually (x equivalent x)) }
ltl eq { ready <-> x == 1 /\ x == 2 \/ x == 3 }
ltl { true }`, Options{})
	want := []struct{ name, text, parsed string }{
		{"ltl_0", "[] ((x > 0) -> <> (x == 2))", "[](x > 0 -> <>(x == 2))"},
		{"safe", "[]!(x == 3) && X x U x V (x == 1) W true", "[]!(x == 3) && X x U x V x == 1 W true"},
		{"words", "always ((x > 0) implies eventually (x equivalent x))", "[](x > 0 -> <>(x <-> x))"},
		{"eq", "(x > 0) <-> x == 1 /\\ x == 2 \\/ x == 3", "x > 0 <-> x == 1 && x == 2 || x == 3"},
		{"ltl_1", "true", "true"}, // Spin counts the unnamed formulas only
	}
	if len(prog.LTL) != len(want) {
		t.Fatalf("%d formulas", len(prog.LTL))
	}
	for i, w := range want {
		d := prog.LTL[i]
		if d.FormulaName() != w.name || d.Text != w.text || ExprString(d.Formula) != w.parsed {
			t.Errorf("formula %d: %s {%s} parsed %s\nwant %s {%s} parsed %s", i, d.FormulaName(), d.Text, ExprString(d.Formula), w.name, w.text, w.parsed)
		}
	}
	// Spin's precedence: U binds tighter than &&, and is left-associative.
	f := prog.LTL[1].Formula.(*BinaryExpr)
	if f.Op != LAND {
		t.Fatalf("top operator %s, want &&", f.Op)
	}
	w := f.Y.(*BinaryExpr)
	if w.Op != WEAKUNTIL || w.X.(*BinaryExpr).Op != RELEASE {
		t.Errorf("right operand %s", ExprString(f.Y))
	}
}

const bymcModel = `
symbolic int N, T, F;
assume(N > 3 * T);
assume(T >= F);
int nsnt;
atomic all_v0 = all(Proc:pc == 0);
atomic ex_acc = some(Proc:pc == 2);
atomic count = (card(Proc:pc == 1) + card(Proc@end) == nsnt);
active [N - F] proctype Proc() {
	byte pc, next;
	int rcvd[N];
end:	do
	:: atomic {
		havoc(next);
		assume(next <= nsnt + F);
		pc = next
	}
	od
}
ltl live { [](ex_acc -> <>all_v0) }
`

func TestParametric(t *testing.T) {
	prog := mustParse(t, bymcModel, Options{})
	if ids := unresolved(prog); len(ids) > 0 {
		t.Fatalf("unresolved: %v at %s", ids[0].Name, ids[0].NamePos)
	}
	if len(prog.Params) != 3 || len(prog.Assumes) != 2 || len(prog.Props) != 3 || !prog.Parametric() {
		t.Fatalf("params %d assumes %d props %d", len(prog.Params), len(prog.Assumes), len(prog.Props))
	}
	proc := prog.Procs[0]
	if proc.Instances != -1 || proc.Locals[2].Name.Sym.Type.Len != -1 {
		t.Errorf("before instantiation: instances %d, len %d", proc.Instances, proc.Locals[2].Name.Sym.Type.Len)
	}
	var perr *ParametricError
	if err := prog.RequireConcrete(); !errors.As(err, &perr) || !strings.Contains(err.Error(), "--param N=...,T=...,F=...") || !strings.Contains(err.Error(), "ftmc verify") {
		t.Errorf("RequireConcrete: %v", err)
	}

	// Missing and unknown parameters are errors that name them.
	if _, err := Instantiate(prog, map[string]int64{"N": 4}); err == nil || !strings.Contains(err.Error(), "no value for parameter T, F") {
		t.Errorf("missing: %v", err)
	}
	if _, err := Instantiate(prog, map[string]int64{"N": 4, "T": 1, "F": 1, "Q": 2}); err == nil || !strings.Contains(err.Error(), "unknown parameter Q") {
		t.Errorf("unknown: %v", err)
	}

	w, err := Instantiate(prog, map[string]int64{"N": 4, "T": 1, "F": 1})
	if err != nil || len(w) != 0 {
		t.Fatalf("N=4,T=1,F=1: %v %v", w, err)
	}
	if proc.Instances != 3 || proc.Locals[2].Name.Sym.Type.Len != 4 || prog.RequireConcrete() != nil {
		t.Errorf("after instantiation: instances %d, len %d", proc.Instances, proc.Locals[2].Name.Sym.Type.Len)
	}
	if v, ok := ConstValue(proc.Count); !ok || v != 3 {
		t.Errorf("ConstValue(N - F) = %d, %v", v, ok)
	}

	// Values that violate an assumption are accepted with a warning.
	w, err = Instantiate(prog, map[string]int64{"N": 3, "T": 1, "F": 2})
	if err != nil || len(w) != 2 {
		t.Fatalf("N=3,T=1,F=2: %v %v", w, err)
	}
	if got := w[0].String(); got != "t.pml:3:1: warning: N=3, T=1, F=2 violates assume(N > 3 * T)" {
		t.Errorf("warning %q", got)
	}

	// Options.Params instantiates while loading.
	prog2, err := Parse("t.pml", []byte(bymcModel), Options{Params: map[string]int64{"N": 7, "T": 2, "F": 3}})
	if err != nil || prog2.Procs[0].Instances != 4 || len(prog2.Warnings) != 1 {
		t.Errorf("Options.Params: %v, %v", err, prog2.Warnings)
	}
	if _, err := Parse("t.pml", []byte("byte x;"), Options{Params: map[string]int64{"N": 1}}); err == nil || !strings.Contains(err.Error(), "has no parameters") {
		t.Errorf("parameters for a concrete model: %v", err)
	}
}

// ByMC reads unsigned without a width as a natural number; Spin, and so a
// model without symbolic parameters, needs the width.
func TestUnsignedWithoutWidth(t *testing.T) {
	src := "symbolic int N;\nunsigned x = 0;\nactive[N] proctype P() { unsigned y; y = x }\n"
	prog := mustParse(t, src, Options{})
	if !prog.ByMC() {
		t.Fatal("a model with symbolic parameters is not a ByMC model")
	}
	for _, v := range []*VarDecl{prog.Globals[0], prog.Procs[0].Locals[0]} {
		typ := v.Name.Sym.Type
		if lo, hi := typ.Range(); typ.Kind != TUnsigned || lo != 0 || hi != 1<<31-1 {
			t.Errorf("%s: %s, range %d..%d, want the non-negative ints", v.Name.Name, typ, lo, hi)
		}
	}
	_, err := Parse("t.pml", []byte(strings.Replace(src, "symbolic int N;", "#define N 2", 1)), Options{})
	if err == nil || !strings.Contains(err.Error(), "t.pml:2:10: unsigned x needs a width") {
		t.Errorf("a Spin model: %v", err)
	}
}

func TestImpliedSemicolons(t *testing.T) {
	// Spin ends a statement at a line break after a token that can end
	// one, outside parentheses; ftmc also continues a condition on the
	// next line (ByMC's models do that), where Spin reports an error.
	got := stmts(t, `active proctype P() {
	x = 1
	y = (2 +
	     3)
	if
	:: (x == 1)
	   && y > 0 -> x++
	:: else
	fi
	c!x
	goto L
L:	skip
}`)
	want := "x = 1\ny = 2 + 3\nif\n  x == 1 && y > 0\n  x++\n  else\nc!x\ngoto L\nL: skip\n skip\n"
	if got != want {
		t.Errorf("got:\n%swant:\n%s", got, want)
	}
}

func TestExprPrecedence(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a || b && c | d ^ e & f == g < h << i + j * k", "(a || (b && (c | (d ^ (e & (f == (g < (h << (i + (j * k))))))))))"},
		{"a * b + c", "((a * b) + c)"},
		{"a - b - c", "((a - b) - c)"},
		{"!a == b", "((!a) == b)"},
		{"-a * b", "((-a) * b)"},
		{"~a & b", "((~a) & b)"},
		{"(a -> b : c) + 1", "((a -> b : c) + 1)"},
	}
	for _, tt := range tests {
		prog, errs := parseOnly("t.pml", []byte("active proctype P() { x = "+tt.src+" }"), Options{})
		if err := errs.Err(); err != nil {
			t.Fatal(err)
		}
		asg := prog.Decls[0].(*ProcDecl).Body.Stmts[0].(*AssignStmt)
		if got := paren(asg.RHS); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.src, got, tt.want)
		}
	}
}

// paren prints an expression with every operation parenthesized.
func paren(x Expr) string {
	switch x := x.(type) {
	case *BinaryExpr:
		return "(" + paren(x.X) + " " + x.Op.String() + " " + paren(x.Y) + ")"
	case *UnaryExpr:
		return "(" + x.Op.String() + paren(x.X) + ")"
	}
	return ExprString(x)
}

func TestRemoteRefs(t *testing.T) {
	prog := mustParse(t, `
active [2] proctype P() { byte v[2]; L: v[1] = _pid }
never {
	do
	:: P[0]@L && P[1]:v[1] == 1 -> break
	:: else
	od
}
ltl f { <> (P[0]:v[0] == 0) }`, Options{})
	if ids := unresolved(prog); len(ids) > 0 {
		t.Fatalf("unresolved: %v at %s", ids[0].Name, ids[0].NamePos)
	}
	var refs []*RemoteRef
	Inspect(prog, func(n Node) bool {
		if r, ok := n.(*RemoteRef); ok {
			refs = append(refs, r)
		}
		return true
	})
	if len(refs) != 3 {
		t.Fatalf("%d remote references", len(refs))
	}
	if refs[0].Label.Sym.Kind != SymLabel || refs[1].Var.(*IndexExpr).X.(*Ident).Sym.Proc != prog.Procs[0] {
		t.Errorf("refs %+v %+v", refs[0], refs[1])
	}
	if typ := prog.TypeOf(refs[1]); typ == nil || typ.Kind != TByte {
		t.Errorf("type of %s: %v", ExprString(refs[1]), typ)
	}
}

// TestLateDeclarations checks VarDecl.Late against what Spin 6.5.2 does:
// in each model below, Spin resets k at its declaration every time (k is
// printed as 1 again and again), except for the first, where k is
// initialized once when the process starts.
func TestLateDeclarations(t *testing.T) {
	tests := []struct {
		body string
		late bool
	}{
		{"byte k = 0; byte i; do :: i < 3 -> i++; k++ :: else -> break od", false},
		{"byte i; do :: i < 3 -> i++; byte k; k++ :: else -> break od", true},
		{"byte i; do :: i < 3 -> byte k; i++; k++ :: else -> break od", true},
		{"do :: byte k; k++; if :: k > 2 -> break :: else fi od", true},
		{"skip; byte k = 1", true},
		{"atomic { byte k = 1 }", true},
	}
	for _, tt := range tests {
		prog := mustParse(t, "active proctype P() { "+tt.body+" }", Options{})
		var k *VarDecl
		for _, v := range prog.Procs[0].Locals {
			if v.Name.Name == "k" {
				k = v
			}
		}
		if k == nil || k.Late != tt.late {
			t.Errorf("%s: k.Late = %v, want %v", tt.body, k != nil && k.Late, tt.late)
		}
	}
}

func TestClaimNames(t *testing.T) {
	prog := mustParse(t, "byte x;\nnever { skip }\nnever named { skip }\nnever { skip }\ninit { x = 1 }", Options{})
	var names []string
	for _, n := range prog.Nevers {
		names = append(names, n.ProcName())
	}
	if got := strings.Join(names, " "); got != "never_0 named never_2" || prog.Init.ProcName() != ":init:" {
		t.Errorf("claims %q, init %q", got, prog.Init.ProcName())
	}
}

func TestSizesFromVariables(t *testing.T) {
	// Spin takes a variable with a constant initializer for an active
	// count and (with a warning) for an array length.
	prog := mustParse(t, "int N = 2; byte M = 3; int Z;\nbyte a[M];\nactive [N] proctype P() { skip }\nactive [Z] proctype Q() { skip }", Options{})
	if prog.Procs[0].Instances != 2 || prog.Procs[1].Instances != 0 || prog.Globals[3].Name.Sym.Type.Len != 3 {
		t.Errorf("instances %d %d, len %d", prog.Procs[0].Instances, prog.Procs[1].Instances, prog.Globals[3].Name.Sym.Type.Len)
	}
	if len(prog.Warnings) != 1 || !strings.Contains(prog.Warnings[0].String(), "t.pml:2:8: warning: the length of array a: M is evaluated as 3") {
		t.Errorf("warnings %v", prog.Warnings)
	}
}

func TestMacroCallOverLines(t *testing.T) {
	// The expansion of a macro whose arguments span lines stays on the
	// line of its use: no statement ends inside it.
	got := stmts(t, "#define SET(v, e) v = e; v++\nactive proctype P() {\n\tSET(x,\n\t    y + 1)\n\tz = 2\n}")
	if want := "x = y + 1\nx++\nz = 2\n"; got != want {
		t.Errorf("got:\n%swant:\n%s", got, want)
	}
}

func TestInlineLocalsShared(t *testing.T) {
	// Spin 6.5.2 accepts these: an inline's local declared again by a
	// second call, or by another inline, is the same variable.
	prog := mustParse(t, `byte a, b;
inline f(x) { byte tmp; tmp = x }
inline g(x) { byte tmp = 1; tmp = tmp + x }
active proctype P() { f(a); f(b); g(a) }`, Options{})
	p := prog.Procs[0]
	if len(p.Locals) != 1 {
		t.Fatalf("locals %d, want one tmp", len(p.Locals))
	}
	n := 0
	Inspect(p.Body, func(x Node) bool {
		if d, ok := x.(*VarDecl); ok {
			n++
			if d.Name.Sym != p.Locals[0].Name.Sym || !d.Late {
				t.Errorf("%s: declaration of tmp not shared or not late", d.Pos())
			}
		}
		return true
	})
	if n != 3 {
		t.Errorf("%d declarations, want 3", n)
	}
	// A local of the process and one of an inline clash (as in Spin), and
	// so do two inline locals of different types (Spin takes the first).
	for _, src := range []string{
		"inline f() { byte tmp; tmp = 1 }\nactive proctype P() { byte tmp; f() }",
		"inline f() { byte tmp; tmp = 1 }\ninline g() { int tmp; tmp = 2 }\nactive proctype P() { f(); g() }",
	} {
		if _, err := Parse("t.pml", []byte(src), Options{}); err == nil {
			t.Errorf("no error for\n%s", src)
		}
	}
	// An array initialized with one value sets every element.
	prog = mustParse(t, "byte fives[3] = 5;", Options{})
	if v, ok := ConstValue(prog.Globals[0].Init); !ok || v != 5 {
		t.Errorf("fives: %v", prog.Globals[0].Init)
	}
}

// Sizes are folded in 64 bits: one whose value wraps around (N*2+3 with N =
// 2^63-1 is 1) is too large, never one process or one element; parameters
// are ints, and a value beyond 32 bits is refused.
func TestSizeOverflow(t *testing.T) {
	for _, c := range []struct {
		src  string
		opts Options
		want string
	}{
		{"byte a[N*2+3];\nactive proctype P() { a[0] = 1 }\n", Options{Defines: map[string]string{"N": "9223372036854775807"}}, "t.pml:1:8: the length of array a is too large"},
		{"active [N*2+3] proctype P() { skip }\n", Options{Defines: map[string]string{"N": "9223372036854775807"}}, "t.pml:1:9: the number of active instances of P is too large"},
		{"byte a[(N*N*N)/8];\nactive proctype P() { a[0] = 1 }\n", Options{Defines: map[string]string{"N": "4000000"}}, "does not fit in 64 bits"},
		{"chan c = [-(N*2)] of { byte };\nactive proctype P() { skip }\n", Options{Defines: map[string]string{"N": "-4611686018427387904"}}, "the capacity of channel c is too large"},
		{"symbolic int N, F;\nbyte a[N*2+3];\nactive [N-F] proctype P() { a[0] = 1 }\n", Options{Params: map[string]int64{"N": 9223372036854775807, "F": -2}}, "t.pml: parameter N=9223372036854775807 does not fit in an int (-2147483648..2147483647)"},
		{"symbolic int N;\nint x = N*N;\nactive proctype P() { assert(x != 4) }\n", Options{Params: map[string]int64{"N": 4294967298}}, "parameter N=4294967298 does not fit in an int"},
	} {
		_, err := Parse("t.pml", []byte(c.src), c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
	}
	// The largest values in range still fold.
	prog := mustParse(t, "symbolic int N;\nbyte a[N/1000];\nactive [(N-2147483600)] proctype P() { a[0] = 1 }\n", Options{Params: map[string]int64{"N": 2147483647}})
	if n := prog.Procs[0].Instances; n != 47 {
		t.Errorf("N=2^31-1: %d instances, want 47", n)
	}
}
