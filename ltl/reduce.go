package ltl

import (
	"ftmc/explore"
	"ftmc/state"
)

// Partial-order reduction in the nested depth-first search (Peled;
// Holzmann, Peled and Yannakakis, "On nested depth first search", 1996),
// as Spin does it, for properties without the next-time operator whose
// propositions no safe step changes (the caller's word: Options.Reducer).
//
// A state of the product is expanded with the model steps of one process
// alone, an ample set, when the model says that all of that process's
// steps at its location are safe (state.Reducer: independent of every
// other process's steps, and here invisible to the property), it has one
// at least, and none of the product successors they lead to is on the
// outer search's stack. The last condition, the stack proviso, makes
// every cycle of the reduced product contain a fully expanded state: of
// the states of a cycle, the one the outer search reaches first is still
// on its stack when the search expands the state before it on the cycle
// (every state of the cycle is reached from it), whose step back to it
// then closes a cycle and forbids the ample set. The reduced product then
// has an accepting cycle if and only if the full one has (Peled's
// conditions C0 to C3, the product's automaton reading only invisible
// changes).
//
// The nested search must look for cycles in the same reduced product as
// the outer one: were the inner search to choose ample sets of its own
// (with its own stack, or none), the cycles it finds might not be the
// ones whose existence the outer search's proviso vouches for, and the
// check would be unsound. So the outer search records, for every state it
// expands, which candidate it chose (the rank of the process among those
// Ample lists, which depend on the model state alone; 0 for a full
// expansion), and the inner search, which only expands states that the
// outer search has expanded already (everything reachable from a state it
// has finished), takes the same set again.

// reduction is the search's partial-order reduction.
type reduction struct {
	model  state.Reducer
	cands  []int32
	choice []uint8 // per product state: 0 expanded fully, k the k-th candidate
	ample  int64   // states the outer search expanded with an ample set
}

// reduceTo narrows the model successors of product state i (s.mvec,
// s.mend, s.mtr), whose model state is model, to an ample set when one
// is allowed: in the outer search the first candidate that meets the
// proviso, recorded; in the inner search the one the outer search chose.
func (s *search) reduceTo(i explore.Index, model []byte) {
	r := s.reduce
	if !s.inInner {
		r.choice[i] = 0
	}
	r.cands = r.model.Ample(model, r.cands[:0])
	if len(r.cands) == 0 {
		return
	}
	choice := int(r.choice[i])
	if !s.inInner {
		for k, pid := range r.cands {
			if k >= 254 {
				break
			}
			if s.provisoHolds(pid) {
				choice = k + 1
				break
			}
		}
		if choice == 0 {
			return
		}
		r.choice[i] = uint8(choice)
		r.ample++
	}
	if choice == 0 || choice > len(r.cands) {
		return
	}
	pid := r.cands[choice-1]
	// Keep the successors of pid, in order.
	n, from, w := 0, 0, 0
	for k, end := range s.mend {
		if t := s.mtr[k]; t.Proc == pid {
			w += copy(s.mvec[w:], s.mvec[from:end])
			s.mend[n], s.mtr[n] = w, t
			n++
		}
		from = end
	}
	s.mvec, s.mend, s.mtr = s.mvec[:w], s.mend[:n], s.mtr[:n]
}

// provisoHolds reports whether process pid has a model successor and none
// of the product states its steps lead to (with every move of the claim
// in s.claim) is on the outer stack.
func (s *search) provisoHolds(pid int32) bool {
	n, from := 0, 0
	for k, end := range s.mend {
		next := s.mvec[from:end]
		from = end
		if s.mtr[k].Proc != pid {
			continue
		}
		n++
		for _, q2 := range s.claim {
			v := s.product(next, q2, fairWait)
			j := s.store.Lookup(v, explore.Hash(v))
			if j != explore.NoIndex && int(j) < len(s.flags) && s.flags[j]&fOnStack != 0 {
				return false
			}
		}
	}
	return n > 0
}
