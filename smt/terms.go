package smt

import (
	"strconv"
	"strings"
)

// Helpers that build SMT-LIB 2 terms as text.

// Int is an integer literal; negative values become (- n).
func Int(n int64) string {
	if n < 0 {
		if n == -n { // math.MinInt64
			return "(- " + strconv.FormatUint(uint64(n), 10) + ")"
		}
		return "(- " + strconv.FormatInt(-n, 10) + ")"
	}
	return strconv.FormatInt(n, 10)
}

// Sym quotes a symbol when SMT-LIB requires it.
func Sym(name string) string {
	if name == "" {
		return "||"
	}
	simple := true
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r == '.', r == '!', r == '$', r == '@', r == '~', r == '^', r == '&', r == '%', r == '?', r == '/', r == '*', r == '=', r == '<', r == '>', r == '+', r == '-':
		case r >= '0' && r <= '9':
			if i == 0 {
				simple = false
			}
		default:
			simple = false
		}
	}
	if simple {
		return name
	}
	return "|" + strings.ReplaceAll(name, "|", "_") + "|"
}

// App builds (op args...), or op alone when there are no arguments.
func App(op string, args ...string) string {
	if len(args) == 0 {
		return op
	}
	var b strings.Builder
	b.WriteByte('(')
	b.WriteString(op)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	b.WriteByte(')')
	return b.String()
}

// And is the conjunction (true when empty).
func And(ts ...string) string { return fold("and", "true", ts) }

// Or is the disjunction (false when empty).
func Or(ts ...string) string { return fold("or", "false", ts) }

// Not negates t.
func Not(t string) string { return App("not", t) }

// Times is c * t, or t when c is 1.
func Times(c int64, t string) string {
	if c == 1 {
		return t
	}
	return App("*", Int(c), t)
}

// Sum is the sum (0 when empty).
func Sum(ts ...string) string { return fold("+", "0", ts) }

// fold applies the associative operator op to ts: its unit when ts is
// empty, the term alone when there is one.
func fold(op, unit string, ts []string) string {
	switch len(ts) {
	case 0:
		return unit
	case 1:
		return ts[0]
	}
	return App(op, ts...)
}

// DeclareConst declares name of sort (Int, Bool, Real, ...).
func DeclareConst(name, sort string) string {
	return "(declare-const " + Sym(name) + " " + sort + ")"
}
