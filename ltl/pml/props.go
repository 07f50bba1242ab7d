package pml

import (
	"fmt"
	"sort"
	"strings"

	"ftmc/ltl"
	"ftmc/promela"
	"ftmc/promela/compile"
	"ftmc/state"
)

// Model is what the LTL checks need from a compiled Promela model: the
// model itself, and a predicate for each atomic proposition. The Promela
// compiler (package promela/compile) provides it.
//
// Predicate compiles an expression in the scope of a never claim or an ltl
// formula: global variables, remote references P[i]@label and P[i]:x,
// channel tests such as len(c), and ByMC's named atomic propositions.
//
// For the non-progress search (--non-progress) the model also implements
// ltl.ProgressLabels: AtProgress(s) tells whether some process is at a
// progress label in s.
type Model interface {
	state.Model
	Predicate(x promela.Expr) (func(s []byte) bool, error)
}

// Property is one LTL property of a model, ready for ltl.Check.
type Property struct {
	Name string
	// Text is the property as checked, in Spin's syntax (with its
	// assumptions), or "never claim NAME".
	Text string
	// Pos is where the ltl block or never claim is.
	Pos promela.Pos
	// Automaton accepts the runs that violate the property: the
	// translation of its negation, or the never claim.
	Automaton *ltl.Automaton
	// Atoms are the predicates of Automaton.Atoms.
	Atoms []ltl.Predicate
	// exprs are the atoms' expressions, by name: CheckProperty compiles
	// them again for each worker of a parallel search (ltl.Options.ForkAtoms).
	exprs Atoms
	// Reducer is the partial-order reduction the property allows
	// (ltl.Options.Reducer), or nil: a formula without the next-time
	// operator whose propositions the model's safe steps cannot change
	// (compile.Model.Invisible). A never claim gets none: nothing says
	// that it cannot tell the order of independent steps.
	Reducer state.Reducer
	// Merge says that the property allows statement merging
	// (compile.Model.SetMerge): a formula without the next-time operator
	// whose propositions read global variables, constants and global
	// channels alone (compile.MergeInvisible). A merged step runs, after
	// its first statement, only statements that read and write their
	// process's own variables, so the states it skips have the
	// propositions' values of the state it ends in, and the run without
	// them is a stuttering of the run with them. A never claim gets none,
	// as for Reducer.
	Merge bool
}

// invisible is the model's offer of a reduction invisible to some
// expressions (compile.Model).
type invisible interface {
	Invisible(xs []promela.Expr, progress bool) state.Reducer
}

// reducerFor returns the reduction for a formula f with the atoms of a
// (expressions in atoms), or nil.
func reducerFor(m Model, f *ltl.Formula, a *ltl.Automaton, atoms Atoms) state.Reducer {
	inv, ok := m.(invisible)
	if !ok {
		return nil
	}
	xs, ok := stutterAtoms(f, a, atoms)
	if !ok {
		return nil
	}
	return inv.Invisible(xs, false)
}

// mergesFor reports whether statement merging is invisible to a formula f
// with the atoms of a (Property.Merge).
func mergesFor(f *ltl.Formula, a *ltl.Automaton, atoms Atoms) bool {
	xs, ok := stutterAtoms(f, a, atoms)
	return ok && compile.MergeInvisible(xs)
}

// stutterAtoms returns the expressions of the atoms of a, and whether f
// has no next-time operator and every atom is an expression of atoms.
func stutterAtoms(f *ltl.Formula, a *ltl.Automaton, atoms Atoms) ([]promela.Expr, bool) {
	if hasNext(f) {
		return nil, false
	}
	xs := make([]promela.Expr, 0, len(a.Atoms))
	for _, name := range a.Atoms {
		x, ok := atoms[name]
		if !ok {
			return nil, false
		}
		xs = append(xs, x)
	}
	return xs, true
}

// hasNext reports whether f uses the next-time operator.
func hasNext(f *ltl.Formula) bool {
	if f == nil {
		return false
	}
	return f.Op == ltl.OpNext || hasNext(f.L) || hasNext(f.R)
}

// Selection says which properties to check.
type Selection struct {
	// Name, if set, is the one ltl block (or never claim) to check.
	// Otherwise every ltl block and never claim is checked, in order,
	// except the assumptions.
	Name string
	// Assume names ltl blocks that are assumptions: each property φ is
	// checked as (A1 && A2 && ...) -> φ (ByMC's fairness block).
	Assume []string
	// ByMC selects ByMC's reading of the properties of a parametric
	// model: the ltl blocks whose names begin with "fairness" are
	// fairness constraints, never properties of their own unless Name
	// names one; and the assumptions are not added to a safety property,
	// p -> []q, []q or p || []q with p and q without temporal operators,
	// which ByMC checks as the reachability of a bad state.
	ByMC bool
}

// IsFairness reports whether ByMC reads the ltl block name as a fairness
// constraint: its name begins with "fairness" (fairness, fairness2).
func IsFairness(name string) bool { return strings.HasPrefix(name, "fairness") }

// FairnessNames returns the ltl blocks of prog that ByMC reads as fairness
// constraints, in order.
func FairnessNames(prog *promela.Program) []string {
	var out []string
	for _, n := range Names(prog) {
		if IsFairness(n) {
			out = append(out, n)
		}
	}
	return out
}

// SafetyShape reports whether f has one of the shapes that ByMC checks as
// safety, without fairness: p -> []q, []q, or p || []q, where p and q have
// no temporal operator.
func SafetyShape(f *ltl.Formula) bool {
	switch f.Op {
	case ltl.OpImplies, ltl.OpOr:
		return propositional(f.L) && f.R.Op == ltl.OpAlways && propositional(f.R.L)
	case ltl.OpAlways:
		return propositional(f.L)
	}
	return false
}

// propositional reports whether f has no temporal operator.
func propositional(f *ltl.Formula) bool {
	if f == nil {
		return true
	}
	switch f.Op {
	case ltl.OpNext, ltl.OpAlways, ltl.OpEventually, ltl.OpUntil, ltl.OpWeakUntil, ltl.OpRelease:
		return false
	}
	return propositional(f.L) && propositional(f.R)
}

// Properties returns the properties of prog that sel selects, with their
// automata and predicates compiled for m.
func Properties(prog *promela.Program, m Model, sel Selection) ([]Property, error) {
	names := Names(prog)
	byName := map[string]*promela.LTLDecl{}
	for i, d := range prog.LTL {
		byName[names[i]] = d
	}
	claims := map[string]*promela.ProcDecl{}
	for _, d := range prog.Nevers {
		claims[ClaimName(d)] = d
	}
	available := func() string {
		var all []string
		for n := range byName {
			all = append(all, n)
		}
		for n := range claims {
			all = append(all, n)
		}
		sort.Strings(all)
		if len(all) == 0 {
			return "the model has no ltl block and no never claim"
		}
		return "the model has " + strings.Join(all, ", ")
	}

	// The assumptions, as one formula.
	var assume *ltl.Formula
	assumeAtoms := Atoms{}
	assumed := map[string]bool{}
	for _, a := range sel.Assume {
		d, ok := byName[a]
		if !ok {
			return nil, fmt.Errorf("--assume %s: no ltl block %s (%s)", a, a, available())
		}
		f, atoms, err := Formula(d.Formula)
		if err != nil {
			return nil, err
		}
		for k, v := range atoms {
			assumeAtoms[k] = v
		}
		assumed[a] = true
		if assume == nil {
			assume = f
		} else {
			assume = ltl.And(assume, f)
		}
	}

	var out []Property
	addLTL := func(name string, d *promela.LTLDecl) error {
		f, atoms, err := Formula(d.Formula)
		if err != nil {
			return err
		}
		for k, v := range assumeAtoms {
			atoms[k] = v
		}
		if assume != nil && !(sel.ByMC && SafetyShape(f)) {
			f = ltl.Implies(assume, f)
		}
		a, err := ltl.Translate(ltl.Not(f))
		if err != nil {
			return &Error{Pos: d.LTL, Msg: fmt.Sprintf("ltl %s: %v", name, err)}
		}
		preds, err := predicates(m, a.Atoms, atoms)
		if err != nil {
			return err
		}
		out = append(out, Property{Name: name, Text: f.String(), Pos: d.LTL, Automaton: a, Atoms: preds, exprs: atoms, Reducer: reducerFor(m, f, a, atoms), Merge: mergesFor(f, a, atoms)})
		return nil
	}
	addClaim := func(name string, d *promela.ProcDecl) error {
		if assume != nil {
			return fmt.Errorf("--assume applies to ltl formulas, not to the never claim %s", name)
		}
		a, atoms, err := Claim(d)
		if err != nil {
			return err
		}
		preds, err := predicates(m, a.Atoms, atoms)
		if err != nil {
			return err
		}
		out = append(out, Property{Name: name, Text: "never claim " + name, Pos: d.Pos(), Automaton: a, Atoms: preds, exprs: atoms})
		return nil
	}

	if sel.Name != "" {
		if d, ok := byName[sel.Name]; ok {
			return out, addLTL(sel.Name, d)
		}
		if d, ok := claims[sel.Name]; ok {
			return out, addClaim(sel.Name, d)
		}
		return nil, fmt.Errorf("--ltl %s: no such property (%s)", sel.Name, available())
	}
	for i, d := range prog.LTL {
		if assumed[names[i]] || sel.ByMC && IsFairness(names[i]) {
			continue
		}
		if err := addLTL(names[i], d); err != nil {
			return nil, err
		}
	}
	for _, d := range prog.Nevers {
		if err := addClaim(ClaimName(d), d); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// predicates compiles the atoms of an automaton.
func predicates(m Model, names []string, atoms Atoms) ([]ltl.Predicate, error) {
	preds := make([]ltl.Predicate, len(names))
	for i, name := range names {
		x, ok := atoms[name]
		if !ok {
			return nil, fmt.Errorf("ltl: no expression for the proposition %s", name)
		}
		p, err := m.Predicate(x)
		if err != nil {
			return nil, err
		}
		preds[i] = p
	}
	return preds, nil
}
