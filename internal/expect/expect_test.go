package expect

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := `/* A model.
 * expect: holds
 */
// ftmc: check -D CHAN=B -D BUF=1
// expect: deadlock
// ftmc: check --ltl relay --param N=4,T=1,F=1
// expect relay: violated (acceptance cycle)
// expect unforg: holds
// expect: slow
(* ftmc: verify all *)
(* expect agreement: holds *)
`
	runs, err := Parse(strings.NewReader(src), "check")
	if err != nil {
		t.Fatal(err)
	}
	want := []Run{
		{Args: []string{"check"}, Overall: &Outcome{"holds", ""}},
		{Line: 4, Args: []string{"check", "-D", "CHAN=B", "-D", "BUF=1"}, Overall: &Outcome{"violated", "invalid end state"}},
		{Line: 6, Args: []string{"check", "--ltl", "relay", "--param", "N=4,T=1,F=1"}, Slow: true, Props: []Prop{
			{Name: "relay", Outcome: Outcome{"violated", "acceptance cycle"}, Line: 7},
			{Name: "unforg", Outcome: Outcome{"holds", ""}, Line: 8},
		}},
		{Line: 10, Args: []string{"verify", "all"}, Props: []Prop{{Name: "agreement", Outcome: Outcome{"holds", ""}, Line: 11}}},
	}
	if !reflect.DeepEqual(runs, want) {
		t.Errorf("got\n%+v\nwant\n%+v", runs, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"// expect: maybe\n",
		"// expect: holds (assertion\n",
		"// ftmc: check\n// nothing\n",
		"// expect: holds\n// expect: violated\n",
	} {
		if _, err := Parse(strings.NewReader(src), "check"); err == nil {
			t.Errorf("Parse(%q): no error", src)
		}
	}
}
