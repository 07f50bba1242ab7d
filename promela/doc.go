// Package promela reads Promela models as Spin 6 does: a C preprocessor
// subset, a scanner, a parser that builds a syntax tree of plain structs
// with positions, and a resolver that binds every name to its declaration
// and checks types. It also reads ByMC's parametric extensions (symbolic
// parameters, assume, named atomic propositions with all/some/card,
// havoc). The compiler (package promela/compile) works on the resolved
// Program that Load and Parse return.
//
// # Reading a model
//
//	prog, err := promela.Load("model.pml", promela.Options{
//		Defines:     map[string]string{"N": "3", "BUG": ""}, // -D N=3 -D BUG
//		IncludeDirs: []string{"lib"},
//		Params:      map[string]int64{"N": 4, "T": 1, "F": 1}, // ByMC models only
//	})
//
// The error, if any, is an *ErrorList (at most MaxErrors entries, sorted
// by position), each entry reading file:line:col: message. Positions point
// into the original files, also inside included files; a token that came
// out of a macro carries the position of the macro's use. The parser
// stops at the first syntax error; the resolver reports up to MaxErrors.
// Parse does the same for source in memory; Preprocess shows what the
// preprocessor made of a model.
//
// # The resolved program
//
// Program lists the declarations by kind: Globals (in order; a global's
// Symbol.Index is its index there), Procs (proctypes), Init, Nevers, LTL,
// Mtypes, Typedefs, Inlines, and ByMC's Params, Assumes and Props. Decls
// keeps every top-level unit in source order.
//
// A ProcDecl is a proctype, init or a never claim (Kind). After
// resolution its Locals lists every local variable of its body,
// parameters first, in order of declaration (including those declared in
// inline bodies and nested blocks: in Promela all locals are process
// scoped); a local's Symbol.Index is its index in Locals. Labels lists the
// labels (KindOfLabel classifies end, progress and accept labels).
// Instances is the folded number of active instances.
//
// Every *Ident that names something has a Symbol (Ident.Sym): a
// variable (global, local or parameter), a typedef field (in SelectorExpr),
// an mtype constant (with its Value), a proctype, a label (in goto and
// remote references), an inline, a ByMC parameter or atomic proposition,
// or a predefined name (_pid, _nr_pr, _last, _, timeout, np_). The
// exceptions are names that declare nothing resolvable: ltl formula and
// never claim names, inline parameters, and the mtype name in mtype:name.
// The arguments of an inline call (InlineStmt.Args) are kept as written;
// InlineStmt.Body is the expanded body, fully resolved.
//
// Types (Type) have Spin's sizes and ranges: bit and bool 1 bit, byte and
// pid 8 bits unsigned, short 16 and int 32 bits signed, unsigned x : N
// with N bits, mtype 8 bits, chan a channel handle. Arrays (TArray) and
// typedefs (TStruct) are composite. Program.TypeOf gives the type of an
// expression inside processes, claims, formulas and propositions.
// ConstValue folds constant expressions (numbers, mtype constants, bound
// parameters and operators over them).
//
// Sizes Spin requires to be constant are folded by the resolver: array
// lengths (Type.Len), channel capacities (ChanInit.Size, 0 for a
// rendezvous channel), field types (ChanInit.Types), active counts
// (ProcDecl.Instances, at most 255), unsigned widths (1 to 32). A size
// that depends on a ByMC parameter without a value is -1 until
// Instantiate.
//
// # Spin's rules that the tree carries
//
// Mtype constants are numbered from 1 per mtype (the default and each
// mtype:name separately), in reverse order within one declaration and
// continuing over later declarations: mtype = {a, b}; mtype = {c, d} gives
// b=1, a=2, d=3, c=4 (what spin 6.5.2 prints). MtypeSet.Consts is ordered
// by value.
//
// A local declared after the first statement of its process body, or in
// any nested sequence, is Late (VarDecl.Late): Spin initializes every
// local to 0 when the process starts and executes a Late declaration's
// initialization as an assignment where it stands.
//
// Statements are separated by ';' or '->'; a separator may end a
// sequence; none is needed after '}' or after else; and, as in Spin, a
// line break inside a process body ends a statement after a token that
// can end one (a name, a number, ')', ']', '}', fi, od, else, break, ++,
// --) outside parentheses. A label at the end of a sequence labels a
// skip, as in Spin. Inline calls are expanded as Spin does, textually: an
// argument replaces the parameter without parentheses around it.
//
// In ltl blocks -> is implication and the temporal operators ([] <> X U W
// V, and the words always, eventually, next, until, weakuntil,
// stronguntil, release, implies, equivalent; /\ and \/) are UnaryExpr and
// BinaryExpr operators with Spin's precedence: -> and <-> lowest, then
// ||, &&, the binary temporal operators, then the C operators; unary
// temporal operators bind like !. LTLDecl.Text is the formula after macro
// expansion. A temporal operator inside a comparison or arithmetic (as in
// "[] x == 1", which Spin reads as "([] x) == 1") is an error asking for
// parentheses.
//
// # Where ftmc differs from Spin
//
// Nothing is skipped silently: these constructs are rejected with an
// error that names them: c_code, c_expr, c_decl, c_state, c_track, trace
// and notrace claims, priorities (priority, get_priority, set_priority,
// _priority), and inlines with a return value.
//
// ftmc rejects a few models that Spin accepts, where Spin's reading is
// arbitrary or hides a mistake: else anywhere but as the guard of an
// option; a second init; a send with fewer fields than the channel
// declares (Spin pads with zeros; receives and polls may leave out
// trailing fields, as in Spin); a number passed for a channel parameter
// (other than a constant, for a null channel); integer constants beyond
// 64 bits.
//
// ftmc accepts a condition continued on the next line with a binary
// operator (":: (a || b)\n && c -> ..."), where Spin's newline rule
// reports a syntax error, because ByMC's models are written that way.
// Programs that Spin accepts are read the same way.
//
// # ByMC's parametric Promela
//
// symbolic int N, T, F declares parameters (SymParam); top-level
// assume(e) states a resilience condition (AssumeDecl); active [N - F]
// gives a parametric instance count; atomic p = all(P:x == 1) (also some,
// card, and ByMC's "and"/"or") names a proposition over all processes of
// proctype P, where P:x is P's local x and P@l says P is at label l;
// havoc(x) and assume(e) inside a process are HavocStmt and AssumeStmt.
//
// Instantiate gives the parameters values (missing or unknown parameters
// are errors that name them): they then act as named constants, and the
// sizes that depend on them are folded. Values that violate an assume are
// accepted with a Warning that quotes the assumption. RequireConcrete
// returns a ParametricError (telling the user to give --param or to use
// ftmc verify) for a model whose parameters have no values.
//
// # The preprocessor
//
// #define (object-like and function-like, with # and ##; a macro is
// not expanded inside its own expansion), #undef, #if/#ifdef/#ifndef/
// #elif/#else/#endif with C's integer operators and defined, #include
// "file" (relative to the including file, then Options.IncludeDirs) and
// <file> (IncludeDirs only), #line, #pragma (kept in Program.Pragmas),
// #error, #warning; line continuations and /* */ and // comments.
// Options.Defines are -D NAME=VALUE definitions (an empty value means 1).
// Unknown directives are errors. Spin defines no macros of its own, and
// neither does ftmc.
package promela
