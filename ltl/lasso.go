package ltl

import "ftmc/internal/graph"

// Lasso is an ultimately periodic word: the valuations Prefix, then Loop
// repeated forever. A valuation has bit i set when proposition i holds
// (numbered as in the atoms list the word is used with). Loop must not be
// empty.
type Lasso struct {
	Prefix, Loop []uint64
}

func (w Lasso) len() int { return len(w.Prefix) + len(w.Loop) }

func (w Lasso) at(i int) uint64 {
	if i < len(w.Prefix) {
		return w.Prefix[i]
	}
	return w.Loop[i-len(w.Prefix)]
}

func (w Lasso) succ(i int) int {
	if i+1 < w.len() {
		return i + 1
	}
	return len(w.Prefix)
}

// Holds reports whether f holds on w, where proposition atoms[i] is bit i of
// the valuations. Atoms of f missing from atoms are false.
func (f *Formula) Holds(w Lasso, atoms []string) bool {
	if len(w.Loop) == 0 {
		panic("ltl: lasso with an empty loop")
	}
	idx := map[string]int{}
	for i, a := range atoms {
		idx[a] = i
	}
	return eval(f, w, idx)[0]
}

// eval returns the truth value of f at every position of w.
func eval(f *Formula, w Lasso, idx map[string]int) []bool {
	n := w.len()
	out := make([]bool, n)
	switch f.Op {
	case OpTrue:
		for i := range out {
			out[i] = true
		}
	case OpFalse:
	case OpAtom:
		b, ok := idx[f.Atom]
		for i := range out {
			out[i] = ok && w.at(i)&(1<<b) != 0
		}
	case OpNot:
		l := eval(f.L, w, idx)
		for i := range out {
			out[i] = !l[i]
		}
	case OpAnd, OpOr, OpImplies, OpEquiv:
		l, r := eval(f.L, w, idx), eval(f.R, w, idx)
		for i := range out {
			switch f.Op {
			case OpAnd:
				out[i] = l[i] && r[i]
			case OpOr:
				out[i] = l[i] || r[i]
			case OpImplies:
				out[i] = !l[i] || r[i]
			case OpEquiv:
				out[i] = l[i] == r[i]
			}
		}
	case OpNext:
		l := eval(f.L, w, idx)
		for i := range out {
			out[i] = l[w.succ(i)]
		}
	case OpAlways:
		return fixpoint(w, eval(&Formula{Op: OpFalse}, w, idx), eval(f.L, w, idx), true)
	case OpEventually:
		return fixpoint(w, eval(&Formula{Op: OpTrue}, w, idx), eval(f.L, w, idx), false)
	case OpUntil:
		return fixpoint(w, eval(f.L, w, idx), eval(f.R, w, idx), false)
	case OpRelease:
		return fixpoint(w, eval(f.L, w, idx), eval(f.R, w, idx), true)
	case OpWeakUntil:
		// a W b = b V (a || b)
		a, b := eval(f.L, w, idx), eval(f.R, w, idx)
		ab := make([]bool, n)
		for i := range ab {
			ab[i] = a[i] || b[i]
		}
		return fixpoint(w, b, ab, true)
	}
	return out
}

// fixpoint computes a U b (release false: the least fixpoint of
// x = b || a && X x) or a V b (release true: the greatest fixpoint of
// x = b && (a || X x)) at every position.
func fixpoint(w Lasso, a, b []bool, release bool) []bool {
	n := w.len()
	x := make([]bool, n)
	for i := range x {
		x[i] = release
	}
	for changed := true; changed; {
		changed = false
		for i := n - 1; i >= 0; i-- {
			var v bool
			if release {
				v = b[i] && (a[i] || x[w.succ(i)])
			} else {
				v = b[i] || a[i] && x[w.succ(i)]
			}
			if v != x[i] {
				x[i] = v
				changed = true
			}
		}
	}
	return x
}

// Accepts reports whether the automaton accepts w; bit i of a valuation is
// a.Atoms[i].
func (a *Automaton) Accepts(w Lasso) bool {
	if len(w.Loop) == 0 {
		panic("ltl: lasso with an empty loop")
	}
	// The product of the word's positions and the automaton's states; look
	// for a reachable cycle through an accepting state (or an End state).
	n, m := w.len(), len(a.States)
	node := func(pos, q int) int { return pos*m + q }
	succ := make([][]int, n*m)
	var buf []int
	for pos := 0; pos < n; pos++ {
		for q := 0; q < m; q++ {
			if a.States[q].End {
				succ[node(pos, q)] = []int{node(w.succ(pos), q)}
				continue
			}
			buf = a.Next(q, w.at(pos), buf[:0])
			for _, q2 := range buf {
				succ[node(pos, q)] = append(succ[node(pos, q)], node(w.succ(pos), q2))
			}
		}
	}
	reach := make([]bool, n*m)
	stack := []int{node(0, a.Init)}
	reach[stack[0]] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range succ[v] {
			if !reach[u] {
				reach[u] = true
				stack = append(stack, u)
			}
		}
	}
	comp := graph.SCC(n*m, succ)
	for v := range succ {
		q := v % m
		if !reach[v] || !(a.States[q].Accepting || a.States[q].End) {
			continue
		}
		for _, u := range succ[v] {
			if comp[u] == comp[v] {
				return true
			}
		}
	}
	return false
}
