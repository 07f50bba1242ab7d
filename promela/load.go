package promela

import (
	"context"
	"errors"
	"fmt"

	"ftmc/internal/readfile"
)

// Options control how a model is read.
type Options struct {
	// Defines are macros as given by -D on the command line: NAME=VALUE.
	// An empty value defines the macro as 1 (as -D NAME does).
	Defines map[string]string

	// IncludeDirs are searched for #include files after the including
	// file's directory (for "file") or alone (for <file>).
	IncludeDirs []string

	// Params, if not nil, gives values to the symbolic parameters of a
	// parametric (ByMC) model: the program is instantiated as by
	// Instantiate, and its warnings are added to Program.Warnings.
	Params map[string]int64

	// ReadFile reads included files; nil means reading them with
	// readfile.ReadContext (with Context), up to readfile.ModelLimit bytes
	// each.
	ReadFile func(name string) ([]byte, error)

	// Context, if not nil, stops the reading when it is done, with an
	// error "stopped reading the model: CAUSE", or the
	// *readfile.StoppedError of the file being read (the model file
	// itself, or wrapped in the error at the #include of an included
	// file): a FIFO without a writer does not hold the reading up.
	Context context.Context
}

// Program is a parsed and resolved model.
type Program struct {
	Filename string
	Decls    []Decl // all top-level units in source order

	Globals  []*VarDecl  // global variables in order of declaration
	Procs    []*ProcDecl // proctypes in order of declaration
	Init     *ProcDecl   // the init process, or nil
	Nevers   []*ProcDecl // never claims
	LTL      []*LTLDecl  // ltl formulas
	Mtypes   []*MtypeSet // the default mtype first (if used), then named ones in order of first declaration
	Typedefs []*TypedefDecl
	Inlines  []*InlineDecl

	// ByMC's parametric extensions.
	Params  []*Symbol         // symbolic parameters in order of declaration
	Assumes []*AssumeDecl     // top-level assumptions (resilience conditions)
	Props   []*AtomicPropDecl // named atomic propositions

	Pragmas  []Pragma
	Warnings []Warning

	// Scope maps the global names (variables, mtype constants, proctypes,
	// typedefs, inlines, parameters, atomic propositions) to their symbols.
	Scope map[string]*Symbol

	types map[Expr]*Type
}

// Pos returns the model's file, without a line: what an error about the
// whole model is reported at.
func (p *Program) Pos() Pos { return Pos{file: &p.Filename} }

// MtypeSet is the set of constants of one mtype (the default one, Name
// "", or a named one, mtype:Name).
//
// Spin numbers the constants of each mtype from 1, in reverse order within
// one declaration, continuing the count over later declarations of the
// same mtype: mtype = {a, b}; mtype = {c} gives b=1, a=2, c=3. Consts is
// ordered by value: Consts[i].Value == i+1.
type MtypeSet struct {
	Name   string
	Consts []*Symbol
}

// ConstName returns the name of the constant with value v, or "" if
// there is none.
func (m *MtypeSet) ConstName(v int64) string {
	if v >= 1 && v <= int64(len(m.Consts)) {
		return m.Consts[v-1].Name
	}
	return ""
}

// Mtype returns the mtype named name ("" for the default mtype), or nil.
func (p *Program) Mtype(name string) *MtypeSet {
	for _, m := range p.Mtypes {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// TypeOf returns the type of an expression of the program (for
// expressions inside processes, claims, formulas and propositions), or
// nil if the checker did not record one.
func (p *Program) TypeOf(x Expr) *Type { return p.types[x] }

// Proc returns the proctype named name, or nil.
func (p *Program) Proc(name string) *ProcDecl {
	for _, d := range p.Procs {
		if d.Name.Name == name {
			return d
		}
	}
	return nil
}

// Parametric reports whether the program has symbolic parameters without
// values.
func (p *Program) Parametric() bool {
	for _, s := range p.Params {
		if !s.Bound {
			return true
		}
	}
	return false
}

// ByMC reports whether the program is a ByMC model: it declares symbolic
// parameters (with values or not). Its instances are read as ByMC reads
// them (package ltl/pml, CheckInstance).
func (p *Program) ByMC() bool { return len(p.Params) > 0 }

// Load reads, preprocesses, parses and resolves the model in the file
// path. The error, if any, is an *ErrorList whose entries read
// file:line:col: message (or an error from reading the file).
func Load(path string, opts Options) (*Program, error) {
	src, err := readfile.ReadContext(opts.Context, path, readfile.ModelLimit, "model file")
	var tl *readfile.TooLargeError
	var se *readfile.StoppedError
	if errors.As(err, &tl) || errors.As(err, &se) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read model: %w", err)
	}
	return Parse(path, src, opts)
}

// Parse preprocesses, parses and resolves the model src, read from the
// file filename (used in positions and to find included files).
func Parse(filename string, src []byte, opts Options) (*Program, error) {
	prog, errs := parseOnly(filename, src, opts)
	if errs.Len() > 0 {
		return nil, errs.Err()
	}
	resolve(prog, errs)
	if errs.Len() > 0 {
		return nil, errs.Err()
	}
	if opts.Params != nil {
		w, err := Instantiate(prog, opts.Params)
		if err != nil {
			return nil, err
		}
		prog.Warnings = append(prog.Warnings, w...)
	}
	return prog, nil
}

// parseOnly preprocesses and parses, without resolving.
func parseOnly(filename string, src []byte, opts Options) (*Program, *ErrorList) {
	errs := &ErrorList{}
	pp := newPreprocessor(&opts, errs)
	pp.pushFile(filename, src)
	p := newStreamParser(opts.Context, pp, errs)
	decls := p.parseFile()
	return &Program{Filename: filename, Decls: decls, Pragmas: pp.pragmas, Warnings: pp.warnings}, errs
}

// Preprocess runs only the preprocessor and returns the resulting text
// (one line per source line that has tokens, tokens separated as in the
// source), for looking at what macros made of a model.
func Preprocess(filename string, src []byte, opts Options) (string, error) {
	errs := &ErrorList{}
	pp := newPreprocessor(&opts, errs)
	pp.pushFile(filename, src)
	toks := pp.run()
	if errs.Len() > 0 {
		return "", errs.Err()
	}
	var out []byte
	var file *string
	line := int32(0)
	for _, t := range toks {
		if t.tok == EOF {
			break
		}
		switch {
		case t.pos.file != file || t.pos.Line != line:
			if len(out) > 0 {
				out = append(out, '\n')
			}
			file, line = t.pos.file, t.pos.Line
		case t.space:
			out = append(out, ' ')
		}
		if t.tok.IsKeyword() {
			out = append(out, t.tok.String()...)
		} else {
			out = append(out, t.String()...)
		}
	}
	if len(out) > 0 {
		out = append(out, '\n')
	}
	return string(out), nil
}
