package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"ftmc/internal/testenv"
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

// reportSchema is docs/report.schema.json.
func reportSchema(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "docs", "report.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("docs/report.schema.json: %v", err)
	}
	return s
}

// schemaErrors checks a JSON document against the part of JSON Schema
// that docs/report.schema.json uses ($ref, type, enum, pattern, required,
// properties, additionalProperties, items), and also reports the fields
// that the schema does not describe, so that it stays complete.
func schemaErrors(root map[string]any, data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{err.Error()}
	}
	var errs []string
	checkSchema(root, root, v, "$", &errs)
	return errs
}

func checkSchema(root, s map[string]any, v any, path string, errs *[]string) {
	fail := func(format string, args ...any) {
		*errs = append(*errs, path+": "+fmt.Sprintf(format, args...))
	}
	if ref, ok := s["$ref"].(string); ok {
		target := root
		if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
			target, _ = root["$defs"].(map[string]any)[name].(map[string]any)
		} else if ref != "#" {
			target = nil
		}
		if target == nil {
			fail("the schema's $ref %q names nothing", ref)
			return
		}
		// The schema puts nothing beside a $ref.
		checkSchema(root, target, v, path, errs)
		return
	}
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, v) {
		fail("%v is not one of %v", v, enum)
	}
	if typ, ok := s["type"].(string); ok {
		var is bool
		switch typ {
		case "object":
			_, is = v.(map[string]any)
		case "array":
			_, is = v.([]any)
		case "string":
			_, is = v.(string)
		case "boolean":
			_, is = v.(bool)
		case "number":
			_, is = v.(json.Number)
		case "integer":
			n, num := v.(json.Number)
			_, err := n.Int64()
			is = num && err == nil
		}
		if !is {
			fail("%v is not of type %s", v, typ)
			return
		}
	}
	if pat, ok := s["pattern"].(string); ok {
		if str, _ := v.(string); !regexp.MustCompile(pat).MatchString(str) {
			fail("%q does not match %s", str, pat)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		req, _ := s["required"].([]any)
		for _, r := range req {
			if _, ok := v[r.(string)]; !ok {
				fail("lacks the required field %q", r)
			}
		}
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			sub, ok := props[k].(map[string]any)
			if !ok {
				sub, ok = s["additionalProperties"].(map[string]any)
			}
			if !ok {
				fail("field %q is not in the schema", k)
				continue
			}
			checkSchema(root, sub, v[k], path+"."+k, errs)
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, x := range v {
				checkSchema(root, items, x, fmt.Sprintf("%s[%d]", path, i), errs)
			}
		}
	}
}

// The reports of every language's engine match docs/report.schema.json
// and begin with their format.
func TestReportJSONSchema(t *testing.T) {
	schema := reportSchema(t)
	dir := t.TempDir()
	pmlModel := filepath.Join(dir, "m.pml")
	src := "chan c = [1] of { int };\nactive proctype P() { c!1; c!2 }\nactive proctype Q() { int x; c?x; assert(x == 2) }\n"
	if err := os.WriteFile(pmlModel, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	root := testenv.RepoRoot(t)
	runs := []struct {
		args []string
		z3   bool
		code int
	}{
		{[]string{"check", pmlModel}, false, trace.ExitViolated},
		{[]string{"check", pmlModel, "--ltl-formula", "[] (len(c) <= 1)"}, false, trace.ExitViolated},
		{[]string{"check", pmlModel, "--hash-compact"}, false, trace.ExitViolated},
		{[]string{"verify", filepath.Join(root, "examples", "mcmt", "lock_bug.cub")}, false, trace.ExitViolated},
		{[]string{"verify", filepath.Join(root, "examples", "mcmt", "broadcast_bug.mcmt")}, false, trace.ExitViolated},
		{[]string{"verify", filepath.Join(root, "examples", "threshold", "st-byz-n-ge-3t.ta"), "unforg", "relay"}, true, trace.ExitViolated},
		// Guard synthesis: the solution and its verdicts.
		{[]string{"verify", filepath.Join(root, "examples", "threshold", "st-byz-synth.ta")}, true, trace.ExitHolds},
		// ByMC's Promela: every parameter value, no counterexample.
		{[]string{"verify", filepath.Join(root, "examples", "bymc", "fbc.pml"), "unforg"}, true, trace.ExitHolds},
	}
	for _, r := range runs {
		name := strings.Join(r.args, " ")
		t.Run(filepath.Base(name), func(t *testing.T) {
			if r.z3 {
				testenv.NeedBinary(t, "z3")
			}
			out, stderr, code := runCmd(append(r.args, "--json")...)
			if code != r.code {
				t.Fatalf("ftmc %s --json: exit %d, want %d\n%s", name, code, r.code, stderr)
			}
			if want := "{\n  \"format\": \"" + trace.FormatVersion + "\",\n"; !strings.HasPrefix(out, want) {
				t.Errorf("ftmc %s --json: the report begins %.40q, want %q", name, out, want)
			}
			if r.code == trace.ExitViolated && !strings.Contains(out, `"counterexample"`) {
				t.Errorf("ftmc %s --json: no counterexample to check against the schema", name)
			}
			// Every front end lists the processes its charts draw.
			if r.code == trace.ExitViolated && !strings.Contains(out, `"processes"`) {
				t.Errorf("ftmc %s --json: the counterexample lists no processes", name)
			}
			for _, e := range schemaErrors(schema, []byte(out)) {
				t.Errorf("ftmc %s --json: %s", name, e)
			}
		})
	}
	// The check above can fail: a report without its format, with a
	// verdict of its own, or with a field the schema lacks does not match.
	for _, bad := range []string{
		`{"model": "m", "verdicts": [], "stats": {"states": 1, "transitions": 0, "seconds": 0, "memory_bytes": 0, "complete": true}}`,
		`{"format": "ftmc-report/1", "model": "m", "verdicts": [{"property": "p", "verdict": "maybe"}], "stats": {"states": 1, "transitions": 0, "seconds": 0, "memory_bytes": 0, "complete": true}}`,
		`{"format": "ftmc-report/1", "model": "m", "verdicts": [], "stats": {"states": 1.5, "transitions": 0, "seconds": 0, "memory_bytes": 0, "complete": true}}`,
		`{"format": "ftmc-report/2", "model": "m", "verdicts": [], "stats": {"states": 1, "transitions": 0, "seconds": 0, "memory_bytes": 0, "complete": true}}`,
		`{"format": "ftmc-report/1", "model": "m", "verdicts": [], "stats": {"states": 1, "transitions": 0, "seconds": 0, "memory_bytes": 0, "complete": true}, "new": 1}`,
	} {
		if errs := schemaErrors(schema, []byte(bad)); len(errs) != 1 {
			t.Errorf("%s: %d errors, want 1: %q", bad, len(errs), errs)
		}
	}
}

// ftmc sweep --json prints a JSON array of reports of check's shape, each
// with its format: the check's own, or one unknown verdict that says why
// there is none (bad input also says its error).
func TestSweepJSONReports(t *testing.T) {
	schema := reportSchema(t)
	f := &fakeCheck{}
	out, _, code := runSweep(t, f, sweepModel(t), "-D", "CHAN=B,X,OOM", "--json")
	if code != trace.ExitUsage {
		t.Errorf("exit %d, want 2 (one combination is bad input)", code)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal([]byte(out), &raws); err != nil || len(raws) != 3 {
		t.Fatalf("not a JSON array of three reports (%v):\n%s", err, out)
	}
	for i, raw := range raws {
		if !bytes.HasPrefix(raw, []byte(`{
    "format": "`+trace.FormatVersion+`",`)) {
			t.Errorf("report %d begins %.40q, not with its format", i+1, raw)
		}
		// A report of sweep as a whole is a report of check's shape.
		for _, e := range schemaErrors(schema, raw) {
			t.Errorf("report %d: %s", i+1, e)
		}
	}
	var reps []trace.Report
	if err := json.Unmarshal([]byte(out), &reps); err != nil {
		t.Fatal(err)
	}
	b, x, oom := reps[0], reps[1], reps[2]
	if b.Defines["CHAN"] != "B" || len(b.Verdicts) != 1 || b.Verdicts[0].Verdict != trace.Violated || b.Verdicts[0].Counterexample == nil || b.Error != "" {
		t.Errorf("CHAN=B: %+v, want the check's report, violated with its counterexample", b)
	}
	if x.Defines["CHAN"] != "X" || len(x.Verdicts) != 1 || x.Verdicts[0].Verdict != trace.Unknown || !strings.Contains(x.Error, "CHAN must be B, R or I") || !strings.HasPrefix(x.Verdicts[0].Reason, "bad input: ") {
		t.Errorf("CHAN=X: %+v, want unknown and the error", x)
	}
	if v := oom.Verdicts; len(v) != 1 || v[0].Property != sweepProperty || v[0].Verdict != trace.Unknown || !strings.HasPrefix(v[0].Reason, "out of memory after 4000 states") || oom.Stats.States != 4000 || oom.Stats.Complete || oom.Error != "" {
		t.Errorf("CHAN=OOM: %+v, want unknown, out of memory, with the figures reached", oom)
	}
}
