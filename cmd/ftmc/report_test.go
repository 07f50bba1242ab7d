package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"ftmc/trace"
)

// ftmc check --ltl-formula records the formula's text in the report, not
// only the property's name, whatever the verdict.
func TestReportLTLFormula(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.pml")
	if err := os.WriteFile(model, []byte("int x;\nactive proctype P() { x = 1; x = 2 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		formula string
		want    trace.Verdict
	}{
		{"[] (x <= 2)", trace.Holds},
		{"[] (x < 2)", trace.Violated},
	} {
		rep, code, stderr := runFtmc(context.Background(), []string{"check", model, "--ltl-formula", tc.formula})
		if rep == nil || len(rep.Verdicts) != 1 {
			t.Fatalf("--ltl-formula %q: exit %d:\n%s", tc.formula, code, stderr)
		}
		v := rep.Verdicts[0]
		if v.Property != formulaName || v.Formula != tc.formula || v.Verdict != tc.want {
			t.Errorf("--ltl-formula %q: property %q, formula %q, %s; want %q, %q, %s", tc.formula, v.Property, v.Formula, v.Verdict, formulaName, tc.formula, tc.want)
		}
	}
	// A property of the model's own has its name, and no formula field.
	if err := os.WriteFile(model, []byte("int x;\nactive proctype P() { x = 1 }\nltl p { [] (x <= 1) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, code, stderr := runFtmc(context.Background(), []string{"check", model, "--ltl", "p"})
	if rep == nil || len(rep.Verdicts) != 1 || rep.Verdicts[0].Formula != "" {
		t.Errorf("--ltl p: exit %d, report %+v\n%s", code, rep, stderr)
	}
}
