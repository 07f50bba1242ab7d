package promela

// This file declares the syntax tree. Nodes are plain structs with
// positions. Fields marked "resolved" are filled in by the resolver (Parse
// and Load run it); everything else comes straight from the source.
//
// The tree is stable: fields and node types are added, never renamed.

// Node is any node of the syntax tree.
type Node interface {
	Pos() Pos // position of the node's first token
}

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement (a step of a sequence).
type Stmt interface {
	Node
	stmtNode()
}

// Decl is a top-level unit of a model.
type Decl interface {
	Node
	declNode()
}

// ---------------------------------------------------------------------------
// Expressions

// Ident is a name: of a variable, constant, proctype, label, field, ...
// Inside an ltl block or a never claim it may also be a named atomic
// proposition. The predefined names _pid, _nr_pr, _last, _priority, _,
// timeout and np_ are Idents too; their Symbol has Kind SymPredef.
type Ident struct {
	NamePos Pos
	Name    string
	Sym     *Symbol // resolved: what the name denotes
}

// IntLit is an integer constant: a decimal number, a character constant
// 'c', or one of the keywords true (1), false (0) and skip (1).
type IntLit struct {
	ValuePos Pos
	Value    int64
	Lit      string // the source spelling: "12", "'a'", "true", "skip"
}

// UnaryExpr is an operator applied to one operand.
//
// Op is SUB (negation), TILDE (bitwise complement) or NOT (logical not);
// inside ltl blocks also ALWAYS, EVENTUALLY and NEXT.
type UnaryExpr struct {
	OpPos Pos
	Op    Token
	X     Expr
}

// BinaryExpr is an operator applied to two operands.
//
// Op is one of ADD SUB MUL QUO REM AND OR XOR SHL SHR LAND LOR EQL NEQ LSS
// LEQ GTR GEQ; inside ltl blocks also UNTIL, WEAKUNTIL, RELEASE, IMPLIES
// and EQUIV. (ByMC's "and"/"or" in atomic propositions become LAND/LOR.)
type BinaryExpr struct {
	X     Expr
	OpPos Pos
	Op    Token
	Y     Expr
}

// CondExpr is Promela's conditional expression (Cond -> Then : Else),
// which is always written in parentheses.
type CondExpr struct {
	Lparen Pos
	Cond   Expr
	Then   Expr
	Else   Expr
}

// IndexExpr is an array element X[Index].
type IndexExpr struct {
	X      Expr
	Lbrack Pos
	Index  Expr
}

// SelectorExpr is a field of a structure (a variable of a typedef type),
// X.Sel.
type SelectorExpr struct {
	X   Expr
	Dot Pos
	Sel *Ident // resolved: Sel.Sym is the field (Kind SymField)
}

// Builtin names a predefined function.
type Builtin uint8

// The builtins. All, Some and Card are ByMC's: they quantify an expression
// over all processes of a proctype and are allowed only in atomic
// proposition declarations (atomic name = all(P:x == 1)).
const (
	BuiltinLen     Builtin = iota + 1 // len(chan): number of messages
	BuiltinEmpty                      // empty(chan)
	BuiltinNempty                     // nempty(chan)
	BuiltinFull                       // full(chan)
	BuiltinNfull                      // nfull(chan)
	BuiltinEnabled                    // enabled(pid)
	BuiltinPcValue                    // pc_value(pid)
	BuiltinEval                       // eval(expr) in a receive: match the value
	BuiltinAll                        // all(expr): expr holds for every process
	BuiltinSome                       // some(expr): expr holds for some process
	BuiltinCard                       // card(expr): the number of processes where expr holds
)

var builtinNames = [...]string{
	BuiltinLen: "len", BuiltinEmpty: "empty", BuiltinNempty: "nempty",
	BuiltinFull: "full", BuiltinNfull: "nfull", BuiltinEnabled: "enabled",
	BuiltinPcValue: "pc_value", BuiltinEval: "eval", BuiltinAll: "all",
	BuiltinSome: "some", BuiltinCard: "card",
}

func (b Builtin) String() string { return enumName(b, builtinNames[:], "builtin") }

// CallExpr is a call of a builtin function: len(c), empty(c), nempty(c),
// full(c), nfull(c), enabled(e), pc_value(e), eval(e), and ByMC's all(e),
// some(e), card(e). There are no user-defined functions in Promela
// (inline calls are statements, InlineStmt).
type CallExpr struct {
	Fun    Builtin
	FunPos Pos
	Args   []Expr // exactly one
	Rparen Pos
}

// RunExpr starts a process: run Proc(Args). Its value is the new pid (or
// 0 when no process can be started).
type RunExpr struct {
	Run      Pos
	Proc     *Ident // resolved: Proc.Sym.Decl is the *ProcDecl
	Args     []Expr
	Priority Expr // always nil: priorities are rejected
}

// PollExpr tests, without side effect, whether a receive would be
// executable: Chan?[Args] (Random false) or Chan??[Args] (Random true).
type PollExpr struct {
	Chan   Expr
	OpPos  Pos
	Random bool
	Args   []Expr // receive arguments, see RecvStmt
}

// RemoteRef refers into a process from outside it (in never claims, ltl
// formulas and atomic propositions):
//
//	Proc[Index]@Label   the process is at Label (Label set, Var nil)
//	Proc[Index]:Var     the value of the local variable Var (Var set)
//
// Index is the pid expression; it is nil when omitted (allowed when
// exactly one process runs Proc, and inside ByMC's all/some/card, where it
// ranges over all processes of Proc).
type RemoteRef struct {
	Proc  *Ident // resolved: a proctype
	Index Expr
	Label *Ident // resolved: a label of Proc
	Var   Expr   // an *Ident or *IndexExpr; resolved in Proc's scope
}

// ---------------------------------------------------------------------------
// Statements

// ExprStmt is an expression used as a statement: executable when its value
// is non-zero (a guard), or a run expression, or skip.
type ExprStmt struct {
	X Expr
}

// AssignStmt is LHS = RHS.
type AssignStmt struct {
	LHS   Expr
	EqPos Pos
	RHS   Expr
}

// IncDecStmt is X++ (Tok INC) or X-- (Tok DEC).
type IncDecStmt struct {
	X      Expr
	TokPos Pos
	Tok    Token
}

// SendStmt is Chan!Args (Sorted false) or Chan!!Args (Sorted true). The
// form c!e0(e1,e2) is the same as c!e0,e1,e2.
type SendStmt struct {
	Chan   Expr
	OpPos  Pos
	Sorted bool
	Args   []Expr
}

// RecvStmt is Chan?Args, Chan??Args (Random: the first matching message,
// not only the head), and Chan?<Args> / Chan??<Args> (Copy: the message
// stays in the channel).
//
// Each argument is a variable reference (*Ident, *IndexExpr,
// *SelectorExpr: the field is stored there; the write-only variable _
// discards it), a constant that the field must equal (*IntLit, a negated
// *IntLit, or an *Ident that resolves to an mtype constant), or
// eval(e) (a *CallExpr with Fun BuiltinEval: the field must equal e).
type RecvStmt struct {
	Chan   Expr
	OpPos  Pos
	Random bool
	Copy   bool
	Args   []Expr
}

// Option is one :: alternative of an if or do.
type Option struct {
	Sep   Pos // position of ::
	Stmts []Stmt
}

// Pos returns the position of the option's ::.
func (o *Option) Pos() Pos { return o.Sep }

// IfStmt is if :: ... :: ... fi.
type IfStmt struct {
	If      Pos
	Options []*Option
	Fi      Pos
}

// DoStmt is do :: ... :: ... od.
type DoStmt struct {
	Do      Pos
	Options []*Option
	Od      Pos
}

// ElseStmt is the guard else: executable when no other option of the
// enclosing if or do is. It is always the first statement of an option.
type ElseStmt struct {
	Else Pos
}

// BreakStmt leaves the innermost enclosing do (or for) loop.
type BreakStmt struct {
	Break Pos
	Loop  Stmt // resolved: the *DoStmt or *ForStmt it leaves
}

// GotoStmt jumps to a label of the same process.
type GotoStmt struct {
	Goto  Pos
	Label *Ident // resolved: Label.Sym.Decl is the *LabeledStmt
}

// LabeledStmt is Label: Stmt. A label at the end of a sequence (L: }) labels
// a skip, as in Spin. Labels whose names start with end, progress or accept
// mark valid end states, progress states and acceptance states (see
// LabelKind).
type LabeledStmt struct {
	Label *Ident
	Colon Pos
	Stmt  Stmt
}

// Block is a brace-enclosed sequence of statements.
type Block struct {
	Lbrace Pos
	Stmts  []Stmt
	Rbrace Pos
}

// Pos returns the position of the opening brace.
func (b *Block) Pos() Pos { return b.Lbrace }

// BlockStmt is a plain { ... } sequence used as one statement.
type BlockStmt struct {
	Body *Block
}

// AtomicStmt is atomic { ... }.
type AtomicStmt struct {
	Atomic Pos
	Body   *Block
}

// DStepStmt is d_step { ... }.
type DStepStmt struct {
	DStep Pos
	Body  *Block
}

// UnlessStmt is Stmt unless Escape: Stmt runs until Escape becomes
// executable.
type UnlessStmt struct {
	Stmt   Stmt
	Unless Pos
	Escape Stmt
}

// AssertStmt is assert(X).
type AssertStmt struct {
	Assert Pos
	X      Expr
}

// PrintfStmt is printf("format", Args...). It does not change the state.
type PrintfStmt struct {
	Printf Pos
	Format string // the string constant with its quotes removed (escapes kept as written)
	Args   []Expr
}

// PrintmStmt is printm(X): prints an mtype constant's name.
type PrintmStmt struct {
	Printm Pos
	X      Expr
}

// SelectStmt is select(Var : Lo .. Hi): a non-deterministic assignment of
// a value in [Lo, Hi].
type SelectStmt struct {
	Select Pos
	Var    Expr
	Lo, Hi Expr
}

// ForStmt is for (Var : Lo .. Hi) Body (Lo and Hi set, In nil) or
// for (Var in In) Body, which runs Var over the indices of the array
// (or channel) In.
type ForStmt struct {
	For    Pos
	Var    Expr
	Lo, Hi Expr
	In     Expr
	Body   *Block
}

// InlineStmt is a call of an inline: its body with the arguments
// substituted for the parameters, parsed at the place of the call (as
// Spin does, textually). Positions inside Body point into the inline's
// declaration, except for the argument tokens, which point to the call.
type InlineStmt struct {
	Name   *Ident // resolved: Name.Sym.Decl is the *InlineDecl
	Args   []Expr // the arguments as written, resolved in the caller's scope
	Rparen Pos
	Body   *Block // the expanded body
}

// DeclStmt declares local variables inside a process body.
type DeclStmt struct {
	Vars []*VarDecl
}

// XStmt is xr c1, c2 (Tok XR) or xs c1, c2 (Tok XS): an assertion that the
// process is the only one to receive from (send to) the channels. It has
// no effect on the state.
type XStmt struct {
	XPos  Pos
	Tok   Token
	Chans []Expr
}

// AssumeStmt is ByMC's assume(X) inside a process: the step is only
// possible when X holds.
type AssumeStmt struct {
	Assume Pos
	X      Expr
}

// HavocStmt is ByMC's havoc(X): X gets an arbitrary value of its type.
type HavocStmt struct {
	Havoc Pos
	X     Expr
}

// ---------------------------------------------------------------------------
// Declarations

// TypeName is a type as written in a declaration.
type TypeName struct {
	TypePos Pos
	Kind    Token  // BIT BOOL BYTE SHORT INT_TYPE UNSIGNED CHAN MTYPE PID, or IDENT for a typedef
	Sub     *Ident // mtype:Sub, the named mtype (Kind MTYPE); nil for the default mtype
	User    *Ident // the typedef name (Kind IDENT); resolved
}

// ChanInit is a channel initializer [Cap] of { Fields }.
type ChanInit struct {
	Lbrack Pos
	Cap    Expr
	Fields []*TypeName
	Size   int64   // resolved: the folded capacity (0: rendezvous); -1 if it depends on an unbound parameter
	Types  []*Type // resolved: the field types
}

// VarDecl declares one variable (a declaration like "int a, b = 1" gives
// two VarDecls sharing their TypeName). Proctype parameters and typedef
// fields are VarDecls too.
type VarDecl struct {
	Vis      Token // 0, HIDDEN, SHOW or LOCAL
	Type     *TypeName
	Name     *Ident    // resolved: Name.Sym is the variable
	Bits     Expr      // unsigned x : Bits
	Len      Expr      // array length: x[Len]; nil for a scalar
	Init     Expr      // initializer = Init (for an array: the value of every element)
	InitList []Expr    // array initializer = { c1, c2, ... }
	Chan     *ChanInit // channel initializer = [n] of {...}

	// Late is set for a local declared after the first statement of its
	// process body, or inside a nested sequence (an option of if or do,
	// atomic, d_step, { }, a for body, an inline body). Spin allocates all
	// locals when the process starts (initialized to 0), and at the place
	// of a Late declaration executes its initialization as an assignment
	// (x = Init, or x = 0 without one), which happens again each time
	// control passes there. A local that is not Late is initialized when
	// the process is created.
	Late bool

	inInline bool // declared in the body of an inline
}

// Pos returns the position of the declared name.
func (d *VarDecl) Pos() Pos { return d.Name.NamePos }

// DeclGroup is a top-level variable declaration: one type, several names.
type DeclGroup struct {
	Vars []*VarDecl
}

// MtypeDecl is mtype = { Names } or mtype:Sub = { Names }.
type MtypeDecl struct {
	Mtype Pos
	Sub   *Ident // nil for the default mtype
	Names []*Ident
}

// TypedefDecl is typedef Name { Fields }.
type TypedefDecl struct {
	Typedef Pos
	Name    *Ident
	Fields  []*VarDecl
	Type    *Type // resolved: the structure type
}

// ProcKind tells what a ProcDecl declares.
type ProcKind uint8

// The kinds of process declarations.
const (
	KindProctype ProcKind = iota // proctype (or D_proctype)
	KindInit                     // init { }
	KindNever                    // never { } (a never claim)
)

// ProcDecl is a proctype, the init process or a never claim. The three
// share the shape a body with locals and labels, and the compiler turns
// each into an automaton.
type ProcDecl struct {
	Kind     ProcKind
	Keyword  Pos    // position of active, proctype, D_proctype, init or never
	Active   bool   // declared active
	Count    Expr   // active [Count]; nil for "active" alone (one instance) and for non-active
	D        bool   // declared D_proctype (pan verifies it as a plain proctype; Spin uses the mark elsewhere)
	Name     *Ident // nil for init and for an unnamed never claim
	Params   []*VarDecl
	Priority Expr // always nil: priorities are rejected
	Provided Expr // provided (Provided): the process can move only while it holds
	Body     *Block

	// Resolved.
	Index     int            // never claims: the index among the program's claims (naming never_<Index>)
	Instances int64          // active instances (0 if not active; -1 if it depends on an unbound parameter)
	Locals    []*VarDecl     // all local variables, parameters first, in order of declaration
	Labels    []*LabeledStmt // all labels, in order
}

// Pos returns the position of the first keyword.
func (d *ProcDecl) Pos() Pos { return d.Keyword }

// ProcName returns the process's name: the proctype name, ":init:" for
// init, and for a never claim its name or, as Spin names an unnamed one,
// never_<Index>.
func (d *ProcDecl) ProcName() string {
	if d.Name != nil {
		return d.Name.Name
	}
	switch d.Kind {
	case KindInit:
		return ":init:"
	case KindNever:
		return "never_" + itoa(d.Index)
	}
	return ""
}

// LTLDecl is ltl Name { Formula }.
type LTLDecl struct {
	LTL     Pos
	Name    *Ident // nil when unnamed (Spin calls the formula ltl_0, ltl_1, ...)
	Lbrace  Pos
	Formula Expr   // parsed with Spin's precedence; temporal operators are UnaryExpr/BinaryExpr with LTL tokens
	Text    string // the formula's text after macro expansion, tokens separated by single spaces
	Rbrace  Pos
	Index   int // resolved: the index among the program's ltl blocks
	anon    int // the index among the unnamed ones
}

// FormulaName returns the formula's name, or for an unnamed one the name
// Spin gives it: ltl_0, ltl_1, ... counting the unnamed formulas.
func (d *LTLDecl) FormulaName() string {
	if d.Name != nil {
		return d.Name.Name
	}
	return "ltl_" + itoa(d.anon)
}

// InlineDecl is inline Name(Params) { body }. The body is kept as tokens
// and parsed at each call (InlineStmt), with the arguments substituted.
type InlineDecl struct {
	Inline Pos
	Name   *Ident
	Params []*Ident
	Lbrace Pos
	body   []token // from { to } inclusive
}

// SymbolicDecl is ByMC's symbolic int N, T, F: parameters of a
// parametric model.
type SymbolicDecl struct {
	Symbolic Pos
	Type     *TypeName
	Names    []*Ident
}

// AssumeDecl is ByMC's top-level assume(X): a resilience condition on the
// parameters.
type AssumeDecl struct {
	Assume Pos
	X      Expr
	Text   string // the condition's text, for messages
}

// AtomicPropDecl is ByMC's atomic Name = X: a named proposition over the
// global state, usually with all/some/card over the processes of a
// proctype, used in ltl formulas.
type AtomicPropDecl struct {
	Atomic Pos
	Name   *Ident
	X      Expr
}

// ---------------------------------------------------------------------------
// Positions and markers

func (x *Ident) Pos() Pos        { return x.NamePos }
func (x *IntLit) Pos() Pos       { return x.ValuePos }
func (x *UnaryExpr) Pos() Pos    { return x.OpPos }
func (x *BinaryExpr) Pos() Pos   { return x.X.Pos() }
func (x *CondExpr) Pos() Pos     { return x.Lparen }
func (x *IndexExpr) Pos() Pos    { return x.X.Pos() }
func (x *SelectorExpr) Pos() Pos { return x.X.Pos() }
func (x *CallExpr) Pos() Pos     { return x.FunPos }
func (x *RunExpr) Pos() Pos      { return x.Run }
func (x *PollExpr) Pos() Pos     { return x.Chan.Pos() }
func (x *RemoteRef) Pos() Pos    { return x.Proc.NamePos }

func (*Ident) exprNode()        {}
func (*IntLit) exprNode()       {}
func (*UnaryExpr) exprNode()    {}
func (*BinaryExpr) exprNode()   {}
func (*CondExpr) exprNode()     {}
func (*IndexExpr) exprNode()    {}
func (*SelectorExpr) exprNode() {}
func (*CallExpr) exprNode()     {}
func (*RunExpr) exprNode()      {}
func (*PollExpr) exprNode()     {}
func (*RemoteRef) exprNode()    {}

func (s *ExprStmt) Pos() Pos    { return s.X.Pos() }
func (s *AssignStmt) Pos() Pos  { return s.LHS.Pos() }
func (s *IncDecStmt) Pos() Pos  { return s.X.Pos() }
func (s *SendStmt) Pos() Pos    { return s.Chan.Pos() }
func (s *RecvStmt) Pos() Pos    { return s.Chan.Pos() }
func (s *IfStmt) Pos() Pos      { return s.If }
func (s *DoStmt) Pos() Pos      { return s.Do }
func (s *ElseStmt) Pos() Pos    { return s.Else }
func (s *BreakStmt) Pos() Pos   { return s.Break }
func (s *GotoStmt) Pos() Pos    { return s.Goto }
func (s *LabeledStmt) Pos() Pos { return s.Label.NamePos }
func (s *BlockStmt) Pos() Pos   { return s.Body.Lbrace }
func (s *AtomicStmt) Pos() Pos  { return s.Atomic }
func (s *DStepStmt) Pos() Pos   { return s.DStep }
func (s *UnlessStmt) Pos() Pos  { return s.Stmt.Pos() }
func (s *AssertStmt) Pos() Pos  { return s.Assert }
func (s *PrintfStmt) Pos() Pos  { return s.Printf }
func (s *PrintmStmt) Pos() Pos  { return s.Printm }
func (s *SelectStmt) Pos() Pos  { return s.Select }
func (s *ForStmt) Pos() Pos     { return s.For }
func (s *InlineStmt) Pos() Pos  { return s.Name.NamePos }
func (s *DeclStmt) Pos() Pos    { return s.Vars[0].Type.TypePos }
func (s *XStmt) Pos() Pos       { return s.XPos }
func (s *AssumeStmt) Pos() Pos  { return s.Assume }
func (s *HavocStmt) Pos() Pos   { return s.Havoc }

func (*ExprStmt) stmtNode()    {}
func (*AssignStmt) stmtNode()  {}
func (*IncDecStmt) stmtNode()  {}
func (*SendStmt) stmtNode()    {}
func (*RecvStmt) stmtNode()    {}
func (*IfStmt) stmtNode()      {}
func (*DoStmt) stmtNode()      {}
func (*ElseStmt) stmtNode()    {}
func (*BreakStmt) stmtNode()   {}
func (*GotoStmt) stmtNode()    {}
func (*LabeledStmt) stmtNode() {}
func (*BlockStmt) stmtNode()   {}
func (*AtomicStmt) stmtNode()  {}
func (*DStepStmt) stmtNode()   {}
func (*UnlessStmt) stmtNode()  {}
func (*AssertStmt) stmtNode()  {}
func (*PrintfStmt) stmtNode()  {}
func (*PrintmStmt) stmtNode()  {}
func (*SelectStmt) stmtNode()  {}
func (*ForStmt) stmtNode()     {}
func (*InlineStmt) stmtNode()  {}
func (*DeclStmt) stmtNode()    {}
func (*XStmt) stmtNode()       {}
func (*AssumeStmt) stmtNode()  {}
func (*HavocStmt) stmtNode()   {}

func (d *DeclGroup) Pos() Pos      { return d.Vars[0].Type.TypePos }
func (d *MtypeDecl) Pos() Pos      { return d.Mtype }
func (d *TypedefDecl) Pos() Pos    { return d.Typedef }
func (d *LTLDecl) Pos() Pos        { return d.LTL }
func (d *InlineDecl) Pos() Pos     { return d.Inline }
func (d *SymbolicDecl) Pos() Pos   { return d.Symbolic }
func (d *AssumeDecl) Pos() Pos     { return d.Assume }
func (d *AtomicPropDecl) Pos() Pos { return d.Atomic }
func (t *TypeName) Pos() Pos       { return t.TypePos }
func (c *ChanInit) Pos() Pos       { return c.Lbrack }

func (*DeclGroup) declNode()      {}
func (*MtypeDecl) declNode()      {}
func (*TypedefDecl) declNode()    {}
func (*ProcDecl) declNode()       {}
func (*LTLDecl) declNode()        {}
func (*InlineDecl) declNode()     {}
func (*SymbolicDecl) declNode()   {}
func (*AssumeDecl) declNode()     {}
func (*AtomicPropDecl) declNode() {}

// LabelKind classifies a label by Spin's prefixes.
type LabelKind uint8

// Label kinds.
const (
	LabelPlain    LabelKind = iota
	LabelEnd                // end...: a valid end state
	LabelProgress           // progress...: a progress state
	LabelAccept             // accept...: an acceptance state (never claims)
)

// KindOfLabel classifies a label name as Spin does: by its prefix.
func KindOfLabel(name string) LabelKind {
	switch {
	case hasPrefix(name, "end"):
		return LabelEnd
	case hasPrefix(name, "progress"):
		return LabelProgress
	case hasPrefix(name, "accept"):
		return LabelAccept
	}
	return LabelPlain
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
