//go:build unix

package smt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LookupAll is one error for a missing solver, with how to install it and,
// when the other solver is on PATH, how to use that one instead.
func TestLookupAll(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	z3 := Options{Name: "z3"}
	err := LookupAll(z3)
	if !errors.Is(err, ErrNoSolver) || !strings.Contains(err.Error(), "apt-get install z3") || strings.Contains(err.Error(), "--solver") {
		t.Errorf("no solver on PATH: %v", err)
	}
	// An executable named cvc5 on PATH (it is only looked up, never run).
	if err := os.WriteFile(filepath.Join(dir, "cvc5"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = LookupAll(z3)
	if !errors.Is(err, ErrNoSolver) || !strings.Contains(err.Error(), "apt-get install z3") || !strings.Contains(err.Error(), "or use cvc5, which is on PATH (--solver cvc5)") {
		t.Errorf("cvc5 on PATH: %v", err)
	}
	if err := LookupAll(Options{}); err == nil || !strings.Contains(err.Error(), "--solver cvc5") {
		t.Errorf("default solver: %v", err)
	}
	if err := LookupAll(Options{Name: "cvc5"}); err != nil {
		t.Errorf("cvc5: %v", err)
	}
	// A path given is looked up as it is: no other solver is offered.
	err = LookupAll(Options{Name: "z3", Path: filepath.Join(dir, "z3")})
	if !errors.Is(err, ErrNoSolver) || strings.Contains(err.Error(), "--solver") {
		t.Errorf("missing path: %v", err)
	}
	err = LookupAll(Options{Name: "cvc5", CrossCheck: &z3})
	if !errors.Is(err, ErrNoSolver) || !strings.HasPrefix(err.Error(), "cross-check solver: ") {
		t.Errorf("missing cross-check solver: %v", err)
	}
}
