package promela

import (
	"testing"
)

// reparse parses the text of an expression again, knowing the proctype
// names of the program it came from.
func reparse(prog *Program, text string, ltl bool) (Expr, error) {
	errs := &ErrorList{}
	opts := Options{}
	pp := newPreprocessor(&opts, errs)
	pp.pushFile("reparse", []byte(text))
	toks := pp.run()
	if err := errs.Err(); err != nil {
		return nil, err
	}
	p := newParser(toks, errs)
	for _, d := range prog.Procs {
		p.procNames[d.Name.Name] = true
	}
	p.ltl, p.props = ltl, true
	var x Expr
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
			}
		}()
		x = p.parseExpr()
		if p.tok.tok != EOF {
			p.errorExpected("end of expression")
		}
	}()
	return x, errs.Err()
}

// checkRoundTrip checks that printing the expressions of prog and parsing
// the text again gives the same expression (the printer puts parentheses
// where precedence needs them).
func checkRoundTrip(t *testing.T, prog *Program) {
	t.Helper()
	check := func(x Expr, ltl bool) {
		text := ExprString(x)
		y, err := reparse(prog, text, ltl)
		if err != nil {
			t.Errorf("%s: %q does not parse again: %v", x.Pos(), text, err)
			return
		}
		if again := ExprString(y); again != text || paren(y) != paren(x) {
			t.Errorf("%s: %q reads back as %q (%s vs %s)", x.Pos(), text, again, paren(x), paren(y))
		}
	}
	for _, d := range prog.LTL {
		check(d.Formula, true)
	}
	for _, d := range prog.Props {
		check(d.X, false)
	}
	Inspect(prog, func(n Node) bool {
		switch n := n.(type) {
		case *LTLDecl, *AtomicPropDecl:
			return false
		case *ExprStmt:
			check(n.X, false)
		case *AssignStmt:
			check(n.RHS, false)
		case *AssertStmt:
			check(n.X, false)
		}
		return true
	})
}

func TestPrinterRoundTrip(t *testing.T) {
	srcs := []string{
		bymcModel,
		bigModel(200),
		`byte x, y; chan c = [2] of { byte };
active proctype P() {
	x = (x > 0 -> (y < 1 -> 2 : 3) : -x);
	x = -(x + 1) * ~y - !x;
	x = x - (y - 1);
	x = x / (y * 2) % 3;
	x = (x | y) & (x ^ y) << 2 >> 1;
	(x == 1) == (y == 2) -> skip;
	c?[x] && nempty(c) || len(c) > 1;
	x = run Q(x + 1)
}
proctype Q(byte v) { skip }
ltl a { [](x == 1 -> <>(y == 2)) && X (x == 0) U !(y == 1) V true }
ltl b { ((x == 1) U (y == 2)) U (x == 3) -> (x == 4 <-> y == 5) }
ltl c { !<>[]!(x > 0) }`,
	}
	for _, src := range srcs {
		checkRoundTrip(t, mustParse(t, src, Options{}))
	}
}
