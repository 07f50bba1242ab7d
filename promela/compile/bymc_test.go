package compile

import (
	"fmt"
	"strings"
	"testing"

	"ftmc/promela"
)

// compileParams compiles a ByMC model for the parameter values params.
func compileParams(t *testing.T, src string, params map[string]int64) *Model {
	t.Helper()
	return compileWith(t, src, promela.Options{Params: params})
}

// initialValues returns, for each initial state of m, the values Decode
// gives the named variables, joined.
func initialValues(t *testing.T, m *Model, names ...string) []string {
	t.Helper()
	var out []string
	_ = m.Initial(func(s []byte) {
		var vals []string
		for _, v := range m.Decode(s) {
			for _, n := range names {
				if v.Name == n {
					vals = append(vals, n+"="+v.Value)
				}
			}
		}
		out = append(out, strings.Join(vals, " "))
	})
	return out
}

func TestInitialised(t *testing.T) {
	cases := []struct {
		name, body string
		line       int // where the main loop starts
	}{
		{"do loop labelled end", `
	if :: pc = 1 :: pc = 2 fi;
end:
	do :: atomic { pc = 3 - pc } od`, 7},
		{"do loop without a label", `
	if :: pc = 1 :: pc = 2 fi;
	do :: atomic { pc = 3 - pc } od`, 6},
		{"atomic and goto", `
	if :: pc = 1 :: pc = 2 fi;
step:
	atomic { pc = 3 - pc };
	goto step`, 7},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "symbolic int N;\nbyte g;\nactive[N] proctype P() {\n\tbyte pc = 0;" + c.body + "\n}\n"
			m := compileParams(t, src, map[string]int64{"N": 2})
			if got := initialValues(t, m, "P[0]:pc", "P[1]:pc"); len(got) != 1 || got[0] != "P[0]:pc=0 P[1]:pc=0" {
				t.Fatalf("Promela's initial state: %v", got)
			}
			im, err := m.Initialised()
			if err != nil {
				t.Fatal(err)
			}
			got := initialValues(t, im, "P[0]:pc", "P[1]:pc")
			want := []string{"P[0]:pc=1 P[1]:pc=1", "P[0]:pc=1 P[1]:pc=2", "P[0]:pc=2 P[1]:pc=1", "P[0]:pc=2 P[1]:pc=2"}
			if strings.Join(got, "; ") != strings.Join(want, "; ") {
				t.Errorf("initial states %v, want %v", got, want)
			}
			if im.InitialStates() != 4 || !strings.Contains(im.Initialisation(), fmt.Sprintf("P before line %d)", c.line)) {
				t.Errorf("InitialStates %d, Initialisation %q", im.InitialStates(), im.Initialisation())
			}
			// Every process stands at the head of its main loop: from
			// there one step of either process changes its pc.
			_ = im.Initial(func(s []byte) {
				sk := &search{seen: map[string]bool{}}
				im.Fork().Next(s, sk)
				if sk.nsucc != 2 {
					t.Errorf("%d successors of an initial state, want 2 (one step per process)", sk.nsucc)
				}
			})
		})
	}
}

func TestInitialisedNone(t *testing.T) {
	// No statement before the main loop: Promela's initial state.
	src := "symbolic int N;\nactive[N] proctype P() {\n\tbyte pc = 1;\nend:\n\tdo :: atomic { pc = 3 - pc } od\n}\n"
	m := compileParams(t, src, map[string]int64{"N": 2})
	im, err := m.Initialised()
	if err != nil {
		t.Fatal(err)
	}
	if im != m || im.Initialisation() != "" || im.InitialStates() != 1 {
		t.Errorf("a model without initialisation changed: %q, %d initial states", im.Initialisation(), im.InitialStates())
	}
}

func TestInitialisedBlocks(t *testing.T) {
	// One choice blocks: it gives no initial state. When all block, there
	// is none, which is an error.
	src := "symbolic int N;\nbyte g;\nactive[N] proctype P() {\n\tbyte pc = 0;\n\tif :: pc = 1 :: g > 0 -> pc = 2 fi;\nend:\n\tdo :: atomic { pc = 3 - pc } od\n}\n"
	im, err := compileParams(t, src, map[string]int64{"N": 2}).Initialised()
	if err != nil {
		t.Fatal(err)
	}
	if got := initialValues(t, im, "P[0]:pc", "P[1]:pc"); strings.Join(got, "; ") != "P[0]:pc=1 P[1]:pc=1" {
		t.Errorf("initial states %v, want the one where both chose pc = 1", got)
	}
	src = strings.Replace(src, ":: pc = 1 ", "", 1)
	_, err = compileParams(t, src, map[string]int64{"N": 2}).Initialised()
	if err == nil || !strings.Contains(err.Error(), "no initial state: the initialisation of P(0) blocks") {
		t.Errorf("all initialisations block: %v", err)
	}
	src = strings.Replace(src, "g > 0 -> pc = 2", "assert(g > 0)", 1)
	_, err = compileParams(t, src, map[string]int64{"N": 2}).Initialised()
	if err == nil || !strings.Contains(err.Error(), "the initialisation of P(0) fails: assertion") {
		t.Errorf("a failing assertion in an initialisation: %v", err)
	}
}
