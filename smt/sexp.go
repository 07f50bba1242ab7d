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

// readSexp reads one S-expression from r, skipping white space and ;
// comments.
func readSexp(r *bufio.Reader) (Sexp, error) {
	for {
		c, err := r.ReadByte()
		if err != nil {
			return Sexp{}, err
		}
		switch {
		case c == ';':
			if _, err := r.ReadString('\n'); err != nil {
				return Sexp{}, err
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '(':
			var list []Sexp
			for {
				if err := skipSpace(r); err != nil {
					return Sexp{}, err
				}
				c, err := r.ReadByte()
				if err != nil {
					return Sexp{}, err
				}
				if c == ')' {
					return Sexp{List: list, IsList: true}, nil
				}
				if err := r.UnreadByte(); err != nil {
					return Sexp{}, err
				}
				e, err := readSexp(r)
				if err != nil {
					return Sexp{}, err
				}
				list = append(list, e)
			}
		case c == ')':
			return Sexp{}, fmt.Errorf("unexpected ')' in solver output")
		case c == '"':
			var b strings.Builder
			b.WriteByte('"')
			for {
				c, err := r.ReadByte()
				if err != nil {
					return Sexp{}, err
				}
				b.WriteByte(c)
				if c == '"' {
					// "" is an escaped quote inside a string literal.
					if n, err := r.Peek(1); err == nil && n[0] == '"' {
						r.ReadByte()
						b.WriteByte('"')
						continue
					}
					return Sexp{Atom: b.String()}, nil
				}
			}
		case c == '|':
			var b strings.Builder
			b.WriteByte('|')
			for {
				c, err := r.ReadByte()
				if err != nil {
					return Sexp{}, err
				}
				b.WriteByte(c)
				if c == '|' {
					return Sexp{Atom: b.String()}, nil
				}
			}
		default:
			var b strings.Builder
			b.WriteByte(c)
			for {
				n, err := r.Peek(1)
				if err == io.EOF {
					return Sexp{Atom: b.String()}, nil
				}
				if err != nil {
					return Sexp{}, err
				}
				if strings.IndexByte(" \t\r\n();\"", n[0]) >= 0 {
					return Sexp{Atom: b.String()}, nil
				}
				r.ReadByte()
				b.WriteByte(n[0])
			}
		}
	}
}

func skipSpace(r *bufio.Reader) error {
	for {
		c, err := r.ReadByte()
		if err != nil {
			return err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case ';':
			if _, err := r.ReadString('\n'); err != nil {
				return err
			}
			continue
		}
		return r.UnreadByte()
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
