// Package ident tells identifiers as C, Promela and LTL formulas spell
// them: the names of macros, parameters and propositions.
package ident

// Valid reports whether s is an identifier: an ASCII letter or _, then
// ASCII letters, digits and _.
func Valid(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}
