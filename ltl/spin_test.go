package ltl

import (
	"fmt"
	"math/rand"
	"os/exec"
	"strings"
	"testing"

	"ftmc/internal/testenv"
)

// sizeFormulas are the formulas whose automata the size test compares with
// Spin's: Etessami and Holzmann's and Somenzi and Bloem's benchmark
// formulas, Dwyer's specification patterns, and the fault-tolerance
// properties of the broadcast benchmarks.
var sizeFormulas = []string{
	"p U q",
	"p U (q U r)",
	"!(p U (q U r))",
	"[]<>p -> []<>q",
	"<>p U []q",
	"[]p U q",
	"!(<><>p <-> <>p)",
	"!([]<>p -> []<>q)",
	"!([]<>p <-> []<>q)",
	"p V (p || q)",
	"[](p -> <>q)",
	"[]<>p && []<>q",
	"<>[]p || <>[]q",
	"!(p U q)",
	"[](p -> (q U r))",
	"<>[]p -> []<>q",
	"[]<>p || <>[]q",
	"[](p -> <>q) && [](q -> <>r)",
	"[](q -> [](!p))",
	"<>r -> (!p U r)",
	"[](q && !r -> (!p U r))",
	"[](q && !r -> (!p W r))",
	"[]!p",
	"<>p",
	"[](!q) || <>(q && <>p)",
	"<>r -> (!q U (p || r))",
	"[](q && !r -> (!r U (p && !r)))",
	"[](p -> <>q) -> []<>r",
	"!([](p -> <>q) -> []<>r)",
	"[]<>p && []<>q && []<>r",
	"[]<>p -> ([]<>q && []<>r)",
	"(p U q) || (q U r)",
	"[]<>(!in_transit) -> [](ex_acc -> <>all_acc)",
	"[]<>(!in_transit) -> []((prec_init && prec_corr) -> <>ex_acc)",
	"[]<>(!in_transit) -> []((prec_init && prec_unforg) -> []!ex_acc)",
	"([]<>(!in_transit) && [](some_ri -> <>no_ri)) -> [](ex_acc -> <>all_acc)",
	"(<>[](!in_transit) && [](some_ri -> <>no_ri)) -> [](ex_acc -> <>all_acc)",
	"!(p W q)",
	"(p W q) W r",
	"[](p -> (q V r))",
	"(p U q) U r",
	"!((p U q) U r)",
	"[](p -> (p U (q || r)))",
	"<>(p && <>(q && <>r))",
	"[](p -> <>(q && <>r))",
	"[]<>p -> []<>(q && r)",
	"[](p || <>q) && <>[]r",
	"<>[](p || q) && []<>r",
	"[](p -> (q U (r U s)))",
	"p V (q V (r V s))",
	"[]<>p && []<>q && []<>r && []<>s",
	"<>[]p || <>[]q || <>[]r",
	"[]((p && <>q) -> (!r U q))",
	"[](p -> []q) || [](r -> []s)",
}

func TestSizesAgainstSpin(t *testing.T) {
	testenv.NeedBinary(t, "spin")
	rng := rand.New(rand.NewSource(7))
	var rows []string
	totalOurs, totalSpin := 0, 0
	larger, moreEdges := 0, 0
	for _, src := range sizeFormulas {
		f, err := Parse(Pos{}, src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		neg := Not(f)
		ours, err := Translate(neg)
		if err != nil {
			t.Fatalf("Translate(!(%s)): %v", src, err)
		}
		out, err := exec.Command("spin", "-f", "!"+spinF(withoutW(f))).CombinedOutput()
		if err != nil {
			t.Fatalf("spin -f '!(%s)': %v\n%s", src, err, out)
		}
		theirs, err := parseSpinNever(string(out))
		if err != nil {
			t.Fatalf("spin -f '!(%s)': %v\n%s", src, err, out)
		}
		// Same language, checked on random lassos over the formula's atoms.
		atoms := neg.Atoms()
		for i := 0; i < 300; i++ {
			w := randLassoN(rng, len(atoms))
			want := neg.Holds(w, atoms)
			if got := ours.Accepts(onto(w, atoms, ours.Atoms)); got != want {
				t.Fatalf("!(%s): ours accepts %v: %v, want %v\n%s", src, w, got, want, ours)
			}
			if got := theirs.Accepts(onto(w, atoms, theirs.Atoms)); got != want {
				t.Fatalf("!(%s): spin's accepts %v: %v, want %v\n%s", src, w, got, want, out)
			}
		}
		os, oe := ours.Size()
		ss, se := theirs.Size()
		for _, st := range theirs.States {
			if st.End {
				se++ // accept_all: skip stands for an accepting true loop, as ftmc writes it
			}
		}
		totalOurs += os
		totalSpin += ss
		mark := ""
		switch {
		case os > ss:
			mark = "  (ftmc: more states)"
			larger++
		case oe > se:
			mark = "  (ftmc: more edges)"
			moreEdges++
		}
		rows = append(rows, fmt.Sprintf("%-72s %3d/%-3d %3d/%-3d%s", "!("+src+")", os, oe, ss, se, mark))
		// The tolerance: never more than twice Spin's states plus one.
		if os > 2*ss+1 {
			t.Errorf("!(%s): ftmc's automaton has %d states, spin's %d\n%s", src, os, ss, ours)
		}
	}
	t.Logf("%-72s %7s %7s\n%s", "formula", "ftmc", "spin", strings.Join(rows, "\n"))
	t.Logf("states in total: ftmc %d, spin %d; ftmc has more states on %d of %d formulas, as many states but more edges (guards split into cubes) on %d",
		totalOurs, totalSpin, larger, len(sizeFormulas), moreEdges)
}

func randLassoN(rng *rand.Rand, atoms int) Lasso {
	var w Lasso
	for i := rng.Intn(4); i > 0; i-- {
		w.Prefix = append(w.Prefix, uint64(rng.Intn(1<<atoms)))
	}
	for i := 1 + rng.Intn(4); i > 0; i-- {
		w.Loop = append(w.Loop, uint64(rng.Intn(1<<atoms)))
	}
	return w
}

// onto renumbers a word's valuations from the atom order from to the order to.
func onto(w Lasso, from, to []string) Lasso {
	pos := map[string]int{}
	for i, a := range from {
		pos[a] = i
	}
	conv := func(v uint64) uint64 {
		var r uint64
		for i, a := range to {
			if j, ok := pos[a]; ok && v&(1<<j) != 0 {
				r |= 1 << i
			}
		}
		return r
	}
	var out Lasso
	for _, v := range w.Prefix {
		out.Prefix = append(out.Prefix, conv(v))
	}
	for _, v := range w.Loop {
		out.Loop = append(out.Loop, conv(v))
	}
	return out
}

// parseSpinNever reads the never claims that `spin -f` prints: labelled
// states with do/if options `:: (guard) -> goto label`, the shortcut
// `:: atomic { (guard) -> assert(...) }` (the claim is violated at once),
// `skip` (accept_all) and `false`.
func parseSpinNever(src string) (*Automaton, error) {
	a := &Automaton{}
	atomIdx := map[string]int{}
	states := map[string]int{}
	state := func(label string) int {
		if i, ok := states[label]; ok {
			return i
		}
		i := len(a.States)
		a.States = append(a.States, State{Name: label})
		states[label] = i
		return i
	}
	cur := -1
	prevLabel := false
	allState := func() int { i := state("accept_all"); a.States[i].End = true; return i }
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "never") || line == "}" ||
			line == "do" || line == "od;" || line == "if" || line == "fi;":
			prevLabel = false
			continue
		case strings.HasSuffix(line, ":") && !strings.Contains(line, " "):
			label := strings.TrimSuffix(line, ":")
			if prevLabel {
				states[label] = cur
			} else {
				cur = state(label)
			}
			if strings.HasPrefix(label, "accept") {
				a.States[cur].Accepting = true
			}
			prevLabel = true
			continue
		}
		prevLabel = false
		if cur < 0 {
			return nil, fmt.Errorf("statement outside a state: %q", line)
		}
		switch {
		case line == "skip":
			a.States[cur].End = true
		case line == "false;":
		case strings.HasPrefix(line, ":: atomic {"):
			body := strings.TrimPrefix(line, ":: atomic {")
			g, _, ok := strings.Cut(body, " -> assert(")
			if !ok {
				return nil, fmt.Errorf("unexpected %q", line)
			}
			cubes, err := guardCubes(g, a, atomIdx)
			if err != nil {
				return nil, err
			}
			to := allState()
			for _, c := range cubes {
				a.States[cur].Edges = append(a.States[cur].Edges, Edge{Guard: c, To: to})
			}
		case strings.HasPrefix(line, "::"):
			g, label, ok := strings.Cut(strings.TrimPrefix(line, "::"), "-> goto ")
			if !ok {
				return nil, fmt.Errorf("unexpected %q", line)
			}
			cubes, err := guardCubes(g, a, atomIdx)
			if err != nil {
				return nil, err
			}
			to := state(strings.TrimSpace(label))
			for _, c := range cubes {
				a.States[cur].Edges = append(a.States[cur].Edges, Edge{Guard: c, To: to})
			}
		default:
			return nil, fmt.Errorf("unexpected %q", line)
		}
	}
	a.Init = states["T0_init"]
	return a, a.Validate()
}

// guardCubes returns a guard in disjunctive normal form.
func guardCubes(src string, a *Automaton, idx map[string]int) ([]Cube, error) {
	f, err := Parse(Pos{}, src)
	if err != nil {
		return nil, err
	}
	var dnf func(f *Formula, neg bool) []Cube
	dnf = func(f *Formula, neg bool) []Cube {
		switch f.Op {
		case OpTrue, OpFalse:
			if (f.Op == OpTrue) != neg {
				return []Cube{{}}
			}
			return nil
		case OpAtom:
			i, ok := idx[f.Atom]
			if !ok {
				i = len(a.Atoms)
				idx[f.Atom] = i
				a.Atoms = append(a.Atoms, f.Atom)
			}
			if neg {
				return []Cube{{Neg: 1 << i}}
			}
			return []Cube{{Pos: 1 << i}}
		case OpNot:
			return dnf(f.L, !neg)
		case OpAnd, OpOr:
			l, r := dnf(f.L, neg), dnf(f.R, neg)
			if (f.Op == OpOr) != neg {
				return append(l, r...)
			}
			var out []Cube
			for _, x := range l {
				for _, y := range r {
					if c, ok := x.and(y); ok {
						out = append(out, c)
					}
				}
			}
			return out
		}
		panic("guard with a temporal operator: " + f.String())
	}
	return dnf(f, false), nil
}

// withoutW rewrites a W b as []a || a U b, since `spin -f` has no W.
func withoutW(f *Formula) *Formula {
	if f == nil {
		return nil
	}
	g := *f
	g.L, g.R = withoutW(f.L), withoutW(f.R)
	if g.Op == OpWeakUntil {
		return Or(Always(g.L), Until(g.L, g.R))
	}
	return &g
}

// spinF prints f fully parenthesised: `spin -f` gives all binary Boolean
// operators one precedence, unlike the ltl blocks of Promela.
func spinF(f *Formula) string {
	switch {
	case f.Op == OpAtom || f.Op == OpTrue || f.Op == OpFalse:
		return "(" + f.String() + ")"
	case f.Op.unary():
		return "(" + f.Op.String() + " " + spinF(f.L) + ")"
	}
	return "(" + spinF(f.L) + " " + f.Op.String() + " " + spinF(f.R) + ")"
}
