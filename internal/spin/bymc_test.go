package spin

import (
	"context"
	"strings"
	"testing"

	"ftmc/trace"
)

// bymcModel has what ByMC's models write: parameters, assumptions, named
// propositions over several lines with Proc:x in compound arguments, a
// label proposition, card, a fairness block over two lines.
const bymcModel = `symbolic int N, F;
assume(N > F);
int nsnt;
atomic all_init = all(Proc@end);
atomic ex_one = some(Proc:x == 1);
atomic pending = some((Proc:x == 0 || Proc:x == 1) &&
                      Proc:nrcvd < nsnt); /* two lines */
atomic count_inv = (card(Proc:x == 1) == nsnt);
active [N - F] proctype Proc() {
  byte x;
  int nrcvd;
  x = 0;
end:
  do
  :: atomic { x == 0 -> x = 1; nsnt++ }
  :: atomic { nrcvd < nsnt -> nrcvd++ }
  :: atomic { x == 1 && nrcvd == nsnt -> skip }
  od
}
ltl fairness { []<>(!pending &&
                    all_init) }
ltl one { <>(ex_one) }
ltl never_one { [](!ex_one) }
`

func TestByMCInstance(t *testing.T) {
	src, err := ByMCInstance(bymcModel, map[string]int64{"N": 3, "F": 1}, "one")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"#define F 1\n#define N 3\n",
		"#define all_init (((Proc[0]@end) && (Proc[1]@end)))",
		"#define ex_one (((Proc[0]:x == 1) || (Proc[1]:x == 1)))",
		"#define pending ((((Proc[0]:x == 0 || Proc[0]:x == 1) && Proc[0]:nrcvd < nsnt) || ((Proc[1]:x == 0 || Proc[1]:x == 1) && Proc[1]:nrcvd < nsnt)))",
		"#define count_inv ((((Proc[0]:x == 1) + (Proc[1]:x == 1)) == nsnt))",
		"ltl one_fair { ([]<>(!pending && all_init)) -> (<>(ex_one)) }",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the instance lacks %q:\n%s", want, src)
		}
	}
	for _, gone := range []string{"symbolic", "assume(", "ltl never_one", "ltl fairness"} {
		if strings.Contains(src, gone) {
			t.Errorf("the instance still has %q:\n%s", gone, src)
		}
	}

	for _, c := range []struct{ name, src, spec, err string }{
		{"no spec", bymcModel, "relay", "no ltl block relay"},
		{"no process", "int x;\nltl p { []x }\n", "p", "no active proctype"},
		{"bad count", strings.Replace(bymcModel, "N - F", "N / 2", 1), "one", `process count "N/2"`},
		{"unclosed", strings.Replace(bymcModel, "some(Proc:x == 1);", "some(Proc:x == 1;", 1), "one", "without its closing parenthesis"},
	} {
		if _, err := ByMCInstance(c.src, map[string]int64{"N": 3, "F": 1}, c.spec); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: got error %v, want one saying %q", c.name, err, c.err)
		}
	}
}

// TestByMCInstanceSpin runs the instances through Spin: the fair property
// holds, and the one that fails does.
func TestByMCInstanceSpin(t *testing.T) {
	needTools(t)
	t.Parallel()
	for spec, want := range map[string]trace.Verdict{"one": trace.Holds, "never_one": trace.Violated} {
		src, err := ByMCInstance(bymcModel, map[string]int64{"N": 3, "F": 1}, spec)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(context.Background(), write(t, "m.pml", src), Options{
			Mode: Acceptance, Fair: true, LTL: spec + "_fair", CCOpt: "-O0", HashBits: 18,
		})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != want {
			t.Errorf("%s: got %s, want %s\n%s", spec, r, want, src)
		}
	}
}
