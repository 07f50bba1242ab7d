package ident

import "testing"

func TestValid(t *testing.T) {
	for s, want := range map[string]bool{
		"N": true, "_x": true, "BUF_2": true, "a1b2": true,
		"": false, "2x": false, "a-b": false, "a b": false, "é": false, "x.y": false,
	} {
		if got := Valid(s); got != want {
			t.Errorf("Valid(%q) = %v, want %v", s, got, want)
		}
	}
}
