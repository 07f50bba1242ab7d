// Package system is the array-based system: the model that ftmc's MCMT and
// Cubicle front ends produce and that the backward-reachability engine
// (backreach) and the explicit instances of a fixed size consume.
//
// A state is a finite set of processes, identified by distinct natural
// numbers, with one value per process for each local array and one value for
// each global. Initial states and system axioms are universally quantified
// over processes; unsafe states and suggested negated invariants are
// existentially quantified over distinct processes; a transition picks
// distinct processes for its parameters, checks a guard over them and a
// universal guard over every other process, and updates arrays by cases on
// the index. This is MCMT's model (../shared/reference/mcmt-format.md);
// Cubicle's language maps onto it as well.
//
// Front ends import this package; engines import it too. It imports neither.
package system

import (
	"fmt"
	"strconv"
	"strings"
)

// Pos is a position in the model's source (1-based line and column; 0 when
// unknown).
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// SortKind is the kind of values an array or global holds.
type SortKind uint8

const (
	Bool SortKind = iota
	Int
	Proc // a process identifier (MCMT's index sort nat, Cubicle's proc)
	Enum // one of a finite list of constructors
)

// Sort is the type of a variable or term.
type Sort struct {
	Kind SortKind
	Enum *EnumType // for Enum
	// Lo and Hi bound Int sorts where set (MCMT's nat has Lo = 0; a subrange
	// type has both).
	HasLo, HasHi bool
	Lo, Hi       int64
}

// Bounds returns the range of values of the sort, with ok false on a side
// that is unbounded.
func (s Sort) Bounds() (lo int64, hasLo bool, hi int64, hasHi bool) {
	switch s.Kind {
	case Bool:
		return 0, true, 1, true
	case Enum:
		return 0, true, int64(len(s.Enum.Values)) - 1, true
	case Proc:
		return 0, true, 0, false
	}
	return s.Lo, s.HasLo, s.Hi, s.HasHi
}

func (s Sort) String() string {
	switch s.Kind {
	case Bool:
		return "bool"
	case Proc:
		return "proc"
	case Enum:
		return s.Enum.Name
	}
	switch {
	case s.HasLo && s.HasHi:
		return fmt.Sprintf("int[%d..%d]", s.Lo, s.Hi)
	case s.HasLo && s.Lo == 0:
		return "nat"
	}
	return "int"
}

// Numeric reports whether values of the sort are compared with < and
// combined with + (Int and Proc: MCMT compares process identifiers with
// integers).
func (s Sort) Numeric() bool { return s.Kind == Int || s.Kind == Proc }

// EnumType is a Cubicle type with constructors.
type EnumType struct {
	Name   string
	Values []string
}

// Var is a local array (one value per process) or a global.
type Var struct {
	Name  string
	Local bool
	Sort  Sort
	Pos   Pos
	// Const marks a Cubicle const: a global that no transition changes and
	// whose initial value is arbitrary.
	Const bool
	ID    int // index in System.Vars
}

// TermKind says what a term's base is.
type TermKind uint8

const (
	Const  TermKind = iota // the value Off
	Read                   // Var[Index] + Off (Index empty for a global)
	ProcID                 // the identifier of process variable Index, + Off
	Any                    // a nondeterministic value (Cubicle's "." in updates)
)

// Term is a value: a constant, a read of an array or global, or a process
// identifier, plus a constant offset. Sums of two variables are not part of
// the model (MCMT's and Cubicle's examples do not need them).
type Term struct {
	Kind  TermKind
	Var   *Var
	Index string
	Off   int64
	Sort  Sort
	Pos   Pos
}

// C returns the constant term v of sort s.
func C(v int64, s Sort) Term { return Term{Kind: Const, Off: v, Sort: s} }

// Op is a comparison.
type Op uint8

const (
	Eq Op = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

var opNames = [...]string{"=", "!=", "<", "<=", ">", ">="}

func (o Op) String() string { return opNames[o] }

// Negate returns the comparison that holds exactly when o does not.
func (o Op) Negate() Op {
	return [...]Op{Ne, Eq, Ge, Gt, Le, Lt}[o]
}

// FormKind is the connective of a formula.
type FormKind uint8

const (
	True FormKind = iota
	False
	Lit // L Op R
	And
	Or
	Not
)

// Formula is a quantifier-free formula over terms.
type Formula struct {
	Kind FormKind
	Op   Op
	L, R Term
	Args []*Formula
	Pos  Pos
}

// Quant is a quantified formula: universal for initial states and system
// axioms, existential over distinct processes for unsafe states and
// candidate invariants.
type Quant struct {
	Name string // a property name, or a description from the source
	Vars []string
	Body *Formula
	Pos  Pos
}

// Case is one branch of a case-defined update. Cond is nil for the last
// branch ("otherwise"): it applies when no earlier Cond holds.
type Case struct {
	Cond *Formula
	Val  Term
}

// Update gives the new value of one variable. For a local array, the cases
// are evaluated for every process J; for a global, J is empty.
type Update struct {
	Var   *Var
	J     string
	Cases []Case
	Pos   Pos
}

// Transition is a guarded update over distinct parameter processes.
type Transition struct {
	Name   string
	Doc    string // the comment that describes it in the source, if any
	Pos    Pos
	Params []string // existentially quantified, pairwise distinct
	Guard  *Formula // over Params
	// Univ, when not empty, is universally quantified over every process
	// other than the parameters: the transition is enabled only if UGuard
	// holds for each of them.
	Univ    string
	UGuard  *Formula
	Updates []*Update // at most one per variable; the others keep their values
}

// Option is an engine option given in the source (MCMT's (:mcmt ... :) and
// :keyword options, key_search).
type Option struct {
	Name, Value string
	Pos         Pos
	// Unknown is set for a name that is not one of MCMT's options; Hint
	// is the nearest option's name or the list of them.
	Unknown bool
	Hint    string
}

// System is an array-based system with one safety property: the unsafe
// formulas are never reached.
type System struct {
	Name string // file name
	Lang string // "mcmt", "mcmt1" (the :keyword syntax), "cubicle"
	// Property names the unsafe formulas (MCMT: the comment before unsafe,
	// such as AGREEMENT; else "unsafe").
	Property string
	Enums    []*EnumType
	Vars     []*Var
	Init     *Quant
	Unsafe   []*Quant
	// Axioms are assumed to hold in every reachable state (MCMT's
	// system_axiom: lemmas proved elsewhere).
	Axioms []*Quant
	// Candidates are negated invariants offered by the user (MCMT's
	// suggested_negated_invariant, Cubicle's invariant): cubes claimed
	// unreachable, which an engine proves before it uses them.
	Candidates []*Quant
	Trans      []*Transition
	Options    []Option
}

// Var returns the variable called name, or nil.
func (s *System) Var(name string) *Var {
	for _, v := range s.Vars {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Option returns the value of the named option and whether it was given.
func (s *System) Option(name string) (string, bool) {
	for _, o := range s.Options {
		if o.Name == name {
			return o.Value, true
		}
	}
	return "", false
}

// FormatValue prints a value of sort s as the model's language writes it.
func FormatValue(v int64, s Sort) string {
	switch s.Kind {
	case Bool:
		if v != 0 {
			return "true"
		}
		return "false"
	case Enum:
		if v >= 0 && int(v) < len(s.Enum.Values) {
			return s.Enum.Values[v]
		}
	case Proc:
		return "#" + strconv.FormatInt(v, 10)
	}
	return strconv.FormatInt(v, 10)
}

func (t Term) String() string {
	var b strings.Builder
	switch t.Kind {
	case Const:
		return FormatValue(t.Off, t.Sort)
	case Read:
		b.WriteString(t.Var.Name)
		if t.Var.Local {
			b.WriteString("[" + t.Index + "]")
		}
	case ProcID:
		b.WriteString(t.Index)
	case Any:
		return "."
	}
	switch {
	case t.Off > 0:
		fmt.Fprintf(&b, " + %d", t.Off)
	case t.Off < 0:
		fmt.Fprintf(&b, " - %d", -t.Off)
	}
	return b.String()
}

func (f *Formula) String() string {
	switch f.Kind {
	case True:
		return "true"
	case False:
		return "false"
	case Lit:
		return f.L.String() + " " + f.Op.String() + " " + f.R.String()
	case Not:
		return "NOT (" + f.Args[0].String() + ")"
	}
	sep := " AND "
	if f.Kind == Or {
		sep = " OR "
	}
	parts := make([]string, len(f.Args))
	for i, a := range f.Args {
		parts[i] = a.String()
		if a.Kind == And || a.Kind == Or {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return strings.Join(parts, sep)
}

// Conj builds the conjunction of fs, flattening nested conjunctions.
func Conj(fs ...*Formula) *Formula { return junction(And, True, fs) }

// Disj builds the disjunction of fs, flattening nested disjunctions.
func Disj(fs ...*Formula) *Formula { return junction(Or, False, fs) }

// junction builds the formula kind (And, Or) of fs, without its unit (True,
// False) and nil, flattening nested ones.
func junction(kind, unit FormKind, fs []*Formula) *Formula {
	var args []*Formula
	for _, f := range fs {
		switch {
		case f == nil || f.Kind == unit:
		case f.Kind == kind:
			args = append(args, f.Args...)
		default:
			args = append(args, f)
		}
	}
	switch len(args) {
	case 0:
		return &Formula{Kind: unit}
	case 1:
		return args[0]
	}
	return &Formula{Kind: kind, Args: args}
}
