package explore

import (
	"ftmc/state"
	"ftmc/trace"
)

// Partial-order reduction (Holzmann and Peled, as in Spin): in a state
// where some process has only safe transitions at its location (the
// model, a state.Reducer, says which), the search may expand that
// process's enabled transitions alone, an ample set, instead of every
// process's. Deadlocks and assertion violations stay reachable as long as
// no cycle of the reduced graph is made of reduced states only (the
// ignoring problem). The proviso that prevents it depends on the order:
//
//   - breadth-first: every successor in the ample set is new or already
//     in the next level (stored after the current level began), so that a
//     reduced step always goes one level deeper;
//   - depth-first: every successor is new or done (its frame was popped
//     before), so that a reduced step always goes to a state that finishes
//     before the one expanded.
//   - depth-first with lossy storage (lossy.go), whose indices are reused,
//     and on several workers (pdfs.go), each of which sees its own stack
//     only: neither can tell a done state, so every successor must be new
//     (look unvisited), and a reduced step always goes to a state stored
//     after the one expanded. It expands fully more often.
//
// Either way a cycle of reduced steps would go deeper, or finish earlier,
// at every step, which it cannot. When no candidate meets the proviso the
// state is expanded fully. Failing transitions (assertions, run-time
// errors) of every process are reported whichever set is chosen: they are
// real violations of a reachable state.

// reducer is a search's partial-order reduction.
type reducer struct {
	model state.Reducer
	cands []int32
	succs []pending
	data  []byte
	done  column[uint64] // depth-first: a bit per state whose frame was popped
	ample int64          // states expanded with an ample set
}

// pending is a successor held back until the ample set is chosen.
type pending struct {
	proc     int32
	off, len uint32
}

// newReducer returns the reduction for m, or nil when m cannot say which
// transitions are safe.
func newReducer(m state.Model, opts Options) *reducer {
	r, ok := m.(state.Reducer)
	if !opts.Reduce || !ok {
		return nil
	}
	if _, checks := m.(state.Checker); checks {
		// State properties may read what a safe step changes.
		return nil
	}
	return &reducer{model: r}
}

// expandReduced generates the successors of the state in s.scratch, as
// expand does, with an ample set when one meets the proviso.
func (s *search) expandReduced() {
	r := s.reduce
	if !r.gather(s.m, s.scratch, s, &s.holding) {
		return
	}
	for _, pid := range r.cands {
		if s.provisoHolds(pid) {
			r.ample++
			s.release(pid)
			return
		}
	}
	s.release(-1)
}

// gather asks the model for the candidates of v's ample set. Without one
// it passes v's successors to sink and returns false; with some it holds
// them all back (sink's Succ calls hold while *holding is set) for the
// caller to choose from.
func (r *reducer) gather(m state.Model, v []byte, sink state.Sink, holding *bool) bool {
	r.cands = r.model.Ample(v, r.cands[:0])
	if len(r.cands) == 0 {
		m.Next(v, sink)
		return false
	}
	r.succs, r.data = r.succs[:0], r.data[:0]
	*holding = true
	m.Next(v, sink)
	*holding = false
	return true
}

// hold keeps a successor back until the ample set is chosen.
func (r *reducer) hold(t state.Trans, v []byte) {
	r.succs = append(r.succs, pending{proc: t.Proc, off: uint32(len(r.data)), len: uint32(len(v))})
	r.data = append(r.data, v...)
}

// provisoHolds reports whether process pid has a successor and none of
// its successors closes a cycle (see the file's comment).
func (s *search) provisoHolds(pid int32) bool {
	r := s.reduce
	n := 0
	for _, p := range r.succs {
		if p.proc != pid {
			continue
		}
		n++
		v := r.data[p.off : p.off+p.len]
		if s.shared != nil {
			// Other workers' states are neither on this one's stack nor
			// known done: every successor must be new (stored after the
			// state expanded, whoever stores it).
			if s.shared.Lookup(v) != NoIndex {
				return false
			}
			continue
		}
		if l := s.store.lossy; l != nil {
			// Indices are reused: no state is known done, and every
			// successor must be new.
			if l.has(Hash(v)) {
				return false
			}
			continue
		}
		i := s.store.Lookup(v, Hash(v))
		if i == NoIndex {
			continue
		}
		if s.opts.Order == DepthFirst {
			if !r.isDone(i) {
				return false
			}
		} else if int(i) < s.levelEnd {
			return false
		}
	}
	return n > 0
}

// release passes the held successors of process pid (all of them for -1)
// to the batch.
func (s *search) release(pid int32) {
	r := s.reduce
	for _, p := range r.succs {
		if pid < 0 || p.proc == pid {
			s.batch.succ(s.cur, r.data[p.off:p.off+p.len])
		}
	}
}

// reductionStats says in st, when o asked for reduction, whether the
// workers ws of a search reduced (r gives a worker's reduction; they
// reduce all or none) and how many states they expanded with an ample set.
func reductionStats[W any](st *trace.Stats, o Options, ws []W, r func(W) *reducer) {
	if !o.Reduce {
		return
	}
	st.Reduction = "none"
	if !allReduce(ws, r) {
		return
	}
	st.Reduction = "partial-order"
	for _, w := range ws {
		st.AmpleStates += r(w).ample
	}
}

// allReduce reports whether every worker of ws has a reduction (r gives
// it): the workers of a parallel search reduce all or none.
func allReduce[W any](ws []W, r func(W) *reducer) bool {
	for _, w := range ws {
		if r(w) == nil {
			return false
		}
	}
	return true
}

func (r *reducer) isDone(i Index) bool {
	w := int(i >> 6)
	return w < r.done.len() && r.done.at(w)>>(i&63)&1 != 0
}

func (r *reducer) setDone(i Index) {
	w := int(i >> 6)
	for r.done.len() <= w {
		r.done.append(0)
	}
	r.done.set(w, r.done.at(w)|1<<(i&63))
}
