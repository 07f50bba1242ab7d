package backreach

import "fmt"

// noRun returns why no instance of the system has an initial state ("" when
// some may have one). Without one the backward search meets no initial
// state and ends with holds, which would say nothing; the verdict is
// unknown with this reason instead.
//
// Instances have at least one process (a run found backwards is replayed on
// one with at least one). The initial formula constrains every tuple of
// processes, repetitions included, so an initial state of n processes
// restricted to any one of them is an initial state of one process: when
// one process has none, no number of processes has one. The same holds for
// the system axioms, which the proof assumes to be invariants: they
// constrain distinct processes, and those with at most one variable
// constrain each process alone. So three questions on one process decide
// it: do the initial formula, the axioms, and both together have a state?
func (e *engine) noRun() (string, error) {
	// The initial formula alone, within the declared domains (the unit
	// axioms are asked about below): literals are simplified against the
	// domains, so it is instantiated apart from the search's.
	narrowed := e.voc.doms
	e.voc.doms = e.declared
	init, err := e.initDNF(1)
	initial := err == nil && e.satisfiable(init)
	delete(e.initCache, 1)
	e.voc.doms = narrowed
	if err != nil {
		return "", err
	}
	if !initial {
		at := ""
		if e.sys.Init != nil {
			at = fmt.Sprintf(" (%s:%s)", e.sys.Name, e.sys.Init.Pos)
		}
		return "no initial state: the initial formula" + at + " has no state of one process, and so none of any number (it holds of every process), so nothing was checked", nil
	}
	axioms := dTrue
	for _, q := range e.sys.Axioms {
		pq, err := compileQuant(q)
		if err != nil {
			return "", fmt.Errorf("system axiom: %v", err)
		}
		if pq.k > 1 {
			continue // no two distinct processes among one
		}
		d, err := e.voc.instForm(pq.body, make([]int, pq.k+2), false)
		if err == nil {
			axioms, err = and(axioms, d)
		}
		if err != nil {
			return "", nil // too large to decide here: no claim
		}
		if !e.satisfiable(axioms) {
			return fmt.Sprintf("the system axioms contradict each other: no state of one process satisfies those up to the one at %s:%s, and the proof assumes them invariant, so nothing was checked", e.sys.Name, q.Pos), nil
		}
	}
	init, err = e.initDNF(1)
	if err != nil {
		return "", err
	}
	both, err := and(init, axioms)
	if err != nil {
		return "", nil
	}
	if !e.satisfiable(both) {
		return "no initial state satisfies the system axioms, which the proof assumes to hold in every reachable state, so nothing was checked", nil
	}
	return "", nil
}

// satisfiable reports whether some state of one process satisfies d, within
// the variables' domains; a case the local solver leaves undecided counts
// as satisfiable.
func (e *engine) satisfiable(d dnf) bool {
	for _, conj := range d {
		c, ok := e.voc.normalize(1, conj)
		if !ok {
			continue
		}
		e.stats.LocalChecks++
		if st, _ := e.solver.check(c.lits, false); st != unsat {
			return true
		}
	}
	return false
}
