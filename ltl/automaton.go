package ltl

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"ftmc/internal/ident"
)

// Automaton is a Büchi automaton over valuations of atomic propositions,
// read as Spin reads a never claim: in state q, the automaton takes an edge
// whose guard holds in the current model state, and a run is accepted when
// it passes accepting states infinitely often. Reaching a state marked End
// accepts at once (a never claim that runs to its closing brace).
type Automaton struct {
	Atoms  []string // the propositions; bit i of a Cube is Atoms[i]
	States []State
	Init   int
}

// State is a state of an Automaton.
type State struct {
	Name      string // for printing (never claims keep their labels)
	Accepting bool
	End       bool // the claim has terminated: every run reaching it is accepted
	Edges     []Edge
}

// Edge is a transition. It is enabled when its Cube holds, or, for an Else
// edge, when no other edge of the state is enabled.
type Edge struct {
	Guard Cube
	Else  bool
	To    int
}

// Cube is a conjunction of literals: the atoms in Pos hold and those in Neg
// do not. The empty cube is true.
type Cube struct{ Pos, Neg uint64 }

// MaxAtoms is the largest number of propositions an automaton can use.
const MaxAtoms = 64

// Holds reports whether c is true under the valuation v (bit i: atom i).
func (c Cube) Holds(v uint64) bool { return v&c.Pos == c.Pos && v&c.Neg == 0 }

// and returns the conjunction of c and d, and false when it is empty.
func (c Cube) and(d Cube) (Cube, bool) {
	r := Cube{c.Pos | d.Pos, c.Neg | d.Neg}
	return r, r.Pos&r.Neg == 0
}

// implies reports whether c is at least as strong as d (d's literals are a
// subset of c's).
func (c Cube) implies(d Cube) bool { return d.Pos&^c.Pos == 0 && d.Neg&^c.Neg == 0 }

func (c Cube) size() int { return bits.OnesCount64(c.Pos) + bits.OnesCount64(c.Neg) }

// format prints c in Promela syntax over the automaton's atoms.
func (c Cube) format(atoms []string) string {
	if c.Pos == 0 && c.Neg == 0 {
		return "(1)"
	}
	var parts []string
	for i := range atoms {
		a := atoms[i]
		if !ident.Valid(a) {
			a = "(" + a + ")"
		}
		if c.Pos&(1<<i) != 0 {
			parts = append(parts, a)
		}
		if c.Neg&(1<<i) != 0 {
			parts = append(parts, "!"+a)
		}
	}
	return "(" + strings.Join(parts, " && ") + ")"
}

// Next returns the states reached from q when the propositions have the
// valuation v.
func (a *Automaton) Next(q int, v uint64, out []int) []int {
	any := false
	for _, e := range a.States[q].Edges {
		if !e.Else && e.Guard.Holds(v) {
			out = append(out, e.To)
			any = true
		}
	}
	if !any {
		for _, e := range a.States[q].Edges {
			if e.Else {
				out = append(out, e.To)
			}
		}
	}
	return out
}

// Size returns the number of states and edges.
func (a *Automaton) Size() (states, edges int) {
	for _, s := range a.States {
		edges += len(s.Edges)
	}
	return len(a.States), edges
}

// String prints a as a Promela never claim, the way `spin -f` does.
func (a *Automaton) String() string {
	var b strings.Builder
	b.WriteString("never {\n")
	order := make([]int, 0, len(a.States))
	order = append(order, a.Init)
	for i := range a.States {
		if i != a.Init {
			order = append(order, i)
		}
	}
	name := func(i int) string { return a.label(i) }
	for _, i := range order {
		s := a.States[i]
		fmt.Fprintf(&b, "%s:\n", name(i))
		if s.End {
			b.WriteString("\tskip\n")
			continue
		}
		if len(s.Edges) == 0 {
			b.WriteString("\tfalse;\n")
			continue
		}
		b.WriteString("\tif\n")
		for _, e := range s.Edges {
			g := e.Guard.format(a.Atoms)
			if e.Else {
				g = "else"
			}
			fmt.Fprintf(&b, "\t:: %s -> goto %s\n", g, name(e.To))
		}
		b.WriteString("\tfi;\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func (a *Automaton) label(i int) string {
	s := a.States[i]
	if s.Name != "" {
		return s.Name
	}
	prefix := "T0_"
	if s.Accepting {
		prefix = "accept_"
	}
	if i == a.Init {
		return prefix + "init"
	}
	return fmt.Sprintf("%sS%d", prefix, i)
}

// Validate checks that a is well formed.
func (a *Automaton) Validate() error {
	if len(a.Atoms) > MaxAtoms {
		return fmt.Errorf("automaton has %d propositions; at most %d are supported", len(a.Atoms), MaxAtoms)
	}
	if a.Init < 0 || a.Init >= len(a.States) {
		return fmt.Errorf("automaton: initial state %d out of range", a.Init)
	}
	for i, s := range a.States {
		for _, e := range s.Edges {
			if e.To < 0 || e.To >= len(a.States) {
				return fmt.Errorf("automaton: state %d has an edge to %d, out of range", i, e.To)
			}
		}
	}
	return nil
}

// sortEdges puts each state's edges in a canonical order.
func (a *Automaton) sortEdges() {
	for i := range a.States {
		es := a.States[i].Edges
		sort.Slice(es, func(x, y int) bool {
			if es[x].Else != es[y].Else {
				return !es[x].Else
			}
			if es[x].To != es[y].To {
				return es[x].To < es[y].To
			}
			if es[x].Guard.Pos != es[y].Guard.Pos {
				return es[x].Guard.Pos < es[y].Guard.Pos
			}
			return es[x].Guard.Neg < es[y].Guard.Neg
		})
	}
}
