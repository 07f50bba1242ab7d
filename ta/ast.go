package ta

import (
	"fmt"
	"strconv"
	"strings"

	"ftmc/internal/clip"
	"ftmc/trace"
)

// Pos is a position in a source file (1-based line and column).
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is a positioned error in a .ta file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// newError makes the error at p of file. Words among args (strings
// without a space: names from the input) are clipped (package
// clip), so that a name of megabytes is not printed whole.
func newError(file string, p Pos, format string, args ...any) *Error {
	return &Error{File: file, Pos: p, Msg: clip.Sprintf(format, args...)}
}

func (e *Error) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
	}
	return fmt.Sprintf("%s:%s: %s", e.File, e.Pos, e.Msg)
}

// Expr is an arithmetic or Boolean (possibly temporal) expression.
type Expr interface {
	Position() Pos
	String() string
}

// Kind says what a resolved name denotes.
type Kind int

const (
	Unresolved Kind = iota
	Param
	Shared
	Local // a location's counter (in inits and specifications)
	Unknown
)

func (k Kind) String() string {
	return [...]string{"unresolved", "parameter", "shared variable", "location", "unknown"}[k]
}

// Ident is a name: a parameter, shared variable, location counter, unknown,
// or (before resolution) a macro. Primed is x' in a rule's update.
type Ident struct {
	Pos    Pos
	Name   string
	Primed bool
	Kind   Kind
	Index  int // index among the names of its kind
}

// IntLit is a non-negative integer literal.
type IntLit struct {
	Pos Pos
	Val int64
}

// BoolLit is true or false.
type BoolLit struct {
	Pos Pos
	Val bool
}

// Unary is -x, !x, <>x (eventually) or []x (always).
type Unary struct {
	Pos Pos
	Op  string
	X   Expr
}

// Binary is an arithmetic (+ - *), comparison (< <= > >= == !=) or Boolean
// (&& || ->) operation.
type Binary struct {
	Pos  Pos
	Op   string
	X, Y Expr
}

func (e *Ident) Position() Pos   { return e.Pos }
func (e *IntLit) Position() Pos  { return e.Pos }
func (e *BoolLit) Position() Pos { return e.Pos }
func (e *Unary) Position() Pos   { return e.Pos }
func (e *Binary) Position() Pos  { return e.Pos }

func (e *Ident) String() string {
	if e.Primed {
		return e.Name + "'"
	}
	return e.Name
}
func (e *IntLit) String() string { return strconv.FormatInt(e.Val, 10) }
func (e *BoolLit) String() string {
	if e.Val {
		return "true"
	}
	return "false"
}
func (e *Unary) String() string {
	return e.Op + paren(e.X)
}
func (e *Binary) String() string {
	return paren(e.X) + " " + e.Op + " " + paren(e.Y)
}

func paren(e Expr) string {
	switch e.(type) {
	case *Binary:
		return "(" + e.String() + ")"
	}
	return e.String()
}

// IsBoolOp reports whether op yields a Boolean.
func IsBoolOp(op string) bool {
	switch op {
	case "&&", "||", "->", "!", "<>", "[]", "<", "<=", ">", ">=", "==", "!=":
		return true
	}
	return false
}

// Decl is a declared name.
type Decl struct {
	Pos  Pos
	Name string
	// Quotient, for a parameter that Check adds for a division, is what
	// it stands for.
	Quotient *Quotient
}

// Quotient is Num / Den rounded down, Num an expression over parameters
// and Den > 0.
type Quotient struct {
	Num Expr
	Den int64
}

// Define is "define NAME == e;".
type Define struct {
	Pos  Pos
	Name string
	Body Expr
}

// Location is "NAME: [v1; v2; ...];".
type Location struct {
	Pos    Pos
	Name   string
	Values []int64
}

// Update is x' == e.
type Update struct {
	Pos  Pos
	Var  *Ident
	Expr Expr
}

// Rule is "N: from -> to when (guard) do { updates };".
type Rule struct {
	Pos     Pos
	ID      string // the number written before the colon
	From    string
	FromPos Pos
	To      string
	ToPos   Pos
	Guard   Expr
	Updates []Update
	// Unchanged lists the variables named in unchanged(...).
	Unchanged []*Ident
	// Resolved by Check:
	Src, Dst int
}

// Name is how the rule appears in schedules.
func (r *Rule) Name() string { return "r" + r.ID }

// Spec is "name: formula;".
type Spec struct {
	Pos     Pos
	Name    string
	Formula Expr
}

// File is a parsed threshold automaton.
type File struct {
	Path        string
	Header      string // skel, thresholdAutomaton, threshAuto, ta or ""
	Name        string
	Locals      []Decl
	Shared      []Decl
	Params      []Decl
	Unknowns    []Decl
	Defines     []Define
	Assumptions []Expr
	Locations   []Location
	Inits       []Expr
	Rules       []*Rule
	Specs       []Spec

	locIndex map[string]int
}

// LocIndex returns the index of a location by name.
func (f *File) LocIndex(name string) (int, bool) {
	i, ok := f.locIndex[name]
	return i, ok
}

// SpecByName finds a specification.
func (f *File) SpecByName(name string) (*Spec, bool) {
	for i := range f.Specs {
		if f.Specs[i].Name == name {
			return &f.Specs[i], true
		}
	}
	return nil, false
}

// Names of declarations.
func Names(ds []Decl) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Name
	}
	return out
}

// RuleString renders a rule as written, for counterexamples.
func (r *Rule) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s -> %s when (%s)", r.ID, r.From, r.To, r.Guard)
	if len(r.Updates) > 0 {
		b.WriteString(" do {")
		for _, u := range r.Updates {
			fmt.Fprintf(&b, " %s == %s;", u.Var, u.Expr)
		}
		b.WriteString(" }")
	}
	return b.String()
}

// Short is "from -> to", the rule as schedules show it.
func (r *Rule) Short() string { return r.From + " -> " + r.To }

// Step is the counterexample step in which rule r fires times times (0:
// once). A counter system does not tell its processes apart, so no one
// process moves (pid -1, its process the automaton's processes): the step's
// event moves processes from the rule's source location to its target,
// which a chart draws as an arrow between the locations' lifelines
// (Processes), and Rule names the rule.
func (f *File) Step(r *Rule, times int64) trace.Step {
	return trace.Step{Pid: -1, Proc: f.ProcessType(), Rule: r.Name(), Stmt: r.Short(), File: f.Path, Line: r.Pos.Line, Multiplicity: times,
		Events: []trace.Event{{Type: "move", Msg: r.Name(), From: r.From, To: r.To, Partner: -1}}}
}

// Processes are the lifelines of a counterexample of the automaton: its
// locations, with how many processes each holds at the start (counts, by
// location index; a location beyond counts holds none), grouped under the
// automaton's processes. A location empty at the start is drawn only when
// a step moves processes into it.
func (f *File) Processes(counts []int64) []trace.Process {
	out := make([]trace.Process, len(f.Locations))
	for i, l := range f.Locations {
		var n int64
		if i < len(counts) {
			n = counts[i]
		}
		out[i] = trace.Process{Pid: i, Name: l.Name, Role: trace.RoleLocation, Group: f.ProcessType(), Count: n, Optional: n == 0}
	}
	return out
}

// ProcessType names the automaton's processes in counterexamples: "NAME
// processes", or "processes" for an automaton without a name.
func (f *File) ProcessType() string {
	if f.Name == "" {
		return "processes"
	}
	return f.Name + " processes"
}
