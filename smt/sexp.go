package smt

import (
	"bufio"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// Sexp is a parsed S-expression of a solver's answer: an atom (symbol,
// numeral, string literal with its quotes) or a list.
type Sexp struct {
	Atom   string
	List   []Sexp
	IsList bool
}

func (s Sexp) String() string {
	if !s.IsList {
		return s.Atom
	}
	var b strings.Builder
	b.WriteByte('(')
	for i, e := range s.List {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(e.String())
	}
	b.WriteByte(')')
	return b.String()
}

// Bounds on one answer of a solver. The answers ftmc asks for are a few
// levels deep (a get-value pair holds a term ftmc wrote); a solver that
// nests deeper or writes more is broken, and reading it must not exhaust
// the stack or the memory.
const (
	maxDepth  = 1000
	maxAnswer = 16 << 20 // bytes
)

// errAnswer is a solver output that is not an answer within the bounds.
type errAnswer struct{ msg string }

func (e *errAnswer) Error() string { return e.msg }

// readSexp reads one S-expression from r, skipping white space and ;
// comments. It keeps a stack of open lists instead of recursing: the depth
// is bounded by maxDepth and the bytes read by maxAnswer.
func readSexp(r *bufio.Reader) (Sexp, error) {
	var stack [][]Sexp // the elements read so far of each open list
	n := 0             // bytes of this answer
	var atom strings.Builder
	for {
		c, err := r.ReadByte()
		if err != nil {
			if err == io.EOF && len(stack) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return Sexp{}, err
		}
		if n++; n > maxAnswer {
			return Sexp{}, &errAnswer{fmt.Sprintf("an answer longer than %d MB", maxAnswer>>20)}
		}
		var e Sexp
		switch {
		case c == ';':
			for c != '\n' {
				if c, err = r.ReadByte(); err != nil {
					return Sexp{}, err
				}
				if n++; n > maxAnswer {
					return Sexp{}, &errAnswer{fmt.Sprintf("an answer longer than %d MB", maxAnswer>>20)}
				}
			}
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == '(':
			if len(stack) == maxDepth {
				return Sexp{}, &errAnswer{fmt.Sprintf("an answer nested deeper than %d levels", maxDepth)}
			}
			stack = append(stack, nil)
			continue
		case c == ')':
			if len(stack) == 0 {
				return Sexp{}, &errAnswer{"unexpected ')'"}
			}
			e = Sexp{List: stack[len(stack)-1], IsList: true}
			stack = stack[:len(stack)-1]
		case c == '"' || c == '|':
			// A string literal ("" is an escaped quote inside it) or a
			// quoted symbol.
			atom.Reset()
			atom.WriteByte(c)
			for {
				d, err := r.ReadByte()
				if err != nil {
					if err == io.EOF {
						err = io.ErrUnexpectedEOF
					}
					return Sexp{}, err
				}
				if n++; n > maxAnswer {
					return Sexp{}, &errAnswer{fmt.Sprintf("an answer longer than %d MB", maxAnswer>>20)}
				}
				atom.WriteByte(d)
				if d != c {
					continue
				}
				if c == '"' {
					if next, err := r.Peek(1); err == nil && next[0] == '"' {
						r.ReadByte()
						n++
						atom.WriteByte('"')
						continue
					}
				}
				break
			}
			e = Sexp{Atom: atom.String()}
		default:
			atom.Reset()
			atom.WriteByte(c)
			for {
				next, err := r.Peek(1)
				if err == io.EOF {
					break
				}
				if err != nil {
					return Sexp{}, err
				}
				if strings.IndexByte(" \t\r\n();\"", next[0]) >= 0 {
					break
				}
				if n++; n > maxAnswer {
					return Sexp{}, &errAnswer{fmt.Sprintf("an answer longer than %d MB", maxAnswer>>20)}
				}
				r.ReadByte()
				atom.WriteByte(next[0])
			}
			e = Sexp{Atom: atom.String()}
		}
		if len(stack) == 0 {
			return e, nil
		}
		stack[len(stack)-1] = append(stack[len(stack)-1], e)
	}
}

// Value is a value in a model: an integer, a rational, or a Boolean.
type Value struct {
	Rat    *big.Rat // integers and rationals
	Bool   bool
	IsBool bool
	Raw    string // the solver's text
}

// Int64 returns an integer value, and false when v is not an integer that
// fits.
func (v Value) Int64() (int64, bool) {
	if v.Rat == nil || !v.Rat.IsInt() || !v.Rat.Num().IsInt64() {
		return 0, false
	}
	return v.Rat.Num().Int64(), true
}

func (v Value) String() string { return v.Raw }

// parseValue reads numerals, decimals, (- x), (/ x y), true and false.
func parseValue(e Sexp) (Value, error) {
	raw := e.String()
	if !e.IsList {
		switch e.Atom {
		case "true":
			return Value{Bool: true, IsBool: true, Raw: raw}, nil
		case "false":
			return Value{IsBool: true, Raw: raw}, nil
		}
		r, ok := new(big.Rat).SetString(e.Atom)
		if !ok {
			return Value{}, fmt.Errorf("cannot read value %s", raw)
		}
		return Value{Rat: r, Raw: raw}, nil
	}
	if len(e.List) == 2 && !e.List[0].IsList && e.List[0].Atom == "-" {
		v, err := parseValue(e.List[1])
		if err != nil || v.Rat == nil {
			return Value{}, fmt.Errorf("cannot read value %s", raw)
		}
		v.Rat.Neg(v.Rat)
		v.Raw = raw
		return v, nil
	}
	if len(e.List) == 3 && !e.List[0].IsList && e.List[0].Atom == "/" {
		a, err1 := parseValue(e.List[1])
		b, err2 := parseValue(e.List[2])
		if err1 != nil || err2 != nil || a.Rat == nil || b.Rat == nil || b.Rat.Sign() == 0 {
			return Value{}, fmt.Errorf("cannot read value %s", raw)
		}
		return Value{Rat: new(big.Rat).Quo(a.Rat, b.Rat), Raw: raw}, nil
	}
	return Value{}, fmt.Errorf("cannot read value %s", raw)
}
