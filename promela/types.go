package promela

import "strings"

// TypeKind is the kind of a Promela type.
type TypeKind uint8

// The kinds of types. Bit and bool are the same type under two names, as
// are byte and pid in Spin; they are kept apart here only for messages.
const (
	TInvalid  TypeKind = iota
	TBit               // bit: 1 bit, 0..1
	TBool              // bool: 1 bit, 0..1
	TByte              // byte: 8 bits, 0..255
	TPid               // pid: 8 bits, 0..255
	TShort             // short: 16 bits, signed
	TInt               // int: 32 bits, signed
	TUnsigned          // unsigned x : Bits, 0..2^Bits-1
	TMtype             // mtype (or mtype:Sub): 8 bits, 0..255
	TChan              // chan: a channel handle (8 bits in Spin's state vector)
	TStruct            // a typedef
	TArray             // an array of Elem
)

// UnboundedUnsigned is the width of an unsigned variable declared without
// one in a ByMC model (unsigned x = 0): ByMC reads it as a natural number,
// and an instance stores it as the non-negative ints, 0..2^31-1.
const UnboundedUnsigned = 31

// Type is a Promela type. Types of basic kinds are shared; compare kinds,
// not pointers.
type Type struct {
	Kind   TypeKind
	Bits   int      // TUnsigned: the width
	Mtype  string   // TMtype: the named mtype ("" for the default one)
	Name   string   // TStruct: the typedef name
	Fields []*Field // TStruct: the fields in order
	Elem   *Type    // TArray: the element type
	Len    int64    // TArray: the length (-1 while it depends on an unbound parameter)
	Decl   *TypedefDecl
}

// Field is a field of a structure type.
type Field struct {
	Name string
	Type *Type
	Decl *VarDecl
	Sym  *Symbol
}

// Field returns the field named name, or nil.
func (t *Type) Field(name string) *Field {
	for _, f := range t.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

var (
	typeBit   = &Type{Kind: TBit}
	typeBool  = &Type{Kind: TBool}
	typeByte  = &Type{Kind: TByte}
	typePid   = &Type{Kind: TPid}
	typeShort = &Type{Kind: TShort}
	typeInt   = &Type{Kind: TInt}
	typeChan  = &Type{Kind: TChan}
	typeMtype = &Type{Kind: TMtype}
)

// IsScalar reports whether t holds one number (not an array or structure).
func (t *Type) IsScalar() bool {
	return t != nil && t.Kind != TStruct && t.Kind != TArray && t.Kind != TInvalid
}

// IsNumeric reports whether arithmetic is allowed on values of t (any
// scalar except a channel).
func (t *Type) IsNumeric() bool { return t.IsScalar() && t.Kind != TChan }

// Width returns the number of bits Spin uses for a scalar of type t.
func (t *Type) Width() int {
	switch t.Kind {
	case TBit, TBool:
		return 1
	case TByte, TPid, TMtype, TChan:
		return 8
	case TShort:
		return 16
	case TInt:
		return 32
	case TUnsigned:
		return t.Bits
	}
	return 0
}

// Range returns the smallest and largest value of a scalar type.
func (t *Type) Range() (min, max int64) {
	switch t.Kind {
	case TBit, TBool:
		return 0, 1
	case TByte, TPid, TMtype, TChan:
		return 0, 255
	case TShort:
		return -1 << 15, 1<<15 - 1
	case TInt:
		return -1 << 31, 1<<31 - 1
	case TUnsigned:
		return 0, 1<<uint(t.Bits) - 1
	}
	return 0, 0
}

// Signed reports whether t is a signed integer type.
func (t *Type) Signed() bool { return t.Kind == TShort || t.Kind == TInt }

// String returns the type as it would be declared.
func (t *Type) String() string {
	if t == nil {
		return "<nil>"
	}
	switch t.Kind {
	case TBit:
		return "bit"
	case TBool:
		return "bool"
	case TByte:
		return "byte"
	case TPid:
		return "pid"
	case TShort:
		return "short"
	case TInt:
		return "int"
	case TUnsigned:
		return "unsigned:" + itoa(t.Bits)
	case TMtype:
		if t.Mtype != "" {
			return "mtype:" + t.Mtype
		}
		return "mtype"
	case TChan:
		return "chan"
	case TStruct:
		return t.Name
	case TArray:
		var b strings.Builder
		b.WriteString(t.Elem.String())
		b.WriteByte('[')
		if t.Len >= 0 {
			b.WriteString(itoa(int(t.Len)))
		} else {
			b.WriteByte('?')
		}
		b.WriteByte(']')
		return b.String()
	}
	return "invalid"
}

// SymKind is the kind of thing a name denotes.
type SymKind uint8

// The kinds of symbols.
const (
	SymInvalid SymKind = iota
	SymVar             // a global or local variable, or a proctype parameter
	SymField           // a field of a typedef
	SymMtype           // an mtype constant
	SymProc            // a proctype
	SymLabel           // a label in a process
	SymTypedef         // a typedef name
	SymInline          // an inline
	SymParam           // a ByMC symbolic parameter (symbolic int N)
	SymAtomic          // a ByMC named atomic proposition
	SymPredef          // a predefined name: _pid, _nr_pr, _last, _priority, _, timeout, np_
)

var symKindNames = [...]string{
	SymInvalid: "invalid", SymVar: "variable", SymField: "field",
	SymMtype: "mtype constant", SymProc: "proctype", SymLabel: "label",
	SymTypedef: "typedef", SymInline: "inline", SymParam: "parameter",
	SymAtomic: "atomic proposition", SymPredef: "predefined name",
}

func (k SymKind) String() string { return enumName(k, symKindNames[:], "symkind") }

// Predef identifies a predefined name.
type Predef uint8

// The predefined names.
const (
	PredefNone     Predef = iota
	PredefPid             // _pid: the pid of the running process
	PredefNrPr            // _nr_pr: the number of running processes
	PredefLast            // _last: the pid of the process that moved last
	PredefPriority        // _priority (rejected: priorities are not supported)
	PredefWrite           // _: the write-only scratch variable
	PredefTimeout         // timeout: no other statement is executable
	PredefNP              // np_: the system is in a non-progress state
)

// Symbol is what a name denotes. Every resolved Ident points to one; a
// declaration and all its uses share the Symbol.
type Symbol struct {
	Name string
	Kind SymKind
	Pos  Pos   // where it is declared (zero for predefined names)
	Type *Type // variables, fields, parameters, mtype constants, predefined variables

	// Decl is the declaring node: *VarDecl (variables), *MtypeDecl
	// (mtype constants), *ProcDecl (proctypes), *LabeledStmt (labels),
	// *TypedefDecl, *InlineDecl, *SymbolicDecl, *AtomicPropDecl; nil for
	// predefined names and fields.
	Decl Node

	// Proc is the process that owns a local variable, a parameter or a
	// label; nil for globals.
	Proc *ProcDecl

	IsParam bool  // SymVar: a proctype parameter
	Index   int   // SymVar: the index among the globals or among Proc.Locals; SymParam: among Program.Params
	Value   int64 // SymMtype: the constant's value; SymParam: the value once bound
	Bound   bool  // SymParam: Instantiate gave it a value
	Predef  Predef
}

// IsConst reports whether the symbol is a named constant: an mtype
// constant, or a parameter with a value.
func (s *Symbol) IsConst() bool {
	return s.Kind == SymMtype || s.Kind == SymParam && s.Bound
}

// IsGlobal reports whether s is a global variable.
func (s *Symbol) IsGlobal() bool { return s.Kind == SymVar && s.Proc == nil }
