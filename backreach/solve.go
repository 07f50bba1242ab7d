package backreach

import (
	stdcmp "cmp"
	"slices"
)

// A decision procedure for conjunctions of literals: integer difference
// constraints (Bellman-Ford on the constraint graph) with disequalities
// decided by case splits (x != y + c becomes x < y + c or x > y + c) when
// the current solution violates one. Cubes have a few dozen atoms, so this
// answers in microseconds what would cost a round trip to an SMT solver.

type status uint8

const (
	unsat status = iota
	sat
	undecided // the case-split budget ran out
)

type edge struct {
	from, to int
	w        int64 // val(to) - val(from) <= w
}

type diseq struct {
	x, y int // node indices; y may be the zero node
	c    int64
}

// solver holds scratch space; it is not safe for concurrent use.
type solver struct {
	voc    *vocabulary
	nodes  []atom // node 0 is the zero node
	index  map[atom]int
	edges  []edge
	diseqs []diseq
	budget int
	calls  int64
	// The base edges leaving each node (out[start[i]:start[i+1]]), and
	// the scratch space of relaxFrom.
	start  []int32
	out    []int32
	queue  []int32
	queued []bool
}

func newSolver(voc *vocabulary) *solver {
	return &solver{voc: voc, index: map[atom]int{}}
}

func (s *solver) node(a atom) int {
	if i, ok := s.index[a]; ok {
		return i
	}
	i := len(s.nodes)
	s.nodes = append(s.nodes, a)
	s.index[a] = i
	d := s.voc.dom(a)
	if d.lo > -inf {
		s.edges = append(s.edges, edge{i, 0, -d.lo})
	}
	if d.hi < inf {
		s.edges = append(s.edges, edge{0, i, d.hi})
	}
	return i
}

// load builds the constraint graph of lits.
func (s *solver) load(lits []lit) {
	s.nodes = append(s.nodes[:0], 0)
	clear(s.index)
	s.edges = s.edges[:0]
	s.diseqs = s.diseqs[:0]
	for _, l := range lits {
		x := s.node(l.x)
		y := 0
		if l.y != 0 {
			y = s.node(l.y)
		}
		switch l.op {
		case opEq:
			s.edges = append(s.edges, edge{y, x, l.c}, edge{x, y, -l.c})
		case opNe:
			s.diseqs = append(s.diseqs, diseq{x, y, l.c})
		case opLe:
			s.edges = append(s.edges, edge{y, x, l.c})
		case opGe:
			s.edges = append(s.edges, edge{x, 0, -l.c})
		}
	}
	// Identifiers of distinct process variables differ.
	var procs []int
	for i, a := range s.nodes {
		if i > 0 && a.isProc() {
			procs = append(procs, i)
		}
	}
	for i := range procs {
		for j := i + 1; j < len(procs); j++ {
			s.diseqs = append(s.diseqs, diseq{procs[i], procs[j], 0})
		}
	}
}

// relax runs Bellman-Ford from the potential dist (which satisfies every
// edge but possibly the last ones added); false means a negative cycle.
func (s *solver) relax(dist []int64, edges []edge) bool {
	n := len(dist)
	for pass := 0; pass <= n; pass++ {
		changed := false
		for _, e := range edges {
			if d := dist[e.from] + e.w; d < dist[e.to] {
				dist[e.to] = d
				changed = true
			}
		}
		if !changed {
			return true
		}
	}
	return false
}

// adjacency lists the edges leaving each node, for relaxFrom.
func (s *solver) adjacency() {
	n := len(s.nodes)
	s.start = append(s.start[:0], make([]int32, n+1)...)
	for _, e := range s.edges {
		s.start[e.from+1]++
	}
	for i := 0; i < n; i++ {
		s.start[i+1] += s.start[i]
	}
	s.out = append(s.out[:0], make([]int32, len(s.edges))...)
	next := append([]int32(nil), s.start[:n]...)
	for k, e := range s.edges {
		s.out[next[e.from]] = int32(k)
		next[e.from]++
	}
	if cap(s.queued) < n {
		s.queued = make([]bool, n)
	}
	s.queued = s.queued[:n]
}

// relaxFrom restores the potential dist, which satisfies every edge but
// the last one of edges (a case split's new edge): only the nodes whose
// distance the new edge lowers are visited, through the adjacency lists
// for the base edges and by a scan of the few edges earlier splits pushed.
// It reaches the potential that relax would, without relax's passes over
// every edge. A negative cycle must use the new edge, so it shows as soon
// as the new edge's source would be lowered: false.
func (s *solver) relaxFrom(dist []int64, edges []edge) bool {
	e := edges[len(edges)-1]
	d := dist[e.from] + e.w
	if d >= dist[e.to] {
		return true
	}
	if e.from == e.to {
		return false
	}
	dist[e.to] = d
	base := len(s.edges)
	q := append(s.queue[:0], int32(e.to))
	s.queued[e.to] = true
	ok := true
	for head := 0; head < len(q) && ok; head++ {
		u := q[head]
		s.queued[u] = false
		visit := func(f edge) {
			if nd := dist[u] + f.w; nd < dist[f.to] {
				if f.to == e.from {
					ok = false
					return
				}
				dist[f.to] = nd
				if !s.queued[f.to] {
					s.queued[f.to] = true
					q = append(q, int32(f.to))
				}
			}
		}
		for _, k := range s.out[s.start[u]:s.start[u+1]] {
			if visit(s.edges[k]); !ok {
				break
			}
		}
		for _, f := range edges[base : len(edges)-1] {
			if f.from == int(u) && ok {
				visit(f)
			}
		}
	}
	for _, u := range q {
		s.queued[u] = false
	}
	s.queue = q
	return ok
}

// check decides the conjunction of lits. With model set, it returns the
// value of every atom of a solution.
func (s *solver) check(lits []lit, model bool) (status, map[atom]int64) {
	s.calls++
	s.load(lits)
	dist := make([]int64, len(s.nodes))
	if !s.relax(dist, s.edges) {
		return unsat, nil
	}
	s.budget = 256
	s.adjacency()
	// split pushes the edges of its branches on this copy as on a stack.
	edges := make([]edge, len(s.edges), len(s.edges)+16)
	copy(edges, s.edges)
	st, sol := s.split(dist, edges)
	if st != sat || !model {
		return st, nil
	}
	m := make(map[atom]int64, len(s.nodes)-1)
	for i, a := range s.nodes {
		if i > 0 {
			m[a] = sol[i] - sol[0]
		}
	}
	return sat, m
}

// split looks for a disequality the solution violates and branches on it.
func (s *solver) split(dist []int64, edges []edge) (status, []int64) {
	for _, q := range s.diseqs {
		if dist[q.x]-dist[0] != dist[q.y]-dist[0]+q.c {
			continue
		}
		if s.budget--; s.budget < 0 {
			return undecided, nil
		}
		// x - y <= c - 1, or y - x <= -c - 1.
		result := unsat
		for _, e := range [2]edge{{q.y, q.x, q.c - 1}, {q.x, q.y, -q.c - 1}} {
			d := append([]int64(nil), dist...)
			// The branch's edges extend edges in place: deeper branches
			// write beyond them only, and nothing keeps them afterwards.
			es := append(edges, e)
			if !s.relaxFrom(d, es) {
				continue
			}
			st, sol := s.split(d, es)
			if st == sat {
				return sat, sol
			}
			if st == undecided {
				result = undecided
			}
		}
		return result, nil
	}
	return sat, dist
}

// bounds returns the atoms of a satisfiable conjunction, sorted, and the
// tightest bounds its difference constraints imply on each (disequalities
// aside).
func (s *solver) bounds(lits []lit) ([]atom, []domain) {
	s.load(lits)
	n := len(s.nodes)
	up := make([]int64, n)   // shortest path from zero: upper bounds
	down := make([]int64, n) // shortest path to zero: minus lower bounds
	for i := range up {
		up[i], down[i] = inf, inf
	}
	up[0], down[0] = 0, 0
	for pass := 0; pass < n; pass++ {
		changed := false
		for _, e := range s.edges {
			if up[e.from] < inf {
				if d := up[e.from] + e.w; d < up[e.to] {
					up[e.to], changed = d, true
				}
			}
			if down[e.to] < inf {
				if d := down[e.to] + e.w; d < down[e.from] {
					down[e.from], changed = d, true
				}
			}
		}
		if !changed {
			break
		}
	}
	order := make([]int, 0, n-1)
	for i := 1; i < n; i++ {
		order = append(order, i)
	}
	slices.SortFunc(order, func(a, b int) int { return stdcmp.Compare(s.nodes[a], s.nodes[b]) })
	atoms := make([]atom, len(order))
	doms := make([]domain, len(order))
	for k, i := range order {
		d := domain{-inf, inf}
		if up[i] < inf {
			d.hi = up[i]
		}
		if down[i] < inf {
			d.lo = -down[i]
		}
		atoms[k], doms[k] = s.nodes[i], d
	}
	return atoms, doms
}
