package promela

import (
	"strings"
	"testing"
)

// stmts parses src and returns the statements of its first process, one
// StmtString per line, nested statements indented.
func stmts(t *testing.T, src string) string {
	t.Helper()
	prog, errs := parseOnly("test.pml", []byte(src), Options{})
	if err := errs.Err(); err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	var procs []*ProcDecl
	for _, d := range prog.Decls {
		if p, ok := d.(*ProcDecl); ok {
			procs = append(procs, p)
		}
	}
	if len(procs) == 0 {
		t.Fatalf("no process in %q", src)
	}
	var b strings.Builder
	depth := 0
	Inspect(procs[0].Body, func(n Node) bool {
		if n == nil {
			depth--
			return false
		}
		depth++
		if s, ok := n.(Stmt); ok {
			b.WriteString(strings.Repeat(" ", depth-2))
			b.WriteString(StmtString(s))
			b.WriteByte('\n')
		}
		return true
	})
	return b.String()
}

func TestParseStatements(t *testing.T) {
	cases := []struct{ body, want string }{
		{"x = 1; x++; x--", "x = 1\nx++\nx--\n"},
		{"c!1,2; c?x,_", "c!1, 2\nc?x, _\n"},
		{"c!m(1, 2)", "c!m, 1, 2\n"},
		{"c?m(x, y)", "c?m, x, y\n"},
		{"c??<m, x>", "c??<m, x>\n"},
		{"c?[m] -> c?m", "c?[m]\nc?m\n"},
		{"c??[m] -> c??m", "c??[m]\nc??m\n"},
		{"if :: x > 0 -> x-- :: else -> skip fi", "if\n  x > 0\n  x--\n  else\n  skip\n"},
		{"do :: break od", "do\n  break\n"},
		{"x = (x > 0 -> 1 : 2)", "x = (x > 0 -> 1 : 2)\n"},
		{"x = 1 + 2 * 3 - 4 / 2 % 3", "x = 1 + 2 * 3 - 4 / 2 % 3\n"},
		{"x = (1 + 2) * 3", "x = (1 + 2) * 3\n"},
		{"x = a & b == c", "x = a & b == c\n"},
		{"x = (a & b) == c", "x = (a & b) == c\n"},
		{"x = -x + ~x + !x", "x = -x + ~x + !x\n"},
		{"L: x = 1; goto L", "L: x = 1\n x = 1\ngoto L\n"},
		{"atomic { x = 1; y = 2 } x = 3", "atomic\n  x = 1\n  y = 2\nx = 3\n"},
		{"d_step { x = 1 }", "d_step\n  x = 1\n"},
		{"{ x = 1 } unless { y = 2 }", "{ ... } unless { ... }\n { ... }\n   x = 1\n { ... }\n   y = 2\n"},
		{"assert(x == 1)", "assert(x == 1)\n"},
		{`printf("x=%d\n", x)`, `printf("x=%d\n", x)` + "\n"},
		{"printm(x + 1)", "printm(x + 1)\n"},
		{"select(i : 1 .. 3)", "select(i : 1 .. 3)\n"},
		{"for (i : 1 .. 3) { x++ }", "for (i : 1 .. 3)\n  x++\n"},
		{"for (i in a) { x++ }", "for (i in a)\n  x++\n"},
		{"run P(1, 2)", "run P(1, 2)\n"},
		{"x = len(c) + _pid + _nr_pr", "x = len(c) + _pid + _nr_pr\n"},
		{"timeout -> skip", "timeout\nskip\n"},
		{"full(c) && nempty(c)", "full(c) && nempty(c)\n"},
		{"a[1].f = b.g[2]", "a[1].f = b.g[2]\n"},
		{"x = 1\n y = 2\n", "x = 1\ny = 2\n"},
		{"x = 1\n -> y = 2\n", "x = 1\ny = 2\n"},
		{"xr c; xs d", "xr c\nxs d\n"},
		{"c!!x", "c!!x\n"},
		{"c?eval(x),-1", "c?eval(x), -1\n"},
		{"x = enabled(1) + pc_value(2)", "x = enabled(1) + pc_value(2)\n"},
		{"int y = 2; y = 3", "int y = 2\ny = 3\n"},
		{"L1: L2: skip", "L1: L2: skip\n L2: skip\n  skip\n"},
		{"if :: skip fi; L:", "if\n  skip\nL: skip\n skip\n"},
	}
	for _, c := range cases {
		got := stmts(t, "active proctype P() { "+c.body+" }")
		if got != c.want {
			t.Errorf("%q:\ngot:\n%swant:\n%s", c.body, got, c.want)
		}
	}
}
